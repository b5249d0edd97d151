/* profile: sample stack traces on every CPU at a fixed frequency
 * (libbpf-tools compatible flags and output, plus bcc's -c/-a and --svg).
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
#include "common.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/stack/flamegraph.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "profile.h"

BPF_OBJ_DECLARE(profile);

#define KEY_STORAGE OPT_LONG_ONLY(1)
#define KEY_DEPTH OPT_LONG_ONLY(2)
#define KEY_SVG OPT_LONG_ONLY(3)

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
	{ KEY_SVG, "svg", "FILE", "also write an interactive flame graph SVG to FILE" },
	{ 'I', "include-idle", NULL, "include CPU idle stacks" },
	{ 'C', "cpu", "CPU", "cpu number to run profile on" },
	{ KEY_STORAGE, "stack-storage-size", "N", "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ KEY_DEPTH, "perf-max-stack-depth", "N", "the limit for both kernel and user stack traces (default 127)" },
	{ 'v', "verbose", NULL, "print frame addresses and offsets" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "profile",
	.usage = "[-h] [-p PID | -L TID] [-U | -K] [-F FREQUENCY | -c COUNT] [-d] [-a] [-f] [--svg FILE] "
		 "[-I] [-C CPU] [--stack-storage-size N] [--perf-max-stack-depth N] [duration]",
	.summary = "Profile CPU usage by sampling stack traces at a timed interval.",
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
};

static struct env {
	uint32_t pids[PROFILE_MAX_FILTER], tids[PROFILE_MAX_FILTER];
	int npids, ntids;
	const char *pid_str, *tid_str;
	bool user_only, kernel_only, delimited, annotate, folded, idle, verbose;
	bool freq_set, count_set;
	long freq;
	unsigned long long count;
	int cpu;
	long storage, depth, duration;
	const char *svg;
	int npos;
} env = { .freq = 49, .cpu = -1, .storage = 1024, .depth = 127, .duration = -1 };

/* "1,2,3" -> ids; exit 2 on a bad list. */
static int parse_ids(const char *what, const char *arg, uint32_t *ids, int max)
{
	char *copy = xstrdup(arg), *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= max)
			opt_usage_error(&help, "too many %ss (at most %d): '%s'", what, max, arg);
		ids[n++] = (uint32_t)opt_num(&help, what, tok, 1, INT_MAX);
	}
	free(copy);
	if (!n)
		opt_usage_error(&help, "invalid %s: '%s'", what, arg);
	return n;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.npids = parse_ids("PID", arg, env.pids, PROFILE_MAX_FILTER); env.pid_str = arg; break;
	case 'L': env.ntids = parse_ids("TID", arg, env.tids, PROFILE_MAX_FILTER); env.tid_str = arg; break;
	case 'U': env.user_only = true; break;
	case 'K': env.kernel_only = true; break;
	case 'F':
		env.freq = (long)opt_num(&help, "frequency", arg, 1, 100000);
		env.freq_set = true;
		break;
	case 'c':
		env.count = (unsigned long long)opt_num(&help, "count", arg, 1, LLONG_MAX);
		env.count_set = true;
		break;
	case 'd': env.delimited = true; break;
	case 'a': env.annotate = true; break;
	case 'f': env.folded = true; break;
	case KEY_SVG: env.svg = arg; break;
	case 'I': env.idle = true; break;
	case 'C': env.cpu = (int)opt_num(&help, "cpu", arg, 0, 4095); break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 24); break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
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

static int fill_filter(struct obj *o, const char *map, const uint32_t *ids, int n)
{
	int fd = map_fd(obj_map(o, map));
	uint8_t one = 1;

	for (int i = 0; i < n; i++)
		if (bpf_map_update(fd, &ids[i], &one, 0) < 0) {
			tool_err("profile", "cannot fill the %s filter map: %s", map, strerror(errno));
			return -1;
		}
	return 0;
}

static int print_report(struct obj *o)
{
	struct map_dump d;
	struct stacks s;
	struct strbuf line = { 0 };
	struct fold_agg *agg = NULL;
	unsigned flags = 0;
	int r, ret = 0;

	if (env.delimited)
		flags |= STACKS_DELIM;
	if (env.verbose)
		flags |= STACKS_VERBOSE;
	if (env.annotate)
		flags |= STACKS_ANNOTATE;
	if (env.user_only)
		flags |= STACKS_NO_KERNEL;
	if (env.kernel_only)
		flags |= STACKS_NO_USER;
	r = stacks_init(&s, map_fd(obj_map(o, "stackmap")), (unsigned)env.depth, flags);
	if (r < 0) {
		tool_err("profile", "%s", err_msg());
		return 1;
	}
	r = map_dump(map_fd(obj_map(o, "counts")), sizeof(struct profile_key), sizeof(uint64_t), &d);
	if (r < 0) {
		tool_err("profile", "cannot read the counts: %s", err_msg());
		stacks_fini(&s);
		return 1;
	}
	map_dump_sort(&d, 0, 1);
	if (env.folded || env.svg) /* folded lines are summed: one per distinct stack */
		agg = fold_agg_new();
	for (size_t i = 0; i < d.n; i++) {
		const struct profile_key *k = map_dump_key(&d, i);
		uint64_t v = *(const uint64_t *)map_dump_value(&d, i);
		char comm[PROFILE_COMM_LEN + 1];
		struct stack_rec rec;

		memcpy(comm, k->comm, PROFILE_COMM_LEN);
		comm[PROFILE_COMM_LEN] = 0;
		rec.comm = comm;
		rec.pid = (int)k->pid;
		rec.kid = env.user_only ? STACK_OMIT : k->kern_stack_id;
		rec.uid = env.kernel_only ? STACK_OMIT : k->user_stack_id;
		rec.value = v;
		if (env.folded || agg) {
			stacks_folded(&s, &rec, &line);
			fold_agg_add(agg, line.s, v);
		}
		if (!env.folded) {
			uint64_t missed = s.missed;

			stacks_print(&s, stdout, &rec);
			if (agg) /* counted once already by stacks_folded */
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
		struct flamegraph_opts fo = { .title = "CPU Flame Graph", .unit = "samples",
					      .palette = FG_HOT };
		char sub[96];

		if (env.count_set)
			snprintf(sub, sizeof(sub), "profile -c %llu", env.count);
		else
			snprintf(sub, sizeof(sub), "profile -F %ld", env.freq);
		fo.subtitle = sub;
		if (flamegraph_write(env.svg, agg, &fo) < 0) {
			tool_err("profile", "%s", err_msg());
			ret = 1;
		}
	}
	fold_agg_free(agg);
	strbuf_free(&line);
	map_dump_free(&d);
	stacks_fini(&s);
	return ret;
}

int profile_main(int argc, char **argv)
{
	struct obj *o;
	struct prog *prog;
	int ncpus, *pfds, nfds = 0, ret = 0;
	bool *online;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.user_only && env.kernel_only)
		opt_usage_error(&help, "-U and -K are mutually exclusive");
	if (env.freq_set && env.count_set)
		opt_usage_error(&help, "-F and -c are mutually exclusive");
	if (env.npids && env.ntids)
		opt_usage_error(&help, "-p and -L are mutually exclusive");

	ncpus = cpus_possible();
	if (ncpus <= 0) {
		tool_err("profile", "cannot read the possible CPUs");
		return 1;
	}
	if (env.cpu >= ncpus) {
		tool_err("profile", "invalid CPU %d: this machine has CPUs 0-%d", env.cpu, ncpus - 1);
		return 1;
	}
	online = xcalloc((size_t)ncpus, sizeof(*online));
	if (cpus_online(online, ncpus) < 0)
		for (int i = 0; i < ncpus; i++)
			online[i] = true;
	if (env.cpu >= 0 && !online[env.cpu]) {
		tool_err("profile", "CPU %d is offline", env.cpu);
		free(online);
		return 1;
	}

	o = BPF_OBJ_OPEN(profile);
	if (env.npids)
		OBJ_SET(o, filter_pid, (uint8_t)1);
	if (env.ntids)
		OBJ_SET(o, filter_tid, (uint8_t)1);
	if (env.user_only)
		OBJ_SET(o, user_stacks_only, (uint8_t)1);
	if (env.kernel_only)
		OBJ_SET(o, kernel_stacks_only, (uint8_t)1);
	if (env.idle)
		OBJ_SET(o, include_idle, (uint8_t)1);
	map_set_max_entries(obj_map(o, "stackmap"), (uint32_t)env.storage);
	map_set_value_size(obj_map(o, "stackmap"), (uint32_t)env.depth * 8);
	if (tool_load_attach(o, "profile")) {
		free(online);
		return 1;
	}
	if (fill_filter(o, "pids", env.pids, env.npids) < 0 ||
	    fill_filter(o, "tids", env.tids, env.ntids) < 0) {
		ret = 1;
		goto out;
	}

	prog = obj_prog(o, "do_perf_event");
	pfds = xcalloc((size_t)ncpus, sizeof(*pfds));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd;

		if (env.cpu >= 0 && cpu != env.cpu)
			continue;
		if (!online[cpu])
			continue;
		fd = perf_open_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, !env.count_set,
					   env.count_set ? env.count : (uint64_t)env.freq, -1, cpu);
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
		if (env.count_set)
			printf("Sampling every %llu events", env.count);
		else
			printf("Sampling at %ld Hertz", env.freq);
		if (env.pid_str)
			printf(" of PID %s", env.pid_str);
		else if (env.tid_str)
			printf(" of TID %s", env.tid_str);
		else
			printf(" of all threads");
		printf(" by %s stack", env.user_only ? "user" : env.kernel_only ? "kernel" : "user + kernel");
		if (env.cpu >= 0)
			printf(" on CPU#%d", env.cpu);
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
	if (!env.folded)
		printf("\n");
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
