/* Three USDT sites, fired in a busy loop: tracetest:testprobe and
 * tracetest:testprobe2, then tracetest2:testprobe2; each gets the current
 * second and a string. With any argument it only says it was built with
 * sys/sdt.h (exit 0: the suite's "should_not_skip" check). */
#include <sys/sdt.h>
#include <sys/time.h>

static __attribute__((noinline)) long tick(void)
{
	struct timeval tv;

	gettimeofday(&tv, 0);
	DTRACE_PROBE2(tracetest, testprobe, tv.tv_sec, "Hello world");
	DTRACE_PROBE2(tracetest, testprobe2, tv.tv_sec, "Hello world2");
	DTRACE_PROBE2(tracetest2, testprobe2, tv.tv_sec, "Hello world3");
	return tv.tv_sec;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return 0;
	for (;;)
		tick();
}
