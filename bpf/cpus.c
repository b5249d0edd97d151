/* CPU lists as the kernel prints them: "0-3,8-11\n", "0", "". */
#include "cpus.h"

#include <errno.h>
#include <stdlib.h>

#include "err.h"
#include "util.h"

#define CPU_ID_MAX (1 << 16) /* far above any real NR_CPUS */

static int num(const char **s, long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtol(*s, &end, 10);
	if (errno || *v < 0 || *v >= CPU_ID_MAX)
		return -1;
	*s = end;
	return 0;
}

int cpus_parse(const char *s, bool *mask, int n)
{
	const char *p = s;
	int top = 0;
	long a, b, i;

	if (mask)
		for (i = 0; i < n; i++)
			mask[i] = false;
	while (*p == ' ')
		p++;
	while (*p && *p != '\n') {
		if (num(&p, &a) < 0)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (num(&p, &b) < 0 || b < a)
				goto bad;
		}
		if (mask && b >= n)
			return err_set(EINVAL, "cpu list '%s': cpu %ld beyond %d", s, b, n - 1);
		for (i = a; mask && i <= b; i++)
			mask[i] = true;
		if (b + 1 > top)
			top = (int)b + 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	return top;
bad:
	return err_set(EINVAL, "bad cpu list '%s'", s);
}

int cpus_possible(void)
{
	static int cached;
	char buf[1024];
	int r;

	if (cached > 0)
		return cached;
	r = read_line("/sys/devices/system/cpu/possible", buf, sizeof(buf));
	if (r < 0)
		return r;
	r = cpus_parse(buf, NULL, 0);
	if (r <= 0)
		return r < 0 ? r : err_set(EINVAL, "no possible cpus in '%s'", buf);
	return cached = r;
}

int cpus_online(bool *online, int n)
{
	char buf[1024];
	int r, i, cnt = 0;

	r = read_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (r < 0)
		return r;
	/* Parse unbounded first so ids >= n are ignored, not an error. */
	bool *tmp = xcalloc((size_t)CPU_ID_MAX, sizeof(bool));
	r = cpus_parse(buf, tmp, CPU_ID_MAX);
	if (r >= 0)
		for (i = 0; i < n; i++) {
			online[i] = tmp[i];
			cnt += tmp[i];
		}
	free(tmp);
	return r < 0 ? r : cnt;
}
