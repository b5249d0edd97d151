/* offcputime e2e helper: blocks in two known ways and reports how long.
 *   cbx_offcpu_blk GATE
 * Prints its pid, waits until a line can be read from the fifo GATE
 * (so the tracer can start first), then: nanosleep(100 ms) x 10, then a
 * read of a pipe that a child fills after ~1 s.  Prints
 * "sleep_us pipe_us" measured with CLOCK_MONOTONIC. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

__attribute__((noinline)) static void sleep_100ms(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long long t0, t_sleep, t_pipe;
	int p[2], i;
	char c;
	pid_t child;

	printf("%d\n", (int)getpid());
	fflush(stdout);
	if (argc > 1) {
		FILE *g = fopen(argv[1], "r");
		char line[16];

		if (!g || !fgets(line, sizeof(line), g))
			return 1;
		fclose(g);
	}
	t0 = now_us();
	for (i = 0; i < 10; i++)
		sleep_100ms();
	t_sleep = now_us() - t0;

	if (pipe(p) < 0)
		return 1;
	child = fork();
	if (child == 0) {
		struct timespec ts = { 1, 0 };

		nanosleep(&ts, NULL);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	t0 = now_us();
	if (read(p[0], &c, 1) != 1)
		return 1;
	t_pipe = now_us() - t0;
	waitpid(child, NULL, 0);
	printf("%lld %lld\n", t_sleep, t_pipe);
	fflush(stdout);
	return 0;
}
