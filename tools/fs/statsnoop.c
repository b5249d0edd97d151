/* applet statsnoop: trace stat syscalls
 * readme: stat-family calls (statfs, stat, lstat, fstatat, statx) with path and result (`-x`
 *         failures only; Debian's 0.26 build looks its tracepoints up under wrong names and
 *         shows none)
 *
 * libbpf-tools compatible flags and output: RET is the return value (-1
 * on failure), ERR the errno; -t seconds since the first event. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "statsnoop.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(statsnoop);

static struct {
	int timestamp; /* -t */
	int failed;    /* -x */
	int pid;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'x', "failed", NULL, "Only show failed stats" },
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-x] [-p PID]",
	.examples = "    statsnoop             # trace all stat syscalls\n"
		    "    statsnoop -t          # include timestamps\n"
		    "    statsnoop -x          # only show failed stats\n"
		    "    statsnoop -p 1216     # only trace PID 1216\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'x': env.failed = 1; break;
	case 't': env.timestamp = 1; break;
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

enum { C_TIME, C_PID, C_COMM, C_RET, C_ERR, C_PATH, C_SYSCALL, C_ERRNAME };
static const struct out_col cols[] = {
	[C_TIME] = { "ts_s", "TIME(s)", "%-14.9f ", OUT_FLOAT, .hfmt = "%-14s " },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-20s ", OUT_STR },
	[C_RET] = { "ret", "RET", "%-4d ", OUT_INT },
	[C_ERR] = { "err", "ERR", "%-4d ", OUT_INT },
	[C_PATH] = { "path", "PATH", "%-s\n", OUT_STR },
	[C_SYSCALL] = { "syscall", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_ERRNAME] = { "errno", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t first_ns;
	struct statsnoop_event e;
	char comm[EV_COMM_LEN + 1], path[STATSNOOP_PATH_LEN + 1];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	if (!first_ns)
		first_ns = e.ts_ns;
	memcpy(path, e.path, sizeof(e.path));
	path[sizeof(e.path)] = 0;
	v[C_TIME].f = (double)(e.ts_ns - first_ns) / 1e9;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_RET].i = e.ret >= 0 ? e.ret : -1;
	v[C_ERR].i = e.ret >= 0 ? 0 : -e.ret;
	v[C_PATH].s = path;
	v[C_SYSCALL].s = syscall_name(e.nr);
	v[C_ERRNAME].s = e.ret < 0 ? errno_name(-e.ret) : NULL;
	out_row(&table, v);
	return 0;
}

int statsnoop_main(int argc, char **argv)
{
	struct tool_events te = { "statsnoop", NULL, NULL, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(statsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, failed_only, (uint8_t)env.failed);
	out_show(&table, C_TIME, env.timestamp);
	return tool_run_events(o, &te);
}
