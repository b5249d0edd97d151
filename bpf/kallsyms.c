/* /proc/kallsyms, one line at a time (see kallsyms.h).  A hand parser
 * rather than sscanf: a stack report names thousands of addresses in one
 * pass over 120k lines, and sscanf is most of the time of such a pass. */
#include "kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parse the NUL-terminated line p in place (terminates the name and the
 * module): 1 with *s filled, 0 for a line that is not "ADDR T NAME...". */
static int parse_line(char *p, struct kallsym *s)
{
	char *q = p, *name, *mod, *llvm;
	int d;

	s->addr = 0;
	for (; (d = hexval((unsigned char)*q)) >= 0 && q - p < 16; q++)
		s->addr = s->addr << 4 | (unsigned)d;
	if (q == p || q[0] != ' ' || !q[1] || q[2] != ' ')
		return 0;
	s->type = q[1];
	name = q + 3;
	s->nlen = strcspn(name, " \t");
	if (!s->nlen || s->nlen > 4096)
		return 0;
	s->mod = NULL;
	s->mlen = 0;
	if (name[s->nlen]) {
		mod = name + s->nlen + strspn(name + s->nlen, " \t");
		if (*mod == '[') {
			size_t mlen = strcspn(mod + 1, "]");

			if (mlen && mlen <= 256) {
				mod[1 + mlen] = 0;
				s->mod = mod + 1;
				s->mlen = mlen;
			}
		}
	}
	name[s->nlen] = 0;
	/* LTO: "foo.llvm.123456" is the source's static foo */
	if ((llvm = strstr(name, ".llvm.")) && llvm > name) {
		*llvm = 0;
		s->nlen = (size_t)(llvm - name);
	}
	s->name = name;
	return 1;
}

int kallsyms_each(const char *path, kallsym_fn fn, void *ctx)
{
	enum { BUFSZ = 16384 };
	size_t have = 0;
	char *buf;
	int fd, err = 0, stop = 0;

	if (!path)
		path = "/proc/kallsyms";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	buf = xmalloc(BUFSZ + 1);
	while (!stop) {
		ssize_t n = read(fd, buf + have, BUFSZ - have);
		char *p, *nl;
		struct kallsym s;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = err_sys(errno, "cannot read %s", path);
			break;
		}
		have += (size_t)n;
		buf[have] = 0;
		for (p = buf; !stop && (nl = memchr(p, '\n', have - (size_t)(p - buf))) != NULL; p = nl + 1) {
			*nl = 0;
			if (parse_line(p, &s))
				stop = fn(ctx, &s);
		}
		if (stop)
			break;
		if (n == 0 || have - (size_t)(p - buf) == BUFSZ) { /* EOF, or an absurd line */
			if (p < buf + have && parse_line(p, &s))
				fn(ctx, &s);
			break;
		}
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
	}
	close(fd);
	free(buf);
	return err;
}
