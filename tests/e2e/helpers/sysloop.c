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

#include "ready_go.h"

int main(int argc, char **argv)
{
	long nfail = argc > 1 ? atol(argv[1]) : 1234;
	long nok = argc > 2 ? atol(argv[2]) : 0;
	long i, bad = 0;

	ready_go();
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
