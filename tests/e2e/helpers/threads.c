/* Thread ground truth for threadsnoop and exitsnoop -T: print "ready",
 * wait for a byte on FIFO (opened read-write, so the open does not
 * block), then create exactly N pthreads running cbx_thread_main (each
 * sleeps 100 ms), join them and exit 0.  Built twice by the tests:
 * dynamically (pthread_create in libc, the uprobe path) and statically
 * with musl (no libc to probe: the clone path). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void *cbx_thread_main(void *arg)
{
	struct timespec ts = { 0, 100 * 1000000L };

	nanosleep(&ts, NULL);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[256];
	int n, fd;
	char c;

	if (argc != 3 || (n = atoi(argv[2])) < 1 || n > 256) {
		fprintf(stderr, "usage: threads FIFO N (1..256)\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 1;
	printf("ready\n");
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 1;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, cbx_thread_main, NULL))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
