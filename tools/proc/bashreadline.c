/* applet bashreadline: print entered bash commands from all running shells
 * readme: lines bash's readline() returned, from every running shell (`-s` the libreadline
 *         a bash links)
 *
 * libbpf-tools' flags and output: TIME is the wall clock, COMMAND the line
 * (up to 79 bytes, as there).  A uretprobe on readline in /bin/bash (or
 * in the library -s names); kernel side: bashreadline.bpf.c. */
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "bashreadline.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(bashreadline);

static const char *shared = "/bin/bash"; /* -s */

static const struct opt opts[] = {
	{ 's', "shared", "PATH", "the location of libreadline.so library" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-s <path/to/libreadline.so>]",
	.examples = "    bashreadline\n"
		    "    bashreadline -s /usr/lib/libreadline.so\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 's': shared = arg; break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_PID, C_COMMAND };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-9s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMMAND] = { "command", "COMMAND", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct bashreadline_event e;
	char line[BASHREADLINE_LINE_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	memcpy(line, e.str, sizeof(e.str));
	line[sizeof(e.str)] = 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_COMMAND].s = line;
	out_row(&table, v);
	return 0;
}

int bashreadline_main(int argc, char **argv)
{
	struct tool_events te = { "bashreadline", NULL, NULL, on_event, &table };
	char target[4096 + 16];
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(bashreadline);
	snprintf(target, sizeof(target), "%s:readline", shared);
	prog_set_attach_target(obj_prog(o, "bashreadline_ret"), target);
	return tool_run_events(o, &te);
}
