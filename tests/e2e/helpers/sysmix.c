/* Syscall ground truth for systrace's tests: a known mix of system calls,
 * made with raw syscall() so libc adds none of its own.
 *
 *   sysmix FIFO N M K MS     print "ready", block reading a byte from FIFO
 *                            (opened read-write: the open does not wait; the
 *                            read began before tracing: not counted), then make
 *                            N getppid(), M close(-1) (EBADF) and K
 *                            nanosleep(MS ms), and exit_group (which never
 *                            returns: not counted either).
 *   sysmix flight FIFO M     print "ready", block reading a byte from FIFO,
 *                            then make M close(1000 + i) (EBADF), write
 *                            "done\n" to stdout and block reading a second
 *                            byte (that call is still open when the flight
 *                            recorder is dumped). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char c;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "flight")) {
		long m = atol(argv[3]);

		fd = open(argv[2], O_RDWR);
		if (fd < 0)
			return 1;
		printf("ready\n");
		fflush(stdout);
		if (syscall(SYS_read, fd, &c, 1) != 1)
			return 1;
		for (long i = 0; i < m; i++)
			syscall(SYS_close, 1000 + i);
		syscall(SYS_write, 1, "done\n", 5);
		syscall(SYS_read, fd, &c, 1);
		syscall(SYS_exit_group, 0);
	}
	if (argc == 6) {
		long n = atol(argv[2]), m = atol(argv[3]), k = atol(argv[4]), ms = atol(argv[5]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		fd = open(argv[1], O_RDWR);
		if (fd < 0)
			return 1;
		printf("ready\n");
		fflush(stdout);
		if (syscall(SYS_read, fd, &c, 1) != 1)
			return 1;
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		for (long i = 0; i < m; i++)
			syscall(SYS_close, -1);
		for (long i = 0; i < k; i++)
			syscall(SYS_nanosleep, &ts, NULL);
		syscall(SYS_exit_group, 0);
	}
	fprintf(stderr, "usage: sysmix FIFO N M K MS | sysmix flight FIFO M\n");
	return 2;
}
