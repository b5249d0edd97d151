/* capable e2e helper: run as root; after the ready/go handshake
 * (ready_go.h) make N capability checks the kernel allows (setpriority
 * to nice -1: CAP_SYS_NICE, as RLIMIT_NICE is 0), give up root
 * (setresuid to nobody: CAP_SETUID, allowed), then one check it denies
 * (setpriority to nice -2 as nobody: CAP_SYS_NICE, EACCES); print each
 * call and its result, then "done".  "cbx_caps N linger" then waits to be
 * killed, so that its user stacks can still be named. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "ready_go.h"

int main(int argc, char **argv)
{
	struct rlimit zero = { 0, 0 };
	int n;

	if (argc < 2 || argc > 3 || sscanf(argv[1], "%d", &n) != 1) {
		fprintf(stderr, "usage: cbx_caps N [linger]\n");
		return 2;
	}
	/* RLIMIT_NICE 0: every step below nice 0 asks for CAP_SYS_NICE */
	if (setrlimit(RLIMIT_NICE, &zero)) {
		perror("cbx_caps: setrlimit");
		return 1;
	}
	ready_go();
	for (int i = 0; i < n; i++) {
		/* back to 0 first costs no check (raising nice is free) */
		if (setpriority(PRIO_PROCESS, 0, 0) || setpriority(PRIO_PROCESS, 0, -1)) {
			perror("cbx_caps: setpriority as root");
			return 1;
		}
		printf("nice allow\n");
	}
	if (setresuid(65534, 65534, 65534)) {
		perror("cbx_caps: setresuid");
		return 1;
	}
	printf("setuid allow\n");
	if (setpriority(PRIO_PROCESS, 0, -2) == 0 || errno != EACCES) {
		fprintf(stderr, "cbx_caps: setpriority as nobody was not refused\n");
		return 1;
	}
	printf("nice deny\n");
	printf("done\n");
	fflush(stdout);
	if (argc > 2 && !strcmp(argv[2], "linger"))
		for (;;)
			pause();
	return 0;
}
