/* Probes of provider tracetest with several sites each: testprobe twice,
 * testprobe2 once, testprobe3 three times (six sites), fired in a busy
 * loop. Any argument: exit 0 (built with sys/sdt.h). */
#include <sys/sdt.h>
#include <sys/time.h>

static __attribute__((noinline)) long tick(void)
{
	struct timeval tv;

	gettimeofday(&tv, 0);
	DTRACE_PROBE2(tracetest, testprobe, tv.tv_sec, "Hello world");
	DTRACE_PROBE2(tracetest, testprobe, tv.tv_sec, "Hello world2");
	DTRACE_PROBE2(tracetest, testprobe2, tv.tv_sec, "Hello world3");
	DTRACE_PROBE2(tracetest, testprobe3, tv.tv_sec, "Hello world4");
	DTRACE_PROBE2(tracetest, testprobe3, tv.tv_sec, "Hello world5");
	DTRACE_PROBE2(tracetest, testprobe3, tv.tv_sec, "Hello world6");
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
