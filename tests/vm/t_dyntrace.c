/* VM checks of the dynamic-tracing tools on kernel functions, where the
 * VM kernels have them (fentry; kprobes in the .fallback run, which
 * disables fentry) and on the syscall events (one raw_syscalls program
 * per direction with tail calls by syscall number).  Ground truth: a
 * child reads a file with pread() exactly N times (N vfs_read() calls),
 * or opens a uniquely named path.  Every tool must also exit within the
 * driver's bound after SIGINT (tool_stop), many probes or not. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm.h"

#define READS_N 40

/* a result with the check's duration (the VM's time budget is shared) */
static uint64_t t0;
#define RESULT(test, ok, fmt, ...) \
	result(test, ok, fmt " (%.1f s)", ##__VA_ARGS__, (double)(now_ms() - t0) / 1000.0)

static void pread_n_times(void)
{
	char buf[16];
	int fd = open(self, O_RDONLY | O_CLOEXEC);

	for (int i = 0; i < READS_N && fd >= 0; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

/* The count in funccount's "NAME   COUNT" row (0 if none). */
static unsigned long long row_count(const char *name)
{
	char needle[128];
	unsigned long long c = 0;
	const char *s;

	snprintf(needle, sizeof(needle), "\n%s ", name);
	if ((s = strstr(out, needle)))
		sscanf(s + strlen(needle), "%llu", &c);
	return c;
}

/* funccount 'vfs_*': every matched function probed (fentry or kprobes),
 * vfs_read counted exactly. */
static void test_funccount_vfs(const char *test, const char *disable)
{
	char pidarg[16], pat[] = "vfs_*", *argv[] = { "corebox", "funccount", "-p", pidarg, pat, NULL };
	unsigned nfunc = 0;
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Tracing", pread_n_times, &child)) == -1)
		return;
	sscanf(strstr(out, "Tracing ") ? strstr(out, "Tracing ") + 8 : "0", "%u", &nfunc);
	RESULT(test, row_count("vfs_read") == READS_N && nfunc > 5 && rc == 0,
	       "'vfs_*' (%u functions) -p %d: vfs_read %llu (made %d); exit %d", nfunc, (int)child,
	       row_count("vfs_read"), READS_N, rc);
	if (!last_ok)
		dump_output(test);
}

/* Syscall events through the raw_syscalls dispatcher (tail calls by
 * syscall number) on this kernel; a few of them (all 360 cost the VM
 * half a minute of program loads under emulation: e2e does them all). */
static void test_funccount_syscalls(const char *test, const char *disable)
{
	char pidarg[16], re[] = "-r", pat[] = "t:syscalls:sys_enter_(pread64|open|openat|close)$";
	char *argv[] = { "corebox", "funccount", re, "-p", pidarg, pat, NULL };
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Tracing", pread_n_times, &child)) == -1)
		return;
	/* open(): SYS_open where the architecture has it (musl), else openat */
	unsigned long long opens = row_count("syscalls:sys_enter_open") + row_count("syscalls:sys_enter_openat");

	RESULT(test, row_count("syscalls:sys_enter_pread64") == READS_N && opens == 1 && rc == 0,
	       "'%s' -p %d: pread64 %llu (made %d), open/openat %llu (made 1); exit %d", pat, (int)child,
	       row_count("syscalls:sys_enter_pread64"), READS_N, opens, rc);
	if (!last_ok)
		dump_output(test);
}

static char open_path[64];

static void open_unique(void)
{
	char path[64]; /* on this stack: its page is there for probe_read_user */
	int fd;

	snprintf(path, sizeof(path), "%s", open_path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
}

/* trace 'do_sys_openat2 "%s", arg2': the path the child opened. */
static void test_trace_openat2(const char *test, const char *disable)
{
	char pidarg[16], probe[] = "do_sys_openat2 \"path=%s\", arg2", want[96];
	char *argv[] = { "corebox", "trace", "-p", pidarg, probe, NULL };
	int rc;
	pid_t child;

	snprintf(open_path, sizeof(open_path), "/cbxvm_openat2_%d_%llu", (int)getpid(), (unsigned long long)now_ms());
	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "PID", open_unique, &child)) == -1)
		return;
	snprintf(want, sizeof(want), " do_sys_openat2   path=%s\n", open_path);
	RESULT(test, lines_with(want) == 1 && rc == 0, "-p %d: %d line(s) 'do_sys_openat2 path=%s'; exit %d",
	       (int)child, lines_with(want), open_path, rc);
	if (!last_ok)
		dump_output(test);
}

/* stackcount -j -K vfs_read: the kernel stacks begin at vfs_read (the BPF
 * program's and trampoline's frames left out), come from pread64 and add
 * up to N. */
static void test_stackcount_kfunc(const char *test, const char *disable)
{
	char pidarg[16], fn[] = "vfs_read", *argv[] = { "corebox", "stackcount", "-j", "-K", "-p", pidarg, fn, NULL };
	unsigned long long total = 0, other = 0;
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Tracing", pread_n_times, &child)) == -1)
		return;
	/* {"comm":..,"pid":..,"kernel":[frames],"count":N,"folded":..} */
	for (char *k = out; (k = strstr(k, "\"kernel\":[")); k++) {
		char *end = strchr(k, ']'), *c = strstr(k, "\"count\":");
		unsigned long long n = 0;

		if (!end || !c || sscanf(c + 8, "%llu", &n) != 1)
			break;
		if (!strncmp(k + 10, "\"vfs_read\"", 10) && memmem(k, (size_t)(end - k), "pread64", 7))
			total += n;
		else
			other += n;
	}
	RESULT(test, total == READS_N && !other && rc == 0,
	       "-K -p %d: stacks vfs_read<-...pread64 add up to %llu (made %d), %llu others; exit %d", (int)child,
	       total, READS_N, other, rc);
	if (!last_ok)
		dump_output(test);
}

/* funclatency vfs_read: entry and return paired, N calls timed. */
static void test_funclatency_kfunc(const char *test, const char *disable)
{
	char pidarg[16], fn[] = "vfs_read", *argv[] = { "corebox", "funclatency", "-p", pidarg, fn, NULL };
	unsigned long long count = 0;
	const char *s;
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Tracing", pread_n_times, &child)) == -1)
		return;
	if ((s = strstr(out, "count: ")))
		sscanf(s + 7, "%llu", &count);
	RESULT(test, count == READS_N && strstr(out, "nsecs") && rc == 0,
	       "-p %d: %llu calls timed (made %d); exit %d", (int)child, count, READS_N, rc);
	if (!last_ok)
		dump_output(test);
}

/* bpftrace's kprobe one-liners (the book's kprobe:vfs_*): entry and
 * return of vfs_read in the child (pid == $1), counted exactly, with
 * func; fentry/fexit, or kprobes in the .fallback run. */
static void test_bpftrace_kprobe(const char *test, const char *disable)
{
	char pidarg[16], e[] = "-e",
		prog[] = "kprobe:vfs_read /pid == $1/ { @[func] = count(); } kretprobe:vfs_read /pid == $1/ { @r = count(); }";
	char *argv[] = { "corebox", "bpftrace", e, prog, pidarg, NULL };
	char want[64], wantr[64];
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Attaching", pread_n_times, &child)) == -1)
		return;
	snprintf(want, sizeof(want), "\n@[vfs_read]: %d\n", READS_N);
	snprintf(wantr, sizeof(wantr), "\n@r: %d\n", READS_N);
	RESULT(test, strstr(out, want) && strstr(out, wantr) && strstr(out, "Attaching 2 probes...") && rc == 0,
	       "kprobe/kretprobe:vfs_read pid %d: %d reads counted at entry and return; exit %d", (int)child,
	       READS_N, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("funccount.vfs", test_funccount_vfs);
VM_TEST("bpftrace.kprobe", test_bpftrace_kprobe);

/* kfunc:vfs_read's args->count by name (BTF), hist of the child's reads
 * of 16 bytes: READS_N in [16, 32). */
static void test_bpftrace_kfunc(const char *test, const char *disable)
{
	char pidarg[16], e[] = "-e", prog[] = "kfunc:vfs_read /pid == $1/ { @ = hist(args->count); }";
	char *argv[] = { "corebox", "bpftrace", e, prog, pidarg, NULL };
	char want[64];
	int rc;
	pid_t child;

	t0 = now_ms();
	if ((rc = run_with_child(test, argv, pidarg, disable, "Attaching", pread_n_times, &child)) == -1)
		return;
	snprintf(want, sizeof(want), "\n[16, 32)              %d |", READS_N);
	RESULT(test, strstr(out, want) && rc == 0, "kfunc:vfs_read args->count pid %d: %d reads of 16 bytes; exit %d",
	       (int)child, READS_N, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("bpftrace.kfunc", test_bpftrace_kfunc);
VM_TEST_ONCE("funccount.syscalls", test_funccount_syscalls); /* the fallbacks change nothing here */
VM_TEST("trace.openat2", test_trace_openat2);
VM_TEST("stackcount.kfunc", test_stackcount_kfunc);
VM_TEST("funclatency.kfunc", test_funclatency_kfunc);
