/* applet runqslower: trace high run queue latency
 * readme: threads that waited on a run queue longer than `min_us` (default 10000), with the
 *         thread they replaced (`-P`); per process (`-p`) or thread (`-t`)
 *
 * libbpf-tools' flags and output (0.26): the banner and header on stdout,
 * TIME the wall clock when the event is read, TID the thread switched in,
 * LAT(us) how long it was runnable and not running.  Kernel side:
 * runqslower.bpf.c, on the sched tracepoints (no kprobe needed). */
#include <limits.h>
#include <stdio.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "runqslower.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(runqslower);

static struct {
	long long min_us;
	int pid;
	int tid;
	int previous; /* -P */
} env = { .min_us = 10000 };

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 'P', "previous", NULL, "also show previous task name and TID" },
	{ 't', "tid", "TID", "Thread TID to trace" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-t TID] [-P] [min_us]",
	.examples = "    runqslower         # trace latency higher than 10000 us (default)\n"
		    "    runqslower 1000    # trace latency higher than 1000 us\n"
		    "    runqslower -p 123  # trace pid 123\n"
		    "    runqslower -t 123  # trace tid 123 (use for threads only)\n"
		    "    runqslower -P      # also show previous task name and TID\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	static int positional;

	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'P': env.previous = 1; break;
	case 0: env.min_us = opt_one_num(&help, &positional, "delay (in us)", arg, 1, LLONG_MAX); break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools ends the line after LAT(us) or after PREV TID: the line
 * end is a column of its own, so -P only switches the two on. */
enum { C_TIME, C_COMM, C_TID, C_LAT, C_PREV_COMM, C_PREV_TID, C_EOL };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_TID] = { "tid", "TID", "%-6d ", OUT_INT },
	[C_LAT] = { "lat_us", "LAT(us)", "%14llu", OUT_UINT },
	[C_PREV_COMM] = { "prev_comm", "PREV COMM", " %-16s", OUT_STR, .hfmt = " %-16s" },
	[C_PREV_TID] = { "prev_tid", "PREV TID", " %-6d", OUT_INT, .hfmt = " %-6s" },
	[C_EOL] = { NULL, "", "%s\n", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%s\n" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct runqslower_event e;
	char comm[EV_COMM_LEN + 1], prev[EV_COMM_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_COMM].s = ev_comm(comm, e.task);
	v[C_TID].i = e.pid;
	v[C_LAT].u = e.delta_us;
	v[C_PREV_COMM].s = ev_comm(prev, e.prev_task);
	v[C_PREV_TID].i = e.prev_pid;
	v[C_EOL].s = "";
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	(void)o;
	out_info("Tracing run queue latency higher than %lld us\n", env.min_us);
	return 0;
}

int runqslower_main(int argc, char **argv)
{
	struct tool_events te = { "runqslower", NULL, after_load, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	/* without kernel BTF the perf tracepoints (runqslower.bpf.c) */
	bool tp = tool_no_kbtf();
	static const char *const progs[] = { "runqslower_wakeup", "runqslower_wakeup_new", "runqslower_switch" };
	char nm[32];

	if (tp && env.pid) {
		tool_err("runqslower", "-p reads task_struct (a woken thread's process), and this kernel has no "
			 "BTF: trace its threads with -t, or pass --btf FILE ('corebox btf min' makes one, see README)");
		return 1;
	}
	o = BPF_OBJ_OPEN(runqslower);
	for (int i = 0; i < 3; i++) {
		snprintf(nm, sizeof(nm), "%s%s", progs[i], tp ? "" : "_tp");
		prog_set_autoload(obj_prog(o, nm), false);
	}
	OBJ_SET(o, min_us, (uint64_t)env.min_us);
	OBJ_SET(o, targ_pid, (uint32_t)env.pid);
	OBJ_SET(o, targ_tid, (uint32_t)env.tid);
	out_show(&table, C_PREV_COMM, env.previous);
	out_show(&table, C_PREV_TID, env.previous);
	return tool_run_events(o, &te);
}
