/* applet softirqs: summarize soft IRQ event time
 * readme: softirq time and counts (`-C`), or histograms (`-d`), per vector
 *
 * libbpf-tools flags and output.  Kernel side: irqs.bpf.c (softirq_entry/exit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "irqs.h"
#include "softirq_names.h"

static const struct opt opts[] = {
	{ 'd', "distributed", NULL, "Show distributions as histograms" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'N', "nanoseconds", NULL, "Output in nanoseconds" },
	{ 'C', "count", NULL, "Show event counts with timing" },
	{ 'c', "cpu", "CPU", "Trace this cpu only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-N] [-d] [-C] [-c CPU] [interval] [count]",
	.examples =
		"    softirqs            # sum soft irq event time\n"
		"    softirqs -d         # show soft irq event time as histograms\n"
		"    softirqs -c 1       # show soft irq event time on cpu 1\n"
		"    softirqs 1 10       # print 1 second summaries, 10 times\n"
		"    softirqs -NT 1      # 1s summaries, nanoseconds, and timestamps\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool dist, ns, count;
	int cpu;
	struct interval iv;
	int npos;
} env = { .cpu = -1, .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': env.dist = true; break;
	case 'N': env.ns = true; break;
	case 'C': env.count = true; break;
	case 'T': env.iv.timestamp = true; break;
	case 'c': env.cpu = (int)opt_num(&help, "cpu", arg, 0, 65535); break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools 0.26: SOFTIRQ (16) TOTAL_usecs; -C adds the count */
enum { C_NAME, C_TOTAL, C_COUNT, C_END, C_TOTAL_NS };
#define COLS(unit)                                                                                    \
	{                                                                                             \
		[C_NAME] = { "softirq", "SOFTIRQ", "%-16s ", OUT_STR, OUT_LABEL },                    \
		[C_TOTAL] = { NULL, "TOTAL_" unit, "%11llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-11s" }, \
		[C_COUNT] = { "count", "TOTAL_count", "  %11llu", OUT_UINT, OUT_COUNTER,              \
			      .hfmt = "  %-11s", .help = "softirqs handled" },                        \
		[C_END] = { NULL, "", "\n", OUT_STR, OUT_TEXT_ONLY },                                 \
		[C_TOTAL_NS] = { "total_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,        \
				 .help = "time in softirq handlers",                                   \
				 .metric = &(const struct out_metric){ "time_seconds", 1e-9 } },       \
	}
static const struct out_col cols_us[] = COLS("usecs");
static const struct out_col cols_ns[] = COLS("nsecs");
static struct out_table table_us = OUT_TABLE("softirqs", cols_us);
static struct out_table table_ns = OUT_TABLE("softirqs", cols_ns);

static const struct out_hist hist_us = { "time", "softirq handler time", "usecs" };
static const struct out_hist hist_ns = { "time", "softirq handler time", "nsecs" };

static void print_row(const struct irqs_row *r)
{
	char num[16], head[64];
	const char *name = softirq_name(r->key.vec);

	snprintf(num, sizeof(num), "%u", r->key.vec);
	if (!name)
		name = num;
	if (env.dist) {
		struct out_label l = { "softirq", name };

		snprintf(head, sizeof(head), "softirq = %s\n", name);
		out_hist(env.ns ? &hist_ns : &hist_us, head, &l, 1, r->info.slots, IRQS_MAX_SLOTS, NULL);
		out_text("\n");
	} else {
		union out_val v[] = {
			[C_NAME].s = name,
			[C_TOTAL].u = r->info.total_ns / (env.ns ? 1 : 1000),
			[C_COUNT].u = r->info.count,
			[C_END].s = "",
			[C_TOTAL_NS].u = r->info.total_ns,
		};

		out_row(env.ns ? &table_ns : &table_us, v);
	}
}

int softirqs_main(int argc, char **argv)
{
	struct obj *o;
	int cgfd;

	opt_parse(argc, argv, &help, parse, NULL);
	/* the count column is always in JSON and Prometheus */
	for (int i = 0; i < 2; i++) {
		struct out_table *t = i ? &table_ns : &table_us;

		out_show(t, C_COUNT, env.count || out_json());
	}
	o = irqs_open("softirqs", true, env.ns, env.dist, env.cpu, NULL, &cgfd);
	if (!o)
		return 1;
	return irqs_run(o, cgfd, &env.iv,
			&(struct irqs_report){ "softirqs", true, false, false,
					       env.dist ? NULL : env.ns ? &table_ns : &table_us, print_row });
}
