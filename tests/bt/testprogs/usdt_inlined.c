/* One probe, tracetest:testprobe, with two sites because the function
 * holding it is inlined twice: once with 999 as its second argument,
 * once (through a wrapper) with 100. The value is read from the stack, not
 * encoded as a constant. Once a second. Any argument: exit 0. */
#include <sys/sdt.h>
#include <sys/time.h>
#include <unistd.h>

static inline __attribute__((always_inline)) void site(int n)
{
	volatile int on_stack = n;
	struct timeval tv;

	gettimeofday(&tv, 0);
	DTRACE_PROBE2(tracetest, testprobe, tv.tv_sec, on_stack);
}

static __attribute__((noinline)) void wrapper(void)
{
	site(100);
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return 0;
	for (;;) {
		site(999);
		wrapper();
		sleep(1);
	}
}
