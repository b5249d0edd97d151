/* offcputime: summarize off-CPU time (time blocked) by stack trace
 * (libbpf-tools flags and output, plus bcc's -U/-K/-d/-f and --svg).
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
#include "tools/stack/stacktool.h"
#include "offcputime.h"

BPF_OBJ_DECLARE(offcputime);

#define KEY_STATE STACKTOOL_KEY_NEXT

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace these PIDs only, comma-separated list" },
	{ 't', "tid", "TID", "trace these TIDs only, comma-separated list" },
	{ 'u', "user-threads-only", NULL, "user threads only (no kernel threads)" },
	{ 'k', "kernel-threads-only", NULL, "kernel threads only (no user threads)" },
	{ 'U', "user-stacks-only", NULL, "show stacks from user space only (no kernel space stacks)" },
	{ 'K', "kernel-stacks-only", NULL, "show stacks from kernel space only (no user space stacks)" },
	{ 'd', "delimited", NULL, "insert delimiter between kernel/user stacks" },
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ STACKTOOL_KEY_SVG, "svg", "FILE", "also write an interactive off-CPU flame graph SVG to FILE" },
	{ STACKTOOL_KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ STACKTOOL_KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 'm', "min-block-time", "US", "the amount of time in microseconds over which we store traces (default 1)" },
	{ 'M', "max-block-time", "US", "the amount of time in microseconds under which we store traces (default U64_MAX)" },
	{ KEY_STATE, "state", "STATE", "filter on this thread state bitmask (eg, 2 == TASK_UNINTERRUPTIBLE) see include/linux/sched.h" },
	{ 'v', "verbose", NULL, "show raw addresses" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "offcputime",
	.usage = "[-h] [-p PID | -t TID | -u | -k] [-U | -K] [-d] [-f] [--svg FILE] [-m MIN] [-M MAX] "
		 "[--state STATE] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.summary = "Summarize off-CPU time by stack trace.",
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
};

static struct stacktool_env env = { STACKTOOL_ENV_INIT(&help, OFFCPU_MAX_FILTER) };
static long long state = -1;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	if (key == KEY_STATE) {
		state = opt_num(&help, "state", arg, 0, INT_MAX);
		return 0;
	}
	return stacktool_parse(&env, key, arg);
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
	stacktool_check_threads(&env);
	stacktool_check_stacks(&env);
	stacktool_check_block(&env);

	o = BPF_OBJ_OPEN(offcputime);
	stacktool_set_knobs(o, &env);
	OBJ_SET(o, state, (int64_t)state);
	OBJ_SET(o, min_block_us, (uint64_t)env.min_us);
	OBJ_SET(o, max_block_us, (uint64_t)env.max_us);
	if (tool_load_attach(o, "offcputime"))
		return 1;
	if (stacktool_fill_filters(o, &env, "tgids", "pids") < 0) {
		obj_close(o);
		return 1;
	}

	tool_signals();
	if (!env.folded) {
		out_info("Tracing off-CPU time (us) of ");
		if (env.pid_str)
			out_info("PID [%s]", env.pid_str);
		else if (env.tid_str)
			out_info("TID [%s]", env.tid_str);
		else if (env.user_threads)
			out_info("user threads");
		else if (env.kernel_threads)
			out_info("kernel threads");
		else
			out_info("all threads");
		out_info(" by %s stack", stacktool_stack_kind(&env));
	}
	stacktool_wait(&env);
	ret = stacktool_report(o, &env, &report);
	obj_close(o);
	return ret;
}
