/* VM check of ksnoop (fentry/fexit or kprobes, which this machine's own
 * kernel lacks): a child sends itself KS_SIGS SIGUSR2 (ignored) and one
 * SIGURG; ksnoop -p CHILD traces do_send_sig_info with a predicate on the
 * signal, a member read through a pointer argument (p->pid) and the return
 * value: a mix that stashes the entry values until the return.  Every
 * SIGUSR2 call must show sig 12, the child's own pid and 0; the SIGURG
 * must not show.  Stack mode (ksnoop.stack): vfs_write and pipe_write,
 * each shown only when the one called the other: the child's KS_WRITES
 * 3-byte writes to a pipe (and its 1-byte "done" write) each show both
 * functions' entry and return, and vfs_write's count of 3; -v, the
 * child's PID namespace. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm.h"

#define KS_SIGS 7

static void ks_work(void)
{
	signal(SIGUSR2, SIG_IGN);
	signal(SIGURG, SIG_IGN);
	for (int i = 0; i < KS_SIGS; i++)
		kill(getpid(), SIGUSR2);
	kill(getpid(), SIGURG);
}

static void test_ksnoop(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", tr[] = "trace", spec[] = "do_send_sig_info(sig == 12, p->pid, return)";
	char *argv[] = { "corebox", "ksnoop", p, pidarg, tr, spec, NULL };
	char want[128];
	int rc, calls, pids, rets;
	uint64_t since = boot_ns();
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_work, &child);
	if (rc == -1)
		return;
	snprintf(want, sizeof(want), "\n%36s(pid_t)%d,\n", "", (int)child);
	pids = lines_with(want);
	snprintf(want, sizeof(want), "\n%36s(int)12,\n", "");
	calls = lines_with(want);
	snprintf(want, sizeof(want), "return = \n%36s(int)0\n%31s);\n", "", "");
	rets = lines_with(want);
	result(test, rc == 0 && calls == KS_SIGS && pids == KS_SIGS && rets == KS_SIGS && lines_with("(int)23") == 0,
	       "%d of the child's %d SIGUSR2 calls with sig 12, %d with its pid %d through p->pid, %d returning 0; "
	       "SIGURG filtered: %s; exit %d",
	       calls, KS_SIGS, pids, (int)child, rets, lines_with("(int)23") ? "no" : "yes", rc);
	if (!last_ok)
		dump_output(test);
	else
		report_mechanisms(test, since);
}

VM_TEST("ksnoop", test_ksnoop);

/* The same calls as JSON lines: {..., "event":"return", "values":{"sig":12,"p->pid":PID,"return":0}} */
static void test_ksnoop_json(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", j[] = "-j", tr[] = "trace", spec[] = "do_send_sig_info(sig == 12, p->pid, return)";
	char *argv[] = { "corebox", "ksnoop", j, p, pidarg, tr, spec, NULL };
	char want[160];
	int rc, n;
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "ksnoop: tracing 1 function", ks_work, &child);
	if (rc == -1)
		return;
	snprintf(want, sizeof(want), "\"function\":\"do_send_sig_info\",\"event\":\"return\",\"values\":"
		 "{\"sig\":12,\"p->pid\":%d,\"return\":0}}\n", (int)child);
	n = lines_with(want);
	result(test, rc == 0 && n == KS_SIGS && lines_with("{\"time\":") == KS_SIGS,
	       "%d of the child's %d SIGUSR2 calls as JSON lines with sig, its pid %d and 0; exit %d", n, KS_SIGS,
	       (int)child, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST_ONCE("ksnoop.json", test_ksnoop_json);

#define KS_WRITES 5

static void ks_writes(void)
{
	int fd[2];

	if (pipe(fd) < 0)
		return;
	for (int i = 0; i < KS_WRITES; i++)
		if (write(fd[1], "abc", 3) != 3)
			break;
}

static void test_ksnoop_stack(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", s[] = "-s", v[] = "-v", tr[] = "trace", a[] = "vfs_write", b[] = "pipe_write";
	char *argv[] = { "corebox", "ksnoop", s, v, p, pidarg, tr, a, b, NULL };
	char want[128], ns[64] = "";
	unsigned long pidns = 0;
	int rc, outer, inner, counts, in_ns;
	uint64_t since = boot_ns();
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_writes, &child);
	if (rc == -1)
		return;
	/* -v: each event names the child's PID namespace (the driver's) */
	if (readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1) > 0)
		sscanf(ns, "pid:[%lu]", &pidns);
	snprintf(want, sizeof(want), " %8lu %8d ", pidns, (int)child);
	in_ns = lines_with(want);
	outer = lines_with(" vfs_write(\n");
	inner = lines_with(" pipe_write(\n");
	snprintf(want, sizeof(want), "count = \n%36s(size_t)3,\n", "");
	counts = lines_with(want);
	/* entry and return of each, for the KS_WRITES writes and the done byte */
	result(test, rc == 0 && outer == 2 * (KS_WRITES + 1) && inner == outer && counts == KS_WRITES &&
			     in_ns == outer + inner,
	       "vfs_write shown %d times, pipe_write %d (want %d each: entry and return of %d writes); "
	       "count 3 in %d of the %d writes; %d in PID namespace %lu; exit %d",
	       outer, inner, 2 * (KS_WRITES + 1), KS_WRITES + 1, counts, KS_WRITES, in_ns, pidns, rc);
	if (!last_ok)
		dump_output(test);
	else
		report_mechanisms(test, since);
}

VM_TEST("ksnoop.stack", test_ksnoop_stack);

/* A module's function (loop.ko, loaded by the "module" check): its
 * prototype from the module's split BTF. */
static void test_ksnoop_module(const char *test, const char *disable)
{
	char info[] = "info", f[] = "loop_queue_rq", *argv[] = { "corebox", "ksnoop", info, f, NULL };
	const char *want = "blk_status_t loop_queue_rq(struct blk_mq_hw_ctx *hctx, struct blk_mq_queue_data *bd);\n";
	struct tool_run t;
	int rc;

	if (tool_start(&t, test, argv, disable, "loop_queue_rq(") < 0)
		return;
	rc = tool_stop(&t);
	result(test, rc == 0 && lines_with(want) == 1, "%s; exit %d", lines_with(want) ? "the prototype from loop's BTF" : "not the prototype", rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST_ONCE("ksnoop.module", test_ksnoop_module);
