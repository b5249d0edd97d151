/* A context-switch storm: two processes on one CPU pass a byte back and
 * forth through pipes N times (2 switches per round trip); prints the
 * elapsed seconds.  With N = 0 it runs until killed (background load). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int a[2], b[2];
	struct timespec t0, t1;
	cpu_set_t set;
	pid_t child;
	char c = 0;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (pipe(a) < 0 || pipe(b) < 0)
		return 1;
	child = fork();
	if (child == 0) { /* echo until the parent goes (EOF) */
		close(a[1]);
		close(b[0]);
		while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; !n || i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			break;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("%.4f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
