/* applet biostacks: block I/O latency histograms per process, disk and kernel stack at the request's start
 * readme: block I/O latency as a log2 histogram per (thread, disk, kernel stack when the request was
 *         accounted)
 *
 * libbpf-tools compatible flags and output: at Ctrl-C or after DURATION
 * seconds, for each key "COMM PID DISK", the stack's frames, innermost
 * first, then the histogram. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/perf.h"
#include "tools/common/common.h"
#include "tools/stack/ksyms.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "blk.h"
#include "biostacks.h"

BPF_OBJ_DECLARE(biostacks);

static const struct opt opts[] = {
	{ 'd', "disk", "DISK", "Trace this disk only (name or MAJ:MIN)" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-d DISK] [-m] [duration]",
	.examples =
		"    biostacks              # trace block I/O with init stacks.\n"
		"    biostacks 1            # trace for 1 seconds only\n"
		"    biostacks -d sdc       # trace sdc only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *disk;
	bool ms;
	long duration;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': blk_disk_opt(&help, &env.disk, arg); break;
	case 'm': env.ms = true; break;
	case 0:
		if (env.duration)
			opt_usage_error(&help, "unrecognized positional argument: %s", arg);
		env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX / 1000);
		break;
	default:
		return 1;
	}
	return 0;
}

struct entry {
	struct biostacks_key key;
	struct biostacks_hist hist;
};

/* The map's order is the hash's: sort for a stable report. */
static int cmp_entry(const void *a, const void *b)
{
	const struct biostacks_key *x = &((const struct entry *)a)->key, *y = &((const struct entry *)b)->key;
	int c = strncmp(x->comm, y->comm, sizeof(x->comm));

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return memcmp(x->stack, y->stack, sizeof(x->stack));
}

static int nframes(const struct biostacks_key *k)
{
	int n = k->stack_bytes > 0 ? k->stack_bytes / (int)sizeof(k->stack[0]) : 0;

	return n < BIOSTACKS_MAX_STACK ? n : BIOSTACKS_MAX_STACK;
}

static const struct out_hist hist_us = { "latency", "block I/O latency by process, disk and kernel stack", "usecs" };
static const struct out_hist hist_ms = { "latency", "block I/O latency by process, disk and kernel stack", "msecs" };

static void print_entries(struct ksyms *ks, const struct entry *e, size_t n)
{
	struct strbuf head = { 0 }, stack = { 0 };
	size_t i;
	int j;

	for (i = 0; i < n; i++)
		for (j = 0; j < nframes(&e[i].key); j++)
			ksyms_want(ks, e[i].key.stack[j]);
	if (ks && ksyms_resolve(ks) < 0)
		tool_err("biostacks", "cannot name the kernel frames: %s", err_msg());
	for (i = 0; i < n; i++) {
		const struct biostacks_key *k = &e[i].key;
		const char *disk = blk_disk_name(k->dev);
		char comm[BIOSTACKS_COMM_LEN + 1], safe[4 * BIOSTACKS_COMM_LEN + 1], pid[16];
		struct out_label labels[4];

		memcpy(comm, k->comm, sizeof(k->comm));
		comm[sizeof(k->comm)] = 0;
		str_escape(safe, sizeof(safe), comm, "");
		snprintf(pid, sizeof(pid), "%u", k->pid);
		if (!disk)
			disk = "Unknown";
		strbuf_reset(&head);
		strbuf_reset(&stack);
		strbuf_addf(&head, "%-14.14s %-6d %-7s\n", safe, (int)k->pid, disk);
		for (j = 0; j < nframes(k); j++) {
			struct ksym sym;
			const char *name = ks && ksyms_lookup(ks, k->stack[j], &sym) == 0 ? sym.name : "Unknown";

			char frame[160];

			strbuf_addf(&head, "%s\n", name);
			/* with offsets: keys whose frames share names stay
			 * apart (one series each in Prometheus) */
			strbuf_addf(&stack, "%s%s", j ? ";" : "",
				    ksyms_format(ks, k->stack[j], 1, frame, sizeof(frame)));
		}
		labels[0] = (struct out_label){ "comm", safe };
		labels[1] = (struct out_label){ "pid", pid };
		labels[2] = (struct out_label){ "disk", disk };
		labels[3] = (struct out_label){ "stack", stack.s ? stack.s : "" };
		out_hist(env.ms ? &hist_ms : &hist_us, head.s, labels, 4, e[i].hist.slots, BIOSTACKS_MAX_SLOTS,
			 NULL);
		out_text("\n");
	}
	strbuf_free(&head);
	strbuf_free(&stack);
}

static int report(struct obj *o)
{
	struct biostacks_key *keys = xcalloc(BIOSTACKS_MAX_ENTRIES, sizeof(*keys));
	struct biostacks_hist *vals = xcalloc(BIOSTACKS_MAX_ENTRIES, sizeof(*vals));
	struct entry *e = xcalloc(BIOSTACKS_MAX_ENTRIES, sizeof(*e));
	struct ksyms *ks = NULL;
	bool batch = true;
	long n, i;
	int ret = 0;

	n = tool_map_drain(map_fd(obj_map(o, "hists")), sizeof(*keys), sizeof(*vals), keys, vals,
			   BIOSTACKS_MAX_ENTRIES, &batch);
	if (n < 0) {
		tool_err("biostacks", "cannot read the histograms: %s", strerror((int)-n));
		ret = 1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		e[i].key = keys[i];
		e[i].hist = vals[i];
	}
	qsort(e, (size_t)n, sizeof(*e), cmp_entry);
	if (ksyms_load(&ks) < 0)
		tool_err("biostacks", "cannot read kernel symbols, frames print as Unknown: %s", err_msg());
	out_doc_begin();
	print_entries(ks, e, (size_t)n);
	if (out_doc_end() < 0)
		ret = 1;
out:
	ksyms_free(ks);
	free(keys);
	free(vals);
	free(e);
	return ret;
}

int biostacks_main(int argc, char **argv)
{
	struct obj_opts oo = { 0 };
	const char *attribution;
	struct obj *o;
	bool issue_time;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BLK_OPEN(biostacks, env.disk);
	if (!o)
		return 1;
	if (env.ms)
		OBJ_SET(o, ms, (uint8_t)1);
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (blk_rq_is_second_arg(obj_kernel_btf(o, &oo)))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	attribution = blk_choose_attribution(o);
	/* insert/issue start the request only without a way in at accounting */
	issue_time = strncmp(attribution, "the task current", 16) == 0;
	prog_set_autoload(obj_prog(o, "block_rq_insert"), issue_time);
	prog_set_autoload(obj_prog(o, "block_rq_issue"), issue_time);
	/* block_io_done pairs with block_io_start (6.5+); before it the
	 * accounting's end has no tracepoint, block_rq_complete is nearest */
	if (perf_tp_exists("block", "block_io_done"))
		prog_set_autoload(obj_prog(o, "block_rq_complete"), false);
	else
		prog_set_autoload(obj_prog(o, "block_io_done"), false);
	if (tool_load_attach(o, "biostacks")) {
		blk_parts_free();
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "biostacks: start from %s, end at %s\n", attribution,
			perf_tp_exists("block", "block_io_done") ? "block_io_done" : "block_rq_complete");
	tool_signals();
	out_info("Tracing block I/O with init stacks. Hit Ctrl-C to end.\n");
	tool_flush();
	if (env.duration)
		tool_sleep_ms(env.duration * 1000);
	else
		while (!tool_exiting && !tool_stdout_gone())
			tool_sleep_ms(1000);
	ret = tool_stdout_gone() ? 0 : report(o);
	obj_close(o);
	blk_parts_free();
	return ret;
}
