/* applet futexctn: summarize futex contention latency as a histogram
 * readme: futex waits that were woken (contention), a log2 histogram per thread, lock and user
 *         stack (`-s`: per process, no stacks); `-l` one lock
 *
 * libbpf-tools' flags and output: each histogram is headed "COMM[TID]
 * lock 0xADDR contended N times, AVG avg UNIT [max: .., min ..]" and the
 * waiting thread's user stack between "    -" lines; the stack map's size
 * and depth as the stack tools take them.  Kernel side: futexctn.bpf.c,
 * on syscalls:sys_{enter,exit}_futex. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/stack/stacks.h"
#include "futexctn.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(futexctn);

#define KEY_DEPTH OPT_LONG_ONLY(1)
#define KEY_STORAGE OPT_LONG_ONLY(2)

static struct {
	struct interval iv;
	int npos;
	int pid, tid;
	unsigned long long lock;
	bool ms, summary;
	long depth, storage;
} env = {
	.iv = { .seconds = INTERVAL_FOREVER, .times = INTERVAL_FOREVER },
	.depth = 127,
	.storage = 1024,
};

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 't', "tid", "TID", "Trace this TID only" },
	{ 'l', "lock", "LOCK", "Trace this lock only" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ KEY_DEPTH, "perf-max-stack-depth", "PERF-MAX-STACK-DEPTH", "the limit for the stack traces (default 127)" },
	{ KEY_STORAGE, "stack-storage-size", "STACK-STORAGE-SIZE",
	  "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 's', "summary", NULL, "Summary futex contention latency" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-m] [-s] [-p pid] [-t tid] [-l lock] [interval] [count]",
	.examples = "    futexctn              # summarize futex contention latency as a histogram\n"
		    "    futexctn 1 10         # print 1 second summaries, 10 times\n"
		    "    futexctn -mT 1        # 1s summaries, milliseconds, and timestamps\n"
		    "    futexctn -s 1         # 1s summaries, without stack traces\n"
		    "    futexctn -l 0x8187bb8 # only trace lock 0x8187bb8\n"
		    "    futexctn -p 123       # only trace threads for PID 123\n"
		    "    futexctn -t 125       # only trace thread 125\n",
	.opts = opts,
	.flags = OPT_PROM | OPT_USTACKS,
};

/* -l: hexadecimal with or without 0x, as libbpf-tools' strtol(arg, 16) */
static unsigned long long parse_lock(const char *arg)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 16);
	if (errno || end == arg || *end || !v)
		opt_usage_error(&help, "invalid lock: '%s'", arg);
	return v;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'l': env.lock = parse_lock(arg); break;
	case 'T': env.iv.timestamp = true; break;
	case 'm': env.ms = true; break;
	case 's': env.summary = true; break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 20); break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

static const struct out_hist hist_us = { "latency", "futex contention latency", "usecs" };
static const struct out_hist hist_ms = { "latency", "futex contention latency", "msecs" };

struct entry {
	struct futexctn_key key;
	struct futexctn_hist h;
};

struct report {
	struct obj *o;
	struct stacks stacks;
	struct futexctn_key *keys;
	struct futexctn_hist *vals;
	struct entry *entries;
	bool batch;
};

/* A stable order for the text: by thread (process), lock, stack. */
static int cmp_entry(const void *a, const void *b)
{
	const struct futexctn_key *x = &((const struct entry *)a)->key, *y = &((const struct entry *)b)->key;

	if (x->pid_tgid != y->pid_tgid)
		return x->pid_tgid < y->pid_tgid ? -1 : 1;
	if (x->uaddr != y->uaddr)
		return x->uaddr < y->uaddr ? -1 : 1;
	return (x->user_stack_id > y->user_stack_id) - (x->user_stack_id < y->user_stack_id);
}

static void print_one(struct report *r, const struct entry *e)
{
	const struct out_hist *oh = env.ms ? &hist_ms : &hist_us;
	const char *unit = oh->unit;
	/* the key holds the thread's pid_tgid, or (-s) the tgid alone */
	unsigned id = env.summary ? (unsigned)e->key.pid_tgid : (unsigned)(e->key.pid_tgid & 0xffffffffu);
	int tgid = env.summary ? (int)e->key.pid_tgid : (int)(e->key.pid_tgid >> 32);
	char comm[64], ids[16], lock[24];
	struct out_label labels[4];
	struct strbuf stack = { 0 };
	double sum = (double)e->h.total_elapsed;
	int nl = 0;

	str_escape(comm, sizeof(comm), e->h.comm, "");
	if (!out_json()) {
		out_text("\n\n%s[%u] lock 0x%llx contended %llu times, %llu avg %s [max: %llu %s, min %llu %s]\n",
			 comm, id, (unsigned long long)e->key.uaddr, (unsigned long long)e->h.contended,
			 (unsigned long long)(e->h.contended ? e->h.total_elapsed / e->h.contended : 0), unit,
			 (unsigned long long)e->h.max, unit, (unsigned long long)e->h.min, unit);
		if (!env.summary) {
			out_text("    -\n");
			stacks_print_frames(&r->stacks, stdout, "    ", e->key.user_stack_id, tgid, 0, 0);
			out_text("    -\n");
		}
	}
	snprintf(ids, sizeof(ids), "%u", id);
	snprintf(lock, sizeof(lock), "0x%llx", (unsigned long long)e->key.uaddr);
	labels[nl++] = (struct out_label){ env.summary ? "pid" : "tid", ids };
	labels[nl++] = (struct out_label){ "comm", comm };
	labels[nl++] = (struct out_label){ "lock", lock };
	/* the stack is part of the key: JSON and Prometheus label it too, so
	 * two stacks on one lock stay two series */
	if (!env.summary && (out_json() || out_prom_on())) {
		stacks_fold_frames(&r->stacks, &stack, e->key.user_stack_id, tgid, 1, 0);
		labels[nl++] = (struct out_label){ "stack", stack.s ? stack.s : "" };
	}
	out_hist(oh, NULL, labels, nl, e->h.slots, FUTEXCTN_MAX_SLOTS, &sum);
	strbuf_free(&stack);
}

static int report(void *ctx)
{
	struct report *r = ctx;
	long n, i;

	n = tool_map_drain(map_fd(obj_map(r->o, "hists")), sizeof(*r->keys), sizeof(*r->vals), r->keys, r->vals,
			   FUTEXCTN_MAX_ENTRIES, &r->batch);
	if (n < 0) {
		tool_err(tool_applet, "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (i = 0; i < n; i++) {
		r->entries[i].key = r->keys[i];
		r->entries[i].h = r->vals[i];
	}
	qsort(r->entries, (size_t)n, sizeof(*r->entries), cmp_entry);
	for (i = 0; i < n; i++)
		print_one(r, &r->entries[i]);
	return 0;
}

int futexctn_main(int argc, char **argv)
{
	struct report r = { .batch = true };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals(); /* a Ctrl-C while loading still ends with the report */
	o = BPF_OBJ_OPEN(futexctn);
	OBJ_SET(o, targ_pid, (uint32_t)env.pid);
	OBJ_SET(o, targ_tid, (uint32_t)env.tid);
	OBJ_SET(o, targ_lock, (uint64_t)env.lock);
	OBJ_SET(o, targ_ms, (uint8_t)env.ms);
	OBJ_SET(o, targ_summary, (uint8_t)env.summary);
	map_set_max_entries(obj_map(o, "stackmap"), (uint32_t)env.storage);
	map_set_value_size(obj_map(o, "stackmap"), (uint32_t)env.depth * 8);
	if (tool_load_attach(o, "futexctn"))
		return 1;
	if (stacks_init(&r.stacks, map_fd(obj_map(o, "stackmap")), (unsigned)env.depth, STACKS_NO_KERNEL | STACKS_NAMES) < 0) {
		tool_err(tool_applet, "%s", err_msg());
		obj_close(o);
		return 1;
	}
	r.o = o;
	r.keys = xcalloc(FUTEXCTN_MAX_ENTRIES, sizeof(*r.keys));
	r.vals = xcalloc(FUTEXCTN_MAX_ENTRIES, sizeof(*r.vals));
	r.entries = xcalloc(FUTEXCTN_MAX_ENTRIES, sizeof(*r.entries));
	ret = interval_loop(&env.iv, report, &r);
	stacks_report_missed(&r.stacks, stderr);
	stacks_fini(&r.stacks);
	free(r.keys);
	free(r.vals);
	free(r.entries);
	obj_close(o);
	return ret;
}
