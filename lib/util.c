#include "util.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int read_file(const char *path, size_t max, char **bufp, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			if (cap >= max) {
				close(fd);
				free(buf);
				return err_set(EFBIG, "%s is larger than %zu bytes", path, max);
			}
			cap = cap * 2 > max ? max : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			free(buf);
			return err_sys(e, "cannot read %s", path);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

int read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return err_sys(errno, "cannot read %s", path);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int write_file(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	size_t len = strlen(s);
	ssize_t n;

	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	n = write(fd, s, len);
	if (n < 0 || (size_t)n != len) {
		int e = n < 0 ? errno : EIO;
		close(fd);
		return err_sys(e, "cannot write '%s' to %s", s, path);
	}
	if (close(fd) < 0)
		return err_sys(errno, "cannot write '%s' to %s", s, path);
	return 0;
}

static void oom(void)
{
	static const char m[] = "corebox: out of memory\n";

	if (write(2, m, sizeof(m) - 1) < 0)
		_exit(1);
	_exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

int fd_good(int fd)
{
	if (fd >= 0 && fd < 3) {
		int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		return nfd < 0 ? -errno : nfd;
	}
	return fd;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
