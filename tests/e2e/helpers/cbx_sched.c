/* e2e helper for the CPU and scheduler tools: prints "ready PID ...",
 * waits for SIGUSR1, runs one workload (sched_work.h), prints "done ..."
 * and exits.  An alarm ends it after 60 s whatever happens.
 *
 *   cbx_sched hogs CPU N           N hogs on CPU until SIGTERM ("ready PID HOGPIDS")
 *   cbx_sched runqlat CPU ITERS MS [linger]
 *                                  a nice-0 hog on CPU and this process as the
 *                                  nice-19 sleeper there: ITERS sleeps of MS;
 *                                  linger: then end the hog, print "done" and
 *                                  wait for SIGTERM (its /proc/PID/status, the
 *                                  kernel's count of its context switches,
 *                                  stays readable while the tool stops)
 *   cbx_sched bursts CPU N US MS   N on-CPU bursts of US microseconds, MS apart
 *   cbx_sched smp N                membarriers + TLB shootdowns (CPU 0 -> 1) until N
 *                                  membarriers found the spinner on CPU 1 throughout:
 *                                  "done MADE SURE" (sched_work.h) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_work.h"

static volatile sig_atomic_t go, stop;

static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		go = 1;
	else
		stop = 1;
}

static void wait_go(void)
{
	sigset_t none;

	sigemptyset(&none);
	while (!go && !stop)
		sigsuspend(&none);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t block;
	pid_t hogs[16];
	int nhogs = 0;
	const char *mode = argc > 1 ? argv[1] : "";

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	alarm(60);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(mode, "hogs") && argc == 4) {
		int cpu = atoi(argv[2]), n = atoi(argv[3]);

		for (int i = 0; i < n && i < 16; i++)
			hogs[nhogs++] = sw_hog(cpu, 60);
		printf("ready %d", (int)getpid());
		for (int i = 0; i < nhogs; i++)
			printf(" %d", (int)hogs[i]);
		printf("\n");
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		while (!stop)
			pause();
	} else if (!strcmp(mode, "runqlat") && (argc == 5 || (argc == 6 && !strcmp(argv[5], "linger")))) {
		int cpu = atoi(argv[2]), iters = atoi(argv[3]);

		hogs[nhogs++] = sw_hog(cpu, 60);
		printf("ready %d %d\n", (int)getpid(), (int)hogs[0]);
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		wait_go();
		sw_sleeper(cpu, iters, atol(argv[4]));
		if (argc == 6) {
			kill(hogs[0], SIGKILL);
			waitpid(hogs[0], NULL, 0);
			nhogs = 0;
			printf("done %d\n", iters);
			while (!stop)
				pause();
		} else
			printf("done %d\n", iters);
	} else if (!strcmp(mode, "bursts") && argc == 6) {
		int fifo;

		printf("ready %d\n", (int)getpid());
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		wait_go();
		fifo = sw_bursts(atoi(argv[2]), atoi(argv[3]), atol(argv[4]), atol(argv[5]));
		printf("done %s fifo=%d\n", argv[3], fifo);
	} else if (!strcmp(mode, "smp") && argc == 3) {
		struct sw_smp_count c;

		printf("ready %d\n", (int)getpid());
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		wait_go();
		c = sw_smp_calls(0, 1, atoi(argv[2]));
		printf("done %d %d\n", c.made, c.sure);
	} else {
		fprintf(stderr, "usage: see tests/e2e/helpers/cbx_sched.c\n");
		return 2;
	}
	for (int i = 0; i < nhogs; i++) {
		kill(hogs[i], SIGKILL);
		waitpid(hogs[i], NULL, 0);
	}
	return 0;
}
