/* Issues one system call named on the command line, as the runtime suite's
 * AFTER lines expect: nanosleep [NS], openat, open, read, execve PATH [ARGS],
 * connect HOST PORT. Our own equivalent of bpftrace's tests/testprogs/syscall. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *scratch_path(char *buf, size_t len, const char *what)
{
	const char *dir = getenv("TMPDIR");
	snprintf(buf, len, "%s/corebox_bt_testprog_%s_%d", dir ? dir : "/tmp", what, (int)getpid());
	return buf;
}

int main(int argc, char **argv)
{
	char path[256];
	const char *name = argc > 1 ? argv[1] : "";

	if (!strcmp(name, "nanosleep")) {
		double ns = argc > 2 ? strtod(argv[2], NULL) : 100;
		if (ns > 0 && ns < 1)
			ns = 1;
		struct timespec ts = { (time_t)(ns / 1e9), 0 };
		ts.tv_nsec = (long)(ns - ts.tv_sec * 1e9);
		return syscall(SYS_nanosleep, &ts, NULL) ? 1 : 0;
	}
	if (!strcmp(name, "openat") || !strcmp(name, "open")) {
		scratch_path(path, sizeof(path), "open");
		int fd;
#ifdef SYS_open
		if (!strcmp(name, "open"))
			fd = syscall(SYS_open, path, O_CREAT | O_RDONLY, 0600);
		else
#endif
			fd = syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_RDONLY, 0600);
		if (fd < 0)
			return 1;
		close(fd);
		unlink(path);
		return 0;
	}
	if (!strcmp(name, "read")) {
		char buf[10];
		int fd = open(scratch_path(path, sizeof(path), "read"), O_CREAT | O_RDONLY, 0600);
		if (fd < 0)
			return 1;
		long n = syscall(SYS_read, fd, buf, 0);
		close(fd);
		unlink(path);
		return n < 0;
	}
	if (!strcmp(name, "execve") && argc > 2) {
		char *env[] = { NULL };
		syscall(SYS_execve, argv[2], &argv[2], env);
		perror("execve");
		return 1;
	}
	if (!strcmp(name, "connect") && argc > 3) {
		struct sockaddr_in sa = { .sin_family = AF_INET };
		int s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0)
			return 1;
		sa.sin_port = htons(atoi(argv[3]));
		sa.sin_addr.s_addr = inet_addr(argv[2]);
		connect(s, (struct sockaddr *)&sa, sizeof(sa));
		close(s);
		return 0;
	}
	fprintf(stderr, "usage: syscall nanosleep [NS] | openat | open | read | execve PATH [ARG...] | connect HOST PORT\n");
	return 1;
}
