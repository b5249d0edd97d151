/* e2e helper for the block tools: K O_DIRECT reads of SIZE bytes from a
 * block device, sequential (back to back from OFFSET) or random (a gap
 * of one SIZE between reads, so no read starts where the last ended),
 * after a go signal (SIGUSR1) when -w is given.  Prints "ready PID",
 * then one "read OFFSET SIZE" line per read and "done".
 *
 *   blkio [-w] DEVICE seq|rand K SIZE [OFFSET] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

int main(int argc, char **argv)
{
	int wait_go = argc > 1 && !strcmp(argv[1], "-w");
	char **a = argv + wait_go;
	long k, size, i;
	long long off;
	void *buf;
	int fd, rand_;

	if (argc - wait_go < 5) {
		fprintf(stderr, "usage: blkio [-w] DEVICE seq|rand K SIZE [OFFSET]\n");
		return 2;
	}
	rand_ = !strcmp(a[2], "rand");
	k = atol(a[3]);
	size = atol(a[4]);
	off = argc - wait_go > 5 ? atoll(a[5]) : 0;
	fd = open(a[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || size <= 0 || size % 512 || posix_memalign(&buf, 4096, (size_t)size)) {
		perror(a[1]);
		return 1;
	}
	sigset_t block, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old); /* no signal lost before the wait */
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (wait_go && !go)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < k; i++) {
		if (pread(fd, buf, (size_t)size, off) != size) {
			perror("pread");
			return 1;
		}
		printf("read %lld %ld\n", off, size);
		off += rand_ ? 2 * size : size;
	}
	close(fd);
	printf("done\n");
	fflush(stdout);
	return 0;
}
