/* The llcstat test's ground truth, independent of corebox:
 *   llc_pmu probe        does the kernel offer the hardware cache-reference
 *                        event llcstat counts?  "yes" (exit 0), or "no
 *                        STRERROR" (exit 1) with the error the tool must
 *                        report
 *   llc_pmu stream SECS  print "pid N", then walk a 64 MiB buffer (far
 *                        larger than any last-level cache) for SECS
 *                        seconds: cache references the test caused, under
 *                        this process's name */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int probe(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CACHE_REFERENCES;
	a.disabled = 1;
	/* as llcstat opens it: every process on one CPU */
	fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0) {
		printf("no %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	printf("yes\n");
	return 0;
}

static int stream(int secs)
{
	size_t n = 64 << 20;
	volatile char *buf = malloc(n);
	time_t end = time(NULL) + secs;
	unsigned sum = 0;

	if (!buf)
		return 1;
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	while (time(NULL) < end)
		for (size_t i = 0; i < n; i += 64) /* one touch per cache line */
			sum += buf[i] += 1;
	return sum == 0xffffffffu; /* keep the loop */
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "probe"))
		return probe();
	if (argc == 3 && !strcmp(argv[1], "stream"))
		return stream(atoi(argv[2]));
	fprintf(stderr, "usage: llc_pmu probe | llc_pmu stream SECS\n");
	return 2;
}
