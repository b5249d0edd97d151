/* applet biosnoop: trace block device I/O with latency, one line per request
 * readme: every block request: process, disk, type (`R`, `WS`, ...), sector, bytes, latency
 *         (`-Q` queue time)
 *
 * libbpf-tools compatible flags and output. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "blk.h"
#include "biosnoop.h"

BPF_OBJ_DECLARE(biosnoop);

static const struct opt opts[] = {
	{ 'Q', "queued", NULL, "Include OS queued time in I/O time" },
	{ 'd', "disk", "DISK", "Trace this disk only (name or MAJ:MIN)" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 'm', "min", "MIN", "Min latency to trace, in ms" },
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-Q] [-t] [-d DISK] [-c CG] [-m MIN] [DURATION]",
	.examples =
		"    biosnoop              # trace all block I/O\n"
		"    biosnoop -Q           # include OS queued time in I/O time\n"
		"    biosnoop -t           # use timestamps instead\n"
		"    biosnoop 10           # trace for 10 seconds only\n"
		"    biosnoop -d sdc       # trace sdc only\n"
		"    biosnoop -d 259:0     # trace the disk with major 259, minor 0 only\n"
		"    biosnoop -c CG        # Trace process under cgroupsPath CG\n"
		"    biosnoop -m 1         # trace for slower than 1ms\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	bool queued, timestamp;
	const char *disk, *cgroup;
	long long min_ms;
	long duration;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'Q': env.queued = true; break;
	case 't': env.timestamp = true; break;
	case 'd': blk_disk_opt(&help, &env.disk, arg); break;
	case 'c': env.cgroup = arg; break;
	case 'm': env.min_ms = opt_num(&help, "latency (in ms)", arg, 0, LLONG_MAX / 1000000); break;
	case 0:
		if (env.duration)
			opt_usage_error(&help, "unrecognized positional argument: %s", arg);
		env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX);
		break;
	default:
		return 1;
	}
	return 0;
}

enum { C_TS, C_TIME, C_COMM, C_PID, C_DISK, C_RWBS, C_SECTOR, C_BYTES, C_QUE, C_LAT };
static const struct out_col cols[] = {
	[C_TS] = { "time_s", "TIME(s)", "%-11.6f ", OUT_FLOAT },
	[C_TIME] = { NULL, "TIMESTAMP", "%-12s ", OUT_STR, OUT_TEXT_ONLY },
	[C_COMM] = { "comm", "COMM", "%-14.14s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_DISK] = { "disk", "DISK", "%-7s ", OUT_STR },
	[C_RWBS] = { "rwbs", "T", "%-4s ", OUT_STR },
	[C_SECTOR] = { "sector", "SECTOR", "%-10lld ", OUT_INT },
	[C_BYTES] = { "bytes", "BYTES", "%-7d ", OUT_INT },
	[C_QUE] = { "queue_ms", "QUE(ms)", "%7.3f ", OUT_FLOAT },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%7.3f\n", OUT_FLOAT },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t start_ts;
	struct biosnoop_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[BIOSNOOP_COMM_LEN + 1], rwbs[8], hms[16], stamp[32];
	const char *disk;

	(void)ctx;
	if (size < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e)); /* perf buffer records are not aligned */
	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	if (!start_ts)
		start_ts = e.ts;
	if (env.timestamp) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		snprintf(stamp, sizeof(stamp), "%-8s.%03ld", tool_hms(hms, sizeof(hms)), now.tv_nsec / 1000000);
		v[C_TIME].s = stamp;
	}
	blk_rwbs(e.cmd_flags, rwbs);
	disk = blk_disk_name(e.dev);
	/* signed: per-CPU perf buffers deliver out of order (libbpf-tools
	 * prints the unsigned wrap, 18446744073.7...) */
	v[C_TS].f = (double)(int64_t)(e.ts - start_ts) / 1e9;
	v[C_COMM].s = comm;
	v[C_PID].i = e.pid;
	v[C_DISK].s = disk ? disk : "Unknown";
	v[C_RWBS].s = rwbs;
	v[C_SECTOR].i = (long long)e.sector;
	v[C_BYTES].i = e.len;
	v[C_QUE].f = e.qdelta != -1 ? (double)e.qdelta / 1e6 : -1;
	v[C_LAT].f = (double)e.delta / 1e6;
	out_row(&table, v);
	return 0;
}

static const char *attribution;

/* -v: what is attached, and where the submitter comes from. */
static int after_load(struct obj *o)
{
	if (tool_common.verbose)
		fprintf(stderr, "biosnoop: requests from block_rq_%s/block_rq_complete (%s); submitter from %s\n",
			env.queued ? "insert/issue" : "issue", prog_mechanism(obj_prog(o, "block_rq_issue")),
			attribution);
	return 0;
}

int biosnoop_main(int argc, char **argv)
{
	struct obj_opts oo = { 0 };
	struct tool_events te = { .name = "biosnoop",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct obj *o;
	int err;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BLK_OPEN(biosnoop, env.disk);
	if (!o)
		return 1;
	OBJ_SET(o, queued, (uint8_t)env.queued);
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	OBJ_SET(o, min_ns, (uint64_t)env.min_ms * 1000000);
	if (!env.queued)
		prog_set_autoload(obj_prog(o, "block_rq_insert"), false);
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (blk_rq_is_second_arg(obj_kernel_btf(o, &oo)))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	blk_flags_init(obj_kernel_btf(o, &oo));
	attribution = blk_choose_attribution(o);
	te.cgroup = env.cgroup;
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	out_show(&table, C_TS, !env.timestamp);
	out_show(&table, C_TIME, env.timestamp);
	out_show(&table, C_QUE, env.queued);
	tool_signals();
	err = tool_run_events(o, &te);
	blk_parts_free();
	return err;
}
