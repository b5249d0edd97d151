/* applet wakeuptime: summarize sleep to wakeup time by waker kernel stack
 * readme: time blocked, by the waker's stack
 *
 * libbpf-tools flags and output, plus bcc's -f and --svg.
 *
 * sched_switch notes when a thread goes off CPU; sched_waking (in the
 * waker's context) adds the time it was blocked to the total of
 * {waker comm, target comm, waker kernel stack}. */
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
#include "wakeuptime.h"

BPF_OBJ_DECLARE(wakeuptime);

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'u', "user-threads-only", NULL, "user threads only (no kernel threads)" },
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ STACKTOOL_KEY_SVG, "svg", "FILE", "also write an interactive wakeup flame graph SVG to FILE" },
	{ STACKTOOL_KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ STACKTOOL_KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 'm', "min-block-time", "US", "the amount of time in microseconds over which we store traces (default 1)" },
	{ 'M', "max-block-time", "US", "the amount of time in microseconds under which we store traces (default U64_MAX)" },
	{ 'v', "verbose", NULL, "show raw addresses" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID | -u] [-f] [--svg FILE] [-m MIN] [-M MAX] [--stack-storage-size N] "
		 "[--perf-max-stack-depth N] [duration]",
	.examples =
		"    wakeuptime             # trace blocked time with waker stacks\n"
		"    wakeuptime 5           # trace for 5 seconds only\n"
		"    wakeuptime -u          # don't include kernel threads (user only)\n"
		"    wakeuptime -p 185      # trace for PID 185 only\n"
		"    wakeuptime -f 5        # 5 seconds, folded output for flame graphs\n",
	.opts = opts,
};

static struct stacktool_env env = { STACKTOOL_ENV_INIT(&help, WAKEUP_MAX_FILTER) };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': /* one PID (libbpf-tools), the only entry of the tgids filter */
		env.pids[0] = (uint32_t)opt_pid(&help, "PID", arg);
		env.npids = 1;
		break;
	case 'm': env.min_us = (unsigned long long)opt_num(&help, "min block time", arg, 0, LLONG_MAX / 1000); break;
	case 'M': env.max_us = (unsigned long long)opt_num(&help, "max block time", arg, 0, LLONG_MAX / 1000); break;
	default:
		return stacktool_parse(&env, key, arg);
	}
	return 0;
}

/* bcc: waker;kernel stack root->leaf;target */
static void fold_rec(struct stacks *s, const void *key, const void *val, uint64_t us, struct strbuf *line)
{
	const struct wakeup_key *k = key;
	char comm[STACKTOOL_COMM_LEN + 1];

	strbuf_reset(line);
	stacks_fold_name(line, stacktool_comm(comm, k->waker));
	stacks_fold_frames(s, line, k->w_k_stack_id, -1, 0, 0);
	stacks_fold_name(line, stacktool_comm(comm, k->target));
}

/* libbpf-tools layout: target, waker stack leaf first with addresses,
 * waker, total microseconds. */
static void print_rec(struct stacks *s, const void *key, const void *val, uint64_t us)
{
	const struct wakeup_key *k = key;
	char target[STACKTOOL_COMM_TEXT], waker[STACKTOOL_COMM_TEXT], sym[256];
	const uint64_t *ips;
	int n;

	printf("\n\t%-16s %s\n", "target:", stacktool_comm_text(target, k->target));
	n = stacks_read(s, k->w_k_stack_id, 1, &ips);
	if (n < 0)
		printf("\t%-16s [Missed Kernel Stack]\n", "");
	for (int i = 0; i < n; i++)
		printf("\t%-16llx %s\n", (unsigned long long)ips[i], stacks_ksym(s, ips[i], sym, sizeof(sym)));
	printf("\t%16s %s\n", "waker:", stacktool_comm_text(waker, k->waker));
	printf("\t%llu\n", (unsigned long long)us);
}

static void json_rec(struct stacks *s, const void *key, const void *val, uint64_t us, struct strbuf *obj)
{
	const struct wakeup_key *k = key;
	char comm[STACKTOOL_COMM_LEN + 1];

	strbuf_add(obj, "\"target\":");
	json_str(obj, stacktool_comm(comm, k->target));
	strbuf_add(obj, ",\"waker\":");
	json_str(obj, stacktool_comm(comm, k->waker));
	strbuf_add(obj, ",\"waker_kernel\":");
	stacks_json_frames(s, obj, k->w_k_stack_id, -1);
	strbuf_addc(obj, ',');
}

static const struct stacktool_report report = {
	.map = "counts",
	.what = "totals",
	.key_size = sizeof(struct wakeup_key),
	.value_size = sizeof(uint64_t),
	.value_div = 1000, /* ns summed, us shown */
	/* libbpf-tools 0.26 prints "ADDR name" frames (no +offset) */
	.flags = STACKS_SKIP_TRACE | STACKS_NO_USER,
	.fg = { .title = "Wakeup Time Flame Graph", .unit = "us", .palette = FG_CHAIN },
	.fold = fold_rec,
	.print = print_rec,
	.json = json_rec,
};

int wakeuptime_main(int argc, char **argv)
{
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.npids && env.user_threads)
		opt_usage_error(&help, "-p and -u are mutually exclusive");
	stacktool_check_block(&env);

	/* without kernel BTF the perf tracepoints' records (wakeuptime.bpf.c) */
	bool tp = tool_no_kbtf();
	static const char *const progs[] = { "sched_switch", "sched_waking", "sched_wakeup_new" };
	char nm[32];

	if (tp && env.user_threads) {
		tool_err("wakeuptime", "-u reads task_struct (PF_KTHREAD), and this kernel has no BTF: pass "
			 "--btf FILE ('corebox btf min' makes one, see README)");
		return 1;
	}
	o = BPF_OBJ_OPEN(wakeuptime);
	for (int i = 0; i < 3; i++) {
		snprintf(nm, sizeof(nm), "%s%s", progs[i], tp ? "" : "_tp");
		prog_set_autoload(obj_prog(o, nm), false);
	}
	stacktool_set_knobs(o, &env);
	OBJ_SET(o, min_block_ns, (uint64_t)env.min_us * 1000);
	OBJ_SET(o, max_block_ns, env.max_us == ~0ULL ? ~0ULL : (uint64_t)env.max_us * 1000);
	/* sched_waking (4.3+) is older than raw_tp (4.17): no fallback needed */
	if (tool_load_attach(o, "wakeuptime"))
		return 1;
	if (env.npids) {
		uint8_t one = 1;

		if (bpf_map_update(map_fd(obj_map(o, "tgids")), &env.pids[0], &one, 0) < 0) {
			tool_err("wakeuptime", "cannot fill the pid filter map: %s", strerror(errno));
			obj_close(o);
			return 1;
		}
	}

	tool_signals();
	/* libbpf-tools 0.26: this line alone, with or without a duration */
	if (!env.folded)
		out_info("Tracing blocked time (us) by kernel stack\n");
	env.banner = STACKTOOL_BANNER_NONE;
	stacktool_wait(&env);
	ret = stacktool_report(o, &env, &report);
	obj_close(o);
	return ret;
}
