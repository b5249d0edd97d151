/* applet hardirqs: summarize hard IRQ event time
 * readme: hard IRQ handler time and counts (`-C` counts, `--CPU` per CPU, `-d` histograms)
 *
 * libbpf-tools output.
 *
 * Flags: libbpf-tools changed them over time; corebox takes them all
 * where they do not clash: -C/--count counts instead of times (bcc and
 * libbpf-tools up to 0.26), --CPU splits by CPU (later libbpf-tools' -C),
 * -c CG a cgroup path but -c N a CPU (bcc), -s/--cpu CPU.
 * Kernel side: irqs.bpf.c (irq_handler_entry/exit). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "irqs.h"

#define KEY_PER_CPU OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'C', "count", NULL, "Show event counts instead of timing" },
	{ KEY_PER_CPU, "CPU", NULL, "Display separately by CPU" },
	{ 'd', "distributed", NULL, "Show distributions as histograms" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (a number: only stat irq on this CPU, as bcc's -c)" },
	{ 's', "cpu", "CPU", "Only stat irq on selected cpu" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'N', "nanoseconds", NULL, "Output in nanoseconds" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-N] [-d] [-C] [--CPU] [-s CPU] [-c CG] [interval] [count]",
	.examples =
		"    hardirqs            # sum hard irq event time\n"
		"    hardirqs -d         # show hard irq event time as histograms\n"
		"    hardirqs 1 10       # print 1 second summaries, 10 times\n"
		"    hardirqs -c CG      # Trace process under cgroupsPath CG\n"
		"    hardirqs --cpu 1    # only stat irq on cpu 1\n"
		"    hardirqs -C         # show event counts instead of timing\n"
		"    hardirqs --CPU      # display separately by CPU\n"
		"    hardirqs -NT 1      # 1s summaries, nanoseconds, and timestamps\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool per_cpu, dist, ns, count;
	int cpu;
	const char *cgroup;
	struct interval iv;
	int npos;
} env = { .cpu = -1, .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false } };

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'C': env.count = true; break;
	case KEY_PER_CPU: env.per_cpu = true; break;
	case 'd': env.dist = true; break;
	case 'N': env.ns = true; break;
	case 'T': env.iv.timestamp = true; break;
	case 's': env.cpu = (int)opt_num(&help, "cpu", arg, 0, 65535); break;
	case 'c':
		if (all_digits(arg))
			env.cpu = (int)opt_num(&help, "cpu", arg, 0, 65535);
		else
			env.cgroup = arg;
		break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools 0.26: HARDIRQ (26) and one column, TOTAL_count with -C,
 * else TOTAL_usecs; JSON always has the count, total and max. */
enum { C_NAME, C_COUNT, C_JCOUNT, C_TOTAL, C_CPU, C_END, C_TOTAL_NS, C_MAX_NS };
#define COLS(unit)                                                                                         \
	{                                                                                                  \
		[C_NAME] = { "hardirq", "HARDIRQ", "%-26s", OUT_STR, OUT_LABEL },                         \
		[C_COUNT] = { "count", "TOTAL_count", " %11llu", OUT_UINT, OUT_COUNTER,                    \
			      .help = "hard interrupts handled" },                                         \
		[C_JCOUNT] = { "count", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,                 \
			       .help = "hard interrupts handled" },                                        \
		[C_TOTAL] = { NULL, "TOTAL_" unit, " %11llu", OUT_UINT, OUT_TEXT_ONLY },                   \
		[C_CPU] = { "cpu", "CPU", " %3u", OUT_INT, OUT_LABEL },                                      \
		[C_END] = { NULL, "", "\n", OUT_STR, OUT_TEXT_ONLY },                                      \
		[C_TOTAL_NS] = { "total_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,             \
				 .help = "time in hard interrupt handlers",                                 \
				 .metric = &(const struct out_metric){ "time_seconds", 1e-9 } },            \
		[C_MAX_NS] = { "max_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },                            \
	}
static const struct out_col cols_us[] = COLS("usecs");
static const struct out_col cols_ns[] = COLS("nsecs");
static struct out_table table_us = OUT_TABLE("hardirqs", cols_us);
static struct out_table table_ns = OUT_TABLE("hardirqs", cols_ns);

static const struct out_hist hist_us = { "time", "hard IRQ handler time", "usecs" };
static const struct out_hist hist_ns = { "time", "hard IRQ handler time", "nsecs" };

static void print_row(const struct irqs_row *r)
{
	unsigned long long div = env.ns ? 1 : 1000;
	char name[IRQS_NAME_LEN * 4], head[IRQS_NAME_LEN * 4 + 48], cpu[16];

	str_escape(name, sizeof(name), r->key.name, "");
	if (env.dist) {
		struct out_label l[2] = { { "hardirq", name }, { "cpu", cpu } };

		snprintf(cpu, sizeof(cpu), "%d", r->cpu);
		if (env.per_cpu)
			snprintf(head, sizeof(head), "cpu = %d hardirq = %s\n", r->cpu, name);
		else
			snprintf(head, sizeof(head), "hardirq = %s\n", name);
		out_hist(env.ns ? &hist_ns : &hist_us, head, l, env.per_cpu ? 2 : 1, r->info.slots,
			 IRQS_MAX_SLOTS, NULL);
	} else {
		union out_val v[] = {
			[C_NAME].s = name,
			[C_COUNT].u = r->info.count,
			[C_JCOUNT].u = r->info.count,
			[C_TOTAL].u = r->info.total_ns / div,
			[C_CPU].i = r->cpu,
			[C_END].s = "",
			[C_TOTAL_NS].u = r->info.total_ns,
			[C_MAX_NS].u = r->info.max_ns,
		};

		out_row(env.ns ? &table_ns : &table_us, v);
	}
}

int hardirqs_main(int argc, char **argv)
{
	struct obj *o;
	int cgfd;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.count && env.dist) /* as libbpf-tools: no histogram of counts */
		opt_usage_error(&help, "-C (counts) and -d (time histograms) cannot be used together");
	for (int i = 0; i < 2; i++) {
		struct out_table *t = i ? &table_ns : &table_us;

		out_show(t, C_CPU, env.per_cpu);
		out_show(t, C_COUNT, env.count);
		out_show(t, C_JCOUNT, !env.count);
		out_show(t, C_TOTAL, !env.count);
		out_show(t, C_TOTAL_NS, !env.count);
		out_show(t, C_MAX_NS, !env.count);
	}
	o = irqs_open("hardirqs", false, env.ns, env.dist, env.cpu, env.cgroup, &cgfd);
	if (!o)
		return 1;
	return irqs_run(o, cgfd, &env.iv,
			&(struct irqs_report){ "hardirqs", false, env.per_cpu, env.count,
					       env.dist ? NULL : env.ns ? &table_ns : &table_us, print_row });
}
