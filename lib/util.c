#include "util.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	default: return "not a regular file";
	}
}

int open_regular(const char *path, struct stat *stp)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), e, fl;

	if (fd < 0) /* a socket path: ENXIO */
		return err_sys(errno, "cannot open %s", path);
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return err_sys(e, "cannot stat %s", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(S_ISDIR(st.st_mode) ? EISDIR : EINVAL, "%s is %s, not a regular file", path,
			       file_kind(st.st_mode));
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (stp)
		*stp = st;
	return fd;
}

int read_file(const char *path, size_t max, char **bufp, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	struct stat st;
	char *buf;
	int fd = open_regular(path, &st);

	if (fd < 0)
		return fd;
	if (st.st_size > 0 && (uint64_t)st.st_size > max) {
		close(fd);
		return err_set(EFBIG, "%s is %lld bytes, over the limit of %zu bytes", path, (long long)st.st_size, max);
	}
	if (st.st_size > 0 && (size_t)st.st_size < max)
		cap = (size_t)st.st_size + 1; /* one read, and one more to see the end */
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

size_t str_printable_len(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n, i;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0; /* controls, DEL, continuation or overlong lead bytes */
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xc2 && p[1] < 0xa0) ||            /* C1 controls U+0080..U+009F */
	    (c == 0xe0 && p[1] < 0xa0) ||            /* overlong */
	    (c == 0xed && p[1] >= 0xa0) ||           /* surrogates */
	    (c == 0xf0 && p[1] < 0x90) ||            /* overlong */
	    (c == 0xf4 && p[1] >= 0x90))             /* beyond U+10FFFF */
		return 0;
	return n;
}

bool str_needs_escape(const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = str_printable_len(p);

		if (!n && !(keep && strchr(keep, *p)))
			return true;
		p += n ? n : 1;
	}
	return false;
}

size_t str_escape_piece(const unsigned char *p, const char *keep, bool escaping, char piece[5])
{
	size_t n = str_printable_len(p);

	if (!n && keep && strchr(keep, *p))
		n = 1;
	if (!n) {
		snprintf(piece, 5, "\\x%02x", *p);
		return 1;
	}
	if (escaping && *p == '\\') {
		memcpy(piece, "\\\\", 3);
		return 1;
	}
	memcpy(piece, p, n);
	piece[n] = 0;
	return n;
}

char *str_escape(char *out, size_t size, const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;
	bool escaping = str_needs_escape(s, keep);
	size_t o = 0;

	if (!size)
		return out;
	while (*p) {
		char piece[5];
		size_t used = str_escape_piece(p, keep, escaping, piece), n = strlen(piece);

		if (o + n >= size)
			break; /* never half an escape or half a character */
		memcpy(out + o, piece, n);
		o += n;
		p += used;
	}
	out[o] = 0;
	return out;
}

void fputs_escaped(const char *s, const char *keep, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	bool escaping = str_needs_escape(s, keep);

	while (*p) {
		char piece[5];

		p += str_escape_piece(p, keep, escaping, piece);
		fputs(piece, f);
	}
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
