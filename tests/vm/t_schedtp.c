/* VM checks of the sched tools' paths on tracepoint records (the ones a
 * kernel without BTF runs; with BTF the same checks run tp_btf/raw_tp):
 *   runqslower  a SCHED_IDLE sleeper on the hog's CPU, -t its TID 500: its
 *               wakeups that waited > 500 us (under TCG: up to seconds),
 *               each naming it and no other thread, at least half of them
 *               (a preempted wait counts as well: at most 2 per wakeup) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm.h"
#include "../e2e/helpers/sched_work.h"

#define RQS_CPU 1
#define RQS_N 12

static void rqs_sleeper(void)
{
	sw_sleeper(RQS_CPU, RQS_N, 10);
}

static void test_runqslower(const char *test, const char *disable)
{
	char tidarg[16], *argv[] = { "corebox", "runqslower", "-t", tidarg, "500", NULL };
	unsigned long long lat, minlat = ~0ull;
	int rc, st, n = 0, other = 0, tid, gate, done;
	struct tool_run t;
	pid_t hog, child;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		result(test, 0, "the guest has one CPU (run.sh boots -smp 2)");
		return;
	}
	hog = sw_hog(RQS_CPU, 60);
	child = gated_child(&gate, &done, rqs_sleeper);
	snprintf(tidarg, sizeof(tidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Tracing run queue latency") < 0) {
		close(gate);
		close(done);
		end_child(child);
		end_child(hog);
		return;
	}
	open_gate(gate);
	st = wait_done(done, 40000) ? 0 : -1; /* a SCHED_IDLE thread behind a hog */
	rc = tool_stop(&t);
	end_child(child);
	end_child(hog);
	/* TIME COMM TID LAT(us): the child is single-threaded (TID = PID) */
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (sscanf(l, "%*d:%*d:%*d %*s %d %llu", &tid, &lat) != 2)
			continue;
		if (tid != (int)child)
			other++;
		n++;
		if (lat < minlat)
			minlat = lat;
	}
	result(test, rc == 0 && n >= RQS_N / 2 && n <= 2 * RQS_N + 10 && !other && minlat > 500,
	       "-t sleeper 500: %d events for %d wakeups next to a hog%s, %d of other threads, lowest %llu us; exit %d",
	       n, RQS_N, st ? " (not all made in 40 s)" : "", other, n ? minlat : 0, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("runqslower", test_runqslower);
