/* applet vfscount: count VFS calls (vfs_* kernel functions)
 * readme: calls of each kernel vfs_* function (bcc's; fentry or kprobes: a kernel with
 *         neither has no way in)
 *
 * bcc's usage and output: "Tracing... Ctrl-C to end.", then at Ctrl-C
 * (or after TIME seconds) ADDR, FUNC and COUNT, fewest calls first.  bcc
 * prints the address its kprobe saw (the function's, or one byte past it
 * through int3); corebox prints the function's own.  The program is
 * generated at run time by the probe compiler and put on every function
 * at once (build_multi), as funccount 'vfs_*' does.  Function calls have no stable event: a kernel
 * with neither kprobes nor fentry (BTF trampolines) offers no way in, and
 * the tool says so; vfsstat counts the five main ones from system calls.
 * One program counts them all where the kernel has a way, so the detach
 * at Ctrl-C is one step: a kprobe_multi link (5.18+ built with FPROBE:
 * Debian's 6.12, 80 ms under emulation), else one legacy kprobe event
 * with a probe per function (Debian's 6.1: 1.8 s, the kernel still
 * disarms each and waits a grace period for each).  One fentry link or
 * kprobe per function, the last resort, took 10 s on both: each waits
 * out its own grace periods, one after the other. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/probe/build.h"

static const struct tool_help help = {
	.usage = "[time]",
	.examples = "    vfscount      # count vfs_* calls until Ctrl-C\n"
		    "    vfscount 5    # for five seconds\n",
	.flags = OPT_PROM,
};

static long seconds = 99999999;

static int parse(int key, const char *arg, void *ctx)
{
	static int npos;

	(void)ctx;
	if (key != 0 || npos++)
		return 1;
	seconds = (long)opt_num(&help, "time", arg, 1, INT_MAX);
	return 0;
}

enum { C_ADDR, C_FUNC, C_COUNT };
static const struct out_col cols[] = {
	[C_ADDR] = { "addr", "ADDR", "%-16llx ", OUT_HEX, .hfmt = "%-16s " },
	[C_FUNC] = { "func", "FUNC", "%-26s ", OUT_STR, OUT_LABEL },
	[C_COUNT] = { "count", "COUNT", "%8llu\n", OUT_UINT, OUT_COUNTER, .help = "calls of the vfs_ function" },
};
static const struct out_table table = OUT_TABLE("functions", cols);

struct row {
	const char *name;
	uint64_t addr, count;
};

static int fewest_first(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->count < y->count ? -1 : x->count > y->count;
}

/* addrs: each function's, from /proc/kallsyms before the run (a pass
 * over it takes a while on a slow machine: not after Ctrl-C) */
static int report(int fd, const struct loc *locs, const uint64_t *addrs, int n)
{
	struct row *rows = xcalloc((size_t)n, sizeof(*rows));
	int nr = 0, rc;

	out_doc_begin();
	out_text("\n");
	out_header(&table);
	for (int i = 0; i < n; i++) {
		uint32_t k = (uint32_t)i;
		uint64_t v = 0;

		if (bpf_map_lookup(fd, &k, &v) < 0)
			err_clear();
		if (v)
			rows[nr++] = (struct row){ locs[i].name, addrs[i], v };
	}
	qsort(rows, (size_t)nr, sizeof(*rows), fewest_first);
	for (int i = 0; i < nr; i++) {
		union out_val v[] = { [C_ADDR].u = rows[i].addr, [C_FUNC].s = rows[i].name, [C_COUNT].u = rows[i].count };

		out_row(&table, v);
	}
	rc = out_doc_end();
	free(rows);
	return rc < 0;
}

int vfscount_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "vfscount", .pattern = true, .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct loc *locs = NULL;
	struct spec s;
	struct obj *o = NULL;
	uint64_t *addrs;
	int n = 0, counts, rc = 0, attached = 0, errpos = 0;
	struct build_counts bc;
	bool multi;

	opt_parse(argc, argv, &help, parse, NULL);
	if (spec_parse_pattern("vfs_*", &s, &errpos) < 0) {
		tool_err("vfscount", "%s", err_msg());
		return 1;
	}
	tool_signals();
	ro.verbose = tool_common.verbose;
	if (probe_resolve(&s, &ro, false, &locs, &n) < 0) {
		tool_err("vfscount", "%s (vfs_* calls have no tracepoints; vfsstat counts vfs_read, vfs_write, "
			 "vfs_fsync, vfs_open and vfs_create from system calls)", err_msg());
		spec_free(&s);
		return 1;
	}
	addrs = build_func_addrs(locs, n);
	/* one probe for all functions (a detach in one go) where the kernel
	 * has a way; kprobes off (COREBOX_DISABLE=kprobe) take these along */
	bc.n = n;
	if ((multi = (o = build_multi("vfscount", locs, n, addrs, &s, &co, true, build_count_body, &bc, &attached)) != NULL))
		counts = bc.counts;
	else {
		o = obj_new("vfscount");
		counts = obj_new_map(o, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, (uint32_t)n, 0);
		for (int i = 0; i < n && !rc; i++) {
			struct gen *g = gen_new(&locs[i], &s, &co);
			int out = gen_begin(g), key = gen_stack(g, 8);

			gen_array_inc(g, counts, (uint32_t)i, key, out);
			gen_end(g, out);
			if (build_add(o, &locs[i], g, "vfs_*", 0) < 0)
				rc = build_probe_error("vfscount", &s, g);
			gen_free(g);
		}
		rc = build_finish(o, rc, "vfscount", "vfs_*", &attached);
	}
	if (!rc) {
		if (tool_common.verbose)
			fprintf(stderr, "vfscount: %d functions, %s\n", attached,
				multi ? prog_mechanism(obj_prog_at(o, 0)) : locs[0].mech == M_FENTRY ? "fentry" : "kprobes");
		out_info("Tracing... Ctrl-C to end.\n");
		tool_flush();
		tool_sleep_ms(seconds * 1000);
		if (!tool_stdout_gone())
			rc = report(map_fd(obj_map_at(o, (size_t)counts)), locs, addrs, n);
		tool_flush(); /* before the detach, which takes a while for many functions */
	}
	free(addrs);
	obj_close(o);
	locs_free(locs, n);
	spec_free(&s);
	return rc;
}
