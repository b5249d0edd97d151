/* applet profile: profile CPU usage by sampling stack traces
 * readme: CPU stacks sampled at a frequency (`-F HZ`), multi-line, folded (`-f`) or `--svg FILE`
 *
 * Stack traces sampled on every CPU at a fixed frequency (libbpf-tools
 * compatible flags and output, plus bcc's -c/-a and --svg).
 *
 * One software cpu-clock perf event per online CPU (the hardware PMU may
 * be absent, and the originals fall back to the same event), each running
 * the perf_event program that counts samples by {tgid, kernel stack,
 * user stack, comm}.  At the end the counts are printed sorted by count,
 * descending, as multi-line stacks or folded lines, and --svg FILE writes
 * a flame graph. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "bpf/sys.h"
#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/stack/stacktool.h"
#include "profile.h"

BPF_OBJ_DECLARE(profile);

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "profile processes with one or more comma-separated PIDs only" },
	{ 'L', "tid", "TID", "profile threads with one or more comma-separated TIDs only" },
	{ 'U', "user-stacks-only", NULL, "show stacks from user space only (no kernel space stacks)" },
	{ 'K', "kernel-stacks-only", NULL, "show stacks from kernel space only (no user space stacks)" },
	{ 'F', "frequency", "HZ", "sample frequency, Hertz (default 49)" },
	{ 'c', "count", "N", "sample period: one sample every N ns of CPU time (instead of -F)" },
	{ 'd', "delimited", NULL, "insert delimiter between kernel/user stacks" },
	{ 'a', "annotations", NULL, "add _[k] annotations to kernel frames (folded)" },
	{ 'f', "folded", NULL, "output folded format, one line per stack (for flame graphs)" },
	{ STACKTOOL_KEY_SVG, "svg", "FILE", "also write an interactive flame graph SVG to FILE" },
	{ 'I', "include-idle", NULL, "include CPU idle stacks" },
	{ 'C', "cpu", "CPU", "cpu number to run profile on" },
	{ STACKTOOL_KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ STACKTOOL_KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ 'v', "verbose", NULL, "print frame addresses and offsets" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID | -L TID] [-U | -K] [-F FREQUENCY | -c COUNT] [-d] [-a] [-f] [--svg FILE] "
		 "[-I] [-C CPU] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.examples =
		"    profile             # profile stack traces at 49 Hertz until Ctrl-C\n"
		"    profile -F 99       # profile stack traces at 99 Hertz\n"
		"    profile -c 1000000  # profile stack traces every 1 in a million events\n"
		"    profile 5           # profile at 49 Hertz for 5 seconds only\n"
		"    profile -f 5        # output in folded format for flame graphs\n"
		"    profile --svg p.svg 10  # write a flame graph of 10 seconds to p.svg\n"
		"    profile -p 185      # only profile process with PID 185\n"
		"    profile -L 185      # only profile thread with TID 185\n"
		"    profile -U          # only show user space stacks (no kernel)\n"
		"    profile -K          # only show kernel space stacks (no user)\n"
		"    profile -C 0        # only profile CPU 0\n",
	.opts = opts,
	.flags = OPT_USTACKS,
};

static struct stacktool_env env = { STACKTOOL_ENV_INIT(&help, PROFILE_MAX_FILTER) };
static struct {
	bool annotate, idle, freq_set, count_set;
	long freq;
	unsigned long long count;
	int cpu;
} pf = { .freq = 49, .cpu = -1 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'L': return stacktool_parse(&env, 't', arg);
	case 'F':
		pf.freq = (long)opt_num(&help, "frequency", arg, 1, 100000);
		pf.freq_set = true;
		break;
	case 'c':
		pf.count = (unsigned long long)opt_num(&help, "count", arg, 1, LLONG_MAX);
		pf.count_set = true;
		break;
	case 'a': pf.annotate = true; break;
	case 'I': pf.idle = true; break;
	case 'C': pf.cpu = (int)opt_num(&help, "cpu", arg, 0, 4095); break;
	default:
		return stacktool_parse(&env, key, arg);
	}
	return 0;
}

static void make_rec(const void *key, uint64_t value, char *comm, struct stack_rec *rec)
{
	const struct profile_key *k = key;

	rec->comm = stacktool_comm(comm, k->comm);
	rec->pid = (int)k->pid;
	rec->kid = env.user_only ? STACK_OMIT : k->kern_stack_id;
	rec->uid = env.kernel_only ? STACK_OMIT : k->user_stack_id;
	rec->value = value;
}

static void fold_rec(struct stacks *s, const void *key, const void *val, uint64_t value, struct strbuf *line)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, value, comm, &rec);
	stacks_folded(s, &rec, line);
}

static void print_rec(struct stacks *s, const void *key, const void *val, uint64_t value)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, value, comm, &rec);
	stacks_print(s, stdout, &rec);
}

static void json_rec(struct stacks *s, const void *key, const void *val, uint64_t value, struct strbuf *obj)
{
	char comm[STACKTOOL_COMM_LEN + 1];
	struct stack_rec rec;

	make_rec(key, value, comm, &rec);
	stacks_json(s, &rec, obj);
}

static int print_report(struct obj *o)
{
	char sub[96];
	struct stacktool_report r = {
		.map = "counts",
		.what = "counts",
		.key_size = sizeof(struct profile_key),
		.value_size = sizeof(uint64_t),
		.descending = true,
		.flags = pf.annotate ? STACKS_ANNOTATE : 0,
		.verbose_flags = STACKS_VERBOSE,
		.fg = { .title = "CPU Flame Graph", .subtitle = sub, .unit = "samples", .palette = FG_HOT },
		.fold = fold_rec,
		.print = print_rec,
		.json = json_rec,
	};

	if (pf.count_set)
		snprintf(sub, sizeof(sub), "profile -c %llu", pf.count);
	else
		snprintf(sub, sizeof(sub), "profile -F %ld", pf.freq);
	return stacktool_report(o, &env, &r);
}

int profile_main(int argc, char **argv)
{
	struct obj *o;
	struct prog *prog;
	int ncpus, *pfds, nfds = 0, ret = 0;
	bool *online;

	opt_parse(argc, argv, &help, parse, NULL);
	stacktool_check_stacks(&env);
	if (pf.freq_set && pf.count_set)
		opt_usage_error(&help, "-F and -c are mutually exclusive");
	if (env.npids && env.ntids)
		opt_usage_error(&help, "-p and -L are mutually exclusive");

	ncpus = cpus_possible();
	if (ncpus <= 0) {
		tool_err("profile", "cannot read the possible CPUs");
		return 1;
	}
	if (pf.cpu >= ncpus) {
		tool_err("profile", "invalid CPU %d: this machine has CPUs 0-%d", pf.cpu, ncpus - 1);
		return 1;
	}
	online = xcalloc((size_t)ncpus, sizeof(*online));
	if (cpus_online(online, ncpus) < 0)
		for (int i = 0; i < ncpus; i++)
			online[i] = true;
	if (pf.cpu >= 0 && !online[pf.cpu]) {
		tool_err("profile", "CPU %d is offline", pf.cpu);
		free(online);
		return 1;
	}

	o = BPF_OBJ_OPEN(profile);
	stacktool_set_knobs(o, &env);
	if (pf.idle)
		OBJ_SET(o, include_idle, (uint8_t)1);
	if (tool_load_attach(o, "profile")) {
		free(online);
		return 1;
	}
	if (stacktool_fill_filters(o, &env, "pids", "tids") < 0) {
		ret = 1;
		goto out;
	}

	prog = obj_prog(o, "do_perf_event");
	pfds = xcalloc((size_t)ncpus, sizeof(*pfds));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd;

		if (pf.cpu >= 0 && cpu != pf.cpu)
			continue;
		if (!online[cpu])
			continue;
		fd = perf_open_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, !pf.count_set,
					   pf.count_set ? pf.count : (uint64_t)pf.freq, -1, cpu);
		if (fd == -ENODEV) /* went offline meanwhile */
			continue;
		if (fd < 0) {
			tool_err("profile", "%s", err_msg());
			ret = 1;
			break;
		}
		pfds[nfds++] = fd;
		if (prog_attach_perf_fd(prog, fd) < 0) {
			tool_err("profile", "cannot attach to the cpu-clock event of CPU %d: %s", cpu,
				 err_msg());
			ret = 1;
			break;
		}
	}
	if (!ret && !nfds) {
		tool_err("profile", "no online CPU to sample");
		ret = 1;
	}
	if (ret)
		goto close_fds;

	tool_signals();
	if (!env.folded) {
		if (pf.count_set)
			out_info("Sampling every %llu events", pf.count);
		else
			out_info("Sampling at %ld Hertz", pf.freq);
		if (env.pid_str)
			out_info(" of PID %s", env.pid_str);
		else if (env.tid_str)
			out_info(" of TID %s", env.tid_str);
		else
			out_info(" of all threads");
		out_info(" by %s stack", stacktool_stack_kind(&env));
		if (pf.cpu >= 0)
			out_info(" on CPU#%d", pf.cpu);
	}
	stacktool_wait(&env);
	if (!env.folded)
		out_text("\n");
	ret = print_report(o);
close_fds:
	obj_close(o); /* detaches (links) before the events go */
	o = NULL;
	for (int i = 0; i < nfds; i++)
		close(pfds[i]);
	free(pfds);
	free(online);
	return ret;
out:
	obj_close(o);
	free(online);
	return ret;
}
