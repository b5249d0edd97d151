/* memleak's overhead: N malloc(64)+free pairs, timed.  With a PID file
 * argument it writes its pid there and waits for SIGUSR1 first (so a
 * tracer can attach to it); prints the nanoseconds per pair. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec a, b;
	void *volatile p;

	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		signal(SIGUSR1, on_usr1);
		if (!f)
			return 1;
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		while (!go)
			pause();
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		p = malloc(64);
		free(p);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
