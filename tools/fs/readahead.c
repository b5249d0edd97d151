/* applet readahead: show read-ahead pages used and unused, and their age
 * readme: read-ahead pages never used, and the age of the used ones
 *
 * The age is that of a used page at its first use.  libbpf-tools compatible
 * flags and output.
 *
 * The kernel's readahead, page allocation and page access functions by
 * fentry, else kprobes; where neither works, the readahead:* and
 * filemap:* tracepoints (Linux 6.15+).  -v says which. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/perf.h"
#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "readahead.h"

BPF_OBJ_DECLARE(readahead);

static const struct opt opts[] = {
	{ 'd', "duration", "DURATION", "Duration to trace (seconds; default: until Ctrl-C)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-d DURATION]",
	.examples =
		"    readahead              # summarize read-ahead until Ctrl-C\n"
		"    readahead -d 10        # trace for 10 seconds only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static long duration;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	default: return 1;
	}
	return 0;
}

/* One kernel function role: candidates newest name first, the fentry
 * (fexit) and kprobe (kretprobe) programs that serve it. */
struct role {
	const char *what;
	const char *fns[3];
	const char *fentry[3], *kprobe[3]; /* per candidate (NULL: the first's) */
	const char *fexit, *kretprobe;     /* the exit side, for the readahead functions */
	char how[96];
};
static struct role roles[] = {
	{ "readahead", { "page_cache_ra_unbounded", "do_page_cache_ra", "__do_page_cache_readahead" },
	  { "ra_fentry" }, { "ra_kprobe" }, "ra_fexit", "ra_kretprobe" },
	{ "readahead (large folios)", { "page_cache_ra_order" }, { "ra2_fentry" }, { "ra2_kprobe" }, "ra2_fexit",
	  "ra2_kretprobe" },
	{ "page allocation", { "filemap_alloc_folio_noprof", "filemap_alloc_folio", "__page_cache_alloc" },
	  { "alloc_fexit", "alloc_fexit", "alloc1_fexit" }, { "alloc_kretprobe" } },
	{ "page access", { "folio_mark_accessed", "mark_page_accessed" }, { "access_fentry" }, { "access_kprobe" } },
};
enum { R_RA, R_RA2, R_ALLOC, R_ACCESS };

static const char *const tp_progs[][2] = {
	{ "ra_unbounded_tp", "readahead/page_cache_ra_unbounded" },
	{ "ra_order_tp", "readahead/page_cache_ra_order" },
	{ "add_tp", "filemap/mm_filemap_add_to_page_cache" },
	{ "get_pages_tp", "filemap/mm_filemap_get_pages" },
	{ "map_pages_tp", "filemap/mm_filemap_map_pages" },
	{ "fault_tp", "filemap/mm_filemap_fault" },
	{ "delete_tp", "filemap/mm_filemap_delete_from_page_cache" },
};

static void role_off(struct obj *o, struct role *r)
{
	for (int i = 0; i < 3; i++) {
		if (r->fentry[i])
			prog_set_autoload(obj_prog(o, r->fentry[i]), false);
		if (r->kprobe[i])
			prog_set_autoload(obj_prog(o, r->kprobe[i]), false);
	}
	if (r->fexit)
		prog_set_autoload(obj_prog(o, r->fexit), false);
	if (r->kretprobe)
		prog_set_autoload(obj_prog(o, r->kretprobe), false);
}

/* Choose the function and program of a role; false if none. */
static bool role_pick(struct obj *o, struct role *r)
{
	int n = r->fns[2] ? 3 : r->fns[1] ? 2 : 1, which;
	enum kfunc_way h;
	const char *entry, *exit_;

	role_off(o, r);
	which = kfunc_pick(o, r->fns, n, &h);
	if (h == KFUNC_NONE)
		return false;
	if (h == KFUNC_FENTRY) {
		entry = r->fentry[which] ? r->fentry[which] : r->fentry[0];
		exit_ = r->fexit;
	} else {
		entry = r->kprobe[which] ? r->kprobe[which] : r->kprobe[0];
		exit_ = r->kretprobe;
	}
	prog_set_autoload(obj_prog(o, entry), true);
	prog_set_attach_target(obj_prog(o, entry), r->fns[which]);
	if (exit_) {
		prog_set_autoload(obj_prog(o, exit_), true);
		prog_set_attach_target(obj_prog(o, exit_), r->fns[which]);
	}
	snprintf(r->how, sizeof(r->how), "%s on %s", kfunc_way_name(h), r->fns[which]);
	return true;
}

static bool tp_exists(const char *spec)
{
	char cat[32];
	const char *slash = strchr(spec, '/');

	snprintf(cat, sizeof(cat), "%.*s", (int)(slash - spec), spec);
	return perf_tp_exists(cat, slash + 1);
}

/* The functions when all three roles have one; else the tracepoints when
 * the essential ones exist; else NULL after a message. */
static const char *choose(struct obj *o, bool *functions)
{
	bool ok = role_pick(o, &roles[R_RA]) && role_pick(o, &roles[R_ALLOC]) && role_pick(o, &roles[R_ACCESS]);
	size_t i;

	if (ok) {
		role_pick(o, &roles[R_RA2]);
		for (i = 0; i < ARRAY_SIZE(tp_progs); i++)
			prog_set_autoload(obj_prog(o, tp_progs[i][0]), false);
		map_set_max_entries(obj_map(o, "windows"), 1);
		map_set_max_entries(obj_map(o, "birth_page"), 1);
		*functions = true;
		return "kernel functions";
	}
	for (i = 0; i < ARRAY_SIZE(roles); i++)
		role_off(o, &roles[i]);
	if ((!tp_exists(tp_progs[0][1]) && !tp_exists(tp_progs[1][1])) || !tp_exists(tp_progs[2][1]) ||
	    !tp_exists(tp_progs[3][1])) {
		tool_err("readahead", "this kernel offers no way to see read-ahead: it needs fentry or kprobes on "
			 "page_cache_ra_unbounded, filemap_alloc_folio and folio_mark_accessed, or the "
			 "readahead:page_cache_ra_unbounded and filemap:mm_filemap_get_pages tracepoints (Linux 6.15+)");
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(tp_progs); i++)
		prog_set_autoload(obj_prog(o, tp_progs[i][0]), tp_exists(tp_progs[i][1]));
	map_set_max_entries(obj_map(o, "in_ra"), 1);
	map_set_max_entries(obj_map(o, "birth_folio"), 1);
	*functions = false;
	return "tracepoints";
}

static const struct out_hist age_hist = { "age", "age of read-ahead pages at first use", "msecs" };

int readahead_main(int argc, char **argv)
{
	struct readahead_hist h;
	bool functions = false;
	struct obj *o;
	__u32 zero = 0;
	double unused, total;
	int ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(readahead);
	if (!choose(o, &functions)) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "readahead"))
		return 1;
	if (tool_common.verbose) {
		if (functions)
			for (size_t i = 0; i < ARRAY_SIZE(roles); i++)
				fprintf(stderr, "readahead: %s: %s\n", roles[i].what,
					roles[i].how[0] ? roles[i].how : "none");
		else
			fprintf(stderr, "readahead: no fentry or kprobe here: read-ahead windows from readahead:*, pages "
				"added to them from filemap:mm_filemap_add_to_page_cache, first use from "
				"filemap:mm_filemap_get_pages (read), mm_filemap_map_pages and mm_filemap_fault "
				"(mmap)\n");
	}
	tool_signals();
	out_info("Tracing fs read-ahead ... Hit Ctrl-C to end.\n");
	tool_flush();
	tool_sleep_ms((duration ? duration : 99999999L) * 1000);
	if (bpf_map_lookup(map_fd(obj_map(o, "hists")), &zero, &h) < 0) {
		tool_err("readahead", "cannot read the histogram: %s", err_msg());
		obj_close(o);
		return 1;
	}
	obj_close(o);
	if (tool_stdout_gone())
		return 0;
	unused = (double)(h.unused < 0 ? 0 : h.unused);
	total = (double)h.total;
	out_doc_begin();
	out_text("\n");
	out_text("Readahead unused/total pages: %lld/%lld\n", (long long)unused, (long long)total);
	out_doc_num("unused", unused, "read-ahead pages not used while traced");
	out_doc_num("total", total, "pages read ahead while traced");
	out_hist(&age_hist, NULL, NULL, 0, h.slots, READAHEAD_MAX_SLOTS, NULL);
	if (out_doc_end() < 0)
		ret = 1;
	return ret;
}
