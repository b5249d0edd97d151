/* applet biotop: block device I/O top, by process
 * readme: block I/O by process and disk, top-style each interval (`-C` no clear, `-r` rows,
 *         `-s all|io|bytes|time`); JSON: a document per interval
 *
 * libbpf-tools' layout: a screen clear (not with -C), "HH:MM:SS loadavg:
 * ..." (the /proc/loadavg line as it is), the header, the rows and an
 * empty line, every interval (default 1 s) COUNT times or until Ctrl-C.
 * Each interval reads and clears the counts.  The clear is the terminal
 * sequence itself where libbpf-tools runs clear(1) (which fails, and ends
 * it, without TERM).  Rows sort by their values largest first, where 0.26
 * subtracts 64-bit values into an int (wrong order past 2 GiB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/top.h"
#include "lib/err.h"
#include "lib/util.h"
#include "blk.h"
#include "biotop.h"

BPF_OBJ_DECLARE(biotop);

#define ROWS_LIMIT 10240 /* libbpf-tools' OUTPUT_ROWS_LIMIT */

enum { SORT_ALL, SORT_IO, SORT_BYTES, SORT_TIME };
static const char *const sorts[] = { "all", "io", "bytes", "time" };

static struct top top = TOP_INIT(sorts, ROWS_LIMIT, SORT_ALL);
static int pid; /* -p */

static const struct opt opts[] = {
	{ 'C', "noclear", NULL, "Don't clear the screen" },
	{ 's', "sort", "SORT", "Sort columns, default all [all, io, bytes, time]" },
	{ 'r', "rows", "ROWS", "Maximum rows to print, default 20" },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [interval] [count] [-p PID]",
	.examples = "    biotop            # block I/O top, refresh every 1s\n"
		    "    biotop 5 10       # 5s summaries, 10 times\n"
		    "    biotop -p 181     # only trace PID 181\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': pid = opt_pid(&help, "PID", arg); break;
	case 'v': tool_common.verbose = 1; break;
	default: return top_opt(&top, &help, key, arg);
	}
	return 0;
}

static void avg_text(FILE *f, const struct out_col *c, const union out_val *v)
{
	fprintf(f, c->fmt, v->f);
}

enum { C_PID, C_COMM, C_RW, C_MAJ, C_MIN, C_DISK, C_IO, C_KB, C_AVG, C_BYTES, C_US };
static const struct out_col cols[] = {
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_RW] = { "rw", "D", "%1s ", OUT_STR },
	[C_MAJ] = { "major", "MAJ", "%-3lld ", OUT_INT, .hfmt = "%-3s " },
	[C_MIN] = { "minor", "MIN", "%-3lld ", OUT_INT, .hfmt = "%-3s " },
	[C_DISK] = { "disk", "DISK", "%-8s ", OUT_STR },
	[C_IO] = { "io", "I/O", "%5lld ", OUT_INT, .hfmt = "%5s " },
	[C_KB] = { NULL, "Kbytes", "%7lld ", OUT_INT, OUT_TEXT_ONLY, .hfmt = "%7s " },
	[C_AVG] = { "avg_ms", "AVGms", "%6.2f\n", OUT_FLOAT, .hfmt = "%6s\n", .text = avg_text },
	[C_BYTES] = { "bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_US] = { "total_us", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE("rows", cols);

static __u64 sort_value(const void *row)
{
	const struct biotop_val *v = ((const struct top_row *)row)->val;

	switch (top.sort) {
	case SORT_IO: return v->io;
	case SORT_BYTES: return v->bytes;
	case SORT_TIME: return v->us;
	default: return v->io + v->bytes + v->us;
	}
}

static int largest_first(const void *a, const void *b)
{
	return top_larger_first(sort_value(a), sort_value(b));
}

static int report(void *ctx)
{
	union out_val v[ARRAY_SIZE(cols)];
	long n;

	top_begin(&top, true, &table);
	n = top_read(&top, map_fd(obj_map(ctx, "counts")), "biotop", "read stat failed", largest_first);
	if (n < 0)
		return -1;
	for (long i = 0; i < n && i < top.rows; i++) {
		const struct biotop_key *k = top.order[i].key;
		const struct biotop_val *val = top.order[i].val;
		char comm[BIOTOP_COMM_LEN + 1];
		const char *disk = blk_disk_name(BLK_MKDEV(k->major, k->minor));

		memcpy(comm, k->name, BIOTOP_COMM_LEN);
		comm[BIOTOP_COMM_LEN] = 0;
		v[C_PID].i = k->pid;
		v[C_COMM].s = comm;
		v[C_RW].s = k->rwflag ? "W" : "R";
		v[C_MAJ].i = k->major;
		v[C_MIN].i = k->minor;
		v[C_DISK].s = disk ? disk : "";
		v[C_IO].i = val->io;
		v[C_KB].i = (long long)(val->bytes / 1024);
		/* float as libbpf-tools computes it: the same rounding */
		v[C_AVG].f = val->io ? (double)((float)val->us / 1000 / val->io) : 0;
		v[C_BYTES].u = val->bytes;
		v[C_US].u = val->us;
		out_row(&table, v);
	}
	out_text("\n");
	return 0;
}

int biotop_main(int argc, char **argv)
{
	struct obj_opts oo = { 0 };
	const char *attribution;
	struct obj *o;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (top_alloc(&top, "biotop", sizeof(struct biotop_key), sizeof(struct biotop_val)))
		return 1;
	o = BLK_OPEN(biotop, NULL);
	if (!o) {
		top_free(&top);
		return 1;
	}
	OBJ_SET(o, target_pid, (uint32_t)pid);
	prog_set_autoload(obj_prog(o, "block_rq_insert"), false);
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (blk_rq_is_second_arg(obj_kernel_btf(o, &oo)))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	attribution = blk_choose_attribution(o);
	tool_signals();
	if (tool_load_attach(o, "biotop")) {
		top_free(&top);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "biotop: submitter from %s\n", attribution);
	rc = interval_loop(&top.iv, report, o);
	obj_close(o);
	blk_parts_free();
	top_free(&top);
	return rc;
}
