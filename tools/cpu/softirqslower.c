/* applet softirqslower: trace slow soft IRQ (interrupt)
 * readme: soft IRQs raised longer than `min_us` (default 10000) before their handler ran, or
 *         whose handler ran that long; per CPU (`-c`)
 *
 * libbpf-tools' flags and output (upstream's port of bcc's tool, after
 * 0.26, which has none): STAGE "irq(hard) to softirq" is raise -> entry,
 * "softirq runtime" the handler's run; COMM the task it interrupted.
 * Kernel side: softirqslower.bpf.c, on the irq:softirq_* tracepoints. */
#include <limits.h>
#include <stdio.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "softirqslower.h"
#include "softirq_names.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(softirqslower);

static struct {
	long long min_us;
	int cpu;
} env = { .min_us = 10000, .cpu = -1 };

static const struct opt opts[] = {
	{ 'c', "cpu", "CPU", "Trace this CPU only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-c CPU] [min_us]",
	.examples = "    softirqslower        # trace softirq latency higher than 10000 us (default)\n"
		    "    softirqslower 100000 # trace softirq latency higher than 100000 us\n"
		    "    softirqslower -c 1   # trace softirq latency on CPU 1 only\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	static int positional;

	(void)ctx;
	switch (key) {
	case 'c': env.cpu = (int)opt_num(&help, "cpu", arg, 0, 65535); break;
	case 0: env.min_us = opt_one_num(&help, &positional, "min latency (in us)", arg, 1, LLONG_MAX); break;
	default: return 1;
	}
	return 0;
}

_Static_assert(SOFTIRQSLOWER_NR_VECS == SOFTIRQ_NR_VECS, "the BPF side's vectors are the named ones");

static const char *const stage_names[] = {
	[SOFTIRQSLOWER_RAISE_TO_ENTRY] = "irq(hard) to softirq",
	[SOFTIRQSLOWER_ENTRY_TO_EXIT] = "softirq runtime",
};

enum { C_TIME, C_STAGE, C_SOFTIRQ, C_LAT, C_CPU, C_COMM };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_STAGE] = { "stage", "STAGE", "%-20s ", OUT_STR },
	[C_SOFTIRQ] = { "softirq", "SOFTIRQ", "%-8s ", OUT_STR },
	[C_LAT] = { "lat_us", "LAT(us)", "%-14llu ", OUT_UINT },
	[C_CPU] = { "cpu", "CPU", "%-6llu ", OUT_UINT },
	[C_COMM] = { "comm", "COMM", "%-16s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct softirqslower_event e;
	char comm[EV_COMM_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_STAGE].s = e.stage < ARRAY_SIZE(stage_names) ? stage_names[e.stage] : "unknown";
	v[C_SOFTIRQ].s = softirq_name(e.vec) ? softirq_name(e.vec) : "unknown";
	v[C_LAT].u = e.delta_us;
	v[C_CPU].u = e.cpu;
	v[C_COMM].s = ev_comm(comm, e.task);
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	(void)o;
	out_info("Tracing softirq latency higher than %lld us... Hit Ctrl-C to end.\n", env.min_us);
	return 0;
}

int softirqslower_main(int argc, char **argv)
{
	struct tool_events te = { "softirqslower", NULL, after_load, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(softirqslower);
	OBJ_SET(o, min_us, (uint64_t)env.min_us);
	OBJ_SET(o, targ_cpu, (int32_t)env.cpu);
	return tool_run_events(o, &te);
}
