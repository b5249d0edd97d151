/* profile e2e helper: spin in main -> outer_unique_cbxprof ->
 * inner_unique_cbxprof for SECONDS (default 3), built with frame
 * pointers so user stacks unwind.  Prints its pid first. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

volatile unsigned long sink;

__attribute__((noinline)) void inner_unique_cbxprof(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) void outer_unique_cbxprof(double end)
{
	while (now() < end) {
		inner_unique_cbxprof();
		__asm__ __volatile__("" ::: "memory");
	}
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;

	printf("%d\n", (int)getpid());
	fflush(stdout);
	outer_unique_cbxprof(now() + secs);
	return (int)(sink & 0);
}
