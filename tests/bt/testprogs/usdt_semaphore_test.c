/* tracetest:testprobe guarded by a semaphore: its string argument reports
 * the semaphore's value ("tracetest_testprobe_semaphore: N"), so a tracer
 * shows whether it raised it. Fires every millisecond. Any argument: exit 0
 * (built with sys/sdt.h). */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <sys/sdt.h>
#include <sys/time.h>
#include <unistd.h>

/* the name and section sys/sdt.h's note refers to */
__extension__ unsigned short tracetest_testprobe_semaphore __attribute__((used, section(".probes"), visibility("hidden")));

int main(int argc, char **argv)
{
	char text[64];
	struct timeval tv;

	(void)argv;
	if (argc > 1)
		return 0;
	for (;;) {
		gettimeofday(&tv, 0);
		snprintf(text, sizeof(text), "tracetest_testprobe_semaphore: %d\n", tracetest_testprobe_semaphore);
		DTRACE_PROBE2(tracetest, testprobe, tv.tv_sec, text);
		usleep(1000);
	}
}
