/* applet cachestat: count page cache hits, misses and dirtied buffers per interval
 * readme: page cache hits, misses, dirtied buffers, hit ratio per interval
 *
 * libbpf-tools compatible flags and output.
 *
 * Hits need the page cache's access function (folio_mark_accessed, or
 * mark_page_accessed before 5.15) through fentry or a kprobe.  A kernel
 * with neither gives only misses and dirties, from tracepoints: HITS and
 * HITRATIO then print "-" and one line above the header says why. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/perf.h"
#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "cachestat.h"

BPF_OBJ_DECLARE(cachestat);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Print timestamp" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [interval] [count]",
	.examples =
		"    cachestat          # shows hits and misses to the file system page cache\n"
		"    cachestat -T       # include timestamps\n"
		"    cachestat 1 10     # print 1 second summaries, 10 times\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	struct interval iv;
	int npos;
} env = { .iv = { 1, INTERVAL_FOREVER, .rows = true, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default:
		return 1;
	}
	return 0;
}

/* One count: kernel functions by age (newest name first) for fentry or
 * a kprobe, and the tracepoint programs that can stand in for them. */
struct counter {
	const char *what;
	const char *fns[2];
	const char *fentry, *kprobe;
	const char *tps[2][2]; /* {program, "category/tracepoint"} */
	const char *how;       /* after the choice: "fentry on ..." */
};
static struct counter counters[] = {
	{ "accesses", { "folio_mark_accessed", "mark_page_accessed" }, "acc_fentry", "acc_kprobe", { { 0 } } },
	{ "additions", { "filemap_add_folio", "add_to_page_cache_lru" }, "add_fentry", "add_kprobe",
	  { { "add_tp", "filemap/mm_filemap_add_to_page_cache" } } },
	{ "buffer dirtying", { "mark_buffer_dirty", NULL }, "mbd_fentry", "mbd_kprobe",
	  { { "mbd_tp", "block/block_dirty_buffer" } } },
	{ "page dirtying", { "folio_account_dirtied", "account_page_dirtied" }, "dirt_fentry", "dirt_kprobe",
	  { { "dirt_tp_folio", "writeback/writeback_dirty_folio" },
	    { "dirt_tp_page", "writeback/writeback_dirty_page" } } },
};
enum { K_ACCESSED, K_ADDED, K_MBD, K_DIRTIED };

/* Pick each counter's way in; false when none (accesses: hits unknown). */
static bool choose(struct obj *o, struct counter *k, bool tracepoints_only)
{
	static char how[4][96];
	enum kfunc_way h = KFUNC_NONE;
	int which = 0;
	size_t i, n = k->fns[1] ? 2 : 1;
	const char *tp = NULL;

	if (!tracepoints_only)
		which = kfunc_pick(o, k->fns, (int)n, &h);
	prog_set_autoload(obj_prog(o, k->fentry), h == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, k->kprobe), h == KFUNC_KPROBE);
	if (h == KFUNC_FENTRY)
		prog_set_attach_target(obj_prog(o, k->fentry), k->fns[which]);
	if (h == KFUNC_KPROBE)
		prog_set_attach_target(obj_prog(o, k->kprobe), k->fns[which]);
	for (i = 0; i < 2 && k->tps[i][0]; i++) {
		char cat[32];
		const char *slash = strchr(k->tps[i][1], '/');
		bool use = false;

		snprintf(cat, sizeof(cat), "%.*s", (int)(slash - k->tps[i][1]), k->tps[i][1]);
		if (h == KFUNC_NONE && !tp && perf_tp_exists(cat, slash + 1)) {
			use = true;
			tp = k->tps[i][1];
		}
		prog_set_autoload(obj_prog(o, k->tps[i][0]), use);
	}
	k->how = how[k - counters];
	if (h != KFUNC_NONE)
		snprintf(how[k - counters], sizeof(how[0]), "%s on %s", kfunc_way_name(h), k->fns[which]);
	else if (tp)
		snprintf(how[k - counters], sizeof(how[0]), "tracepoint %s", tp);
	else
		snprintf(how[k - counters], sizeof(how[0]), "nothing (no fentry, kprobe or tracepoint)");
	return h != KFUNC_NONE || tp;
}

/* Buffers: and Cached: of /proc/meminfo, in kB. */
static int meminfo(unsigned long long *buffers, unsigned long long *cached)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && found < 2) {
		if (str_scan(line, "Buffers: %llu kB", buffers) == 1 || str_scan(line, "Cached: %llu kB", cached) == 1)
			found++;
	}
	fclose(f);
	return found == 2 ? 0 : -ENOENT;
}

enum { C_TIME, C_HITS, C_HITS_DASH, C_MISSES, C_DIRTIES, C_RATIO, C_RATIO_DASH, C_BUFFERS, C_CACHED };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_HITS] = { "hits", "HITS", "%8lld ", OUT_INT, OUT_COUNTER, .help = "page cache hits" },
	[C_HITS_DASH] = { NULL, "HITS", "%8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_MISSES] = { "misses", "MISSES", "%8lld ", OUT_INT, OUT_COUNTER, .help = "page cache misses" },
	[C_DIRTIES] = { "dirties", "DIRTIES", "%8llu ", OUT_UINT, OUT_COUNTER,
			.help = "buffers dirtied (mark_buffer_dirty)" },
	[C_RATIO] = { "hit_ratio_pct", "HITRATIO", "%7.2f%% ", OUT_FLOAT, OUT_GAUGE,
		      .help = "page cache hit ratio of the last interval, percent", .hfmt = "%8s " },
	[C_RATIO_DASH] = { NULL, "HITRATIO", "%8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_BUFFERS] = { "buffers_mb", "BUFFERS_MB", "%12llu ", OUT_UINT, OUT_GAUGE, .help = "Buffers of /proc/meminfo, MiB" },
	[C_CACHED] = { "cached_mb", "CACHED_MB", "%10llu\n", OUT_UINT, OUT_GAUGE, .help = "Cached of /proc/meminfo, MiB" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

struct report {
	int fd;
	bool hits_known;
	struct cachestat_counts prev;
};

/* One row: the counts since the last report, and /proc/meminfo now. */
static int report(void *ctx)
{
	struct report *r = ctx;
	struct cachestat_counts now;
	long long total, misses, hits;
	unsigned long long buffers = 0, cached = 0;
	union out_val v[ARRAY_SIZE(cols)];
	char hms[16];
	__u32 zero = 0;
	int err;

	if (bpf_map_lookup(r->fd, &zero, &now) < 0) {
		tool_err("cachestat", "cannot read the counts: %s", err_msg());
		return -1;
	}
	if ((err = meminfo(&buffers, &cached)) < 0) {
		tool_err("cachestat", "cannot read Buffers and Cached of /proc/meminfo: %s", strerror(-err));
		return -1;
	}
	/* libbpf-tools' arithmetic: accesses less buffer dirtying are the
	 * lookups; additions less page dirtying the read misses */
	total = (now.accessed - r->prev.accessed) - (now.mbd - r->prev.mbd);
	misses = (now.added - r->prev.added) - (now.dirtied - r->prev.dirtied);
	if (total < 0)
		total = 0;
	if (misses < 0)
		misses = 0;
	hits = total - misses;
	if (hits < 0 && r->hits_known) { /* read-ahead added more than was asked for */
		misses = total;
		hits = 0;
	}
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_HITS].i = hits;
	v[C_HITS_DASH].s = "-";
	v[C_MISSES].i = misses;
	v[C_DIRTIES].u = (unsigned long long)(now.mbd - r->prev.mbd);
	v[C_RATIO].f = total > 0 ? 100.0 * (double)hits / (double)total : 0.0;
	v[C_RATIO_DASH].s = "-";
	v[C_BUFFERS].u = buffers / 1024;
	v[C_CACHED].u = cached / 1024;
	r->prev = now;
	out_row(&table, v);
	return 0;
}

int cachestat_main(int argc, char **argv)
{
	bool hits_known;
	struct obj *o;
	int ret, fd;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(cachestat);
	hits_known = choose(o, &counters[K_ACCESSED], false);
	/* without hits, count pages from the tracepoints only (a miss count
	 * in pages of large folios, not calls: nothing to compare with) */
	for (int i = K_ADDED; i <= K_DIRTIED; i++)
		if (!choose(o, &counters[i], !hits_known) && i != K_DIRTIED) {
			tool_err("cachestat", "no way to count page cache %s on this kernel: no fentry or kprobe "
				 "on %s, no tracepoint %s", counters[i].what, counters[i].fns[0],
				 counters[i].tps[0][1]);
			obj_close(o);
			return 1;
		}
	OBJ_SET(o, tp_pages, (uint8_t)!hits_known);
	if (tool_load_attach(o, "cachestat"))
		return 1;
	fd = map_fd(obj_map(o, "counts"));
	if (tool_common.verbose)
		for (size_t i = 0; i < ARRAY_SIZE(counters); i++)
			fprintf(stderr, "cachestat: %s: %s\n", counters[i].what, counters[i].how);
	/* stderr: libbpf-tools' stdout holds only the columns */
	if (!hits_known)
		fprintf(stderr, "cachestat: HITS and HITRATIO need fentry or a kprobe on %s, which this kernel does not "
			 "allow: shown as '-'; MISSES are pages added to the page cache minus pages dirtied "
			 "(tracepoints)\n", counters[K_ACCESSED].fns[0]);

	tool_signals();
	out_show(&table, C_TIME, env.iv.timestamp);
	out_show(&table, C_HITS, hits_known);
	out_show(&table, C_RATIO, hits_known);
	out_show(&table, C_HITS_DASH, !hits_known);
	out_show(&table, C_RATIO_DASH, !hits_known);
	out_header(&table);
	tool_flush();
	ret = interval_loop(&env.iv, report, &(struct report){ fd, hits_known, { 0 } });
	obj_close(o);
	return ret;
}
