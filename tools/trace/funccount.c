/* applet funccount: count function, tracepoint and USDT probe calls matching a pattern
 * readme: calls per function, tracepoint or USDT probe matching a pattern
 *         (`'t:syscalls:sys_enter_*'`, `c:malloc`)
 *
 * Kernel functions, tracepoints, user functions and USDT probes (bcc's
 * flags and output), with programs generated at run time: one per matched
 * location, each adding one to its own counter; kernel functions share
 * one program where the kernel has a way (build_multi: the detach at
 * Ctrl-C is then one step, not one per function). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/probe/build.h"
#include "tools/trace/pattern_tool.h"

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'i', "interval", "SEC", "summary interval, seconds" },
	{ 'd', "duration", "SEC", "total duration of trace, seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'r', "regexp", NULL, "use regular expressions. Default is \"*\" wildcards only." },
	{ 'D', "debug", NULL, "print the generated BPF program's size and sections" },
	{ 'c', "cpu", "CPU", "trace this CPU only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-i INTERVAL] [-d DURATION] [-T] [-r] [-D] [-c CPU] pattern",
	.examples = "  funccount 'vfs_*'             # count kernel fns starting with \"vfs\"\n"
		    "  funccount -r '^vfs.*'         # same as above, using regular expressions\n"
		    "  funccount -Ti 5 'vfs_*'       # output every 5 seconds, with timestamps\n"
		    "  funccount -d 10 'vfs_*'       # trace for 10 seconds only\n"
		    "  funccount -p 185 'vfs_*'      # count vfs calls for PID 185 only\n"
		    "  funccount t:sched:sched_fork  # count calls to the sched_fork tracepoint\n"
		    "  funccount 't:syscalls:sys_enter_*'  # count every syscall entry tracepoint\n"
		    "  funccount -p 185 u:node:gc*   # count all GC USDT probes in node, PID 185\n"
		    "  funccount c:malloc            # count all malloc() calls in libc\n"
		    "  funccount ./test:read*        # count \"read*\" calls in the ./test binary\n"
		    "  funccount -c 1 'vfs_*'        # count vfs calls on CPU 1 only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct pattern_tool pt; /* set in main: bss, not in the binary */
static bool debug;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'D': debug = true; break;
	default: return pattern_tool_opt(&pt, key, arg);
	}
	return 0;
}

struct row {
	const char *name;
	uint64_t count;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->count < y->count ? -1 : x->count > y->count;
}

/* bcc's "%-36s %8d" rows; JSON {"functions": [{"func", "count"}]};
 * Prometheus corebox_funccount_count_total{func=...}. */
enum { C_FUNC, C_COUNT };
static const struct out_col cols[] = {
	[C_FUNC] = { "func", "FUNC", "%-36s ", OUT_STR, OUT_LABEL },
	[C_COUNT] = { "count", "COUNT", "%8llu\n", OUT_UINT, OUT_COUNTER,
		      .help = "calls of the function (tracepoint, USDT probe)" },
};
static const struct out_table table = OUT_TABLE("functions", cols);

struct report_ctx {
	int fd;
	const struct loc *locs;
	int n;
};

static int report(void *ctx)
{
	const struct report_ctx *c = ctx;
	int fd = c->fd, n = c->n;
	const struct loc *locs = c->locs;
	struct row *rows = xcalloc((size_t)n, sizeof(*rows));
	int nr = 0, rc;

	pattern_tool_report_begin(&pt, true);
	out_header(&table);
	for (int i = 0; i < n; i++) {
		uint32_t k = (uint32_t)i;
		uint64_t v = 0, zero = 0;

		if (bpf_map_lookup(fd, &k, &v) < 0)
			err_clear();
		bpf_map_update(fd, &k, &zero, 0);
		if (v) {
			rows[nr].name = locs[i].name;
			rows[nr++].count = v;
		}
	}
	qsort(rows, (size_t)nr, sizeof(*rows), cmp_row);
	for (int i = 0; i < nr; i++) {
		union out_val v[] = { [C_FUNC].s = rows[i].name, [C_COUNT].u = rows[i].count };

		out_row(&table, v);
	}
	rc = out_doc_end();
	tool_flush();
	free(rows);
	return rc;
}

int funccount_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "funccount", .pattern = true, .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct report_ctx rep;
	struct build_counts mc;
	struct spec s;
	struct loc *locs = NULL;
	struct obj *o;
	int n = 0, counts, rc = 0, attached = 0;
	const char *lim = getenv("BCC_PROBE_LIMIT");

	pt = (struct pattern_tool){ .help = &help, .duration_key = 'd', .cpu = -1 };
	opt_parse(argc, argv, &help, parse, NULL);
	pattern_tool_check(&pt);
	if (lim)
		ro.limit = atoi(lim) > 0 ? atoi(lim) : ro.limit;
	if ((rc = pattern_tool_spec(&pt, &s, &ro)))
		return rc;
	ro.verbose = tool_common.verbose;
	if (probe_resolve(&s, &ro, false, &locs, &n) < 0) {
		tool_err("funccount", "%s", err_msg());
		spec_free(&s);
		return 1;
	}
	co.pid = pt.pid;
	co.cpu = pt.cpu;
	mc.n = n;
	if (!(o = build_multi("funccount", locs, n, NULL, &s, &co, true, build_count_body, &mc, &attached))) {
		o = obj_new("funccount");
		counts = obj_new_map(o, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, (uint32_t)n, 0);
		for (int i = 0; i < n && !rc; i++) {
			struct gen *g = gen_new(&locs[i], &s, &co);
			int out = gen_begin(g), key = gen_stack(g, 8);

			gen_array_inc(g, counts, (uint32_t)i, key, out);
			rc = pattern_tool_prog(&pt, o, &locs[i], &s, g, out, debug);
		}
		if ((rc = build_finish(o, rc, "funccount", pt.pattern, &attached)))
			goto out;
	} else {
		counts = mc.counts;
		if (debug)
			fprintf(stderr, "%s: one program on %d functions (%s)\n", pt.pattern, attached,
				prog_mechanism(obj_prog_at(o, 0)));
	}
	rep = (struct report_ctx){ map_fd(obj_map_at(o, (size_t)counts)), locs, n };
	rc = pattern_tool_loop(&pt, attached, 0, report, &rep);
out:
	obj_close(o);
	locs_free(locs, n);
	spec_free(&s);
	return rc;
}
