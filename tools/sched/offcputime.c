/* applet offcputime: summarize off-CPU time by stack trace
 * readme: time blocked, by kernel and user stack
 *
 * Off-CPU time is time blocked (libbpf-tools flags and output, plus bcc's
 * -U/-K/-d/-f and --svg).
 *
 * sched_switch (tp_btf, raw_tp when the kernel can't) records the stacks
 * of each thread going off CPU; the time until it runs again is summed
 * per {thread, stacks} in the kernel and printed at the end, sorted by
 * time ascending as bcc does (the biggest last), in microseconds. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/sched/offtime.h"
#include "offcputime.h"

BPF_OBJ_DECLARE(offcputime);

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace these PIDs only, comma-separated list" },
	{ 't', "tid", "TID", "trace these TIDs only, comma-separated list" },
	OFFTIME_OPTS_KINDS,
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ STACKTOOL_KEY_SVG, "svg", "FILE", "also write an interactive off-CPU flame graph SVG to FILE" },
	OFFTIME_OPTS_LIMITS,
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID | -t TID | -u | -k] [-U | -K] [-d] [-f] [--svg FILE] [-m MIN] [-M MAX] "
		 "[--state STATE] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.examples =
		"    offcputime             # trace off-CPU stack time until Ctrl-C\n"
		"    offcputime 5           # trace for 5 seconds only\n"
		"    offcputime -m 1000     # trace only events that last more than 1000 usec\n"
		"    offcputime -M 10000    # trace only events that last less than 10000 usec\n"
		"    offcputime -p 185,175,165 # only trace threads for PID 185,175,165\n"
		"    offcputime -t 188,120,134 # only trace threads 188,120,134\n"
		"    offcputime -u          # only trace user threads (no kernel)\n"
		"    offcputime -k          # only trace kernel threads (no user)\n"
		"    offcputime -f 5        # 5 seconds, folded output for flame graphs\n"
		"    offcputime --svg off.svg 10 # write an off-CPU flame graph of 10 seconds\n",
	.opts = opts,
	.flags = OPT_USTACKS,
};

static struct stacktool_env env = { STACKTOOL_ENV_INIT(&help, OFFCPU_MAX_FILTER) };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	return offtime_parse(&env, key, arg);
}

static void make_rec(const void *key, const void *val, char *comm, struct stack_rec *rec)
{
	const struct offcpu_key *k = key;
	const struct offcpu_val *v = val;

	rec->comm = stacktool_comm(comm, v->comm);
	rec->pid = (int)k->tgid;
	rec->kid = env.user_only || k->kern_stack_id == -1 ? STACK_OMIT : k->kern_stack_id;
	rec->uid = env.kernel_only || k->user_stack_id == -1 ? STACK_OMIT : k->user_stack_id;
	rec->value = v->delta;
}

static void fold_rec(struct stacks *s, const void *key, const void *val, uint64_t value, struct strbuf *line)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, val, comm, &rec);
	stacks_folded(s, &rec, line);
}

static void print_rec(struct stacks *s, const void *key, const void *val, uint64_t value)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, val, comm, &rec);
	rec.pid = (int)((const struct offcpu_key *)key)->pid; /* libbpf-tools prints the thread id */
	stacks_print(s, stdout, &rec);
}

static void json_rec(struct stacks *s, const void *key, const void *val, uint64_t value, struct strbuf *obj)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, val, comm, &rec);
	stacks_json(s, &rec, obj);
}

static const struct stacktool_report report = {
	.map = "info",
	.what = "totals",
	.key_size = sizeof(struct offcpu_key),
	.value_size = sizeof(struct offcpu_val),
	.flags = STACKS_SKIP_TRACE,
	.verbose_flags = STACKS_VERBOSE,
	.fg = { .title = "Off-CPU Time Flame Graph", .unit = "us", .palette = FG_IO },
	.fold = fold_rec,
	.print = print_rec,
	.json = json_rec,
};

int offcputime_main(int argc, char **argv)
{
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	offtime_check(&env);

	/* without kernel BTF the perf tracepoint's record (offcputime.bpf.c) */
	bool tp = tool_no_kbtf();

	if (tp && (env.user_threads || env.kernel_threads)) {
		tool_err("offcputime", "-u/-k read task_struct (PF_KTHREAD), and this kernel has no BTF: pass "
			 "--btf FILE ('corebox btf min' makes one, see README)");
		return 1;
	}
	o = BPF_OBJ_OPEN(offcputime);
	prog_set_autoload(obj_prog(o, tp ? "sched_switch" : "sched_switch_tp"), false);
	OBJ_SET(o, state, (int64_t)offtime_state);
	if (offtime_start(o, &env, "offcputime"))
		return 1;
	/* libbpf-tools prints no banner: stdout holds only the report */
	if (!env.folded) {
		fprintf(stderr, "Tracing off-CPU time (us) of ");
		if (env.pid_str)
			fprintf(stderr, "PID [%s]", env.pid_str);
		else if (env.tid_str)
			fprintf(stderr, "TID [%s]", env.tid_str);
		else if (env.user_threads)
			fprintf(stderr, "user threads");
		else if (env.kernel_threads)
			fprintf(stderr, "kernel threads");
		else
			fprintf(stderr, "all threads");
		fprintf(stderr, " by %s stack", stacktool_stack_kind(&env));
	}
	env.banner = STACKTOOL_BANNER_ERR;
	stacktool_wait(&env);
	ret = stacktool_report(o, &env, &report);
	obj_close(o);
	return ret;
}
