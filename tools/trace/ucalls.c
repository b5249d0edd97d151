/* applet ucalls: summarize method calls in high-level languages and/or system calls
 * readme: method calls of a Java/Perl/PHP/Python/Ruby/Tcl process from its runtime's USDT probes
 *         (`-L` latency, `-S` syscalls via raw_syscalls, `-T TOP`, `-m`); bcc's tools/lib/ucalls.py
 * alias javacalls (ucalls): ucalls -l java
 * alias perlcalls (ucalls): ucalls -l perl
 * alias phpcalls (ucalls): ucalls -l php
 * alias pythoncalls (ucalls): ucalls -l python
 * alias rubycalls (ucalls): ucalls -l ruby
 * alias tclcalls (ucalls): ucalls -l tcl
 *
 * Counts (with -L: calls and time from entry to return) per class and
 * method in one hash map, syscalls per number in another, read at each
 * interval (then cleared) or at Ctrl-C; bcc's layout, fewest calls (or
 * least time) first.  Deliberate differences: names are read as strings
 * (bcc copies 80 raw bytes, so junk after the NUL split one method into
 * several rows), and the JVM's class and method names by their lengths
 * (they are not NUL-terminated). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "ulang.h"

static const struct opt opts[] = {
	{ 'l', "language", "LANGUAGE", "language to trace (if none, trace syscalls only)" },
	{ 'T', "top", "TOP", "number of most frequent/slow calls to print" },
	{ 'L', "latency", NULL, "record method latency from enter to exit (except recursive calls)" },
	{ 'S', "syscalls", NULL, "record syscall latency (adds overhead)" },
	{ 'm', "milliseconds", NULL, "report times in milliseconds (default is microseconds)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-l {java,perl,php,python,ruby,tcl,none}] [-T TOP] [-L] [-S] [-v] [-m] pid [interval]",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *lang;
	int pid, npos;
	long interval, top;
	bool latency, syscalls, ms;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'l': env.lang = arg; break;
	case 'T': env.top = opt_num(&help, "top", arg, 0, 1 << 30); break;
	case 'L': env.latency = true; break;
	case 'S': env.syscalls = true; break;
	case 'm': env.ms = true; break;
	case 0: return ulang_pos(&help, arg, &env.npos, &env.pid, &env.interval);
	default: return 1;
	}
	return 0;
}

/* maps */
enum { M_COUNTS, M_ENTRY, M_SYS, M_SYSENTRY };
/* the key: pid_tgid (the entry map's), then class and method (the counts map's) */
enum { STR = 80, KEY = 8 + 2 * STR };

/* One program for a method probe (key: class and method) or a
 * raw_syscalls tracepoint (key: the syscall number; sys_exit has it
 * too): entry counts, or (-L) notes the time by thread and key; return
 * (-L) adds the time since. */
static int gen_prog(struct obj *o, const struct ulang *u, const struct loc *l, bool ret)
{
	bool sys = !l->user;
	int pid = sys ? 0 : env.pid, counts = sys ? M_SYS : M_COUNTS;
	struct gen *g = ulang_gen(l, env.pid);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, KEY), val = gen_stack(g, 16), err = 0;
	struct ctype t;

	if (sys) {
		err = gen_value(g, "args->id", 0, &t);
		emit_stx(e, 8, R10, (int16_t)(key + 8), R0);
	} else {
		ulang_zero(g, key, KEY);
		if (u->cls)
			err = ulang_str(g, u->cls, u->counted, key + 8, STR);
		if (!err)
			err = ulang_str(g, u->meth, u->counted, key + 8 + STR, STR);
	}
	if (err < 0)
		return ulang_prog(o, l, g, out, pid, err);
	if (env.latency) {
		emit_stx(e, 8, R10, (int16_t)key, R8);
		if (!ret) {
			emit_call(e, BPF_FUNC_ktime_get_ns);
			emit_stx(e, 8, R10, (int16_t)val, R0);
			emit_map_update(e, counts + 1, key, val, BPF_ANY);
			return ulang_prog(o, l, g, out, pid, 0);
		}
		/* val = {1, now - the entry's time}, the entry deleted */
		gen_lookup(g, counts + 1, key, out);
		emit_ldx(e, 8, R9, R0, 0);
		emit_call(e, BPF_FUNC_ktime_get_ns);
		emit_alu(e, BPF_SUB, R0, R9);
		emit_stx(e, 8, R10, (int16_t)(val + 8), R0);
		emit_ldmap(e, R1, counts + 1);
		emit_mov(e, R2, R10);
		emit_alui(e, BPF_ADD, R2, key);
		emit_call(e, BPF_FUNC_map_delete_elem);
	} else
		emit_st(e, 8, R10, (int16_t)(val + 8), 0);
	emit_st(e, 8, R10, (int16_t)val, 1);
	gen_hash_add(g, counts, key + 8, val, 2);
	return ulang_prog(o, l, g, out, pid, 0);
}

static void fill(union out_val *v, const struct ulang_row *r)
{
	v[1].u = r->v[0];
	v[2].f = (double)r->v[1] / (env.ms ? 1e6 : 1e3);
}

static struct out_col cols[] = {
	{ "method", "METHOD", "%-50s", OUT_STR, OUT_LABEL },
	{ "calls", "# CALLS", " %8llu", OUT_UINT, OUT_COUNTER, " %8s", "calls" },
	{ "time", "TIME (us)", " %6.2f", OUT_FLOAT, OUT_COUNTER, " %8s", "time" },
	{ NULL, NULL, "\n", OUT_STR, OUT_TEXT_ONLY, "\n" },
};
static struct out_table table = OUT_TABLE("methods", cols);

static int report(struct obj *o)
{
	struct ulang_row *rows = NULL;
	size_t n = 0;
	void *keys;
	uint64_t(*vals)[2];

	for (int m = M_COUNTS; m <= M_SYS; m += 2) {
		long k;

		if ((m == M_COUNTS ? !env.lang : !env.syscalls))
			continue;
		k = ulang_drain(o, m, m == M_COUNTS ? 2 * STR : 8, &keys, &vals);
		if (k > 0)
			rows = xrealloc(rows, (n + (size_t)k) * sizeof(*rows));
		for (long i = 0; i < k; i++, n++) {
			struct ulang_row *r = &rows[n];

			if (m == M_COUNTS) {
				const char *c = (const char *)keys + i * 2 * STR;

				snprintf(r->name, sizeof(r->name), "%.*s.%.*s", (int)strnlen(c, STR), c,
					 (int)strnlen(c + STR, STR), c + STR);
			} else {
				uint64_t nr = ((uint64_t *)keys)[i];
				const char *s = syscall_name((unsigned)nr);

				if (s)
					snprintf(r->name, sizeof(r->name), "%s", s);
				else
					snprintf(r->name, sizeof(r->name), "[unknown: %llu]", (unsigned long long)nr);
			}
			r->v[0] = vals[i][0];
			r->v[1] = vals[i][1];
		}
		free(keys);
		free(vals);
		if (k < 0)
			return free(rows), -1;
	}
	return ulang_report(&table, rows, n, env.latency, env.top, fill);
}

int ucalls_main(int argc, char **argv)
{
	const struct ulang *u;
	struct loc *locs = NULL;
	struct obj *o;
	int n = 0, nentry, rc = 0, attached;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.npos)
		opt_usage_error(&help, "the following arguments are required: pid");
	u = ulang_pick(&help, env.lang, "calls", "java perl php python ruby tcl none", env.pid, &env.lang);
	if (!u)
		env.lang = NULL;
	if (!u && !env.syscalls) {
		printf("Nothing to do; use -S to trace syscalls.\n");
		return 1;
	}
	if (env.ms)
		cols[2].head = "TIME (ms)";
	out_show(&table, 2, env.latency);
	if (u && ulang_need(env.pid, u->entry, u->name, &locs, &n))
		return 1;
	nentry = n;
	if (u && env.latency && ulang_usdt(env.pid, u->ret, &locs, &n) < 0)
		rc = 1;
	for (int i = 0; env.syscalls && i < 1 + env.latency; i++)
		if (ulang_resolve(i ? "t:raw_syscalls:sys_exit" : "t:raw_syscalls:sys_enter", 0, &locs, &n) < 0) {
			tool_err(tool_applet, "raw_syscalls: %s", err_msg());
			return 1;
		}
	tool_signals();
	o = obj_new(tool_applet);
	obj_new_map(o, "counts", BPF_MAP_TYPE_HASH, 2 * STR, 16, MAX_ENTRIES, 0);
	obj_new_map(o, "entry", BPF_MAP_TYPE_HASH, KEY, 8, MAX_ENTRIES, 0);
	obj_new_map(o, "syscounts", BPF_MAP_TYPE_HASH, 8, 16, MAX_ENTRIES, 0);
	obj_new_map(o, "sysentry", BPF_MAP_TYPE_HASH, 16, 8, MAX_ENTRIES, 0);
	for (int i = 0; i < n && !rc; i++)
		rc = gen_prog(o, u, &locs[i], locs[i].user ? i >= nentry : strstr(locs[i].name, "exit") != NULL);
	if (u && !rc)
		rc = ulang_gate(o, u, env.pid);
	if (!(rc = build_finish(o, rc, tool_applet, "the probes", &attached))) {
		if (env.syscalls)
			out_info("Attached kernel tracepoints for syscall tracing.\n");
		out_info("Tracing calls in process %d (language: %s)... Ctrl-C to quit.\n", env.pid,
			 env.lang ? env.lang : "none");
		if (u && (u->name[0] == 'j' || u->name[1] == 'h'))
			out_info(u->name[0] == 'j' ? "If you do not see any results, make sure you ran java with option -XX:+ExtendedDTraceProbes\n"
						   : "If you do not see any results, make sure the environment variable USE_ZEND_DTRACE is set to 1\n");
		/* Since 2.5 ruby fires method__entry/return from its trace
		 * instructions only, which run only while the program has a
		 * TracePoint enabled (ruby bug #14582); bcc says nothing, so the
		 * note goes to stderr, leaving bcc's output as it is. */
		if (u && u->name[0] == 'r')
			fprintf(stderr, "%s: ruby 2.5+ fires method__entry only while a TracePoint is enabled in it "
					"(TracePoint.new(:call, :return) {}.enable)\n", tool_applet);
		rc = ulang_loop(o, env.interval, report);
		if (env.syscalls)
			out_info("Detaching kernel probes, please wait...\n");
	}
	obj_close(o);
	locs_free(locs, n);
	return rc;
}
