/* wakeuptime: summarize sleep-to-wakeup time by the waker's kernel stack
 * (libbpf-tools flags and output, plus bcc's -f and --svg).
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
#include "common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/stack/flamegraph.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "wakeuptime.h"

BPF_OBJ_DECLARE(wakeuptime);

#define KEY_STORAGE OPT_LONG_ONLY(1)
#define KEY_DEPTH OPT_LONG_ONLY(2)
#define KEY_SVG OPT_LONG_ONLY(3)

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'u', "user-threads-only", NULL, "user threads only (no kernel threads)" },
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ KEY_SVG, "svg", "FILE", "also write an interactive wakeup flame graph SVG to FILE" },
	{ KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 'm', "min-block-time", "US", "the amount of time in microseconds over which we store traces (default 1)" },
	{ 'M', "max-block-time", "US", "the amount of time in microseconds under which we store traces (default U64_MAX)" },
	{ 'v', "verbose", NULL, "show raw addresses" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "wakeuptime",
	.usage = "[-h] [-p PID | -u] [-f] [--svg FILE] [-m MIN] [-M MAX] [--stack-storage-size N] "
		 "[--perf-max-stack-depth N] [duration]",
	.summary = "Summarize sleep to wakeup time by waker kernel stack.",
	.examples =
		"    wakeuptime             # trace blocked time with waker stacks\n"
		"    wakeuptime 5           # trace for 5 seconds only\n"
		"    wakeuptime -u          # don't include kernel threads (user only)\n"
		"    wakeuptime -p 185      # trace for PID 185 only\n"
		"    wakeuptime -f 5        # 5 seconds, folded output for flame graphs\n",
	.opts = opts,
};

static struct env {
	uint32_t pid;
	bool user_threads, folded, verbose;
	unsigned long long min_us, max_us;
	long storage, depth, duration;
	const char *svg;
	int npos;
} env = { .min_us = 1, .max_us = ~0ULL, .storage = 1024, .depth = 127, .duration = -1 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = (uint32_t)opt_num(&help, "PID", arg, 1, INT_MAX); break;
	case 'u': env.user_threads = true; break;
	case 'f': env.folded = true; break;
	case KEY_SVG: env.svg = arg; break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 24); break;
	case 'm': env.min_us = (unsigned long long)opt_num(&help, "min block time", arg, 0, LLONG_MAX / 1000); break;
	case 'M': env.max_us = (unsigned long long)opt_num(&help, "max block time", arg, 0, LLONG_MAX / 1000); break;
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

/* NUL-terminated copy of a comm field. */
static const char *comm_str(char *buf, const char *comm)
{
	memcpy(buf, comm, WAKEUP_COMM_LEN);
	buf[WAKEUP_COMM_LEN] = 0;
	return buf;
}

/* libbpf-tools layout: target, waker stack leaf first with addresses,
 * waker, total microseconds. */
static void print_multiline(struct stacks *s, const struct wakeup_key *k, uint64_t us)
{
	char target[WAKEUP_COMM_LEN + 1], waker[WAKEUP_COMM_LEN + 1], sym[256];
	const uint64_t *ips;
	int n;

	printf("\n\t%-16s %s\n", "target:", comm_str(target, k->target));
	n = stacks_read(s, k->w_k_stack_id, 1, &ips);
	if (n < 0)
		printf("\t%-16s [Missed Kernel Stack]\n", "");
	for (int i = 0; i < n; i++)
		printf("\t%-16llx %s\n", (unsigned long long)ips[i], stacks_ksym(s, ips[i], sym, sizeof(sym)));
	printf("\t%16s %s\n", "waker:", comm_str(waker, k->waker));
	printf("\t%llu\n", (unsigned long long)us);
}

int wakeuptime_main(int argc, char **argv)
{
	struct obj *o;
	struct map_dump d;
	struct stacks s;
	struct strbuf line = { 0 };
	struct fold_agg *agg = NULL;
	unsigned flags = STACKS_SKIP_TRACE | STACKS_NO_USER;
	int r, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.pid && env.user_threads)
		opt_usage_error(&help, "-p and -u are mutually exclusive");
	if (env.min_us > env.max_us)
		opt_usage_error(&help, "min block time (%llu) must not exceed max block time (%llu)",
				env.min_us, env.max_us);

	o = BPF_OBJ_OPEN(wakeuptime);
	if (env.pid)
		OBJ_SET(o, filter_pid, (uint8_t)1);
	if (env.user_threads)
		OBJ_SET(o, user_threads_only, (uint8_t)1);
	OBJ_SET(o, min_block_ns, (uint64_t)env.min_us * 1000);
	OBJ_SET(o, max_block_ns, env.max_us == ~0ULL ? ~0ULL : (uint64_t)env.max_us * 1000);
	/* sched_waking (4.3+) is older than raw_tp (4.17): no fallback needed */
	map_set_max_entries(obj_map(o, "stackmap"), (uint32_t)env.storage);
	map_set_value_size(obj_map(o, "stackmap"), (uint32_t)env.depth * 8);
	if (tool_load_attach(o, "wakeuptime"))
		return 1;
	if (env.pid) {
		uint8_t one = 1;

		if (bpf_map_update(map_fd(obj_map(o, "tgids")), &env.pid, &one, 0) < 0) {
			tool_err("wakeuptime", "cannot fill the pid filter map: %s", strerror(errno));
			obj_close(o);
			return 1;
		}
	}

	tool_signals();
	if (!env.folded) {
		printf("Tracing blocked time (us) by kernel stack");
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

	/* libbpf-tools prints "ADDR name+0xoff" frames with or without -v */
	flags |= STACKS_OFFSET;
	r = stacks_init(&s, map_fd(obj_map(o, "stackmap")), (unsigned)env.depth, flags);
	if (r < 0) {
		tool_err("wakeuptime", "%s", err_msg());
		obj_close(o);
		return 1;
	}
	r = map_dump(map_fd(obj_map(o, "counts")), sizeof(struct wakeup_key), sizeof(uint64_t), &d);
	if (r < 0) {
		tool_err("wakeuptime", "cannot read the totals: %s", err_msg());
		stacks_fini(&s);
		obj_close(o);
		return 1;
	}
	map_dump_sort(&d, 0, 0);
	if (env.folded || env.svg) /* folded lines are summed: one per distinct stack */
		agg = fold_agg_new();
	for (size_t i = 0; i < d.n; i++) {
		const struct wakeup_key *k = map_dump_key(&d, i);
		uint64_t us = *(const uint64_t *)map_dump_value(&d, i) / 1000;
		char comm[WAKEUP_COMM_LEN + 1];

		if (!us)
			continue;
		if (env.folded || agg) {
			/* bcc: waker;kernel stack root->leaf;target */
			strbuf_reset(&line);
			strbuf_add(&line, comm_str(comm, k->waker));
			s.flags &= ~(unsigned)STACKS_OFFSET; /* folded: names only (bcc) */
			stacks_fold_frames(&s, &line, k->w_k_stack_id, -1, 0, 0);
			s.flags |= STACKS_OFFSET;
			strbuf_add(&line, ";");
			strbuf_add(&line, comm_str(comm, k->target));
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
		struct flamegraph_opts fo = { .title = "Wakeup Time Flame Graph", .unit = "us",
					      .palette = FG_CHAIN };

		if (flamegraph_write(env.svg, agg, &fo) < 0) {
			tool_err("wakeuptime", "%s", err_msg());
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
