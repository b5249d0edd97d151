/* e2e helper for syscount: prints "ready PID", waits for SIGUSR1, then
 * makes exactly NFAIL access() calls that fail with ENOENT and NOK that
 * succeed (raw syscalls, nothing else in between), prints "done" and
 * waits for SIGTERM.  An alarm ends it after 60 s whatever happens.
 *
 *   sysloop NFAIL NOK */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

int main(int argc, char **argv)
{
	long nfail = argc > 1 ? atol(argv[1]) : 1234;
	long nok = argc > 2 ? atol(argv[2]) : 0;
	struct sigaction sa;
	sigset_t block, old;
	long i, bad = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	alarm(60);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		sigsuspend(&old);
	for (i = 0; i < nfail; i++)
		if (syscall(SYS_access, "/nonexistent/corebox-e2e-sysloop", F_OK) == 0)
			bad++;
	for (i = 0; i < nok; i++)
		if (syscall(SYS_access, "/", F_OK) != 0)
			bad++;
	printf("done %ld\n", bad);
	fflush(stdout);
	for (;;)
		pause();
}
