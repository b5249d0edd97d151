/* e2e helper for `corebox run`: prints "ready PID", waits for SIGUSR1,
 * makes exactly N getppid() calls (raw syscalls), prints "done", then
 * waits for SIGTERM.  An alarm ends it after 60 s whatever happens.
 * The test copies it to /tmp/cbxrun_NNN so its comm is unique.  With
 * "nap", the N calls are 1 ms sleeps instead (N times off and back on a
 * CPU: wakeups and context switches for the scheduler tests).
 *
 *   getppid_n N [nap] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../e2e/helpers/ready_go.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	int nap = argc > 2 && !strcmp(argv[2], "nap");
	struct timespec ms = { 0, 1000000 };

	ready_go();
	for (long i = 0; i < n; i++) {
		if (nap)
			nanosleep(&ms, NULL);
		else
			syscall(SYS_getppid);
	}
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
