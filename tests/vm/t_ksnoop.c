/* VM check of ksnoop (fentry/fexit or kprobes, which this machine's own
 * kernel lacks): a child sends itself KS_SIGS SIGUSR2 (ignored) and one
 * SIGURG; ksnoop -p CHILD traces do_send_sig_info with a predicate on the
 * signal, a member read through a pointer argument (p->pid) and the return
 * value: a mix that stashes the entry values until the return.  Every
 * SIGUSR2 call must show sig 12, the child's own pid and 0; the SIGURG
 * must not show. */
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
