/* applet offwaketime: summarize blocked time by off-CPU stack and waker stack
 * readme: the blocked stack and its waker's stack merged (`--` between them when folded)
 *
 * The blocked thread's off-CPU stack and its waker's stack together (bcc
 * flags and output, --svg).
 *
 * The kernel side joins both halves into one record (the blocked
 * thread's stacks from its sched_switch, the waker's from sched_waking)
 * and sums microseconds per record; printed at the end sorted ascending
 * (bcc), multi-line or folded with "--" between target and waker. */
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
#include "offwaketime.h"

BPF_OBJ_DECLARE(offwaketime);

static const struct opt opts[] = {
	{ 'p', "pid", "PIDS", "trace these PIDS only, comma-separated list" },
	{ 't', "tid", "TIDS", "trace these TIDS only, comma-separated list" },
	OFFTIME_OPTS_KINDS,
	{ 'f', "folded", NULL, "output folded format" },
	{ STACKTOOL_KEY_SVG, "svg", "FILE", "also write an interactive off-wake flame graph SVG to FILE" },
	OFFTIME_OPTS_LIMITS,
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PIDS | -t TIDS | -u | -k] [-U | -K] [-d] [-f] [--svg FILE] [-m MIN] [-M MAX] "
		 "[--state STATE] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.examples =
		"    offwaketime             # trace off-CPU + waker stack time until Ctrl-C\n"
		"    offwaketime 5           # trace for 5 seconds only\n"
		"    offwaketime -f 5        # 5 seconds, and output in folded format\n"
		"    offwaketime -m 1000     # trace only events that last more than 1000 usec\n"
		"    offwaketime -M 9000     # trace only events that last less than 9000 usec\n"
		"    offwaketime -p 185      # only trace threads for PID 185\n"
		"    offwaketime -t 188      # only trace thread 188\n"
		"    offwaketime -u          # only trace user threads (no kernel)\n"
		"    offwaketime -k          # only trace kernel threads (no user)\n"
		"    offwaketime -U          # only show user space stacks (no kernel)\n"
		"    offwaketime -K          # only show kernel space stacks (no user)\n",
	.opts = opts,
	.flags = OPT_USTACKS,
};

static struct stacktool_env env = { STACKTOOL_ENV_INIT(&help, OFFWAKE_MAX_FILTER) };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	return offtime_parse(&env, key, arg);
}

static int32_t sid(int32_t id, bool omit)
{
	return omit || id == -1 ? STACK_OMIT : id;
}

static void fold_rec(struct stacks *s, const void *key, const void *val, uint64_t us, struct strbuf *line)
{
	const struct offwake_key *k = key;
	char tcomm[STACKTOOL_COMM_LEN + 1], wcomm[STACKTOOL_COMM_LEN + 1];
	struct offwake_rec rec = {
		.tcomm = stacktool_comm(tcomm, k->target),
		.wcomm = stacktool_comm(wcomm, k->waker),
		.tpid = (int)k->t_tgid,
		.wpid = (int)k->w_tgid,
		.tkid = sid(k->t_k_stack_id, env.user_only),
		.tuid = sid(k->t_u_stack_id, env.kernel_only),
		.wkid = sid(k->w_k_stack_id, env.user_only),
		.wuid = sid(k->w_u_stack_id, env.kernel_only),
		.value = us,
	};

	stacks_folded_offwake(s, &rec, line);
}

/* bcc layout: waker header, waker stacks root->leaf (user, [-], kernel),
 * "--", target stacks leaf->root (kernel, [-], user), target, value. */
static void print_rec(struct stacks *s, const void *key, const void *val, uint64_t us)
{
	const struct offwake_key *k = key;
	char comm[STACKTOOL_COMM_TEXT];
	int32_t wk = sid(k->w_k_stack_id, env.user_only), wu = sid(k->w_u_stack_id, env.kernel_only);
	int32_t tk = sid(k->t_k_stack_id, env.user_only), tu = sid(k->t_u_stack_id, env.kernel_only);
	int nu, nk;

	if (k->waker[0])
		printf("    %-16s %s %u\n", "waker:", stacktool_comm_text(comm, k->waker), k->w_tgid);
	else /* no sched_waking seen for it: a timer, an interrupt, or before tracing */
		printf("    %-16s %s\n", "waker:", "[unknown]");
	nu = wu == STACK_OMIT ? 0 : stacks_print_frames(s, stdout, "    ", wu, (int)k->w_tgid, 1, 0);
	if (env.delimited && nu && wk != STACK_OMIT)
		printf("    -\n");
	nk = wk == STACK_OMIT ? 0 : stacks_print_frames(s, stdout, "    ", wk, -1, 1, 0);
	printf("    %-16s %s\n", "--", "--");
	nk = tk == STACK_OMIT ? 0 : stacks_print_frames(s, stdout, "    ", tk, -1, 0, 0);
	if (env.delimited && nk && tu != STACK_OMIT)
		printf("    -\n");
	if (tu != STACK_OMIT)
		stacks_print_frames(s, stdout, "    ", tu, (int)k->t_tgid, 0, 0);
	printf("    %-16s %s %u\n", "target:", stacktool_comm_text(comm, k->target), k->t_pid);
	printf("        %llu\n\n", (unsigned long long)us);
}

static void json_rec(struct stacks *s, const void *key, const void *val, uint64_t us, struct strbuf *obj)
{
	const struct offwake_key *k = key;
	char comm[STACKTOOL_COMM_LEN + 1];
	int32_t ids[4] = { sid(k->t_k_stack_id, env.user_only), sid(k->t_u_stack_id, env.kernel_only),
			   sid(k->w_k_stack_id, env.user_only), sid(k->w_u_stack_id, env.kernel_only) };
	static const char *const names[4] = { "target_kernel", "target_user", "waker_kernel", "waker_user" };

	strbuf_add(obj, "\"target\":");
	json_str(obj, stacktool_comm(comm, k->target));
	strbuf_addf(obj, ",\"target_pid\":%u,\"target_tgid\":%u,\"waker\":", k->t_pid, k->t_tgid);
	if (k->waker[0]) {
		json_str(obj, stacktool_comm(comm, k->waker));
		strbuf_addf(obj, ",\"waker_pid\":%u,\"waker_tgid\":%u,", k->w_pid, k->w_tgid);
	} else {
		strbuf_add(obj, "null,");
	}
	for (int i = 0; i < 4; i++) {
		if (ids[i] == STACK_OMIT)
			continue;
		strbuf_addf(obj, "\"%s\":", names[i]);
		stacks_json_frames(s, obj, ids[i], i & 1 ? (int)(i < 2 ? k->t_tgid : k->w_tgid) : -1);
		strbuf_addc(obj, ',');
	}
}

static const struct stacktool_report report = {
	.map = "counts",
	.what = "totals",
	.key_size = sizeof(struct offwake_key),
	.value_size = sizeof(uint64_t),
	.flags = STACKS_SKIP_TRACE,
	.verbose_flags = STACKS_OFFSET,
	.fg = { .title = "Off-Wake Time Flame Graph", .unit = "us", .palette = FG_CHAIN },
	.fold = fold_rec,
	.print = print_rec,
	.json = json_rec,
};

int offwaketime_main(int argc, char **argv)
{
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	offtime_check(&env);

	o = BPF_OBJ_OPEN(offwaketime);
	if (offtime_state >= 0) {
		OBJ_SET(o, filter_state, (uint8_t)1);
		OBJ_SET(o, state, (uint64_t)offtime_state);
	}
	if (offtime_start(o, &env, "offwaketime"))
		return 1;
	if (!env.folded)
		out_info("Tracing blocked time (us) by %s off-CPU and waker stack", stacktool_stack_kind(&env));
	stacktool_wait(&env);
	if (!env.folded)
		printf("\n");
	ret = stacktool_report(o, &env, &report);
	obj_close(o);
	return ret;
}
