/* applet runqlat: summarize run queue (scheduler) latency as a histogram
 * readme: run queue (scheduler) latency as a log2 histogram, per process (`-P`), thread (`-L`)
 *         PID namespace (`--pidnss`) or cgroup (`--cgroups`)
 *
 * libbpf-tools flags and output.  Kernel side: schedhist.bpf.c. */
#include "schedtool.h"

#define KEY_PIDNSS OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ KEY_PIDNSS, "pidnss", NULL, "Print a histogram per PID namespace" },
	{ 'P', "pids", NULL, "Print a histogram per process ID" },
	{ 'L', "tids", NULL, "Print a histogram per thread ID" },
	SCHEDTOOL_OPT_CGROUPS,
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-m] [--pidnss] [-L] [-P] [--cgroups] [-p PID] [-c CG] [interval] [count]",
	.examples =
		"    runqlat         # summarize run queue latency as a histogram\n"
		"    runqlat 1 10    # print 1 second summaries, 10 times\n"
		"    runqlat -mT 1   # 1s summaries, milliseconds, and timestamps\n"
		"    runqlat -P      # show each PID separately\n"
		"    runqlat -p 185  # trace PID 185 only\n"
		"    runqlat -c CG   # Trace process under cgroupsPath CG\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static const struct out_hist hist_us = { "latency", "run queue latency", "usecs" };
static const struct out_hist hist_ms = { "latency", "run queue latency", "msecs" };

static struct schedtool st = {
	SCHEDTOOL_INIT(&help),
	.mode = SCHEDHIST_RUNQLAT,
	.hist_us = &hist_us,
	.hist_ms = &hist_ms,
	.banner = "Tracing run queue latency... Hit Ctrl-C to end.\n",
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	if (key == KEY_PIDNSS) {
		schedtool_set_key(&st, SCHEDHIST_PIDNS);
		return 0;
	}
	return schedtool_parse(&st, key, arg);
}

int runqlat_main(int argc, char **argv)
{
	opt_parse(argc, argv, &help, parse, NULL);
	return schedtool_run(&st);
}
