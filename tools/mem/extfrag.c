/* applet extfrag: count page allocation fallbacks; zone fragmentation index
 * readme: page allocator fallbacks by order and migrate type (`-s` stacks); each zone's
 *         fragmentation index
 *
 * External memory fragmentation, two ways (from the fragmentation articles
 * in seed 001):
 *  - the page allocator's fallbacks, kmem:mm_page_alloc_extfrag: an
 *    allocation served from another migrate type's free lists; those with
 *    a fallback order below the pageblock order mix pageblocks
 *    ("fragmenting"), counted by orders and types (-s: by kernel stack);
 *  - the fragmentation index of each zone and order, computed from
 *    /proc/buddyinfo the way the kernel computes debugfs'
 *    extfrag/extfrag_index (fragindex.h), which needs no debugfs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/stack/stacks.h"
#include "extfrag.h"
#include "fragindex.h"
#include "memtool.h"

BPF_OBJ_DECLARE(extfrag);

static const struct opt opts[] = {
	{ 's', "stacks", NULL, "count the fallbacks by kernel stack too" },
	{ 'i', "interval", "INTERVAL", "print a report every INTERVAL seconds (default: once, at the end)" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds, then print and exit" },
	{ 'I', "index-only", NULL, "print the fragmentation index once and exit (no tracing)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-s] [-i INTERVAL] [-d DURATION] [-I]",
	.summary = "Count the page allocator's fallbacks (kmem:mm_page_alloc_extfrag: allocations served "
		   "from another migrate type's free lists, which fragment memory when the fallback order "
		   "is below the pageblock order) by orders and migrate types, and print each zone's "
		   "fragmentation index per order, computed from /proc/buddyinfo as the kernel computes "
		   "/sys/kernel/debug/extfrag/extfrag_index (-1.000: an allocation of that order would "
		   "succeed; near 0: it would fail for lack of memory; near 1: because of fragmentation).",
	.examples = "    extfrag              # count fallbacks until Ctrl-C, then the report\n"
		    "    extfrag -i 5         # a report every 5 seconds\n"
		    "    extfrag -s -d 10     # 10 seconds, fallbacks by kernel stack\n"
		    "    extfrag -I           # the fragmentation index now\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool stacks, index_only;
	long interval, duration;
	int pageblock_order;
	char mt_names[8][16];
	int nmt;
} env = { .pageblock_order = -1 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 's': env.stacks = true; break;
	case 'i': env.interval = (long)opt_num(&help, "INTERVAL", arg, 1, INT_MAX); break;
	case 'd': env.duration = (long)opt_num(&help, "DURATION", arg, 1, INT_MAX); break;
	case 'I': env.index_only = true; break;
	default: return 1;
	}
	return 0;
}

/* The pageblock order and the migrate type names, from /proc/pagetypeinfo
 * ("Page block order: 9", "Number of blocks type  Unmovable  Movable ..."). */
static void read_pagetypeinfo(void)
{
	FILE *f = fopen("/proc/pagetypeinfo", "re");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (str_scan(line, "Page block order: %d", &env.pageblock_order) == 1)
			continue;
		if (strncmp(line, "Number of blocks type", 21) || env.nmt)
			continue;
		for (p = strtok(line + 21, " \t\n"); p && env.nmt < 8; p = strtok(NULL, " \t\n"))
			snprintf(env.mt_names[env.nmt++], sizeof(env.mt_names[0]), "%s", p);
	}
	fclose(f);
}

static const char *mt_name(int mt, char *buf, size_t size)
{
	if (mt >= 0 && mt < env.nmt)
		return env.mt_names[mt];
	snprintf(buf, size, "%d", mt);
	return buf;
}

/* ---- the fallbacks ---- */

enum { F_ORDER, F_FALLBACK, F_ATYPE, F_FTYPE, F_FRAG, F_OWNER, F_COUNT, F_STACK };
static const struct out_col fcols[] = {
	[F_ORDER] = { "alloc_order", "ORDER", "%5lld ", OUT_INT, OUT_LABEL, .hfmt = "%5s " },
	[F_FALLBACK] = { "fallback_order", "FALLBACK", "%8lld ", OUT_INT, OUT_LABEL, .hfmt = "%8s " },
	[F_ATYPE] = { "alloc_type", "ALLOC_TYPE", "%-12s ", OUT_STR, OUT_LABEL },
	[F_FTYPE] = { "fallback_type", "FALLBACK_TYPE", "%-13s ", OUT_STR, OUT_LABEL },
	[F_FRAG] = { "fragmenting", "FRAGMENTING", "%-11s ", OUT_STR, OUT_LABEL },
	[F_OWNER] = { "change_ownership", "OWNER_CHANGE", "%-12s ", OUT_STR, OUT_LABEL },
	[F_COUNT] = { "fallbacks", "COUNT", "%8llu\n", OUT_UINT, OUT_COUNTER, .hfmt = "%8s\n",
		      .help = "page allocator fallbacks to another migrate type" },
	[F_STACK] = { "stack", NULL, NULL, OUT_STRV, OUT_JSON_ONLY },
};
static struct out_table ftable = OUT_TABLE("fallbacks", fcols);

/* ---- the index ---- */

enum { X_NODE, X_ZONE, X_ORDER, X_INDEX, X_FREE };
static const struct out_col xcols[] = {
	[X_NODE] = { "node", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[X_ZONE] = { "zone", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[X_ORDER] = { "order", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[X_INDEX] = { "index", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY | OUT_GAUGE,
		      .help = "fragmentation index (-1: would succeed, 0: lack of memory, 1: fragmentation)" },
	[X_FREE] = { "nr_free", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_GAUGE,
		     .help = "free blocks of this order (/proc/buddyinfo)" },
};
static struct out_table xtable = OUT_TABLE("fragindex", xcols);

static int print_index(void)
{
	struct buddy_zone z[FRAG_MAX_ZONES];
	char *text = NULL, idx[32];
	size_t len;
	int n;

	if (read_file("/proc/buddyinfo", 1 << 20, &text, &len) < 0) {
		tool_err("extfrag", "%s", err_msg());
		return -1;
	}
	n = buddyinfo_parse(text, z, FRAG_MAX_ZONES);
	free(text);
	if (n < 0) {
		tool_err("extfrag", "cannot parse /proc/buddyinfo");
		return -1;
	}
	out_text("Fragmentation index (as extfrag/extfrag_index, from /proc/buddyinfo):\n");
	for (int i = 0; i < n; i++) {
		out_text("Node %d, zone %8s ", z[i].node, z[i].zone);
		for (int o = 0; o < z[i].norders; o++) {
			int fi = frag_index(&z[i], o);
			union out_val v[ARRAY_SIZE(xcols)];

			out_text("%s ", frag_index_str(fi, idx, sizeof(idx)));
			v[X_NODE].i = z[i].node;
			v[X_ZONE].s = z[i].zone;
			v[X_ORDER].i = o;
			v[X_INDEX].f = fi / 1000.0;
			v[X_FREE].u = z[i].nr_free[o];
			out_row(&xtable, v);
		}
		out_text("\n");
	}
	return 0;
}

struct fallback {
	struct extfrag_key k;
	uint64_t count;
};

static int cmp_count(const void *a, const void *b)
{
	const struct fallback *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* The fallbacks since the last report (read and deleted), then the index. */
static int report(struct obj *o, struct stacks *s, struct strbuf *frames)
{
	static struct extfrag_key keys[EXTFRAG_MAX_ENTRIES];
	static uint64_t vals[EXTFRAG_MAX_ENTRIES];
	static struct fallback fb[EXTFRAG_MAX_ENTRIES];
	static bool batch = true;
	char hms[16], b1[16], b2[16];
	long n = tool_map_drain(map_fd(obj_map(o, "counts")), sizeof(keys[0]), sizeof(vals[0]), keys, vals,
				EXTFRAG_MAX_ENTRIES, &batch);
	int ret = 0;

	if (n < 0) {
		tool_err("extfrag", "cannot read the counts: %s", strerror((int)-n));
		return -1;
	}
	for (long i = 0; i < n; i++)
		fb[i] = (struct fallback){ keys[i], vals[i] };
	qsort(fb, (size_t)n, sizeof(fb[0]), cmp_count);
	out_doc_begin();
	out_text("\n[%s]\n", tool_hms(hms, sizeof(hms)));
	if (n)
		out_header(&ftable);
	else
		out_text("no page allocation fallbacks\n");
	for (long i = 0; i < n; i++) {
		const struct extfrag_key *k = &fb[i].k;
		union out_val v[ARRAY_SIZE(fcols)] = { { 0 } };
		const uint64_t *ips;
		char sym[256];
		int nf = 0;

		v[F_ORDER].i = k->alloc_order;
		v[F_FALLBACK].i = k->fallback_order;
		v[F_ATYPE].s = mt_name(k->alloc_mt, b1, sizeof(b1));
		v[F_FTYPE].s = mt_name(k->fallback_mt, b2, sizeof(b2));
		v[F_FRAG].s = k->fallback_order < env.pageblock_order ? "yes" : "no";
		v[F_OWNER].s = k->change_ownership ? "yes" : "no";
		v[F_COUNT].u = fb[i].count;
		strbuf_reset(frames);
		if (env.stacks) {
			nf = stacks_read(s, k->stack_id, 1, &ips);
			for (int j = 0; j < nf; j++) {
				stacks_ksym(s, ips[j], sym, sizeof(sym));
				strbuf_addn(frames, sym, strlen(sym) + 1);
			}
			v[F_STACK].strv.p = frames->s;
			v[F_STACK].strv.size = frames->len;
			v[F_STACK].strv.n = nf > 0 ? nf : 0;
		}
		out_row(&ftable, v);
		if (nf > 0) {
			const char *p = frames->s;

			for (int j = 0; j < nf; j++, p += strlen(p) + 1)
				out_text("        %s\n", p);
			out_text("\n");
		}
	}
	out_text("\n");
	if (print_index() < 0)
		ret = -1;
	if (out_doc_end() < 0)
		ret = -1;
	return ret;
}

int extfrag_main(int argc, char **argv)
{
	struct stacks s = { 0 };
	struct strbuf frames = { 0 };
	uint64_t end = 0;
	struct obj *o;
	int ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	if (env.index_only) {
		out_doc_begin();
		ret = print_index();
		if (out_doc_end() < 0)
			ret = -1;
		return ret < 0;
	}
	read_pagetypeinfo();
	if (env.pageblock_order < 0)
		env.pageblock_order = 9; /* x86_64's; /proc/pagetypeinfo is root-only */
	o = BPF_OBJ_OPEN(extfrag);
	OBJ_SET(o, with_stacks, (uint8_t)env.stacks);
	if (!env.stacks)
		map_set_max_entries(obj_map(o, "stackmap"), 1);
	if (tool_load_attach(o, "extfrag"))
		return 1;
	if (env.stacks && stacks_init(&s, map_fd(obj_map(o, "stackmap")), 127,
				      STACKS_SKIP_TRACE | STACKS_OFFSET | STACKS_NO_USER) < 0) {
		tool_err("extfrag", "%s", err_msg());
		obj_close(o);
		return 1;
	}
	ftable.hidden = 0;
	out_show(&ftable, F_STACK, env.stacks);
	if (env.duration)
		out_info("Tracing page allocation fallbacks (kmem:mm_page_alloc_extfrag) for %ld secs.\n",
			 env.duration);
	else
		out_info("Tracing page allocation fallbacks (kmem:mm_page_alloc_extfrag)... Hit Ctrl-C to end.\n");
	tool_flush();
	if (env.duration)
		end = now_ns() + (uint64_t)env.duration * 1000000000ull;
	for (;;) {
		long wait = env.interval ? env.interval * 1000 : 3600 * 1000;
		bool last;

		if (end) {
			uint64_t now = now_ns();
			long left = now < end ? (long)((end - now + 999999) / 1000000) : 0;

			if (left < wait)
				wait = left;
		}
		tool_sleep_ms(wait);
		last = tool_exiting || (end && now_ns() >= end);
		if (!last && !env.interval)
			continue;
		if (report(o, &s, &frames) < 0) {
			ret = 1;
			break;
		}
		if (tool_flush() < 0 || last)
			break;
	}
	if (env.stacks) {
		stacks_report_missed(&s, stderr);
		stacks_fini(&s);
	}
	strbuf_free(&frames);
	obj_close(o);
	return ret;
}
