/* applet vfscount: count VFS calls (vfs_* kernel functions)
 * readme: calls of each kernel vfs_* function (bcc's; fentry or kprobes: a kernel with
 *         neither has no way in)
 *
 * bcc's usage and output: "Tracing... Ctrl-C to end.", then at Ctrl-C
 * (or after TIME seconds) ADDR, FUNC and COUNT, fewest calls first.  bcc
 * prints the address its kprobe saw (the function's, or one byte past it
 * through int3); corebox prints the function's own.  The programs are
 * generated at run time by the probe compiler, one per function, as
 * funccount 'vfs_*' does.  Function calls have no stable event: a kernel
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

#include "bpf/insn.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"
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
static int report(int fd, const struct loc *locs, const uint64_t *addrs, int n, bool by_ip)
{
	struct row *rows = xcalloc((size_t)n, sizeof(*rows));
	int nr = 0, rc;

	out_doc_begin();
	out_text("\n");
	out_header(&table);
	for (int i = 0; i < n; i++) {
		uint32_t k = (uint32_t)i;
		uint64_t v = 0;

		if (bpf_map_lookup(fd, by_ip ? (const void *)&addrs[i] : &k, &v) < 0)
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

/* One program on every function, counts[key]++: through a kprobe_multi
 * link, keyed by the cookie i of locs[i] (an array); else through one
 * legacy kprobe event with a probe per function (by_ip), keyed by the
 * function's address (a hash filled beforehand), which bpf_get_func_ip
 * gives.  NULL (nothing left behind) where the kernel refuses it. */
static struct obj *multi_attach(const char **names, const uint64_t *addrs, int n, bool by_ip, int *counts,
				int *attached)
{
	struct obj_opts opts = { .verbose = tool_common.verbose };
	const char **syms = xcalloc((size_t)n, sizeof(*syms));
	uint64_t *cookies = xcalloc((size_t)n, sizeof(*cookies)), zero = 0;
	size_t k = 0;
	struct obj *o = obj_new("vfscount");
	struct prog *p = NULL;
	struct emit e;
	int skip, idx = -1, ks = by_ip ? 8 : 4;

	*counts = obj_new_map(o, "counts", by_ip ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY, (uint32_t)ks, 8,
			      (uint32_t)n, 0);
	emit_init(&e);
	skip = emit_label(&e);
	emit_call(&e, by_ip ? BPF_FUNC_get_func_ip : BPF_FUNC_get_attach_cookie);
	emit_stx(&e, ks, R10, -8, R0);
	emit_ldmap(&e, R1, *counts);
	emit_mov(&e, R2, R10);
	emit_alui(&e, BPF_ADD, R2, -8);
	emit_call(&e, BPF_FUNC_map_lookup_elem);
	emit_jmpi(&e, BPF_JEQ, R0, 0, skip);
	emit_movi(&e, R1, 1);
	emit_xadd(&e, 8, R0, 0, R1);
	emit_place(&e, skip);
	emit_movi(&e, R0, 0);
	emit_exit(&e);
	if (*counts >= 0 && emit_finish(&e) == 0)
		idx = obj_new_prog(o, "vfscount", by_ip ? "kprobe" : "kprobe.multi", e.insns, e.cnt, e.maps, e.nr_maps,
				   "vfs_*");
	emit_free(&e);
	/* not the init code freed after boot (kallsyms still lists it):
	 * the kernel refuses a kprobe_multi link with a function ftrace
	 * cannot trace */
	for (int i = 0; i < n; i++)
		if (addrs[i] < addrs[n] || addrs[i] >= addrs[n + 1]) {
			syms[k] = names[i];
			cookies[k++] = (uint64_t)i;
		}
	if (idx >= 0 && obj_load(o, &opts) == 0) {
		p = obj_prog_at(o, (size_t)idx);
		for (int i = 0; by_ip && i < n; i++)
			if (addrs[i])
				bpf_map_update(map_fd(obj_map_at(o, (size_t)*counts)), &addrs[i], &zero, 0);
	}
	if (!p || (*attached = prog_attach_kprobes(p, syms, cookies, k)) < 0) {
		if (tool_common.verbose)
			fprintf(stderr, "vfscount: %s\n", err_msg());
		err_clear();
		obj_close(o);
		o = NULL;
	}
	free(syms);
	free(cookies);
	return o;
}

int vfscount_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "vfscount", .pattern = true, .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct loc *locs = NULL;
	struct spec s;
	struct obj *o = NULL;
	const char **names;
	uint64_t *addrs;
	int n = 0, counts, rc = 0, attached = 0, errpos = 0;
	bool by_ip = false, multi;

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
	/* and the init code's bounds, after them */
	names = xcalloc((size_t)n + 2, sizeof(*names));
	addrs = xcalloc((size_t)n + 2, sizeof(*addrs));
	for (int i = 0; i < n; i++)
		names[i] = locs[i].target;
	names[n] = "_sinittext";
	names[n + 1] = "_einittext";
	ksym_addrs(names, n + 2, addrs);
	/* one probe for all functions (a detach in one go) where the kernel
	 * has a way; kprobes off (COREBOX_DISABLE=kprobe) take these along */
	if (!probe_disabled("kprobe_multi") && !probe_disabled("kprobe"))
		o = multi_attach(names, addrs, n, false, &counts, &attached);
	if (!o && !probe_disabled("kprobe_group") && probe_kprobe_legacy() &&
	    (o = multi_attach(names, addrs, n, true, &counts, &attached)))
		by_ip = true;
	if (!(multi = o != NULL)) {
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
			rc = report(map_fd(obj_map_at(o, (size_t)counts)), locs, addrs, n, by_ip);
		tool_flush(); /* before the detach, which takes a while for many functions */
	}
	free(names);
	free(addrs);
	obj_close(o);
	locs_free(locs, n);
	spec_free(&s);
	return rc;
}
