/* applet drsnoop: trace direct memory reclaim with latency
 * readme: direct reclaim stalls with latency and pages reclaimed (`-M`: memory cgroup reclaim too)
 *
 * libbpf-tools flags and columns, plus bcc's -T and -n, and -M for memory
 * cgroup reclaim: a task over its cgroup's limit stalls the same way but
 * the kernel reports it on other tracepoints. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/kfunc.h"
#include "drsnoop.h"
#include "memtool.h"

BPF_OBJ_DECLARE(drsnoop);

static const struct opt opts[] = {
	{ 'd', "duration", "DURATION", "Total duration of trace in seconds" },
	{ 'e', "extended", NULL, "Extended fields output (FREE(KB): free memory when the reclaim began)" },
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 't', "tid", "TID", "Thread TID to trace" },
	{ 'T', "timestamp", NULL, "Include a TIME(s) column: seconds since the first event" },
	{ 'n', "name", "NAME", "Only print process names containing this name" },
	{ 'M', "memcg", NULL, "Also trace memory cgroup reclaim (tasks over their cgroup's limit), with a TYPE column" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-t TID] [-d DURATION] [-e] [-T] [-n NAME] [-M]",
	.examples = "    drsnoop         # trace all direct reclaim events\n"
		    "    drsnoop -p 123  # trace pid 123\n"
		    "    drsnoop -t 123  # trace tid 123 (use for threads only)\n"
		    "    drsnoop -d 10   # trace for 10 seconds only\n"
		    "    drsnoop -e      # trace all direct reclaim events with extended fields\n"
		    "    drsnoop -M      # memory cgroup reclaim too (containers at their limit)\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	long duration;
	int pid, tid;
	bool extended, timestamp, memcg;
	const char *name;
	long page_kb;
	bool free_from_vmstat; /* vm_zone_stat not in kallsyms: read /proc/vmstat */
	unsigned long long first_ns;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': env.duration = (long)opt_num(&help, "DURATION", arg, 1, INT_MAX); break;
	case 'e': env.extended = true; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'T': env.timestamp = true; break;
	case 'n': env.name = arg; break;
	case 'M': env.memcg = true; break;
	default: return 1;
	}
	return 0;
}

enum { C_TS, C_TIME, C_COMM, C_TID, C_PID, C_LAT, C_PAGES, C_FREE, C_TYPE, C_END };
static const struct out_col cols[] = {
	[C_TS] = { "time_s", "TIME(s)", "%-14.9f", OUT_FLOAT, .hfmt = "%-14s" },
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_TID] = { "tid", "TID", "%-6d ", OUT_INT },
	[C_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%8.3f ", OUT_FLOAT },
	[C_PAGES] = { "pages", "PAGES", "%5llu", OUT_UINT },
	[C_FREE] = { "free_kb", "FREE(KB)", " %8llu", OUT_UINT },
	[C_TYPE] = { "type", "TYPE", " %s", OUT_STR },
	[C_END] = { NULL, "", "\n", OUT_STR, OUT_TEXT_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	const struct drsnoop_event *e = data;
	union out_val v[ARRAY_SIZE(cols)] = { { 0 } };
	char comm[EV_COMM_LEN + 1], hms[16];
	unsigned long long free_pages;

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	ev_comm(comm, e->comm);
	if (env.name && !strstr(comm, env.name))
		return 0;
	if (!env.first_ns)
		env.first_ns = e->ts_ns;
	free_pages = e->nr_free_pages;
	if (env.extended && env.free_from_vmstat) {
		long long f = mem_vmstat("nr_free_pages");

		free_pages = f > 0 ? (unsigned long long)f : 0;
	}
	v[C_TS].f = (double)(e->ts_ns - env.first_ns) / 1e9;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_COMM].s = comm;
	v[C_TID].i = e->tid;
	v[C_PID].i = e->tgid;
	v[C_LAT].f = (double)e->delta_ns / 1e6;
	v[C_PAGES].u = e->nr_reclaimed;
	v[C_FREE].u = free_pages * (unsigned long long)env.page_kb;
	v[C_TYPE].s = e->memcg ? "memcg" : "direct";
	out_row(&table, v);
	return 0;
}

/* Where FREE(KB) comes from when it cannot be read in the kernel; the
 * banner. */
static int after_load(struct obj *o)
{
	(void)o;
	if (env.free_from_vmstat)
		fprintf(stderr, "drsnoop: vm_zone_stat is not in /proc/kallsyms (no CONFIG_KALLSYMS_ALL): "
			"FREE(KB) is read from /proc/vmstat when each event is printed\n");
	if (env.duration)
		out_info("Tracing %s reclaim events for %ld secs.\n", env.memcg ? "direct and memcg" : "direct",
			 env.duration);
	else
		out_info("Tracing %s reclaim events... Hit Ctrl-C to end.\n",
			 env.memcg ? "direct and memcg" : "direct");
	return 0;
}

int drsnoop_main(int argc, char **argv)
{
	static const char *const zone_stat = "vm_zone_stat";
	struct tool_events te = { .name = "drsnoop",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct obj *o;
	uint64_t kaddr = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	env.page_kb = sysconf(_SC_PAGESIZE) / 1024;
	tool_signals();

	o = BPF_OBJ_OPEN(drsnoop);
	OBJ_SET(o, targ_tgid, (uint32_t)env.pid);
	OBJ_SET(o, targ_tid, (uint32_t)env.tid);
	if (env.extended) {
		/* the free page counter is a kernel variable: its address is
		 * in kallsyms only with CONFIG_KALLSYMS_ALL */
		if (ksym_addrs(&zone_stat, 1, &kaddr) == 1)
			OBJ_SET(o, vm_zone_stat_kaddr, (uint64_t)kaddr);
		else
			env.free_from_vmstat = true;
	}
	if (!env.memcg) {
		prog_set_autoload(obj_prog(o, "memcg_begin"), false);
		prog_set_autoload(obj_prog(o, "memcg_end"), false);
	}
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_FREE, env.extended);
	out_show(&table, C_TYPE, env.memcg);
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	return tool_run_events(o, &te);
}
