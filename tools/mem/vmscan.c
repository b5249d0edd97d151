/* applet vmscan: measure VM scanner shrink and reclaim times per interval
 * readme: per interval: ms in slab shrinking, direct and memcg reclaim; kswapd wake-ups;
 *         page writes
 *
 * The BPF Performance Tools book's vmscan.bt: its header, columns and the
 * duration histograms printed at the end. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "memtool.h"
#include "vmscan.h"

BPF_OBJ_DECLARE(vmscan);

static const struct opt opts[] = {
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [interval [count]]",
	.summary = "Measure VM scanner shrink and reclaim times: each interval (1 s by default) the "
		   "milliseconds spent shrinking slab caches, in direct reclaim and in memory cgroup "
		   "reclaim, kswapd wake-ups and pages written by reclaim; duration histograms at the end.",
	.examples = "    vmscan          # a line per second until Ctrl-C\n"
		    "    vmscan 5 12     # 5-second lines, 12 times\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	long interval, count;
	int npos;
} env = { .interval = 1, .count = -1 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	if (key != 0)
		return 1;
	if (env.npos == 0)
		env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX);
	else if (env.npos == 1)
		env.count = (long)opt_num(&help, "count", arg, 1, INT_MAX);
	else
		return 1;
	env.npos++;
	return 0;
}

enum { C_TIME, C_SLAB, C_DIRECT, C_MEMCG, C_KSWAPD, C_WRITE, C_SLAB_NS, C_DIRECT_NS, C_MEMCG_NS, C_END };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s   ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-10s " },
	[C_SLAB] = { NULL, "S-SLABms", "%10llu ", OUT_UINT, OUT_TEXT_ONLY },
	[C_DIRECT] = { NULL, "D-RECLAIMms", "%12llu ", OUT_UINT, OUT_TEXT_ONLY },
	[C_MEMCG] = { NULL, "M-RECLAIMms", "%12llu ", OUT_UINT, OUT_TEXT_ONLY },
	[C_KSWAPD] = { "kswapd_wakeups", "KSWAPD", "%6llu ", OUT_UINT, OUT_COUNTER,
		       .help = "kswapd wake-ups" },
	[C_WRITE] = { "writepages", "WRITEPAGE", "%9llu", OUT_UINT, OUT_COUNTER,
		      .help = "pages written by reclaim" },
	[C_SLAB_NS] = { "shrink_slab_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
			.help = "time spent shrinking slab caches",
			.metric = &(const struct out_metric){ "shrink_slab_seconds", 1e-9 } },
	[C_DIRECT_NS] = { "direct_reclaim_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
			  .help = "time spent in direct reclaim",
			  .metric = &(const struct out_metric){ "direct_reclaim_seconds", 1e-9 } },
	[C_MEMCG_NS] = { "memcg_reclaim_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
			 .help = "time spent in memory cgroup reclaim",
			 .metric = &(const struct out_metric){ "memcg_reclaim_seconds", 1e-9 } },
	[C_END] = { NULL, "", "\n", OUT_STR, OUT_TEXT_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static const struct out_hist hists[VMSCAN_NR] = {
	[VMSCAN_SLAB] = { "shrink_slab_latency", "slab shrinking durations", "nsecs" },
	[VMSCAN_DIRECT] = { "direct_reclaim_latency", "direct reclaim durations", "nsecs" },
	[VMSCAN_MEMCG] = { "memcg_reclaim_latency", "memory cgroup reclaim durations", "nsecs" },
};

/* The per-CPU totals summed. */
static int read_stats(int fd, int ncpu, struct vmscan_stats *sum)
{
	struct vmscan_stats *per = xcalloc((size_t)ncpu, sizeof(*per));
	uint32_t zero = 0;
	int r = bpf_map_lookup(fd, &zero, per);

	memset(sum, 0, sizeof(*sum));
	for (int c = 0; r == 0 && c < ncpu; c++) {
		for (int k = 0; k < VMSCAN_NR; k++) {
			sum->ns[k] += per[c].ns[k];
			sum->count[k] += per[c].count[k];
		}
		sum->kswapd_wakeups += per[c].kswapd_wakeups;
		sum->writepages += per[c].writepages;
	}
	free(per);
	return r;
}

static void print_row(const struct vmscan_stats *now, const struct vmscan_stats *prev)
{
	union out_val v[ARRAY_SIZE(cols)] = { { 0 } };
	char hms[16];
	uint64_t ns[VMSCAN_NR];

	for (int k = 0; k < VMSCAN_NR; k++)
		ns[k] = now->ns[k] - prev->ns[k];
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_SLAB].u = ns[VMSCAN_SLAB] / 1000000;
	v[C_DIRECT].u = ns[VMSCAN_DIRECT] / 1000000;
	v[C_MEMCG].u = ns[VMSCAN_MEMCG] / 1000000;
	v[C_KSWAPD].u = now->kswapd_wakeups - prev->kswapd_wakeups;
	v[C_WRITE].u = now->writepages - prev->writepages;
	v[C_SLAB_NS].u = ns[VMSCAN_SLAB];
	v[C_DIRECT_NS].u = ns[VMSCAN_DIRECT];
	v[C_MEMCG_NS].u = ns[VMSCAN_MEMCG];
	out_doc_begin();
	out_row(&table, v);
	out_doc_end();
}

/* At the end, as bpftrace prints the script's histogram maps. */
static void print_hists(int fd, const struct vmscan_stats *total)
{
	static const char *const names[VMSCAN_NR] = { "@shrink_slab_ns", "@direct_reclaim_ns",
						      "@memcg_reclaim_ns" };
	struct vmscan_hist h;
	char head[64];

	if (!total->count[VMSCAN_SLAB] && !total->count[VMSCAN_DIRECT] && !total->count[VMSCAN_MEMCG])
		return;
	out_doc_begin();
	for (uint32_t k = 0; k < VMSCAN_NR; k++) {
		double sum = (double)total->ns[k];

		if (bpf_map_lookup(fd, &k, &h) < 0 || !total->count[k])
			continue;
		snprintf(head, sizeof(head), "\n%s:\n", names[k]);
		out_hist(&hists[k], head, NULL, 0, h.slots, VMSCAN_SLOTS, &sum);
	}
	out_doc_end();
}

int vmscan_main(int argc, char **argv)
{
	struct vmscan_stats prev, now;
	struct obj *o;
	int ncpu, fd, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	ncpu = cpus_possible();
	if (ncpu < 1) {
		tool_err("vmscan", "cannot read the possible CPUs");
		return 1;
	}
	tool_signals();
	o = BPF_OBJ_OPEN(vmscan);
	/* the page-write tracepoint was renamed with folios (5.18..6.x) */
	if (!perf_tp_exists("vmscan", "mm_vmscan_write_folio")) {
		err_clear();
		if (perf_tp_exists("vmscan", "mm_vmscan_writepage"))
			prog_set_attach_target(obj_prog(o, "write_folio"), "mm_vmscan_writepage");
		else
			prog_set_autoload(obj_prog(o, "write_folio"), false);
		err_clear();
	}
	if (tool_load_attach(o, "vmscan"))
		return 1;
	fd = map_fd(obj_map(o, "stats"));
	if (read_stats(fd, ncpu, &prev) < 0) {
		tool_err("vmscan", "cannot read the totals: %s", strerror(errno));
		obj_close(o);
		return 1;
	}
	out_info("Attaching 10 probes...\n");
	out_header(&table);
	tool_flush();
	for (long n = 0; !tool_exiting; n++) {
		tool_sleep_ms(env.interval * 1000);
		if (tool_exiting)
			break; /* as bpftrace: Ctrl-C ends without a partial line */
		if (read_stats(fd, ncpu, &now) < 0) {
			tool_err("vmscan", "cannot read the totals: %s", strerror(errno));
			ret = 1;
			break;
		}
		print_row(&now, &prev);
		prev = now;
		if (tool_flush() < 0 || (env.count > 0 && n + 1 >= env.count))
			break;
	}
	if (!ret && read_stats(fd, ncpu, &now) == 0)
		print_hists(map_fd(obj_map(o, "hists")), &now);
	obj_close(o);
	return ret;
}
