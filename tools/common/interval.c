#include "interval.h"

#include <limits.h>
#include <stdio.h>

#include "common.h"

int interval_loop(const struct interval *iv, int (*report)(void *ctx), void *ctx)
{
	long times = iv->times;
	int ret = 0;

	for (;;) {
		tool_sleep_ms(iv->seconds * 1000);
		if (tool_stdout_gone())
			break;
		out_doc_begin();
		if (!iv->rows) {
			out_text("\n");
			if (iv->timestamp) {
				char ts[16];

				out_text("%-8s\n", tool_hms(ts, sizeof(ts)));
			}
		}
		if (report(ctx) < 0) {
			ret = 1;
			if (iv->keep_going)
				break;
		}
		if (out_doc_end() < 0)
			ret = 1;
		tool_flush();
		if ((ret && !iv->keep_going) || tool_exiting || --times == 0)
			break;
	}
	return ret;
}

void interval_arg(const struct tool_help *h, struct interval *iv, int *npos, const char *arg)
{
	if (*npos == 0)
		iv->seconds = (long)opt_num(h, "interval", arg, 1, INT_MAX);
	else if (*npos == 1)
		iv->times = (long)opt_num(h, "count", arg, 1, INT_MAX);
	else
		opt_usage_error(h, "unrecognized positional argument: %s", arg);
	(*npos)++;
}

void interval_loadavg_line(void)
{
	char buf[256] = "", hms[16];
	FILE *f = fopen("/proc/loadavg", "r");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n)
		out_text("%8s loadavg: %s\n", tool_hms(hms, sizeof(hms)), buf);
}
