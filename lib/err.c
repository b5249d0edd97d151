#include "err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One buffer is enough: corebox is single-threaded and reports one error. */
static char msg[4096];

static int vset(int errnum, const char *fmt, va_list ap)
{
	vsnprintf(msg, sizeof(msg), fmt, ap);
	return errnum > 0 ? -errnum : errnum ? errnum : -EINVAL;
}

int err_set(int errnum, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vset(errnum, fmt, ap);
	va_end(ap);
	return r;
}

int err_sys(int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	int r;

	if (errnum < 0)
		errnum = -errnum;
	va_start(ap, fmt);
	r = vset(errnum, fmt, ap);
	va_end(ap);
	n = strlen(msg);
	snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(errnum));
	return r;
}

int err_prefix(int neg_errnum, const char *fmt, ...)
{
	char old[sizeof(msg)];
	va_list ap;
	size_t n;

	memcpy(old, msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
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
