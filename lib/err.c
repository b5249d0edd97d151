#include "err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "util.h"

/* One buffer is enough: corebox is single-threaded and reports one error. */
static char msg[4096];

/* Messages quote names and text from untrusted files (section, program,
 * map and type names; verifier logs citing source lines): every piece
 * formatted into a message is escaped (str_escape), so no raw control
 * byte or terminal escape ever reaches the screen.  keep: "" for one-line
 * messages, "\n" for the few that are multi-line on purpose. */
static void vformat(char *out, size_t size, const char *keep, const char *fmt, va_list ap)
{
	char raw[sizeof(msg)];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	str_escape(out, size, raw, keep);
}

static int ret(int errnum)
{
	return errnum > 0 ? -errnum : errnum ? errnum : -EINVAL;
}

int err_set(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(msg, sizeof(msg), "", fmt, ap);
	va_end(ap);
	return ret(errnum);
}

int err_set_lines(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(msg, sizeof(msg), "\n", fmt, ap);
	va_end(ap);
	return ret(errnum);
}

/* What to do about the errors that are about this process, not the
 * operation: out of file descriptors. */
static const char *hint(int errnum, char *buf, size_t size)
{
	struct rlimit rl;

	if (errnum == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(buf, size, " (the limit on open files is %llu: raise it with ulimit -n%s)",
			 (unsigned long long)rl.rlim_cur, rl.rlim_cur < 1024 ? ", e.g. ulimit -n 1024" : "");
		return buf;
	}
	if (errnum == ENFILE)
		return " (the system's file table is full)";
	return "";
}

int err_sys(int errnum, const char *fmt, ...)
{
	char h[128];
	va_list ap;
	size_t n;
	int r;

	if (errnum < 0)
		errnum = -errnum;
	va_start(ap, fmt);
	vformat(msg, sizeof(msg), "", fmt, ap);
	va_end(ap);
	r = ret(errnum);
	n = strlen(msg);
	snprintf(msg + n, sizeof(msg) - n, ": %s%s", strerror(errnum), hint(errnum, h, sizeof(h)));
	return r;
}

int err_prefix(int neg_errnum, const char *fmt, ...)
{
	char old[sizeof(msg)];
	va_list ap;
	size_t n;

	memcpy(old, msg, sizeof(old)); /* already escaped */
	va_start(ap, fmt);
	vformat(msg, sizeof(msg), "", fmt, ap);
	va_end(ap);
	n = strlen(msg);
	if (old[0] && n + 2 < sizeof(msg)) {
		memcpy(msg + n, ": ", 2);
		n += 2;
		old[sizeof(old) - 1 - n] = 0; /* truncate to fit */
		memcpy(msg + n, old, strlen(old) + 1);
	}
	return neg_errnum;
}

const char *err_msg(void)
{
	return msg;
}

void err_clear(void)
{
	msg[0] = 0;
}
