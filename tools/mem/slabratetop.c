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
#include "tools/common/interval.h"
#include "lib/err.h"
#include "lib/util.h"
#include "slabratetop.h"

BPF_OBJ_DECLARE(slabratetop);

enum { SORT_NAME, SORT_COUNT, SORT_SIZE };

static struct {
	int noclear;
	int sort;
	long rows;
	int pid;
	struct interval iv;
	int npos;
} env = { .sort = SORT_SIZE, .rows = 20, .iv = { .seconds = 1, .times = INTERVAL_FOREVER, .rows = true } };

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
	static const char *const sorts[] = { "name", "count", "size" };

	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'C': env.noclear = 1; break;
	case 's':
		for (env.sort = 0; env.sort < 3 && strcmp(arg, sorts[env.sort]); env.sort++)
			;
		if (env.sort == 3)
			opt_usage_error(&help, "invalid sort method: %s", arg);
		break;
	case 'r':
		env.rows = (long)opt_num(&help, "rows", arg, 1, 0x7fffffff);
		if (env.rows > SLAB_MAX_ENTRIES)
			env.rows = SLAB_MAX_ENTRIES;
		break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
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

struct row {
	struct slabrate_key k;
	struct slabrate_val v;
};

static int row_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	__u64 vx = env.sort == SORT_COUNT ? x->v.count : x->v.size;
	__u64 vy = env.sort == SORT_COUNT ? y->v.count : y->v.size;

	if (env.sort == SORT_NAME)
		return strcasecmp(x->k.name, y->k.name);
	return vx > vy ? -1 : vx < vy;
}

struct run {
	struct obj *o;
	bool batch;
	struct slabrate_key keys[SLAB_MAX_ENTRIES];
	struct slabrate_val vals[SLAB_MAX_ENTRIES];
	struct row rows[SLAB_MAX_ENTRIES];
};

static int report(void *ctx)
{
	struct run *r = ctx;
	union out_val v[ARRAY_SIZE(cols)];
	long n;

	if (!env.noclear)
		out_text("\033[H\033[2J");
	interval_loadavg_line();
	out_header(&table);
	n = tool_map_drain(map_fd(obj_map(r->o, "slab_entries")), sizeof(struct slabrate_key),
			   sizeof(struct slabrate_val), r->keys, r->vals, SLAB_MAX_ENTRIES, &r->batch);
	if (n < 0) {
		tool_err("slabratetop", "cannot read the counts: %s", err_msg());
		return -1;
	}
	for (long i = 0; i < n; i++) {
		r->rows[i] = (struct row){ r->keys[i], r->vals[i] };
		r->rows[i].k.name[SLAB_NAME_SIZE - 1] = 0;
	}
	qsort(r->rows, (size_t)n, sizeof(r->rows[0]), row_order);
	for (long i = 0; i < n; i++) {
		v[C_CACHE].s = r->rows[i].k.name;
		v[C_ALLOCS].i = (long long)r->rows[i].v.count;
		v[C_BYTES].i = (long long)r->rows[i].v.size;
		if (i < env.rows)
			out_row(&table, v);
		else
			out_row_unshown(&table, v);
	}
	out_text("\n");
	return 0;
}

int slabratetop_main(int argc, char **argv)
{
	struct run *r;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!(r = calloc(1, sizeof(*r)))) {
		tool_err("slabratetop", "out of memory");
		return 1;
	}
	r->batch = true;
	r->o = BPF_OBJ_OPEN(slabratetop);
	OBJ_SET(r->o, target_pid, (uint32_t)env.pid);
	tool_signals();
	if (tool_load_attach(r->o, "slabratetop")) {
		free(r);
		return 1;
	}
	rc = interval_loop(&env.iv, report, r);
	obj_close(r->o);
	free(r);
	return rc;
}
