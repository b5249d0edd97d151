/* funclatency: time kernel or user functions (entry -> return) as log2
 * histograms, bcc's flags and output.  Entry programs push the time on a
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
#include "tools/trace/build.h"
#include "tools/trace/hist.h"

#define DEPTH 16

struct dkey {
	uint32_t loc, tgid, slot, pad;
};

static struct {
	int pid;
	long interval, duration;
	bool timestamp, usec, msec, perfunc, regex, verbose;
	const char *pattern;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'i', "interval", "SEC", "summary interval, in seconds" },
	{ 'd', "duration", "SEC", "total duration of trace, in seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'u', "microseconds", NULL, "microsecond histogram" },
	{ 'm', "milliseconds", NULL, "millisecond histogram" },
	{ 'F', "function", NULL, "show a separate histogram per function" },
	{ 'r', "regexp", NULL, "use regular expressions. Default is \"*\" wildcards only." },
	{ 'v', "verbose", NULL, "show the generated programs' sizes and loader details" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "funclatency",
	.usage = "[-h] [-p PID] [-i INTERVAL] [-d DURATION] [-T] [-u] [-m] [-F] [-r] [-v] pattern",
	.summary = "Time functions and print latency as a histogram.",
	.examples = "  funclatency do_sys_open       # time the do_sys_open() kernel function\n"
		    "  funclatency c:read            # time the read() C library function\n"
		    "  funclatency -u vfs_read       # time vfs_read(), in microseconds\n"
		    "  funclatency -m do_nanosleep   # time do_nanosleep(), in milliseconds\n"
		    "  funclatency -i 2 -d 10 c:open # output every 2 seconds, for duration 10s\n"
		    "  funclatency -p 181 vfs_read   # time process 181 only\n"
		    "  funclatency 'c:*printf'       # time the *printf family of functions\n"
		    "  funclatency -F 'vfs_r*'       # show one histogram per matched function\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX); break;
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	case 'T': env.timestamp = true; break;
	case 'u': env.usec = true; break;
	case 'm': env.msec = true; break;
	case 'F': env.perfunc = true; break;
	case 'r': env.regex = true; break;
	case 'v': env.verbose = true; tool_common.verbose = 1; break;
	case 0:
		if (env.pattern)
			opt_usage_error(&help, "unrecognized argument: %s", arg);
		env.pattern = arg;
		break;
	default: return 1;
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
		emit_ldmap(e, R1, stk);
		emit_mov(e, R2, R10);
		emit_alui(e, BPF_ADD, R2, key);
		emit_mov(e, R3, R10);
		emit_alui(e, BPF_ADD, R3, zero);
		emit_movi(e, R4, BPF_NOEXIST);
		emit_call(e, BPF_FUNC_map_update_elem);
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
	int out = gen_begin(g), key = gen_stack(g, 8), zero = gen_stack(g, 8 + DEPTH * 8), skip = emit_label(e), rc;

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
	gen_end(g, out);
	rc = build_add(o, l, g, s->text, env.pid) < 0 ? build_probe_error("funclatency", s, g) : 0;
	gen_free(g);
	return rc;
}

static int gen_return(struct obj *o, struct spec *s, struct loc *l, int li, const struct cg_opts *co, int stk,
		      int dist, int avg, bool per_tgid)
{
	struct gen *g = gen_new(l, s, co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), dk = gen_stack(g, sizeof(struct dkey)), val = gen_stack(g, 8);
	int delta = gen_stack(g, 8), keep = emit_label(e), rc;

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
	emit_st(e, 4, R10, (int16_t)key, 0);
	gen_lookup(g, avg, key, out);
	emit_ldx(e, 8, R1, R10, (int16_t)delta);
	emit_xadd(e, 8, R0, 0, R1);
	emit_movi(e, R1, 1);
	emit_xadd(e, 8, R0, 8, R1);
	emit_ldx(e, 8, R1, R10, (int16_t)delta);
	if (env.msec || env.usec)
		emit_alui(e, BPF_DIV, R1, env.msec ? 1000000 : 1000);
	gen_log2l(g);
	emit_stx(e, 4, R10, (int16_t)(dk + 8), R0);
	emit_st(e, 4, R10, (int16_t)dk, env.perfunc || per_tgid ? li : 0);
	emit_st(e, 4, R10, (int16_t)(dk + 12), 0);
	if (per_tgid) {
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_stx(e, 4, R10, (int16_t)(dk + 4), R1);
	} else {
		emit_st(e, 4, R10, (int16_t)(dk + 4), -1);
	}
	gen_hash_inc(g, dist, dk, val);
	gen_end(g, out);
	rc = build_add(o, l, g, s->text, env.pid) < 0 ? build_probe_error("funclatency", s, g) : 0;
	gen_free(g);
	return rc;
}

static int cmp_dkey(const void *a, const void *b)
{
	const struct dkey *x = a, *y = b;

	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

static void report(struct obj *o, int dist, int avg, struct loc *entries, bool sections, const char *label)
{
	struct map_dump d;
	int fd = map_fd(obj_map_at(o, (size_t)dist)), afd = map_fd(obj_map_at(o, (size_t)avg));
	uint64_t hist[BCC_SLOTS], a[2] = { 0, 0 }, zero2[2] = { 0, 0 };
	uint32_t k0 = 0;
	struct dkey *keys;
	char ts[16];

	printf("\n");
	if (env.timestamp)
		printf("%-8s\n", tool_hms(ts, sizeof(ts)));
	if (map_dump(fd, sizeof(struct dkey), 8, &d) < 0) {
		tool_err("funclatency", "cannot read the histogram: %s", err_msg());
		return;
	}
	keys = xcalloc(d.n ? d.n : 1, sizeof(*keys));
	for (size_t i = 0; i < d.n; i++) {
		memcpy(&keys[i], map_dump_key(&d, i), sizeof(struct dkey));
		bpf_map_delete(fd, &keys[i]);
	}
	err_clear();
	qsort(keys, d.n, sizeof(*keys), cmp_dkey);
	for (size_t i = 0; i < d.n;) {
		size_t j = i;

		memset(hist, 0, sizeof(hist));
		for (; j < d.n && !cmp_dkey(&keys[i], &keys[j]); j++)
			for (size_t r = 0; r < d.n; r++)
				if (!memcmp(map_dump_key(&d, r), &keys[j], sizeof(struct dkey)) && keys[j].slot < BCC_SLOTS) {
					uint64_t v;

					memcpy(&v, map_dump_value(&d, r), 8);
					hist[keys[j].slot] += v;
				}
		if (sections) {
			const char *name = entries[keys[i].loc].name;

			if (keys[i].tgid != 0xffffffff)
				printf("\nFunction = %s [%u]\n", name, keys[i].tgid);
			else
				printf("\nFunction = %s\n", name);
		}
		bcc_print_log2_hist(hist, BCC_SLOTS, label);
		i = j;
	}
	free(keys);
	map_dump_free(&d);
	if (bpf_map_lookup(afd, &k0, a) == 0 && a[1] > 0) {
		uint64_t total = a[0];

		if (env.msec)
			total /= 1000000;
		else if (env.usec)
			total /= 1000;
		printf("\navg = %llu %s, total: %llu %s, count: %llu\n\n", (unsigned long long)(total / a[1]), label,
		       (unsigned long long)total, label, (unsigned long long)a[1]);
	}
	err_clear();
	bpf_map_update(afd, &k0, zero2, 0);
	fflush(stdout);
}

int funclatency_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "funclatency", .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct spec s;
	struct loc *ent = NULL, *ret = NULL;
	struct obj *o;
	int ne = 0, nr = 0, errpos = 0, stk, dist, avg, rc = 0, attached = 0;
	long elapsed = 0;
	bool per_tgid, sections;
	const char *label;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.pattern)
		opt_usage_error(&help, "the following arguments are required: pattern");
	if (env.usec && env.msec)
		opt_usage_error(&help, "-u and -m are mutually exclusive");
	label = env.msec ? "msecs" : env.usec ? "usecs" : "nsecs";
	if (env.duration && !env.interval)
		env.interval = env.duration;
	if (!env.interval)
		env.interval = 99999999;
	if (strchr(env.pattern, ':') && strchr(strchr(env.pattern, ':') + 1, ':')) {
		spec_report("funclatency", env.pattern, (int)(strchr(strchr(env.pattern, ':') + 1, ':') - env.pattern),
			    "unrecognized pattern format (use FUNC or LIB:FUNC)");
		return 2;
	}
	if (spec_parse_pattern(env.pattern, &s, &errpos) < 0) {
		spec_report("funclatency", env.pattern, errpos, err_msg());
		return 2;
	}
	tool_signals();
	ro.pid = env.pid;
	ro.regex = env.regex;
	if (probe_resolve(&s, &ro, false, &ent, &ne) < 0 || probe_resolve(&s, &ro, true, &ret, &nr) < 0) {
		tool_err("funclatency", "%s", err_msg());
		locs_free(ent, ne);
		spec_free(&s);
		return 1;
	}
	if (ne != nr || ent[0].mech == M_TP) {
		tool_err("funclatency", "%s: %s", env.pattern,
			 ent[0].mech == M_TP ? "a tracepoint has no return to time (use a function)" : "entry and return probes differ");
		rc = 1;
		goto out0;
	}
	per_tgid = *s.lib && !env.pid;
	sections = env.perfunc || per_tgid;
	co.pid = env.pid;
	o = obj_new("funclatency");
	stk = obj_new_map(o, "starts", BPF_MAP_TYPE_HASH, 4, 8 + DEPTH * 8, 10240, 0);
	dist = obj_new_map(o, "dist", BPF_MAP_TYPE_HASH, sizeof(struct dkey), 8, 10240, 0);
	avg = obj_new_map(o, "avg", BPF_MAP_TYPE_ARRAY, 4, 16, 1, 0);
	for (int i = 0; i < ne && !rc; i++) {
		rc = gen_entry(o, &s, &ent[i], &co, stk);
		if (!rc)
			rc = gen_return(o, &s, &ret[i], i, &co, stk, dist, avg, per_tgid);
	}
	probe_kernel_btf_release();
	if (!rc && build_load_attach(o, "funclatency", env.pattern, &attached) < 0)
		rc = 1;
	if (rc)
		goto out;
	printf("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", attached / 2, env.pattern);
	fflush(stdout);
	for (;;) {
		bool last;

		tool_sleep_ms(env.interval * 1000);
		elapsed += env.interval;
		last = tool_exiting || (env.duration && elapsed >= env.duration);
		report(o, dist, avg, ent, sections, label);
		if (last) {
			printf("Detaching...\n");
			break;
		}
	}
out:
	obj_close(o);
out0:
	locs_free(ent, ne);
	locs_free(ret, nr);
	spec_free(&s);
	return rc;
}
