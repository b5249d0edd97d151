/* Ground truth for the dynamic-tracing tools: uniquely named functions
 * called exactly N times (cbx_dyn_outer -> cbx_dyn_inner), a USDT probe
 * fired exactly M times with known arguments, mallocs of known sizes, and
 * a function that sleeps a known time.  Waits for SIGUSR1 (after "ready")
 * before doing it all, then prints "done" and waits for SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#else
#define DTRACE_PROBE2(p, n, a, b) do { } while (0)
#endif

static volatile sig_atomic_t go;
static void on_usr1(int s) { (void)s; go = 1; }

__attribute__((noinline)) int cbx_dyn_inner(int x, const char *s)
{
	__asm__ volatile("" ::: "memory");
	return x + (int)strlen(s);
}

__attribute__((noinline)) int cbx_dyn_outer(int x)
{
	int r = cbx_dyn_inner(x, "cbx-unique-string");

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) void cbx_dyn_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, m = argc > 2 ? atoi(argv[2]) : 7;
	long sum = 0;

	signal(SIGUSR1, on_usr1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	for (int i = 0; i < n; i++)
		sum += cbx_dyn_outer(i);
	for (int i = 0; i < m; i++)
		DTRACE_PROBE2(cbx, tick, i, 4242);
	for (int i = 0; i < 5; i++) {
		void *volatile p = malloc(12345); /* volatile: not optimized away */

		free(p);
	}
	for (int i = 0; i < 3; i++)
		cbx_dyn_sleep(20);
	printf("done %ld\n", sum);
	fflush(stdout);
	for (;;)
		pause();
}
