/* The start handshake of the e2e helpers (sysloop, tests/run/getppid_n):
 * print "ready PID", then wait for SIGUSR1 (blocked until the wait, so an
 * early one is not lost) before doing the counted work; an alarm ends
 * the helper after 60 s whatever happens.  One copy, so the scripts that
 * drive them can rely on the same protocol. */
#ifndef CBX_READY_GO_H
#define CBX_READY_GO_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t ready_go_flag;

static void ready_go_usr1(int sig)
{
	(void)sig;
	ready_go_flag = 1;
}

static void ready_go(void)
{
	struct sigaction sa;
	sigset_t block, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ready_go_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	alarm(60);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!ready_go_flag)
		sigsuspend(&old);
}

#endif
