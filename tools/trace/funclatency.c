/* applet funclatency: time functions (entry to return) as a latency histogram
 * readme: entry-to-return latency histograms of kernel or user functions (`-F` per function)
 *
 * Kernel or user functions, log2 histograms: libbpf-tools 0.26's output
 * ("Tracing F.  Hit Ctrl-C to exit", "nsec : count    distribution", -i
 * accumulating, "Exiting trace of F"), its -c CG and `-p PID :FUNC`, and
 * bcc's wildcards, -r and -F on top.  Entry programs push the time on a
 * per-thread stack (so nested and recursive calls pair up correctly),
 * return programs pop it. */
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
#include "tools/stack/mapdump.h"
#include "tools/probe/build.h"
#include "tools/probe/hist.h"
#include "tools/trace/pattern_tool.h"

#define DEPTH 16

struct dkey {
	uint32_t loc, tgid, slot, pad;
};

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'i', "interval", "SEC", "summary interval, in seconds" },
	{ 'd', "duration", "SEC", "total duration of trace, in seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'u', "microseconds", NULL, "microsecond histogram" },
	{ 'm', "milliseconds", NULL, "millisecond histogram" },
	{ 'F', "function", NULL, "show a separate histogram per function" },
	{ 'r', "regexp", NULL, "use regular expressions. Default is \"*\" wildcards only." },
	{ 'c', "cgroup", "CG", "trace processes in this cgroup (v2 directory) only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-i INTERVAL] [-d DURATION] [-c CG] [-T] [-u] [-m] [-F] [-r] [-v] pattern",
	.examples = "  funclatency do_sys_open       # time the do_sys_open() kernel function\n"
		    "  funclatency c:read            # time the read() C library function\n"
		    "  funclatency -u vfs_read       # time vfs_read(), in microseconds\n"
		    "  funclatency -m do_nanosleep   # time do_nanosleep(), in milliseconds\n"
		    "  funclatency -i 2 -d 10 c:open # output every 2 seconds, for duration 10s\n"
		    "  funclatency -p 181 vfs_read   # time process 181 only\n"
		    "  funclatency -p 181 :foo       # time foo() in the binary of process 181\n"
		    "  funclatency -c CG vfs_read    # only processes in cgroup v2 directory CG\n"
		    "  funclatency 'c:*printf'       # time the *printf family of functions\n"
		    "  funclatency -F 'vfs_r*'       # show one histogram per matched function\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct pattern_tool pt; /* set in main: bss, not in the binary */
static struct {
	bool usec, msec, perfunc;
	const char *cgroup;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'u': env.usec = true; break;
	case 'm': env.msec = true; break;
	case 'F': env.perfunc = true; break;
	case 'c': env.cgroup = arg; break; /* (not the pattern tools' -c CPU) */
	default: return pattern_tool_opt(&pt, key, arg);
	}
	return 0;
}

/* R9 = this thread's stack of entry times (created when absent). */
static void thread_stack(struct gen *g, int stk, int key, int zero, int out, bool create)
{
	struct emit *e = gen_emit(g);
	int have = emit_label(e);

	emit_stx(e, 4, R10, (int16_t)key, R8);
	emit_ldmap(e, R1, stk);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key);
	emit_call(e, BPF_FUNC_map_lookup_elem);
	emit_jmpi(e, BPF_JNE, R0, 0, have);
	if (!create) {
		emit_ja(e, out);
	} else {
		for (int b = 0; b < 8 + DEPTH * 8; b += 8)
			emit_st(e, 8, R10, (int16_t)(zero + b), 0);
		emit_map_update(e, stk, key, zero, BPF_NOEXIST);
		emit_ldmap(e, R1, stk);
		emit_mov(e, R2, R10);
		emit_alui(e, BPF_ADD, R2, key);
		emit_call(e, BPF_FUNC_map_lookup_elem);
		emit_jmpi(e, BPF_JEQ, R0, 0, out);
	}
	emit_place(e, have);
	emit_mov(e, R9, R0);
}

static int gen_entry(struct obj *o, struct spec *s, struct loc *l, const struct cg_opts *co, int stk)
{
	struct gen *g = gen_new(l, s, co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), zero = gen_stack(g, 8 + DEPTH * 8), skip = emit_label(e);

	thread_stack(g, stk, key, zero, out, true);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_ldx(e, 4, R1, R9, 0);
	emit_jmpi(e, BPF_JGE, R1, DEPTH, skip);
	emit_mov(e, R2, R1);
	emit_alui(e, BPF_LSH, R2, 3);
	emit_mov(e, R3, R9);
	emit_alu(e, BPF_ADD, R3, R2);
	emit_stx(e, 8, R3, 8, R0);
	emit_place(e, skip);
	emit_alui(e, BPF_ADD, R1, 1);
	emit_stx(e, 4, R9, 0, R1);
	return pattern_tool_prog(&pt, o, l, s, g, out, false);
}

static int gen_return(struct obj *o, struct spec *s, struct loc *l, int li, const struct cg_opts *co, int stk,
		      int dist, int tot)
{
	struct gen *g = gen_new(l, s, co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), dk = gen_stack(g, sizeof(struct dkey)), val = gen_stack(g, 16);
	int delta = gen_stack(g, 8), keep = emit_label(e), insert = emit_label(e), added = emit_label(e);

	thread_stack(g, stk, key, 0, out, false);
	emit_ldx(e, 4, R1, R9, 0);
	emit_jmpi(e, BPF_JEQ, R1, 0, out);
	emit_alui(e, BPF_SUB, R1, 1);
	emit_stx(e, 4, R9, 0, R1);
	emit_jmpi(e, BPF_JGE, R1, DEPTH, out); /* an entry that did not fit */
	emit_mov(e, R2, R1);
	emit_alui(e, BPF_LSH, R2, 3);
	emit_mov(e, R3, R9);
	emit_alu(e, BPF_ADD, R3, R2);
	emit_ldx(e, 8, R7, R3, 8);
	emit_jmpi(e, BPF_JNE, R1, 0, keep);
	emit_ldmap(e, R1, stk); /* outermost call returned: forget the thread */
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key);
	emit_call(e, BPF_FUNC_map_delete_elem);
	emit_place(e, keep);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_alu(e, BPF_SUB, R0, R7);
	emit_stx(e, 8, R10, (int16_t)delta, R0);
	/* the histogram's key: {location, tgid or -1, slot} */
	emit_st(e, 4, R10, (int16_t)dk, env.perfunc ? li : 0);
	emit_st(e, 4, R10, (int16_t)(dk + 8), 0);
	emit_st(e, 4, R10, (int16_t)(dk + 12), 0);
	/* one histogram over every process, as libbpf-tools (bcc split a
	 * library's calls by TGID) */
	emit_st(e, 4, R10, (int16_t)(dk + 4), -1);
	/* its total and count in ns (slot 0 of the key): the avg line and
	 * the histogram's exact sum */
	emit_ldmap(e, R1, tot);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, dk);
	emit_call(e, BPF_FUNC_map_lookup_elem);
	emit_jmpi(e, BPF_JEQ, R0, 0, insert);
	emit_ldx(e, 8, R1, R10, (int16_t)delta);
	emit_xadd(e, 8, R0, 0, R1);
	emit_movi(e, R1, 1);
	emit_xadd(e, 8, R0, 8, R1);
	emit_ja(e, added);
	emit_place(e, insert);
	emit_ldx(e, 8, R1, R10, (int16_t)delta);
	emit_stx(e, 8, R10, (int16_t)val, R1);
	emit_st(e, 8, R10, (int16_t)(val + 8), 1);
	emit_map_update(e, tot, dk, val, BPF_NOEXIST);
	emit_place(e, added);
	emit_ldx(e, 8, R1, R10, (int16_t)delta);
	if (env.msec || env.usec)
		emit_alui(e, BPF_DIV, R1, env.msec ? 1000000 : 1000);
	gen_log2l(g);
	emit_stx(e, 4, R10, (int16_t)(dk + 8), R0);
	gen_hash_inc(g, dist, dk, val);
	return pattern_tool_prog(&pt, o, l, s, g, out, false);
}

static int cmp_dkey(const void *a, const void *b)
{
	const struct dkey *x = a, *y = b;

	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

/* Read a hash of struct dkey -> u64 values (nval of them).  Not cleared:
 * libbpf-tools' -i reports the histogram so far, every interval. */
static int drain(int fd, size_t nval, struct map_dump *d)
{
	if (map_dump(fd, sizeof(struct dkey), nval * 8, d) < 0) {
		tool_err("funclatency", "cannot read the histogram: %s", err_msg());
		return -1;
	}
	return 0;
}

/* libbpf-tools' layout: log2 histograms in the unit ("nsec"), its slots
 * (the BPF side counts bcc's: slots 0 and 1 become its slot 0); with -F or
 * bcc's "Function = NAME" sections.  JSON: the histograms with
 * their exact sums ("latency": [{"function", "pid", "unit", "count",
 * "sum", "buckets"}]) and avg/total/count; Prometheus:
 * corebox_funclatency_latency_seconds{function=...}. */
struct report_ctx {
	struct obj *o;
	int dist, tot;
	const struct loc *entries;
	bool sections;
};

static int report(void *ctx)
{
	const struct report_ctx *c = ctx;
	struct obj *o = c->o;
	int dist = c->dist, tot = c->tot;
	const struct loc *entries = c->entries;
	bool sections = c->sections;
	static const struct out_hist hist_ns = { "latency", "function latency", "nsec" };
	static const struct out_hist hist_us = { "latency", "function latency", "usec" };
	static const struct out_hist hist_ms = { "latency", "function latency", "msec" };
	const struct out_hist *h = env.msec ? &hist_ms : env.usec ? &hist_us : &hist_ns;
	double div = env.msec ? 1e6 : env.usec ? 1e3 : 1;
	struct map_dump d, t;
	uint64_t hist[BCC_SLOTS], all_ns = 0, all_n = 0;
	struct dkey *keys;
	char head[300], pid[16];
	int rc;

	pattern_tool_report_begin(&pt, true);
	if (drain(map_fd(obj_map_at(o, (size_t)dist)), 1, &d) < 0) {
		out_doc_end();
		return -1;
	}
	if (drain(map_fd(obj_map_at(o, (size_t)tot)), 2, &t) < 0) {
		map_dump_free(&d);
		out_doc_end();
		return -1;
	}
	keys = xcalloc(d.n ? d.n : 1, sizeof(*keys));
	for (size_t i = 0; i < d.n; i++)
		memcpy(&keys[i], map_dump_key(&d, i), sizeof(struct dkey));
	qsort(keys, d.n, sizeof(*keys), cmp_dkey);
	for (size_t i = 0; i < d.n;) {
		struct out_label labels[2];
		uint64_t sum_ns = 0;
		double sum;
		size_t j = i;
		int nl = 0;

		memset(hist, 0, sizeof(hist));
		for (; j < d.n && !cmp_dkey(&keys[i], &keys[j]); j++)
			for (size_t r = 0; r < d.n; r++)
				if (!memcmp(map_dump_key(&d, r), &keys[j], sizeof(struct dkey)) && keys[j].slot < BCC_SLOTS) {
					uint64_t v;

					memcpy(&v, map_dump_value(&d, r), 8);
					hist[keys[j].slot] += v;
				}
		for (size_t r = 0; r < t.n; r++)
			if (!cmp_dkey(map_dump_key(&t, r), &keys[i]))
				memcpy(&sum_ns, map_dump_value(&t, r), 8);
		sum = (double)sum_ns / div;
		head[0] = 0;
		if (sections) {
			const char *name = entries[keys[i].loc].name;

			labels[nl++] = (struct out_label){ "function", name };
			if (keys[i].tgid != 0xffffffff) {
				snprintf(pid, sizeof(pid), "%u", keys[i].tgid);
				labels[nl++] = (struct out_label){ "pid", pid };
				snprintf(head, sizeof(head), "\nFunction = %s [%u]\n", name, keys[i].tgid);
			} else {
				snprintf(head, sizeof(head), "\nFunction = %s\n", name);
			}
		}
		hist[1] += hist[0];
		out_hist64(h, head, labels, nl, hist + 1, BCC_SLOTS - 1, &sum);
		i = j;
	}
	for (size_t r = 0; r < t.n; r++) {
		uint64_t a[2];

		memcpy(a, map_dump_value(&t, r), 16);
		all_ns += a[0];
		all_n += a[1];
	}
	if (all_n > 0) { /* JSON only: libbpf-tools prints no avg line */
		uint64_t total = (uint64_t)((double)all_ns / div);

		out_doc_num("avg", (double)total / (double)all_n, NULL);
		out_doc_num("total", (double)total, NULL);
		out_doc_num("count", (double)all_n, NULL);
	}
	free(keys);
	map_dump_free(&d);
	map_dump_free(&t);
	rc = out_doc_end();
	tool_flush();
	return rc;
}

/* `-p PID :FUNC` (libbpf-tools): FUNC in the binary PID runs, named by
 * /proc/PID/exe's target (a path the uprobe can open).  0, or the exit
 * status after a message. */
static int own_binary(struct spec *s)
{
	char link[32], path[PATH_MAX];
	ssize_t n;

	if (!pt.pid) {
		tool_err("funclatency", "%s: ':FUNCTION' names a function of the -p PID's binary: give -p PID", pt.pattern);
		return 2;
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", pt.pid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0) {
		tool_err("funclatency", "cannot read %s: %s (is process %d running?)", link, strerror(errno), pt.pid);
		return 1;
	}
	path[n] = 0;
	free(s->lib);
	s->lib = xstrdup(path);
	return 0;
}

int funclatency_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "funclatency", .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct report_ctx rep;
	struct spec s;
	struct loc *ent = NULL, *ret = NULL;
	struct obj *o;
	int ne = 0, nr = 0, stk, dist, tot, rc = 0, attached = 0, cgfd = -1;
	const char *pattern, *second;

	pt = (struct pattern_tool){ .help = &help, .duration_key = 'd', .cpu = -1 };
	opt_parse(argc, argv, &help, parse, NULL);
	pattern_tool_check(&pt);
	if (env.usec && env.msec)
		opt_usage_error(&help, "-u and -m are mutually exclusive");
	pattern = pt.pattern;
	if (strchr(pattern, ':') && (second = strchr(strchr(pattern, ':') + 1, ':'))) {
		spec_report("funclatency", pattern, (int)(second - pattern),
			    "unrecognized pattern format (use FUNC or LIB:FUNC)");
		return 2;
	}
	if ((rc = pattern_tool_spec(&pt, &s, &ro)))
		return rc;
	if (pattern[0] == ':' && (rc = own_binary(&s)))
		goto out0;
	if (probe_resolve(&s, &ro, false, &ent, &ne) < 0 || probe_resolve(&s, &ro, true, &ret, &nr) < 0) {
		tool_err("funclatency", "%s", err_msg());
		locs_free(ent, ne);
		spec_free(&s);
		return 1;
	}
	if (ne != nr || ent[0].mech == M_TP) {
		tool_err("funclatency", "%s: %s", pattern,
			 ent[0].mech == M_TP ? "a tracepoint has no return to time (use a function)" : "entry and return probes differ");
		rc = 1;
		goto out0;
	}
	co.pid = pt.pid;
	if (env.cgroup && (cgfd = tool_cgroup_open("funclatency", env.cgroup)) < 0) {
		rc = 1;
		goto out0;
	}
	o = obj_new("funclatency");
	if (cgfd >= 0) {
		co.cgroup = true;
		co.cgroup_map = obj_new_map(o, "cgroup_map", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 1, 0);
	}
	stk = obj_new_map(o, "starts", BPF_MAP_TYPE_HASH, 4, 8 + DEPTH * 8, 10240, 0);
	dist = obj_new_map(o, "dist", BPF_MAP_TYPE_HASH, sizeof(struct dkey), 8, 10240, 0);
	tot = obj_new_map(o, "totals", BPF_MAP_TYPE_HASH, sizeof(struct dkey), 16, 10240, 0);
	for (int i = 0; i < ne && !rc; i++) {
		rc = gen_entry(o, &s, &ent[i], &co, stk);
		if (!rc)
			rc = gen_return(o, &s, &ret[i], i, &co, stk, dist, tot);
	}
	if ((rc = build_finish(o, rc, "funclatency", pattern, &attached)))
		goto out;
	if (cgfd >= 0 && tool_cgroup_filter(o, "funclatency", env.cgroup, cgfd) < 0) {
		rc = 1;
		goto out;
	}
	rep = (struct report_ctx){ o, dist, tot, ent, env.perfunc };
	out_info("Tracing %s.  Hit Ctrl-C to exit\n", pattern);
	rc = pattern_tool_loop(&pt, attached / 2, PATTERN_QUIET, report, &rep);
	out_info("Exiting trace of %s\n", pattern);
out:
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
out0:
	locs_free(ent, ne);
	locs_free(ret, nr);
	spec_free(&s);
	return rc;
}
