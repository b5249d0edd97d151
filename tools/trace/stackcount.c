/* stackcount: count events (kernel/user functions, tracepoints, USDT
 * probes) by stack trace, bcc's flags and output; programs generated per
 * matched location, all counting into one hash of {tgid, stacks, comm}. */
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
#include "tools/trace/build.h"

#define KEY_DEBUG OPT_LONG_ONLY(1)
#define KEY_SVG OPT_LONG_ONLY(2)

struct key {
	uint32_t tgid;
	int32_t kid, uid;
	char comm[16];
};

static struct {
	int pid, cpu;
	long interval, duration;
	bool timestamp, regex, offset, perpid, konly, uonly, verbose, delim, folded, debug;
	const char *pattern, *svg;
} env = { .cpu = -1 };

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
	.name = "stackcount",
	.usage = "[-h] [-p PID] [-c CPU] [-i INTERVAL] [-D DURATION] [-T] [-r] [-s] [-P] [-K] [-U] [-v] [-d]\n"
		 "                  [-f] [--svg FILE] [--debug] pattern",
	.summary = "Count events and their stack traces.",
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
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'c': env.cpu = (int)opt_num(&help, "CPU", arg, 0, 4095); break;
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX); break;
	case 'D': env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	case 'T': env.timestamp = true; break;
	case 'r': env.regex = true; break;
	case 's': env.offset = true; break;
	case 'P': env.perpid = true; break;
	case 'K': env.konly = true; break;
	case 'U': env.uonly = true; break;
	case 'v': env.verbose = true; break;
	case 'd': env.delim = true; break;
	case 'f': env.folded = true; break;
	case KEY_SVG: env.svg = arg; break;
	case KEY_DEBUG: env.debug = true; break;
	case 0:
		if (env.pattern)
			opt_usage_error(&help, "unrecognized argument: %s", arg);
		env.pattern = arg;
		break;
	default: return 1;
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

static int report(struct stacks *s, int fd, struct fold_agg *agg)
{
	struct map_dump d;
	struct strbuf line = { 0 };
	bool delim = env.delim && !env.konly && !env.uonly;
	char ts[16];
	int err;

	if (!env.folded)
		printf("\n");
	if (env.timestamp)
		printf("%-8s\n", tool_hms(ts, sizeof(ts)));
	if ((err = map_dump(fd, sizeof(struct key), 16, &d)) < 0) {
		tool_err("stackcount", "cannot read the counts: %s", err_msg());
		return -1;
	}
	map_dump_sort(&d, 0, 0);
	for (size_t i = 0; i < d.n; i++) {
		const struct key *k = map_dump_key(&d, i);
		uint64_t v;
		char comm[17];
		uint32_t vt;
		int pid;

		memcpy(&v, map_dump_value(&d, i), 8);
		memcpy(&vt, (const char *)map_dump_value(&d, i) + 8, 4);
		pid = (int)(k->tgid != 0xffffffff ? k->tgid : vt);
		memcpy(comm, k->comm, 16);
		comm[16] = 0;
		bpf_map_delete(fd, k);
		err_clear();
		if (env.folded || agg) {
			strbuf_reset(&line);
			strbuf_add(&line, comm);
			fold_frames(s, &line, k->uid, pid, false);
			if (delim)
				strbuf_add(&line, ";-");
			fold_frames(s, &line, k->kid, -1, true);
			if (env.folded)
				printf("%s %llu\n", line.s, (unsigned long long)v);
			if (agg)
				fold_agg_add(agg, line.s[0] == ';' ? line.s + 1 : line.s, v);
			if (env.folded)
				continue;
		}
		print_frames(s, k->kid, -1, true);
		if (delim)
			printf("    --\n");
		print_frames(s, k->uid, pid, false);
		if (!env.pid && k->tgid != 0xffffffff)
			printf("    %s [%d]\n", comm, (int)k->tgid);
		printf("    %llu\n\n", (unsigned long long)v);
	}
	strbuf_free(&line);
	map_dump_free(&d);
	fflush(stdout);
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
	int n = 0, errpos = 0, counts, stackmap, rc = 0, attached = 0;
	long elapsed = 0;
	bool kstack, ustack;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.pattern)
		opt_usage_error(&help, "the following arguments are required: pattern");
	if (env.konly && env.uonly)
		opt_usage_error(&help, "-K and -U are mutually exclusive. If you want both stacks, that is the default.");
	kstack = !env.uonly;
	ustack = !env.konly;
	if (env.pid)
		env.perpid = true;
	if (env.duration && !env.interval)
		env.interval = env.duration;
	if (!env.interval)
		env.interval = 99999999;
	if (spec_parse_pattern(env.pattern, &s, &errpos) < 0) {
		spec_report("stackcount", env.pattern, errpos, err_msg());
		return 2;
	}
	tool_signals();
	ro.pid = env.pid;
	ro.regex = env.regex;
	if (probe_resolve(&s, &ro, false, &locs, &n) < 0) {
		tool_err("stackcount", "%s", err_msg());
		spec_free(&s);
		return 1;
	}
	co.pid = env.pid;
	co.cpu = env.cpu;
	o = obj_new("stackcount");
	counts = obj_new_map(o, "counts", BPF_MAP_TYPE_HASH, sizeof(struct key), 16, 10240, 0);
	stackmap = obj_new_map(o, "stack_traces", BPF_MAP_TYPE_STACK_TRACE, 4, 127 * 8, 1024, 0);
	for (int i = 0; i < n && !rc; i++) {
		struct gen *g = gen_new(&locs[i], &s, &co);
		struct emit *e = gen_emit(g);
		int out = gen_begin(g), key = gen_stack(g, sizeof(struct key)), val = gen_stack(g, 16);

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
			if (!(u ? ustack : kstack)) {
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
			emit_ldmap(e, R1, counts);
			emit_mov(e, R2, R10);
			emit_alui(e, BPF_ADD, R2, key);
			emit_mov(e, R3, R10);
			emit_alui(e, BPF_ADD, R3, val);
			emit_movi(e, R4, BPF_NOEXIST);
			emit_call(e, BPF_FUNC_map_update_elem);
			emit_place(e, done);
		}
		gen_end(g, out);
		if (build_add(o, &locs[i], g, env.pattern, env.pid) < 0)
			rc = build_probe_error("stackcount", &s, g);
		else if (env.debug)
			fprintf(stderr, "%s: %zu instructions\n", locs[i].name, e->cnt);
		gen_free(g);
	}
	probe_kernel_btf_release();
	if (!rc && build_load_attach(o, "stackcount", env.pattern, &attached) < 0)
		rc = 1;
	if (rc)
		goto out;
	if (stacks_init(&stk, map_fd(obj_map_at(o, (size_t)stackmap)), 127,
			(kstack ? 0 : STACKS_NO_KERNEL) | (env.offset ? STACKS_OFFSET : 0) |
				(locs[0].mech == M_TP ? STACKS_SKIP_TRACE : 0)) < 0) {
		tool_err("stackcount", "%s", err_msg());
		rc = 1;
		goto out;
	}
	if (env.svg)
		agg = fold_agg_new();
	if (!env.folded)
		printf("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", attached, env.pattern);
	fflush(stdout);
	for (;;) {
		bool last;

		tool_sleep_ms(env.interval * 1000);
		elapsed += env.interval;
		last = tool_exiting || (env.duration && elapsed >= env.duration);
		if (report(&stk, map_fd(obj_map_at(o, (size_t)counts)), agg) < 0) {
			rc = 1;
			break;
		}
		if (last) {
			if (!env.folded)
				printf("Detaching...\n");
			break;
		}
	}
	stacks_report_missed(&stk, stderr);
	if (agg) {
		struct flamegraph_opts fo = { .title = "stackcount", .subtitle = env.pattern, .unit = "events" };

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
