/* applet dcsnoop: trace directory entry cache (dcache) lookups
 * readme: failed dcache lookups, or every one with `-a` (bcc's; fentry or kprobes on
 *         d_lookup and lookup_fast: no tracepoint has them)
 *
 * bcc's flags and output: TIME(s) since the start, PID, COMM, T (M a
 * miss, R a reference) and the name looked up.  On a kernel with neither
 * kprobes nor fentry the tool says so in one line. */
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "lib/util.h"
#include "dcache_funcs.h"
#include "dcsnoop.h"

BPF_OBJ_DECLARE(dcsnoop);

static const struct opt opts[] = {
	{ 'a', "all", NULL, "trace all lookups (default is fails only)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-a]",
	.examples = "    ./dcsnoop           # trace failed dcache lookups\n"
		    "    ./dcsnoop -a        # trace all dcache lookups\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static bool all;

static int parse(int key, const char *arg, void *ctx)
{
	(void)arg;
	(void)ctx;
	if (key != 'a')
		return 1;
	all = true;
	return 0;
}

enum { C_TIME, C_PID, C_COMM, C_T, C_FILE };
static const struct out_col cols[] = {
	[C_TIME] = { "time_s", "TIME(s)", "%-11.6f ", OUT_FLOAT, .hfmt = "%-11s " },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_T] = { "type", "T", "%s ", OUT_STR, .hfmt = "%1s " },
	[C_FILE] = { "file", "FILE", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct dcsnoop_event e;
	char comm[EV_COMM_LEN + 1], file[DCSNOOP_NAME_LEN + 1];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	memcpy(file, e.filename, sizeof(e.filename));
	file[sizeof(e.filename)] = 0;
	v[C_TIME].f = tool_elapsed();
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_T].s = e.type == DC_REFERENCE ? "R" : "M";
	v[C_FILE].s = file;
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	(void)o;
	out_header(&table);
	return 0;
}

int dcsnoop_main(int argc, char **argv)
{
	static const char *const d_lookup[] = { "d_lookup" };
	struct tool_events te = { "dcsnoop", .after_load = after_load, .on_event = on_event };
	enum kfunc_way fw = KFUNC_NONE, dw;
	const char *fast = NULL;
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_elapsed(); /* TIME(s) counts from here, as bcc's from its start */
	o = BPF_OBJ_OPEN(dcsnoop);
	kfunc_pick(o, d_lookup, 1, &dw);
	if (all)
		fast = dcache_lookup_fast(o, &fw);
	if (dw == KFUNC_NONE || (all && !fast)) {
		tool_err("dcsnoop", DCACHE_NO_WAY);
		obj_close(o);
		return 1;
	}
	prog_set_autoload(obj_prog(o, "fast_fentry"), fw == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "fast_kprobe"), fw == KFUNC_KPROBE);
	if (fast)
		prog_set_attach_target(obj_prog(o, fw == KFUNC_FENTRY ? "fast_fentry" : "fast_kprobe"), fast);
	prog_set_autoload(obj_prog(o, "d_lookup_fentry"), dw == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "d_lookup_fexit"), dw == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "d_lookup_kprobe"), dw == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(o, "d_lookup_kretprobe"), dw == KFUNC_KPROBE);
	if (tool_common.verbose) {
		fprintf(stderr, "dcsnoop: %s on d_lookup", dw == KFUNC_FENTRY ? "fentry/fexit" : "kprobe/kretprobe");
		if (fast)
			fprintf(stderr, ", %s on %s", kfunc_way_name(fw), fast);
		fprintf(stderr, "\n");
	}
	tool_signals();
	return tool_run_events(o, &te);
}
