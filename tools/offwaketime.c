/* offwaketime: summarize blocked time by the blocked thread's off-CPU
 * stack and its waker's stack together (bcc flags and output, --svg).
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
#include "common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/stack/flamegraph.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "offwaketime.h"

BPF_OBJ_DECLARE(offwaketime);

#define KEY_STORAGE OPT_LONG_ONLY(1)
#define KEY_DEPTH OPT_LONG_ONLY(2)
#define KEY_STATE OPT_LONG_ONLY(3)
#define KEY_SVG OPT_LONG_ONLY(4)

static const struct opt opts[] = {
	{ 'p', "pid", "PIDS", "trace these PIDS only, comma-separated list" },
	{ 't', "tid", "TIDS", "trace these TIDS only, comma-separated list" },
	{ 'u', "user-threads-only", NULL, "user threads only (no kernel threads)" },
	{ 'k', "kernel-threads-only", NULL, "kernel threads only (no user threads)" },
	{ 'U', "user-stacks-only", NULL, "show stacks from user space only (no kernel space stacks)" },
	{ 'K', "kernel-stacks-only", NULL, "show stacks from kernel space only (no user space stacks)" },
	{ 'd', "delimited", NULL, "insert delimiter between kernel/user stacks" },
	{ 'f', "folded", NULL, "output folded format" },
	{ KEY_SVG, "svg", "FILE", "also write an interactive off-wake flame graph SVG to FILE" },
	{ KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 'm', "min-block-time", "US", "the amount of time in microseconds over which we store traces (default 1)" },
	{ 'M', "max-block-time", "US", "the amount of time in microseconds under which we store traces (default U64_MAX)" },
	{ KEY_STATE, "state", "STATE", "filter on this thread state bitmask (eg, 2 == TASK_UNINTERRUPTIBLE) see include/linux/sched.h" },
	{ 'v', "verbose", NULL, "show raw addresses" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "offwaketime",
	.usage = "[-h] [-p PIDS | -t TIDS | -u | -k] [-U | -K] [-d] [-f] [--svg FILE] [-m MIN] [-M MAX] "
		 "[--state STATE] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.summary = "Summarize blocked time by kernel stack trace + waker stack.",
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
};

static struct env {
	uint32_t pids[OFFWAKE_MAX_FILTER], tids[OFFWAKE_MAX_FILTER];
	int npids, ntids;
	bool user_threads, kernel_threads, user_only, kernel_only, delimited, folded, verbose;
	bool state_set;
	unsigned long long state, min_us, max_us;
	long storage, depth, duration;
	const char *svg;
	int npos;
} env = { .min_us = 1, .max_us = ~0ULL, .storage = 1024, .depth = 127, .duration = -1 };

static int parse_ids(const char *what, const char *arg, uint32_t *ids, int max)
{
	char *copy = xstrdup(arg), *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= max)
			opt_usage_error(&help, "too many %ss (at most %d): '%s'", what, max, arg);
		ids[n++] = (uint32_t)opt_num(&help, what, tok, 1, INT_MAX);
	}
	free(copy);
	if (!n)
		opt_usage_error(&help, "invalid %s: '%s'", what, arg);
	return n;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.npids = parse_ids("PID", arg, env.pids, OFFWAKE_MAX_FILTER); break;
	case 't': env.ntids = parse_ids("TID", arg, env.tids, OFFWAKE_MAX_FILTER); break;
	case 'u': env.user_threads = true; break;
	case 'k': env.kernel_threads = true; break;
	case 'U': env.user_only = true; break;
	case 'K': env.kernel_only = true; break;
	case 'd': env.delimited = true; break;
	case 'f': env.folded = true; break;
	case KEY_SVG: env.svg = arg; break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 24); break;
	case 'm': env.min_us = (unsigned long long)opt_num(&help, "min block time", arg, 0, LLONG_MAX); break;
	case 'M': env.max_us = (unsigned long long)opt_num(&help, "max block time", arg, 0, LLONG_MAX); break;
	case KEY_STATE:
		env.state = (unsigned long long)opt_num(&help, "state", arg, 0, INT_MAX);
		env.state_set = true;
		break;
	case 'v': env.verbose = true; break;
	case 0:
		if (env.npos++)
			opt_usage_error(&help, "unrecognized positional argument: %s", arg);
		env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX);
		break;
	default:
		return 1;
	}
	return 0;
}

static int fill_filter(struct obj *o, const char *map, const uint32_t *ids, int n)
{
	int fd = map_fd(obj_map(o, map));
	uint8_t one = 1;

	for (int i = 0; i < n; i++)
		if (bpf_map_update(fd, &ids[i], &one, 0) < 0) {
			tool_err("offwaketime", "cannot fill the %s filter map: %s", map, strerror(errno));
			return -1;
		}
	return 0;
}

static const char *comm_str(char *buf, const char *comm)
{
	memcpy(buf, comm, OFFWAKE_COMM_LEN);
	buf[OFFWAKE_COMM_LEN] = 0;
	return buf;
}

static int32_t sid(int32_t id, bool omit)
{
	return omit || id == -1 ? STACK_OMIT : id;
}

/* bcc layout: waker header, waker stacks root->leaf (user, [-], kernel),
 * "--", target stacks leaf->root (kernel, [-], user), target, value. */
static void print_multiline(struct stacks *s, const struct offwake_key *k, uint64_t us)
{
	char comm[OFFWAKE_COMM_LEN + 1];
	int32_t wk = sid(k->w_k_stack_id, env.user_only), wu = sid(k->w_u_stack_id, env.kernel_only);
	int32_t tk = sid(k->t_k_stack_id, env.user_only), tu = sid(k->t_u_stack_id, env.kernel_only);
	int nu, nk;

	printf("    %-16s %s %u\n", "waker:", comm_str(comm, k->waker), k->w_tgid);
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
	printf("    %-16s %s %u\n", "target:", comm_str(comm, k->target), k->t_pid);
	printf("        %llu\n\n", (unsigned long long)us);
}

int offwaketime_main(int argc, char **argv)
{
	struct obj *o;
	struct map_dump d;
	struct stacks s;
	struct strbuf line = { 0 };
	struct fold_agg *agg = NULL;
	unsigned flags = STACKS_SKIP_TRACE;
	int r, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if ((env.npids > 0) + (env.ntids > 0) + env.user_threads + env.kernel_threads > 1)
		opt_usage_error(&help, "-p, -t, -u and -k are mutually exclusive");
	if (env.user_only && env.kernel_only)
		opt_usage_error(&help, "-U and -K are mutually exclusive");
	if (env.min_us > env.max_us)
		opt_usage_error(&help, "min block time (%llu) must not exceed max block time (%llu)",
				env.min_us, env.max_us);

	o = BPF_OBJ_OPEN(offwaketime);
	if (env.npids)
		OBJ_SET(o, filter_pid, (uint8_t)1);
	if (env.ntids)
		OBJ_SET(o, filter_tid, (uint8_t)1);
	if (env.user_threads)
		OBJ_SET(o, user_threads_only, (uint8_t)1);
	if (env.kernel_threads)
		OBJ_SET(o, kernel_threads_only, (uint8_t)1);
	if (env.user_only)
		OBJ_SET(o, user_stacks_only, (uint8_t)1);
	if (env.kernel_only)
		OBJ_SET(o, kernel_stacks_only, (uint8_t)1);
	if (env.state_set) {
		OBJ_SET(o, filter_state, (uint8_t)1);
		OBJ_SET(o, state, (uint64_t)env.state);
	}
	OBJ_SET(o, min_block_us, (uint64_t)env.min_us);
	OBJ_SET(o, max_block_us, (uint64_t)env.max_us);
	map_set_max_entries(obj_map(o, "stackmap"), (uint32_t)env.storage);
	map_set_value_size(obj_map(o, "stackmap"), (uint32_t)env.depth * 8);
	if (tool_load_attach(o, "offwaketime"))
		return 1;
	if (fill_filter(o, "tgids", env.pids, env.npids) < 0 ||
	    fill_filter(o, "pids", env.tids, env.ntids) < 0) {
		obj_close(o);
		return 1;
	}

	tool_signals();
	if (!env.folded) {
		printf("Tracing blocked time (us) by %s off-CPU and waker stack",
		       env.user_only ? "user" : env.kernel_only ? "kernel" : "user + kernel");
		if (env.duration > 0)
			printf(" for %ld secs.\n", env.duration);
		else
			printf("... Hit Ctrl-C to end.\n");
		fflush(stdout);
	}
	if (env.duration > 0)
		tool_sleep_ms(env.duration * 1000);
	else
		while (!tool_exiting)
			tool_sleep_ms(1000000);
	if (!env.folded)
		printf("\n");

	if (env.delimited)
		flags |= STACKS_DELIM;
	if (env.verbose)
		flags |= STACKS_OFFSET;
	if (env.user_only)
		flags |= STACKS_NO_KERNEL;
	if (env.kernel_only)
		flags |= STACKS_NO_USER;
	r = stacks_init(&s, map_fd(obj_map(o, "stackmap")), (unsigned)env.depth, flags);
	if (r < 0) {
		tool_err("offwaketime", "%s", err_msg());
		obj_close(o);
		return 1;
	}
	r = map_dump(map_fd(obj_map(o, "counts")), sizeof(struct offwake_key), sizeof(uint64_t), &d);
	if (r < 0) {
		tool_err("offwaketime", "cannot read the totals: %s", err_msg());
		stacks_fini(&s);
		obj_close(o);
		return 1;
	}
	map_dump_sort(&d, 0, 0);
	if (env.folded || env.svg) /* folded lines are summed: one per distinct stack */
		agg = fold_agg_new();
	for (size_t i = 0; i < d.n; i++) {
		const struct offwake_key *k = map_dump_key(&d, i);
		uint64_t us = *(const uint64_t *)map_dump_value(&d, i);
		char tcomm[OFFWAKE_COMM_LEN + 1], wcomm[OFFWAKE_COMM_LEN + 1];

		if (!us)
			continue;
		if (env.folded || agg) {
			struct offwake_rec rec = {
				.tcomm = comm_str(tcomm, k->target),
				.wcomm = comm_str(wcomm, k->waker),
				.tpid = (int)k->t_tgid,
				.wpid = (int)k->w_tgid,
				.tkid = sid(k->t_k_stack_id, env.user_only),
				.tuid = sid(k->t_u_stack_id, env.kernel_only),
				.wkid = sid(k->w_k_stack_id, env.user_only),
				.wuid = sid(k->w_u_stack_id, env.kernel_only),
				.value = us,
			};

			stacks_folded_offwake(&s, &rec, &line);
			fold_agg_add(agg, line.s, us);
		}
		if (!env.folded) {
			uint64_t missed = s.missed;

			print_multiline(&s, k, us);
			if (agg)
				s.missed = missed;
		}
	}
	if (env.folded) {
		fold_agg_sort(agg);
		for (size_t i = 0; i < fold_agg_len(agg); i++) {
			uint64_t c;
			const char *l = fold_agg_line(agg, i, &c);

			printf("%s %llu\n", l, (unsigned long long)c);
		}
	}
	fflush(stdout);
	stacks_report_missed(&s, stderr);
	if (agg && env.svg) {
		struct flamegraph_opts fo = { .title = "Off-Wake Time Flame Graph", .unit = "us",
					      .palette = FG_CHAIN };

		if (flamegraph_write(env.svg, agg, &fo) < 0) {
			tool_err("offwaketime", "%s", err_msg());
			ret = 1;
		}
	}
	fold_agg_free(agg);
	strbuf_free(&line);
	map_dump_free(&d);
	stacks_fini(&s);
	obj_close(o);
	return ret;
}
