/* applet compactsnoop: trace memory compaction with latency and result
 * readme: memory compaction per zone: order, mode, latency, result (`-K` stacks)
 *
 * bcc's compactsnoop: flags, columns, -K stacks; -e is not offered, its
 * fragmentation index needs a kretprobe: see extfrag for the index. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/stack/stacks.h"
#include "compactsnoop.h"
#include "memtool.h"

BPF_OBJ_DECLARE(compactsnoop);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'd', "duration", "DURATION", "total duration of trace in seconds" },
	{ 'K', "kernel-stack", NULL, "output kernel stack trace" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-p PID] [-d DURATION] [-K]",
	.examples = "    compactsnoop          # trace all compact stall\n"
		    "    compactsnoop -T       # include timestamps\n"
		    "    compactsnoop -d 10    # trace for 10 seconds only\n"
		    "    compactsnoop -K       # output kernel stack trace\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	bool timestamp, stack;
	int pid;
	long duration;
	unsigned long long first_ns;
	struct mem_zone zones[64];
	int nzones;
	struct stacks stacks;
	struct strbuf frames;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.timestamp = true; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'd': env.duration = (long)opt_num(&help, "DURATION", arg, 1, INT_MAX); break;
	case 'K': env.stack = true; break;
	default: return 1;
	}
	return 0;
}

/* include/linux/compaction.h, as the tracepoint prints them */
static const char *status_name(int status, char *buf, size_t size)
{
	static const char *const names[] = { "not_suitable_zone", "skipped", "deferred",
					     "no_suitable_page", "continue", "complete",
					     "partial_skipped", "contended", "success" };

	if (status >= 0 && status < (int)ARRAY_SIZE(names))
		return names[status];
	snprintf(buf, size, "%d", status);
	return buf;
}

enum { C_TS, C_COMM, C_PID, C_TID, C_NODE, C_ZONE, C_ORDER, C_MODE, C_LAT, C_STATUS, C_GFP, C_STACK };
static const struct out_col cols[] = {
	[C_TS] = { "time_s", "TIME(s)", "%-14.9f ", OUT_FLOAT },
	[C_COMM] = { "comm", "COMM", "%-14.14s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-6lld ", OUT_INT, .hfmt = "%-6s " },
	[C_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_NODE] = { "node", "NODE", "%-4lld ", OUT_INT, .hfmt = "%-4s " },
	[C_ZONE] = { "zone", "ZONE", "%-12s ", OUT_STR },
	[C_ORDER] = { "order", "ORDER", "%-5lld ", OUT_INT, .hfmt = "%-5s " },
	[C_MODE] = { "mode", "MODE", "%-7s ", OUT_STR },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%9.3f ", OUT_FLOAT, .hfmt = "%9s " },
	[C_STATUS] = { "status", "STATUS", "%16s\n", OUT_STR },
	[C_GFP] = { "gfp", NULL, NULL, OUT_HEX, OUT_JSON_ONLY },
	[C_STACK] = { "stack", NULL, NULL, OUT_STRV, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* The frames of a kernel stack, NUL-separated, into b; how many. */
static int stack_frames(int32_t id, struct strbuf *b)
{
	const uint64_t *ips;
	char sym[256];
	int n = stacks_read(&env.stacks, id, 1, &ips);

	strbuf_reset(b);
	for (int i = 0; i < n; i++) {
		stacks_ksym(&env.stacks, ips[i], sym, sizeof(sym));
		strbuf_addn(b, sym, strlen(sym) + 1);
	}
	return n < 0 ? 0 : n;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	const struct compactsnoop_event *e = data;
	union out_val v[ARRAY_SIZE(cols)] = { { 0 } };
	char comm[EV_COMM_LEN + 1], zone[32], st[16];
	int nid = e->nid, idx = e->idx;

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	if (!env.first_ns)
		env.first_ns = e->ts_ns;
	if (nid < 0) /* resolve the zone from its first pfn */
		for (int i = 0; i < env.nzones; i++)
			if (env.zones[i].populated && env.zones[i].start_pfn == e->zone_start) {
				nid = env.zones[i].node;
				idx = env.zones[i].idx;
			}
	v[C_TS].f = (double)(e->ts_ns - env.first_ns) / 1e9;
	v[C_COMM].s = ev_comm(comm, e->comm);
	v[C_PID].i = e->pid;
	v[C_TID].i = e->tid;
	v[C_NODE].i = nid;
	v[C_ZONE].s = mem_zone_name(env.zones, env.nzones, nid, idx, zone, sizeof(zone));
	v[C_ORDER].i = e->order;
	v[C_MODE].s = e->sync ? "SYNC" : "ASYNC";
	v[C_LAT].f = (double)e->delta_ns / 1e6;
	v[C_STATUS].s = status_name(e->status, st, sizeof(st));
	v[C_GFP].u = e->gfp;
	out_show(&table, C_GFP, e->gfp != 0);
	if (env.stack) {
		v[C_STACK].strv.n = stack_frames(e->stack_id, &env.frames);
		v[C_STACK].strv.p = env.frames.s;
		v[C_STACK].strv.size = env.frames.len;
	}
	out_row(&table, v);
	if (env.stack && !out_json()) { /* bcc: a tab before each frame, a blank line after */
		const char *p = env.frames.s;

		for (int i = 0; i < v[C_STACK].strv.n; i++, p += strlen(p) + 1)
			printf("\t%s\n", p);
		printf("\n");
	}
	return 0;
}

/* -K: the stack map is read once loaded. */
static int after_load(struct obj *o)
{
	if (env.stack &&
	    stacks_init(&env.stacks, map_fd(obj_map(o, "stackmap")), 127, STACKS_SKIP_TRACE | STACKS_OFFSET |
			STACKS_NO_USER) < 0) {
		tool_err("compactsnoop", "%s", err_msg());
		return -1;
	}
	return 0;
}

int compactsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = "compactsnoop",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	env.nzones = mem_zones(env.zones, (int)ARRAY_SIZE(env.zones));
	o = BPF_OBJ_OPEN(compactsnoop);
	OBJ_SET(o, targ_tgid, (uint32_t)env.pid);
	OBJ_SET(o, kernel_stack, (uint8_t)env.stack);
	if (!env.stack)
		map_set_max_entries(obj_map(o, "stackmap"), 1);
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_STACK, env.stack);
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	ret = tool_run_events(o, &te);
	if (env.stack) {
		stacks_report_missed(&env.stacks, stderr);
		stacks_fini(&env.stacks);
	}
	strbuf_free(&env.frames);
	return ret;
}
