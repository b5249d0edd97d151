/* VM checks of the dynamic-tracing tools on kernel functions, where the
 * VM kernels have them (fentry; kprobes in the .fallback run, which
 * disables fentry) and on the syscall events (one raw_syscalls program
 * per direction with tail calls by syscall number).  Ground truth: a
 * child reads a file with pread() exactly N times (N vfs_read() calls),
 * or opens a uniquely named path.  Every tool must also exit within the
 * driver's bound after SIGINT (tool_stop), many probes or not. */
#include <fcntl.h>
#include <signal.h>
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

/* The detach at Ctrl-C, checked as vfscount.sigint's (t_vfs.c): a hang
 * bound, not a timing test.  funccount and stackcount put one program on
 * all the functions a pattern matches -- a kprobe_multi link (6.12), else
 * one legacy kprobe event with a probe per function (6.1) -- so the
 * detach is one step (vfscount's: ~80 ms and ~1.8 s under TCG); one
 * fentry link or kprobe per function, the last resort, took 11.7 s (6.1)
 * and 12.6 s (6.12) for 'vfs_*': only that row has no bound.  The log
 * line gives the times. */
#define DETACH_BOUND_MS 5000
static char detach[160]; /* the detach's part of the result line */

/* run_with_child with the SIGINT timed: to the report (mark in the
 * output) and to the exit.  *ok: gone (bound_ms: within that of its
 * report), no BPF link and no kprobe_events entry of its pid left. */
static int run_detach(const char *test, char **argv, char *pidarg, const char *disable, const char *mark,
		      int bound_ms, pid_t *childp, int *ok)
{
	struct tool_run t;
	int rc, finished, left, links = bpf_links(), eof = 0;
	uint64_t t_int, t_rep = 0, t_end;

	*ok = 0;
	if ((finished = start_with_child(&t, test, argv, pidarg, disable, "Tracing", pread_n_times, childp)) < 0)
		return -1;
	usleep(300000); /* the last events reach user space */
	kill(t.pid, SIGINT);
	t_int = now_ms();
	while (now_ms() < t_int + 30000 && (eof = !pump(t.fd, 50)) == 0)
		if (!t_rep && out && strstr(out, mark))
			t_rep = now_ms();
	t_end = now_ms();
	if (!t_rep && out && strstr(out, mark))
		t_rep = t_end; /* it came with the exit */
	rc = wait_bounded(t.pid, eof ? 2000 : 0);
	close(t.fd);
	end_child(*childp);
	left = own_kprobe_events(t.pid);
	links = bpf_links() - links;
	printf("VMTEST-LOG %s SIGINT -> report %llu ms -> exit %llu ms\n", test,
	       t_rep ? (unsigned long long)(t_rep - t_int) : 0ull, (unsigned long long)(t_end - t_int));
	snprintf(detach, sizeof(detach), "; exit %llu ms after its report (bound %d)%s, %d kprobe_events, %d links left",
		 t_rep ? (unsigned long long)(t_end - t_rep) : 0ull, bound_ms, eof ? "" : ", NOT gone", left,
		 links > 0 ? links : 0);
	*ok = eof && t_rep && (!bound_ms || t_end - t_rep <= (uint64_t)bound_ms) && left == 0 && links <= 0;
	return finished ? rc : -3;
}

/* funccount 'vfs_*': every matched function probed, vfs_read counted
 * exactly; also with one program's fallbacks forced (extra: more of
 * COREBOX_DISABLE) */
static void funccount_vfs(const char *test, const char *disable, const char *extra, int bound_ms)
{
	char pidarg[16], pat[] = "vfs_*", *argv[] = { "corebox", "funccount", "-p", pidarg, pat, NULL }, dis[200];
	unsigned nfunc = 0;
	int rc, ok;
	pid_t child;

	snprintf(dis, sizeof(dis), "%s%s%s", disable ? disable : "", disable && *disable && *extra ? "," : "", extra);
	t0 = now_ms();
	if ((rc = run_detach(test, argv, pidarg, dis, "\nFUNC ", bound_ms, &child, &ok)) == -1)
		return;
	sscanf(strstr(out, "Tracing ") ? strstr(out, "Tracing ") + 8 : "0", "%u", &nfunc);
	RESULT(test, row_count("vfs_read") == READS_N && nfunc > 5 && rc == 0 && ok,
	       "'vfs_*' (%u functions) -p %d: vfs_read %llu (made %d); exit %d%s", nfunc, (int)child,
	       row_count("vfs_read"), READS_N, rc, detach);
	if (!last_ok)
		dump_output(test);
}

static void test_funccount_vfs(const char *test, const char *disable)
{
	funccount_vfs(test, disable, "", DETACH_BOUND_MS);
}

/* one legacy kprobe event for all (6.1's way; 6.12's without kprobe_multi) */
static void test_funccount_vfs_group(const char *test, const char *disable)
{
	funccount_vfs(test, disable, "kprobe_multi", DETACH_BOUND_MS);
}

/* one program per function (fentry here): exact too, no bound */
static void test_funccount_vfs_single(const char *test, const char *disable)
{
	funccount_vfs(test, disable, "kprobe_multi,kprobe_group", 0);
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
 * up to N.  With a pattern ('vfs_rea*': one program for all, where the
 * kernel has a way) the same, and its detach checked. */
static void stackcount_kfunc(const char *test, const char *disable, char *fn, const char *extra)
{
	char pidarg[16], *argv[] = { "corebox", "stackcount", "-j", "-K", "-p", pidarg, fn, NULL }, dis[200];
	unsigned long long total = 0, other = 0;
	int rc, ok = 1;
	pid_t child;

	snprintf(dis, sizeof(dis), "%s%s%s", disable ? disable : "", disable && *disable && *extra ? "," : "", extra);
	t0 = now_ms();
	detach[0] = 0;
	if (strchr(fn, '*'))
		rc = run_detach(test, argv, pidarg, dis, "\"kernel\":", DETACH_BOUND_MS, &child, &ok);
	else
		rc = run_with_child(test, argv, pidarg, dis, "Tracing", pread_n_times, &child);
	if (rc == -1)
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
	RESULT(test, total == READS_N && !other && rc == 0 && ok,
	       "-K -p %d %s: stacks vfs_read<-...pread64 add up to %llu (made %d), %llu others; exit %d%s",
	       (int)child, fn, total, READS_N, other, rc, detach);
	if (!last_ok)
		dump_output(test);
}

static void test_stackcount_kfunc(const char *test, const char *disable)
{
	char fn[] = "vfs_read";

	stackcount_kfunc(test, disable, fn, "");
}

static void test_stackcount_kfuncs(const char *test, const char *disable)
{
	char fn[] = "vfs_rea*";

	stackcount_kfunc(test, disable, fn, "");
}

static void test_stackcount_kfuncs_group(const char *test, const char *disable)
{
	char fn[] = "vfs_rea*";

	stackcount_kfunc(test, disable, fn, "kprobe_multi");
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
	/* libbpf-tools' layout: the histogram rows' counts add up to the calls */
	for (s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		unsigned long long lo, hi, c;

		if (sscanf(s, " %llu -> %llu : %llu", &lo, &hi, &c) == 3)
			count += c;
	}
	RESULT(test, count == READS_N && strstr(out, "nsec ") && strstr(out, "Exiting trace of") && rc == 0,
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

/* bpftrace 'kprobe:vfs_*': one program on every function matched (as
 * funccount's), `probe` and `func` of the function hit read from a
 * table: the child's reads counted exactly under both names, "Attaching
 * N probes..." still counting the functions, nothing left attached.  The
 * SIGINT -> exit time is logged (per function it took ~12 s: the .single
 * row); extra: more of COREBOX_DISABLE.  kretprobe:vfs_* (ret) the same,
 * and each read's 16 bytes summed from retval. */
static void bpftrace_wild(const char *test, const char *disable, const char *extra, int ret)
{
	char pidarg[16], e[] = "-e", prog[160], v[] = "-v";
	/* the kretprobe rows with -v: the block is one program, shown once */
	char *argv[] = { "corebox", "bpftrace", e, prog, pidarg, ret ? v : NULL, NULL }, dis[200], want[64], wantp[64],
							     wantr[64];
	const char *id;
	int one_prog = 1;
	struct tool_run t;
	int rc, finished, left, links = bpf_links();
	unsigned nprobes = 0;
	uint64_t t_int;
	pid_t child;

	snprintf(prog, sizeof(prog), "k%sprobe:vfs_* /pid == $1/ { @[func] = count(); @p[probe] = count(); %s}",
		 ret ? "ret" : "", ret ? "@r[func] = sum(retval); " : "");
	snprintf(dis, sizeof(dis), "%s%s%s", disable ? disable : "", disable && *disable && *extra ? "," : "", extra);
	t0 = now_ms();
	if ((finished = start_with_child(&t, test, argv, pidarg, dis, "Attaching", pread_n_times, &child)) < 0)
		return;
	t_int = now_ms() + 300; /* (tool_stop waits that long for the last events, then SIGINT) */
	rc = tool_stop(&t);
	printf("VMTEST-LOG %s SIGINT -> exit %llu ms\n", test, (unsigned long long)(now_ms() - t_int));
	end_child(child);
	left = own_kprobe_events(t.pid);
	links = bpf_links() - links;
	sscanf(strstr(out, "Attaching ") ? strstr(out, "Attaching ") + 10 : "0", "%u", &nprobes);
	snprintf(want, sizeof(want), "\n@[vfs_read]: %d\n", READS_N);
	snprintf(wantp, sizeof(wantp), "\n@p[k%sprobe:vfs_read]: %d\n", ret ? "ret" : "", READS_N);
	snprintf(wantr, sizeof(wantr), ret ? "\n@r[vfs_read]: %d\n" : "\n", 16 * READS_N);
	if (ret)
		one_prog = (id = strstr(out, "\nProgram ID: ")) && !strstr(id + 1, "\nProgram ID: ") &&
			   strstr(out, "\nAttaching kretprobe:vfs_*\n") && strstr(out, "processed ");
	RESULT(test, strstr(out, want) && strstr(out, wantp) && strstr(out, wantr) && nprobes > 5 && finished && rc == 0 && !left && links <= 0 && one_prog,
	       "'%.*s' (Attaching %u probes) pid %d: vfs_read%s counted as func and probe (made %d)%s; exit %d, "
	       "%d kprobe_events, %d links left%s", (int)strcspn(prog, " "), prog, nprobes, (int)child, strstr(out, want) && strstr(out, wantp) ? "" : " NOT",
	       READS_N, !ret ? "" : strstr(out, wantr) ? ", retval summed" : ", retval NOT summed", rc, left,
	       links > 0 ? links : 0, one_prog ? "" : "; -v did not show one program for the block");
	if (!last_ok)
		dump_output(test);
}

static void test_bpftrace_wild(const char *test, const char *disable)
{
	bpftrace_wild(test, disable, "", 0);
}

/* one legacy kprobe event for all (6.1's way) */
static void test_bpftrace_wild_group(const char *test, const char *disable)
{
	bpftrace_wild(test, disable, "kprobe_multi", 0);
}

/* one program per function, the way before */
static void test_bpftrace_wild_single(const char *test, const char *disable)
{
	bpftrace_wild(test, disable, "kprobe_multi,kprobe_group", 0);
}

static void test_bpftrace_wild_ret(const char *test, const char *disable)
{
	bpftrace_wild(test, disable, "", 1);
}

/* one legacy kretprobe event for all */
static void test_bpftrace_wild_ret_group(const char *test, const char *disable)
{
	bpftrace_wild(test, disable, "kprobe_multi", 1);
}

VM_TEST("funccount.vfs", test_funccount_vfs);
VM_TEST_ONCE("funccount.vfs.group", test_funccount_vfs_group);
VM_TEST_ONCE("funccount.vfs.single", test_funccount_vfs_single);
VM_TEST("bpftrace.kprobe", test_bpftrace_kprobe);
VM_TEST("bpftrace.kprobe.wild", test_bpftrace_wild);
VM_TEST_ONCE("bpftrace.kprobe.wild.group", test_bpftrace_wild_group);
VM_TEST_ONCE("bpftrace.kprobe.wild.single", test_bpftrace_wild_single);
VM_TEST("bpftrace.kretprobe.wild", test_bpftrace_wild_ret);
VM_TEST_ONCE("bpftrace.kretprobe.wild.group", test_bpftrace_wild_ret_group);

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
VM_TEST("stackcount.kfuncs", test_stackcount_kfuncs);
VM_TEST_ONCE("stackcount.kfuncs.group", test_stackcount_kfuncs_group);
VM_TEST("funclatency.kfunc", test_funclatency_kfunc);
