/* applet exitsnoop: trace process termination with age and exit code or signal
 * readme: process exits with age and exit code or signal (`-T` threads, `-x` failures only)
 *
 * libbpf-tools compatible flags and output; bcc's --per-thread is accepted
 * for -T. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "exitsnoop.h"
#include "lib/err.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(exitsnoop);

#define KEY_PER_THREAD OPT_LONG_ONLY(1)

static struct {
	int timestamp; /* -t */
	int failed;    /* -x */
	int threaded;  /* -T */
	int pid;
	const char *cgroup;
} env;

static const struct opt opts[] = {
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'x', "failed", NULL, "Trace error exits only." },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'T', "threaded", NULL, "Trace by thread." },
	{ KEY_PER_THREAD, "per-thread", NULL, "Same as -T (bcc's name)" },
	{ 'c', "cgroup", "PATH", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-x] [-p PID] [-T] [-c CG]",
	.examples = "    exitsnoop             # trace process exit events\n"
		    "    exitsnoop -t          # include timestamps\n"
		    "    exitsnoop -x          # trace error exits only\n"
		    "    exitsnoop -p 1216     # only trace PID 1216\n"
		    "    exitsnoop -T          # trace by thread\n"
		    "    exitsnoop -c CG       # Trace process under cgroupsPath CG\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 't': env.timestamp = 1; break;
	case 'x': env.failed = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'T':
	case KEY_PER_THREAD: env.threaded = 1; break;
	case 'c': env.cgroup = arg; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

/* libbpf-tools' columns: the -t header says TIME(s) but rows carry the
 * wall clock (its quirk, kept); the last column reads "0", "code N" or
 * "signal N (NAME)[, core dumped]".  JSON gets the parts as numbers. */
enum { C_TIME, C_COMM, C_PID, C_PPID, C_TID, C_AGE, C_EXIT, C_CODE, C_SIG, C_SIGNAME, C_CORE };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[C_COMM] = { "comm", "PCOMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_PPID] = { "ppid", "PPID", "%-7d ", OUT_INT },
	[C_TID] = { "tid", "TID", "%-7d ", OUT_INT },
	[C_AGE] = { "age_s", "AGE(s)", "%-7.2f ", OUT_FLOAT, .hfmt = "%-7s " },
	[C_EXIT] = { NULL, "EXIT_CODE", "%s\n", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-s\n" },
	[C_CODE] = { "exit_code", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_SIG] = { "signal", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_SIGNAME] = { "signal_name", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_CORE] = { "core_dumped", NULL, NULL, OUT_BOOL, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct exitsnoop_event e;
	char comm[EV_COMM_LEN + 1], hms[16], exit[96];
	union out_val v[ARRAY_SIZE(cols)];
	int sig, core;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	sig = e.sig & 0x7f;
	core = (e.sig & 0x80) != 0;
	if (!e.sig) {
		if (!e.exit_code)
			snprintf(exit, sizeof(exit), "0");
		else
			snprintf(exit, sizeof(exit), "code %d", e.exit_code);
	} else {
		exit[0] = 0;
		if (sig)
			snprintf(exit, sizeof(exit), "signal %d (%s)", sig, strsignal(sig));
		if (core)
			snprintf(exit + strlen(exit), sizeof(exit) - strlen(exit), ", core dumped");
	}
	v[C_TIME].s = env.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_PID].i = e.pid;
	v[C_PPID].i = e.ppid;
	v[C_TID].i = e.tid;
	v[C_AGE].f = e.exit_ns > e.start_ns ? (double)(e.exit_ns - e.start_ns) / 1e9 : 0;
	v[C_EXIT].s = exit;
	v[C_CODE].i = e.exit_code;
	v[C_SIG].i = sig;
	v[C_SIGNAME].s = sig ? strsignal(sig) : NULL;
	v[C_CORE].i = core;
	out_row(&table, v);
	return 0;
}

int exitsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = "exitsnoop", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(exitsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, failed_only, (uint8_t)env.failed);
	OBJ_SET(o, by_process, (uint8_t)!env.threaded);
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	te.cgroup = env.cgroup;
	out_show(&table, C_TIME, env.timestamp);
	return tool_run_events(o, &te);
}
