/* applet funcslower: trace kernel or user function calls slower than a threshold
 * readme: kernel or user function calls slower than `-m MS` / `-u US`, with return value, `-a` arguments and `-U`/`-K` stacks
 *
 * bcc's funcslower (libbpf-tools has none): its options, banner and
 * columns.  Each function gets an entry program that keeps {function,
 * start time, arguments} by thread and a return program that measures
 * the call and sends a record only when it took at least the threshold,
 * so fast calls cost no event.  Like bcc, one slot per thread: a nested
 * call of a traced function replaces the outer one (innermost wins).
 * Programs come from the tracing compiler (tools/probe): uprobes for
 * LIB:FUNC, fentry or kprobes for kernel functions where the kernel has
 * them (probe_resolve says so in one line where it has neither). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/strdouble.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/probe/build.h"
#include "tools/stack/stacks.h"

#define MAX_FUNCS 64
#define NARGS 6

/* The entry map's value, by pid_tgid. */
enum { ENT_ID = 0, ENT_START = 8, ENT_ARGS = 16, ENT_SIZE = 16 + NARGS * 8 };
/* The record sent for a slow call. */
enum {
	REC_ID = 0, REC_PIDTGID = 8, REC_START = 16, REC_DUR = 24, REC_RET = 32, REC_COMM = 40,
	REC_KSTACK = 56, REC_USTACK = 60, REC_ARGS = 64, REC_SIZE = 64 + NARGS * 8,
	REC_CGROUP = REC_SIZE /* -j, --show-cgroup: the cgroup id, 8 bytes more */
};

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'm', "min-ms", "MIN_MS", "minimum duration to trace (ms)" },
	{ 'u', "min-us", "MIN_US", "minimum duration to trace (us)" },
	{ 'a', "arguments", "ARGUMENTS", "print this many entry arguments, as hex" },
	{ 'T', "time", NULL, "show HH:MM:SS timestamp" },
	{ 't', "timestamp", NULL, "show timestamp in seconds at us resolution" },
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ 'U', "user-stack", NULL, "output user stack trace" },
	{ 'K', "kernel-stack", NULL, "output kernel stack trace" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-m MIN_MS] [-u MIN_US] [-a ARGUMENTS] [-T] [-t] [-v] [-f] [-U] [-K] function [function ...]",
	.examples = "  funcslower vfs_write        # trace vfs_write calls slower than 1ms\n"
		    "  funcslower -m 10 vfs_write  # same, but slower than 10ms\n"
		    "  funcslower -u 10 c:open     # trace open calls slower than 10us\n"
		    "  funcslower -p 135 c:open    # trace pid 135 only\n"
		    "  funcslower c:malloc c:free  # trace both malloc and free slower than 1ms\n"
		    "  funcslower -a 2 c:open      # show first two arguments to open\n"
		    "  funcslower -UK -m 10 c:open # Show user and kernel stack frame of open calls slower than 10ms\n"
		    "  funcslower -f -UK c:open    # Output in folded format for flame graphs\n",
	.opts = opts,
	.flags = OPT_USTACKS | OPT_EVENTS,
};

static struct {
	const char *funcs[MAX_FUNCS];
	int nfuncs, pid, nargs, rec_size;
	double min_ms, min_us;
	bool min_ms_set, min_us_set;
	bool time, timestamp, folded, ustack, kstack, stk_ok;
	uint64_t first_start;
	struct stacks stk;
} env;

/* bcc takes fractions (rounded down to a nanosecond) */
static double threshold_arg(const char *what, const char *arg)
{
	double v;

	if (str_double(arg, &v) || !(v >= 0) || v > 1e12)
		opt_usage_error(&help, "invalid %s value: '%s'", what, arg);
	return v;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'm': env.min_ms = threshold_arg("MIN_MS", arg), env.min_ms_set = true; break;
	case 'u': env.min_us = threshold_arg("MIN_US", arg), env.min_us_set = true; break;
	case 'a': env.nargs = (int)opt_num(&help, "ARGUMENTS", arg, 0, NARGS); break;
	case 'T': env.time = true; break;
	case 't': env.timestamp = true; break;
	case 'f': env.folded = true; break;
	case 'U': env.ustack = true; break;
	case 'K': env.kstack = true; break;
	case 0:
		if (env.nfuncs == MAX_FUNCS)
			opt_usage_error(&help, "at most %d functions", MAX_FUNCS);
		env.funcs[env.nfuncs++] = arg;
		break;
	default: return 1;
	}
	return 0;
}

/* maps of the object */
struct fs_maps {
	int entry, heap, events, stacks, drop_map;
	uint32_t drop_off;
};

static int gen_entry(struct obj *o, struct spec *s, struct loc *l, int id, const struct fs_maps *m)
{
	struct cg_opts co = { .pid = env.pid, .uid = -1, .cpu = -1 };
	struct gen *g = gen_new(l, s, &co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), val = gen_stack(g, ENT_SIZE);
	struct ctype t;

	emit_stx(e, 8, R10, (int16_t)key, R8);
	for (int i = 0; i < NARGS; i++)
		emit_st(e, 8, R10, (int16_t)(val + ENT_ARGS + i * 8), 0);
	for (int i = 0; i < env.nargs; i++) {
		char name[16];

		snprintf(name, sizeof(name), "arg%d", i + 1);
		if (gen_value(g, name, 0, &t) < 0)
			goto bad;
		emit_stx(e, 8, R10, (int16_t)(val + ENT_ARGS + i * 8), R0);
	}
	emit_st(e, 8, R10, (int16_t)(val + ENT_ID), id);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_stx(e, 8, R10, (int16_t)(val + ENT_START), R0);
	emit_map_update(e, m->entry, key, val, BPF_ANY);
	gen_end(g, out);
	if (build_add(o, l, g, s->text, env.pid) < 0)
		goto bad;
	gen_free(g);
	return 0;
bad:;
	int rc = build_probe_error("funcslower", s, g);

	gen_free(g);
	return rc;
}

static int gen_return(struct obj *o, struct spec *s, struct loc *l, uint64_t thr_ns, bool ring,
		      const struct fs_maps *m)
{
	struct cg_opts co = { .pid = env.pid, .uid = -1, .cpu = -1 };
	struct gen *g = gen_new(l, s, &co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), ent = gen_stack(g, ENT_SIZE), rv = gen_stack(g, 8);
	int dur = gen_stack(g, 8), zero = gen_stack(g, 8);
	struct ctype t;

	if (gen_value(g, "retval", 0, &t) < 0)
		goto bad;
	emit_stx(e, 8, R10, (int16_t)rv, R0);
	emit_stx(e, 8, R10, (int16_t)key, R8);
	gen_lookup(g, m->entry, key, out);
	/* a copy, then the slot is free for the thread's next call */
	for (int b = 0; b < ENT_SIZE; b += 8) {
		emit_ldx(e, 8, R1, R0, (int16_t)b);
		emit_stx(e, 8, R10, (int16_t)(ent + b), R1);
	}
	emit_ldmap(e, R1, m->entry);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key);
	emit_call(e, BPF_FUNC_map_delete_elem);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_ldx(e, 8, R1, R10, (int16_t)(ent + ENT_START));
	emit_alu(e, BPF_SUB, R0, R1);
	emit_ld64(e, R1, thr_ns);
	emit_jmp(e, BPF_JLT, R0, R1, out);
	emit_stx(e, 8, R10, (int16_t)dur, R0);
	emit_st(e, 4, R10, (int16_t)zero, 0);
	gen_lookup(g, m->heap, zero, out);
	emit_mov(e, R7, R0);
	for (int b = 0; b < ENT_SIZE; b += 8) { /* id, start, args */
		int to = b == ENT_ID ? REC_ID : b == ENT_START ? REC_START : REC_ARGS + b - ENT_ARGS;

		emit_ldx(e, 8, R1, R10, (int16_t)(ent + b));
		emit_stx(e, 8, R7, (int16_t)to, R1);
	}
	emit_stx(e, 8, R7, REC_PIDTGID, R8);
	emit_ldx(e, 8, R1, R10, (int16_t)dur);
	emit_stx(e, 8, R7, REC_DUR, R1);
	emit_ldx(e, 8, R1, R10, (int16_t)rv);
	emit_stx(e, 8, R7, REC_RET, R1);
	emit_mov(e, R1, R7);
	emit_alui(e, BPF_ADD, R1, REC_COMM);
	emit_movi(e, R2, 16);
	emit_call(e, BPF_FUNC_get_current_comm);
	emit_st(e, 4, R7, REC_KSTACK, -1);
	emit_st(e, 4, R7, REC_USTACK, -1);
	if (env.rec_size > REC_SIZE)
		gen_cgroup_id(g, R7, REC_CGROUP);
	for (int u = 0; u < 2; u++) {
		if (!(u ? env.ustack : env.kstack))
			continue;
		emit_mov(e, R1, R6);
		emit_ldmap(e, R2, m->stacks);
		emit_movi(e, R3, u ? BPF_F_USER_STACK : 0);
		emit_call(e, BPF_FUNC_get_stackid);
		emit_stx(e, 4, R7, u ? REC_USTACK : REC_KSTACK, R0);
	}
	gen_output(g, m->events, R7, 0, env.rec_size, ring);
	/* sent: ring 0; perf anything but -ENOSPC (no room) */
	emit_jmpi(e, ring ? BPF_JEQ : BPF_JNE, R0, ring ? 0 : -ENOSPC, out);
	/* a record without room, counted once (the loop reports losses) */
	emit_ldmap_value(e, R1, m->drop_map, (int32_t)m->drop_off);
	emit_movi(e, R2, 1);
	emit_xadd(e, 8, R1, 0, R2);
	gen_end(g, out);
	if (build_add(o, l, g, s->text, env.pid) < 0)
		goto bad;
	gen_free(g);
	return 0;
bad:;
	int rc = build_probe_error("funcslower", s, g);

	gen_free(g);
	return rc;
}

/* ---- the user side ---- */

static void fold_line(const uint8_t *rec, const char *comm, int32_t kid, int32_t uid, int tgid)
{
	struct strbuf b = { 0 };
	int nu = 0;

	strbuf_reset(&b);
	stacks_fold_name(&b, comm);
	if (env.ustack && uid >= 0)
		nu = stacks_fold_frames(&env.stk, &b, uid, tgid, 0, 0);
	if (env.kstack && kid >= 0) {
		if (nu > 0)
			strbuf_add(&b, ";-");
		stacks_fold_frames(&env.stk, &b, kid, -1, 0, 0);
	}
	(void)rec;
	printf("%s 1\n", b.s);
	strbuf_free(&b);
}

static void json_line(const uint8_t *rec, const char *comm, uint32_t tgid, uint32_t tid, uint64_t dur,
		      uint64_t ret, uint32_t id, int32_t kid, int32_t uid)
{
	struct strbuf b = { 0 };

	strbuf_reset(&b);
	strbuf_add(&b, "{\"time\":");
	json_time(&b);
	strbuf_add(&b, ",\"comm\":");
	json_str(&b, comm);
	strbuf_addf(&b, ",\"pid\":%u,\"tid\":%u,\"latency_ns\":%llu,\"retval\":%llu,\"function\":", tgid, tid,
		    (unsigned long long)dur, (unsigned long long)ret);
	json_str(&b, env.funcs[id]);
	if (env.nargs) {
		strbuf_add(&b, ",\"args\":[");
		for (int i = 0; i < env.nargs; i++) {
			uint64_t a;

			memcpy(&a, rec + REC_ARGS + i * 8, 8);
			strbuf_addf(&b, "%s%llu", i ? "," : "", (unsigned long long)a);
		}
		strbuf_addc(&b, ']');
	}
	if (env.kstack && env.stk_ok) {
		strbuf_add(&b, ",\"kernel_stack\":");
		stacks_json_frames(&env.stk, &b, kid, -1);
	}
	if (env.ustack && env.stk_ok) {
		strbuf_add(&b, ",\"user_stack\":");
		stacks_json_frames(&env.stk, &b, uid, (int)tgid);
	}
	strbuf_addc(&b, '}');
	out_json_value(NULL, &b);
	strbuf_free(&b);
}

static int on_event(void *ctx, const void *data, size_t size)
{
	const uint8_t *rec = data;
	uint64_t id, pidtgid, start, dur, ret, cg;
	int32_t kid, uid;
	uint32_t tgid;
	char comm[17];
	static struct strbuf line;

	(void)ctx;
	if (size < REC_SIZE)
		return 0;
	memcpy(&id, rec + REC_ID, 8);
	if (id >= (uint64_t)env.nfuncs)
		return 0;
	memcpy(&pidtgid, rec + REC_PIDTGID, 8);
	memcpy(&start, rec + REC_START, 8);
	memcpy(&dur, rec + REC_DUR, 8);
	memcpy(&ret, rec + REC_RET, 8);
	memcpy(&kid, rec + REC_KSTACK, 4);
	memcpy(&uid, rec + REC_USTACK, 4);
	memcpy(comm, rec + REC_COMM, 16);
	comm[16] = 0;
	tgid = (uint32_t)(pidtgid >> 32);
	cg = 0;
	if (size >= REC_SIZE + 8)
		memcpy(&cg, rec + REC_CGROUP, 8);
	out_event_cgroup(cg, cg ? cgroup_path_of(cg) : NULL); /* the row's CGROUP, JSON "cgroup" */
	if (!env.first_start)
		env.first_start = start;
	if (out_json()) {
		json_line(rec, comm, tgid, (uint32_t)pidtgid, dur, ret, (uint32_t)id, kid, uid);
		return 0;
	}
	if (!env.folded) {
		strbuf_reset(&line);
		out_cgroup_add(&line);
		if (env.time) {
			char t[16];

			strbuf_addf(&line, "%-10s ", tool_hms(t, sizeof(t)));
		} else if (env.timestamp) {
			strbuf_addf(&line, "%-10.6f ", (double)(start - env.first_start) / 1e9);
		}
		{
			char safe[15]; /* the thread names itself: escaped, cut at 14 between escapes */

			strbuf_addf(&line, "%-14s %-6u %7.2f %16llx %s ", str_escape(safe, sizeof(safe), comm, NULL), tgid,
				    (double)dur / (env.min_us_set ? 1e3 : 1e6), (unsigned long long)ret,
				    env.funcs[id]);
		}
		for (int i = 0; i < env.nargs; i++) {
			uint64_t a;

			memcpy(&a, rec + REC_ARGS + i * 8, 8);
			strbuf_addf(&line, "%s0x%llx", i ? " " : "", (unsigned long long)a);
		}
		strbuf_addc(&line, '\n');
		fwrite(line.s, 1, line.len, stdout);
	}
	if (!(env.kstack || env.ustack) || !env.stk_ok)
		return 0;
	if (env.folded) {
		fold_line(rec, comm, kid, uid, (int)tgid);
		return 0;
	}
	if (env.kstack && kid >= 0)
		stacks_print_frames(&env.stk, stdout, "    ", kid, -1, 0, 0);
	if (env.ustack && uid >= 0)
		stacks_print_frames(&env.stk, stdout, "    ", uid, (int)tgid, 0, 0);
	return 0;
}

int funcslower_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "funcslower", .limit = 1000 };
	struct spec *specs;
	struct loc **ent, **ret;
	int *ne, *nr;
	struct fs_maps m;
	struct obj *o = NULL;
	struct events *ev = NULL;
	bool ring = probe_ringbuf();
	uint64_t thr_ns;
	int rc = 0, attached = 0, parsed = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.nfuncs)
		opt_usage_error(&help, "the following arguments are required: function");
	if (env.min_ms_set && env.min_us_set)
		opt_usage_error(&help, "-m and -u are mutually exclusive");
	if (env.folded && !env.kstack && !env.ustack)
		opt_usage_error(&help, "-f prints stacks: give -U and/or -K");
	env.rec_size = REC_SIZE + (out_json() || out_cfg.cgroup_column ? 8 : 0);
	thr_ns = env.min_ms_set ? (uint64_t)(env.min_ms * 1e6) : env.min_us_set ? (uint64_t)(env.min_us * 1e3) : 1000000;
	specs = xcalloc((size_t)env.nfuncs, sizeof(*specs));
	ent = xcalloc((size_t)env.nfuncs, sizeof(*ent));
	ret = xcalloc((size_t)env.nfuncs, sizeof(*ret));
	ne = xcalloc((size_t)env.nfuncs, sizeof(*ne));
	nr = xcalloc((size_t)env.nfuncs, sizeof(*nr));
	ro.pid = env.pid;
	ro.verbose = tool_common.verbose;
	for (; parsed < env.nfuncs; parsed++) {
		int i = parsed, errpos = 0;

		if (spec_parse_pattern(env.funcs[i], &specs[i], &errpos) < 0) {
			spec_report("funcslower", env.funcs[i], errpos, err_msg());
			rc = 2;
			goto out;
		}
		if (probe_resolve(&specs[i], &ro, false, &ent[i], &ne[i]) < 0 ||
		    probe_resolve(&specs[i], &ro, true, &ret[i], &nr[i]) < 0) {
			tool_err("funcslower", "%s", err_msg());
			parsed++;
			rc = 1;
			goto out;
		}
		if (ne[i] != nr[i] || ent[i][0].mech == M_TP) {
			tool_err("funcslower", "%s: %s", env.funcs[i],
				 ent[i][0].mech == M_TP ? "a tracepoint has no return to time (use a function)"
							: "entry and return probes differ");
			parsed++;
			rc = 1;
			goto out;
		}
	}
	tool_signals();
	o = obj_new("funcslower");
	m.entry = obj_new_map(o, "entryinfo", BPF_MAP_TYPE_HASH, 8, ENT_SIZE, 10240, 0);
	m.heap = obj_new_map(o, "heap", BPF_MAP_TYPE_PERCPU_ARRAY, 4, (uint32_t)env.rec_size, 1, 0);
	m.events = ring ? obj_new_map(o, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, 256 * 1024, 0)
			: obj_new_map(o, "events", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	m.stacks = (env.kstack || env.ustack) ? obj_new_map(o, "stacks", BPF_MAP_TYPE_STACK_TRACE, 4, 127 * 8, 2048, 0) : -1;
	m.drop_map = obj_new_global(o, "cb_events_dropped", 8, &m.drop_off);
	for (int i = 0; i < env.nfuncs && !rc; i++)
		for (int k = 0; k < ne[i] && !rc; k++) {
			rc = gen_entry(o, &specs[i], &ent[i][k], i, &m);
			if (!rc)
				rc = gen_return(o, &specs[i], &ret[i][k], thr_ns, ring, &m);
		}
	if ((rc = build_finish(o, rc, "funcslower", env.nfuncs == 1 ? env.funcs[0] : "the functions", &attached)))
		goto out;
	if (env.kstack || env.ustack) {
		env.stk_ok = stacks_init(&env.stk, map_fd(obj_map_at(o, (size_t)m.stacks)), 127,
					 (env.kstack ? 0 : STACKS_NO_KERNEL) | (env.ustack ? 0 : STACKS_NO_USER) |
						 STACKS_NAMES) == 0;
		if (!env.stk_ok)
			tool_err("funcslower", "stacks will not be shown: %s", err_msg());
	}
	ev = events_open(obj_map_at(o, (size_t)m.events), on_event, NULL);
	if (!ev) {
		tool_err("funcslower", "%s", err_msg());
		rc = 1;
		goto out;
	}
	if (!env.folded) {
		out_info("Tracing function calls slower than %g %s... Ctrl+C to quit.\n",
			 env.min_us_set ? env.min_us : env.min_ms_set ? env.min_ms : 1, env.min_us_set ? "us" : "ms");
		out_cgroup_head();
		if (env.time || env.timestamp)
			out_info("%-10s ", "TIME");
		out_info("%-14s %-6s %7s %16s %s\n", "COMM", "PID", env.min_us_set ? "LAT(us)" : "LAT(ms)", "RVAL",
			 env.nargs ? "FUNC ARGS" : "FUNC");
	}
	tool_flush();
	rc = tool_event_loop("funcslower", ev, 0);
out:
	events_close(ev);
	if (env.stk_ok)
		stacks_fini(&env.stk);
	if (o)
		obj_close(o);
	for (int i = 0; i < parsed; i++) {
		locs_free(ent[i], ne[i]);
		locs_free(ret[i], nr[i]);
		spec_free(&specs[i]);
	}
	free(specs);
	free(ent);
	free(ret);
	free(ne);
	free(nr);
	return rc;
}
