/* applet stackcount: count events (functions, tracepoints, USDT probes) by stack trace
 * readme: events counted by stack (`-U t:syscalls:sys_enter_brk`), multi-line, folded (`-f`)
 *         or `--svg FILE`
 *
 * bcc's flags and output; programs generated per matched location, all
 * counting into one hash of {tgid, stacks, comm}. */
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
#include "tools/stack/flamegraph.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "tools/probe/build.h"
#include "tools/trace/pattern_tool.h"

#define KEY_DEBUG OPT_LONG_ONLY(1)
#define KEY_SVG OPT_LONG_ONLY(2)

struct key {
	uint32_t tgid;
	int32_t kid, uid;
	char comm[16];
};

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'c', "cpu", "CPU", "trace this CPU only" },
	{ 'i', "interval", "SEC", "summary interval, seconds" },
	{ 'D', "duration", "SEC", "total duration of trace, seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'r', "regexp", NULL, "use regular expressions. Default is \"*\" wildcards only." },
	{ 's', "offset", NULL, "show address offsets" },
	{ 'P', "perpid", NULL, "display stacks separately for each process" },
	{ 'K', "kernel-stacks-only", NULL, "kernel stack only" },
	{ 'U', "user-stacks-only", NULL, "user stack only" },
	{ 'v', "verbose", NULL, "show raw addresses" },
	{ 'd', "delimited", NULL, "insert delimiter between kernel/user stacks" },
	{ 'f', "folded", NULL, "output folded format" },
	{ KEY_SVG, "svg", "FILE", "also write an interactive flame graph to FILE" },
	{ KEY_DEBUG, "debug", NULL, "print the generated programs' sizes" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-c CPU] [-i INTERVAL] [-D DURATION] [-T] [-r] [-s] [-P] [-K] [-U] [-v] [-d]\n"
		 "                  [-f] [--svg FILE] [--debug] pattern",
	.examples = "  stackcount submit_bio         # count kernel stack traces for submit_bio\n"
		    "  stackcount -d ip_output       # include a user/kernel stack delimiter\n"
		    "  stackcount -s ip_output       # show symbol offsets\n"
		    "  stackcount 'tcp_send*'        # count stacks for funcs matching tcp_send*\n"
		    "  stackcount -Ti 5 ip_output    # output every 5 seconds, with timestamps\n"
		    "  stackcount -p 185 c:malloc    # count stacks for malloc in PID 185\n"
		    "  stackcount t:sched:sched_fork # count stacks for sched_fork tracepoint\n"
		    "  stackcount -U t:syscalls:sys_enter_brk  # user stacks that call brk()\n"
		    "  stackcount -p 185 u:node:*    # count stacks for all USDT probes in node\n"
		    "  stackcount -K t:sched:sched_switch   # kernel stacks only\n",
	.opts = opts,
	.flags = OPT_PROM | OPT_USTACKS,
};

static struct pattern_tool pt; /* set in main: bss, not in the binary */
static struct {
	bool offset, perpid, konly, uonly, verbose, delim, folded, debug;
	const char *svg;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 's': env.offset = true; break;
	case 'P': env.perpid = true; break;
	case 'K': env.konly = true; break;
	case 'U': env.uonly = true; break;
	case 'v': env.verbose = true; break;
	case 'd': env.delim = true; break;
	case 'f': env.folded = true; break;
	case KEY_SVG: env.svg = arg; break;
	case KEY_DEBUG: env.debug = true; break;
	default: return pattern_tool_opt(&pt, key, arg);
	}
	return 0;
}

static void frame(struct stacks *s, uint64_t ip, int pid, char *buf, size_t size)
{
	if (pid < 0)
		stacks_ksym(s, ip, buf, size);
	else
		stacks_usym(s, pid, ip, buf, size);
}

static void print_frames(struct stacks *s, int32_t id, int pid, bool kernel)
{
	const uint64_t *ips;
	char buf[1024];
	int n = id < 0 ? 0 : stacks_read(s, id, kernel, &ips);

	for (int i = 0; i < n; i++) {
		frame(s, ips[i], kernel ? -1 : pid, buf, sizeof(buf));
		if (env.verbose)
			printf("  %-16llx %s\n", (unsigned long long)ips[i], buf);
		else
			printf("  %s\n", buf);
	}
}

static void fold_frames(struct stacks *s, struct strbuf *b, int32_t id, int pid, bool kernel)
{
	const uint64_t *ips;
	char buf[1024];
	int n = id < 0 ? 0 : stacks_read(s, id, kernel, &ips);

	for (int i = n - 1; i >= 0; i--) {
		frame(s, ips[i], kernel ? -1 : pid, buf, sizeof(buf));
		strbuf_add(b, ";");
		strbuf_add(b, buf);
	}
}

/* Prometheus: corebox_stackcount_count_total{stack="folded line"} (JSON
 * has each stack as an object, text the bcc layouts). */
enum { C_STACK, C_COUNT };
static const struct out_col cols[] = {
	[C_STACK] = { "stack", NULL, NULL, OUT_STR, OUT_LABEL },
	[C_COUNT] = { "count", NULL, NULL, OUT_UINT, OUT_COUNTER, .help = "events by stack trace" },
};
static const struct out_table table = OUT_TABLE("stacks", cols);

/* -j: {"comm", "pid" (per process), "kernel": [frames leaf first],
 * "user": [...], "count", "folded"} */
static void json_stack(struct stacks *s, const struct key *k, int pid, const char *comm, uint64_t v,
		       const char *folded, bool kstack, bool ustack)
{
	struct strbuf b = { 0 };
	struct stacks_lost lost = s->lost; /* counted once, by the folded line */

	strbuf_reset(&b);
	strbuf_addc(&b, '{');
	if (k->tgid != 0xffffffff) {
		strbuf_add(&b, "\"comm\":");
		json_str(&b, comm);
		strbuf_addf(&b, ",\"pid\":%d,", pid);
	}
	if (kstack) {
		strbuf_add(&b, "\"kernel\":");
		stacks_json_frames(s, &b, k->kid, -1);
		strbuf_addc(&b, ',');
	}
	if (ustack) {
		strbuf_add(&b, "\"user\":");
		stacks_json_frames(s, &b, k->uid, pid);
		strbuf_addc(&b, ',');
	}
	strbuf_addf(&b, "\"count\":%llu,\"folded\":", (unsigned long long)v);
	json_str(&b, folded);
	strbuf_addc(&b, '}');
	out_json_value("stacks", &b);
	strbuf_free(&b);
	s->lost = lost;
}

struct report_ctx {
	struct stacks *s;
	int fd;
	struct fold_agg *agg;
	bool kstack, ustack;
};

static int report(void *ctx)
{
	const struct report_ctx *c = ctx;
	struct stacks *s = c->s;
	int fd = c->fd;
	struct fold_agg *agg = c->agg;
	bool kstack = c->kstack, ustack = c->ustack;
	struct map_dump d;
	struct strbuf line = { 0 };
	bool delim = env.delim && !env.konly && !env.uonly;
	int err;

	pattern_tool_report_begin(&pt, !env.folded);
	if ((err = map_dump(fd, sizeof(struct key), 16, &d)) < 0) {
		tool_err("stackcount", "cannot read the counts: %s", err_msg());
		out_doc_end();
		return -1;
	}
	map_dump_sort(&d, 0, 0);
	/* every frame named in one pass per symbol file */
	stacks_prefetch_begin(s);
	for (size_t i = 0; i < d.n; i++) {
		const struct key *k = map_dump_key(&d, i);
		uint32_t vt;

		memcpy(&vt, (const char *)map_dump_value(&d, i) + 8, 4);
		strbuf_reset(&line);
		fold_frames(s, &line, k->uid, (int)(k->tgid != 0xffffffff ? k->tgid : vt), false);
		fold_frames(s, &line, k->kid, -1, true);
	}
	stacks_prefetch_end(s);
	for (size_t i = 0; i < d.n; i++) {
		const struct key *k = map_dump_key(&d, i);
		uint64_t v;
		char comm[17], text[4 * 16 + 1];
		uint32_t vt;
		int pid;

		memcpy(&v, map_dump_value(&d, i), 8);
		memcpy(&vt, (const char *)map_dump_value(&d, i) + 8, 4);
		pid = (int)(k->tgid != 0xffffffff ? k->tgid : vt);
		memcpy(comm, k->comm, 16);
		comm[16] = 0;
		str_escape(text, sizeof(text), comm, NULL); /* as every text column */
		bpf_map_delete(fd, k);
		err_clear();
		/* the folded line: -f, --svg, the Prometheus label, JSON */
		strbuf_reset(&line);
		stacks_fold_name(&line, comm);
		fold_frames(s, &line, k->uid, pid, false);
		if (delim)
			strbuf_add(&line, ";-");
		fold_frames(s, &line, k->kid, -1, true);
		if (agg)
			fold_agg_add(agg, line.s[0] == ';' ? line.s + 1 : line.s, v);
		{
			union out_val val[] = { [C_STACK].s = line.s[0] == ';' ? line.s + 1 : line.s, [C_COUNT].u = v };

			out_row_unshown(&table, val);
		}
		if (out_json()) {
			json_stack(s, k, pid, comm, v, line.s[0] == ';' ? line.s + 1 : line.s, kstack, ustack);
			continue;
		}
		if (env.folded) {
			printf("%s %llu\n", line.s, (unsigned long long)v);
			continue;
		}
		{
			/* the multi-line form counts its missed stacks again */
			struct stacks_lost lost = s->lost;

			print_frames(s, k->kid, -1, true);
			if (delim)
				printf("    --\n");
			print_frames(s, k->uid, pid, false);
			s->lost = lost;
		}
		if (!pt.pid && k->tgid != 0xffffffff)
			printf("    %s [%d]\n", text, (int)k->tgid);
		printf("    %llu\n\n", (unsigned long long)v);
	}
	strbuf_free(&line);
	map_dump_free(&d);
	err = out_doc_end();
	tool_flush();
	return err;
}

/* One program's count of its stack: counts[{tgid, stacks, comm}] += 1.
 * The maps go into o with its first program (one per location, or
 * build_multi's one for all kernel functions: no index needed, every
 * location counts alike). */
struct body_ctx {
	struct obj *o;
	int counts, stackmap;
	bool kstack, ustack;
};

static int count_stack(struct obj *o, struct gen *g, int out, int idx, void *ctx)
{
	struct body_ctx *c = ctx;
	struct emit *e = gen_emit(g);
	int key = gen_stack(g, sizeof(struct key)), val = gen_stack(g, 16);
	int counts = c->counts, stackmap = c->stackmap;

	if (c->o != o) {
		c->o = o;
		c->counts = counts = obj_new_map(o, "counts", BPF_MAP_TYPE_HASH, sizeof(struct key), 16, 10240, 0);
		c->stackmap = stackmap = obj_new_map(o, "stack_traces", BPF_MAP_TYPE_STACK_TRACE, 4, 127 * 8, 1024, 0);
	}
	for (int b = 0; b < (int)sizeof(struct key); b += 4)
		emit_st(e, 4, R10, (int16_t)(key + b), 0);
	if (env.perpid) {
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_stx(e, 4, R10, (int16_t)key, R1);
		emit_mov(e, R1, R10);
		emit_alui(e, BPF_ADD, R1, key + 12);
		emit_movi(e, R2, 16);
		emit_call(e, BPF_FUNC_get_current_comm);
	} else {
		emit_st(e, 4, R10, (int16_t)key, -1);
	}
	for (int u = 0; u < 2; u++) {
		if (!(u ? c->ustack : c->kstack)) {
			emit_st(e, 4, R10, (int16_t)(key + (u ? 8 : 4)), -1);
			continue;
		}
		emit_mov(e, R1, R6);
		emit_ldmap(e, R2, stackmap);
		emit_movi(e, R3, u ? BPF_F_USER_STACK : 0);
		emit_call(e, BPF_FUNC_get_stackid);
		emit_stx(e, 4, R10, (int16_t)(key + (u ? 8 : 4)), R0);
	}
	{
		/* value {count, tgid}: the tgid symbolizes user frames even
		 * when stacks of all processes are counted together */
		int insert = emit_label(e), done = emit_label(e);

		emit_ldmap(e, R1, counts);
		emit_mov(e, R2, R10);
		emit_alui(e, BPF_ADD, R2, key);
		emit_call(e, BPF_FUNC_map_lookup_elem);
		emit_jmpi(e, BPF_JEQ, R0, 0, insert);
		emit_movi(e, R1, 1);
		emit_xadd(e, 8, R0, 0, R1);
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_stx(e, 4, R0, 8, R1);
		emit_ja(e, done);
		emit_place(e, insert);
		emit_st(e, 8, R10, (int16_t)val, 1);
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_stx(e, 8, R10, (int16_t)(val + 8), R1);
		emit_map_update(e, counts, key, val, BPF_NOEXIST);
		emit_place(e, done);
	}
	return 0;
}

int stackcount_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "stackcount", .pattern = true, .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct spec s;
	struct loc *locs = NULL;
	struct obj *o;
	struct stacks stk;
	struct fold_agg *agg = NULL;
	struct report_ctx rep;
	struct body_ctx bc;
	int n = 0, counts, stackmap, rc = 0, attached = 0;
	bool kstack, ustack;

	pt = (struct pattern_tool){ .help = &help, .duration_key = 'D', .cpu = -1 };
	opt_parse(argc, argv, &help, parse, NULL);
	pattern_tool_check(&pt);
	if (env.konly && env.uonly)
		opt_usage_error(&help, "-K and -U are mutually exclusive. If you want both stacks, that is the default.");
	kstack = !env.uonly;
	ustack = !env.konly;
	if (pt.pid)
		env.perpid = true;
	if ((rc = pattern_tool_spec(&pt, &s, &ro)))
		return rc;
	if (probe_resolve(&s, &ro, false, &locs, &n) < 0) {
		tool_err("stackcount", "%s", err_msg());
		spec_free(&s);
		return 1;
	}
	co.pid = pt.pid;
	co.cpu = pt.cpu;
	bc = (struct body_ctx){ .kstack = kstack, .ustack = ustack };
	if (!(o = build_multi("stackcount", locs, n, NULL, &s, &co, false, count_stack, &bc, &attached))) {
		o = obj_new("stackcount");
		for (int i = 0; i < n && !rc; i++) {
			struct gen *g = gen_new(&locs[i], &s, &co);
			int out = gen_begin(g);

			count_stack(o, g, out, 0, &bc); /* a failed map create fails the load */
			rc = pattern_tool_prog(&pt, o, &locs[i], &s, g, out, env.debug);
		}
		if ((rc = build_finish(o, rc, "stackcount", pt.pattern, &attached)))
			goto out;
	}
	counts = bc.counts;
	stackmap = bc.stackmap;
	if (stacks_init(&stk, map_fd(obj_map_at(o, (size_t)stackmap)), 127,
			(kstack ? 0 : STACKS_NO_KERNEL) | (env.offset ? STACKS_OFFSET : 0) |
				STACKS_SKIP_TRACE /* tracepoint dispatch, fentry trampolines */ | STACKS_NAMES) < 0) {
		tool_err("stackcount", "%s", err_msg());
		rc = 1;
		goto out;
	}
	if (env.svg)
		agg = fold_agg_new();
	rep = (struct report_ctx){ &stk, map_fd(obj_map_at(o, (size_t)counts)), agg, kstack, ustack };
	rc = pattern_tool_loop(&pt, attached, (env.folded ? PATTERN_QUIET : 0) | PATTERN_STOP_ON_ERROR, report, &rep);
	stacks_report_missed(&stk, stderr);
	if (agg) {
		struct flamegraph_opts fo = { .title = "stackcount", .subtitle = pt.pattern, .unit = "events" };

		if (flamegraph_write(env.svg, agg, &fo) < 0) {
			tool_err("stackcount", "%s", err_msg());
			rc = 1;
		}
		fold_agg_free(agg);
	}
	stacks_fini(&stk);
out:
	obj_close(o);
	locs_free(locs, n);
	spec_free(&s);
	return rc;
}
