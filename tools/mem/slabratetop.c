/* applet slabratetop: kernel slab cache allocation rate top, by cache
 * readme: slab cache allocations and bytes by cache, top-style each interval (`-C` no clear,
 *         `-r` rows, `-s name|count|size`); JSON: a document per interval
 *
 * libbpf-tools' 0.26 layout: a screen clear (not with -C), "HH:MM:SS
 * loadavg: ...", "CACHE ALLOCS BYTES", the rows (largest first by -s,
 * default size; names A-Z with -s name), an empty line; every interval
 * (default 1 s), COUNT times or until Ctrl-C; each interval reads and
 * clears the counts.  Counts compare as 64-bit values where 0.26
 * subtracts them into an int. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/top.h"
#include "bpf/tp_format.h"
#include "lib/err.h"
#include "lib/util.h"
#include "slabratetop.h"

BPF_OBJ_DECLARE(slabratetop);

enum { SORT_NAME, SORT_COUNT, SORT_SIZE };
static const char *const sorts[] = { "name", "count", "size" };

static struct top top = TOP_INIT(sorts, SLAB_MAX_ENTRIES, SORT_SIZE);
static int pid; /* -p */

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'C', "noclear", NULL, "Don't clear the screen" },
	{ 's', "sort", "SORT", "Sort columns, default size [name, count, size]" },
	{ 'r', "rows", "ROWS", "Maximum rows to print, default 20" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [interval] [count]",
	.examples = "    slabratetop            # slab rate top, refresh every 1s\n"
		    "    slabratetop -p 181     # only trace PID 181\n"
		    "    slabratetop -s count   # sort columns by count\n"
		    "    slabratetop -r 100     # print 100 rows\n"
		    "    slabratetop 5 10       # 5s summaries, 10 times\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	if (key == 'p') {
		pid = opt_pid(&help, "PID", arg);
		return 0;
	}
	return top_opt(&top, &help, key, arg);
}

enum { C_CACHE, C_ALLOCS, C_BYTES };
static const struct out_col cols[] = {
	[C_CACHE] = { "cache", "CACHE", "%-32s ", OUT_STR, OUT_LABEL },
	[C_ALLOCS] = { "allocs", "ALLOCS", "%6lld ", OUT_INT, OUT_COUNTER, .hfmt = "%6s ",
		       .help = "slab cache allocations" },
	[C_BYTES] = { "bytes", "BYTES", "%10lld\n", OUT_INT, OUT_COUNTER, .hfmt = "%10s\n",
		      .help = "bytes of slab cache allocations" },
};
static struct out_table table = OUT_TABLE("caches", cols);

/* (names compare as the printed, terminated, ones) */
static int row_order(const void *a, const void *b)
{
	const struct slabrate_key *kx = ((const struct top_row *)a)->key, *ky = ((const struct top_row *)b)->key;
	const struct slabrate_val *x = ((const struct top_row *)a)->val, *y = ((const struct top_row *)b)->val;

	if (top.sort == SORT_NAME)
		return strncasecmp(kx->name, ky->name, SLAB_NAME_SIZE - 1);
	return top.sort == SORT_COUNT ? top_larger_first(x->count, y->count) : top_larger_first(x->size, y->size);
}

static int report(void *ctx)
{
	union out_val v[ARRAY_SIZE(cols)];
	long n;

	top_begin(&top, true, &table);
	n = top_read(&top, map_fd(obj_map(ctx, "slab_entries")), "slabratetop", "cannot read the counts", row_order);
	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		struct slabrate_key *k = top.order[i].key;
		const struct slabrate_val *val = top.order[i].val;

		k->name[SLAB_NAME_SIZE - 1] = 0;
		v[C_CACHE].s = k->name;
		v[C_ALLOCS].i = (long long)val->count;
		v[C_BYTES].i = (long long)val->size;
		if (i < top.rows)
			out_row(&table, v);
		else
			out_row_unshown(&table, v);
	}
	out_text("\n");
	return 0;
}

/* kmem:kmem_cache_alloc's record has the cache's name (6.18 does, 6.12
 * does not)?  Else its arguments are read (tp_btf/raw_tp).  Unreadable:
 * the record. */
static bool record_names_cache(void)
{
	struct tp_format f;
	bool named;

	if (tp_format_read("kmem", "kmem_cache_alloc", &f) < 0) {
		err_clear();
		return true;
	}
	named = tp_field(&f, "name") != NULL;
	tp_format_free(&f);
	return named;
}

int slabratetop_main(int argc, char **argv)
{
	struct obj *o;
	bool named;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (top_alloc(&top, "slabratetop", sizeof(struct slabrate_key), sizeof(struct slabrate_val)))
		return 1;
	o = BPF_OBJ_OPEN(slabratetop);
	OBJ_SET(o, target_pid, (uint32_t)pid);
	named = record_names_cache();
	prog_set_autoload(obj_prog(o, "slabratetop_alloc"), named);
	prog_set_autoload(obj_prog(o, "slabratetop_alloc_args"), !named);
	tool_signals();
	if (tool_load_attach(o, "slabratetop")) {
		top_free(&top);
		return 1;
	}
	rc = interval_loop(&top.iv, report, o);
	obj_close(o);
	top_free(&top);
	return rc;
}
