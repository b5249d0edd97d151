/* applet syncsnoop: trace sync syscalls
 * readme: sync, fsync, fdatasync, msync, sync_file_range and syncfs calls (not in Debian's 0.26:
 *         upstream's later layout; TIME(s) exact where upstream rounds it through a float)
 *
 * libbpf-tools' (2024) columns: TIME(s) is the monotonic clock in
 * seconds, COMM, the call.  Upstream computes the time in single
 * precision, which rounds it to about a millisecond after a few hours of
 * uptime; it is printed exactly here, in the same format. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "syncsnoop.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(syncsnoop);

static const struct opt opts[] = {
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help]",
	.examples = "    syncsnoop  # trace sync syscalls\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)arg;
	(void)ctx;
	switch (key) {
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

static const char *const call_names[] = {
	[SYNCSNOOP_SYNC] = "sync",
	[SYNCSNOOP_FSYNC] = "fsync",
	[SYNCSNOOP_FDATASYNC] = "fdatasync",
	[SYNCSNOOP_MSYNC] = "msync",
	[SYNCSNOOP_SYNC_FILE_RANGE] = "sync_file_range",
	[SYNCSNOOP_SYNCFS] = "syncfs",
};

enum { C_TIME, C_COMM, C_CALL, C_PID, C_TID };
static const struct out_col cols[] = {
	[C_TIME] = { "ts_s", "TIME(s)", "%-18.9f ", OUT_FLOAT, .hfmt = "%-18s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_CALL] = { "call", "CALL", "%-16s\n", OUT_STR, .hfmt = "%s\n" },
	[C_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct syncsnoop_event e;
	char comm[EV_COMM_LEN + 1];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].f = (double)e.ts_us / 1e6;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_CALL].s = e.call < ARRAY_SIZE(call_names) && call_names[e.call] ? call_names[e.call] : "N/A";
	v[C_PID].i = e.pid;
	v[C_TID].i = e.tid;
	out_row(&table, v);
	return 0;
}

int syncsnoop_main(int argc, char **argv)
{
	struct tool_events te = { "syncsnoop", NULL, NULL, on_event, &table };

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	return tool_run_events(BPF_OBJ_OPEN(syncsnoop), &te);
}
