/* applet cpudist: summarize on- and off-CPU time per task as a histogram
 * readme: on-CPU (or `-O` off-CPU) time per scheduling as a log2 histogram
 *
 * libbpf-tools flags and output, plus bcc's -I and -e.  Every switch-out
 * counts, as in bcc; libbpf-tools counts only the on-CPU slices that end
 * in preemption.  Kernel side: schedhist.bpf.c. */
#include "schedtool.h"

static const struct opt opts[] = {
	{ 'O', "offcpu", NULL, "Measure off-CPU time" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 'P', "pids", NULL, "Print a histogram per process ID" },
	{ 'L', "tids", NULL, "Print a histogram per thread ID" },
	SCHEDTOOL_OPT_CGROUPS,
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 'I', "include-idle", NULL, "Include CPU idle time" },
	{ 'e', "extension", NULL, "Show extension summary (average/total/count)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-O] [-T] [-m] [-P] [-L] [--cgroups] [-p PID] [-I] [-e] [-c CG] [interval] [count]",
	.examples =
		"    cpudist              # summarize on-CPU time as a histogram\n"
		"    cpudist -O           # summarize off-CPU time as a histogram\n"
		"    cpudist -c CG        # Trace process under cgroupsPath CG\n"
		"    cpudist 1 10         # print 1 second summaries, 10 times\n"
		"    cpudist -mT 1        # 1s summaries, milliseconds, and timestamps\n"
		"    cpudist -P           # show each PID separately\n"
		"    cpudist -p 185       # trace PID 185 only\n"
		"    cpudist -I           # include CPU idle time\n"
		"    cpudist -e           # show extension summary (average/total/count)\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static const struct out_hist on_us = { "oncpu", "time on CPU per scheduling", "usecs" };
static const struct out_hist on_ms = { "oncpu", "time on CPU per scheduling", "msecs" };
static const struct out_hist off_us = { "offcpu", "time off CPU per scheduling", "usecs" };
static const struct out_hist off_ms = { "offcpu", "time off CPU per scheduling", "msecs" };

static struct schedtool st = {
	SCHEDTOOL_INIT(&help),
	.mode = SCHEDHIST_ONCPU,
	.hist_us = &on_us,
	.hist_ms = &on_ms,
	.banner = "Tracing on-CPU time... Hit Ctrl-C to end.\n",
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'O':
		st.mode = SCHEDHIST_OFFCPU;
		st.hist_us = &off_us;
		st.hist_ms = &off_ms;
		st.banner = "Tracing off-CPU time... Hit Ctrl-C to end.\n";
		return 0;
	case 'I': st.idle = true; return 0;
	case 'e': st.ext = true; return 0;
	}
	return schedtool_parse(&st, key, arg);
}

int cpudist_main(int argc, char **argv)
{
	opt_parse(argc, argv, &help, parse, NULL);
	return schedtool_run(&st);
}
