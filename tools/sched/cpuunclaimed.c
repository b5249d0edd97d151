/* applet cpuunclaimed: sample run queues and calculate unclaimed idle CPU
 * readme: idle CPUs while tasks wait on other CPUs' run queues, as a % (`-j` CSV of the samples)
 *
 * bcc flags and output.
 *
 * Each report: %CPU = CPUs running / all CPUs, and unclaimed idle =
 * CPUs that were idle while tasks waited on other CPUs' queues, as a
 * share of all CPUs, over the interval's snapshots (cpuunclaimed.bpf.c
 * takes one per 99 Hz tick).  As in bcc, only the ticks some CPU sampled
 * count: where idle CPUs do not sample (tickless idle, VMs) a wholly idle
 * moment is not seen, and a tick lost to a stalled virtual CPU does not
 * look idle either.
 *
 * -j/-J print every snapshot as CSV (the lengths of all run queues; -J's
 * offsets are all 0: corebox reads every queue at one instant, where bcc
 * collects each CPU's own sample at its own offset). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/sys.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/common/ksym_scan.h"
#include "tools/common/perf_cpus.h"
#include "cpuunclaimed.h"

BPF_OBJ_DECLARE(cpuunclaimed);

#define FREQ 99

static const struct opt opts[] = {
	{ 'j', "csv", NULL, "print sample summaries (verbose) as comma-separated values" },
	{ 'J', "fullcsv", NULL, "print sample summaries with extra fields: CPU sample offsets" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-j] [-J] [-T] [interval] [count]",
	.examples =
		"    cpuunclaimed            # sample and calculate unclaimed idle CPUs,\n"
		"                            # output every 1 second (default)\n"
		"    cpuunclaimed 5 10       # print 5 second summaries, 10 times\n"
		"    cpuunclaimed -T 1       # 1s summaries and timestamps\n"
		"    cpuunclaimed -j         # raw dump of all samples (verbose), CSV\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool csv, fullcsv;
	struct interval iv; /* bcc's default: every second */
	int npos;
} env = { .iv = { 1, INTERVAL_FOREVER, false } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'j': env.csv = true; break;
	case 'J': env.csv = env.fullcsv = true; break;
	case 'T': env.iv.timestamp = true; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_UTIL, C_UNCL, C_SNAPS };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, NULL, "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_UTIL] = { "cpu_percent", NULL, "%%CPU %6.2f%%, ", OUT_FLOAT, OUT_GAUGE,
		     .help = "CPU utilization, percent of all CPUs" },
	[C_UNCL] = { "unclaimed_percent", NULL, "unclaimed idle %0.2f%%\n", OUT_FLOAT, OUT_GAUGE,
		     .help = "idle CPU while tasks waited on other CPUs, percent of all CPUs" },
	[C_SNAPS] = { "samples", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int ncpus, nonline;

/* The program that can reach every run queue here, or NULL after a message. */
static const char *rq_program(struct obj *o)
{
	struct obj_opts oo = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
	const struct btf *kbtf = obj_kernel_btf(o, &oo);
	const char *need[][2] = { { "sched_entity", "cfs_rq" }, { "cfs_rq", "tg" }, { "task_group", "cfs_rq" } };
	size_t found = 0;

	if (!kbtf)
		return "sample_tg"; /* the load says what is wrong */
	/* look the names up without indexing every kernel type (1 MB) */
	btf_find_prepare(kbtf, (const char *const[]){ "sched_entity", "cfs_rq", "task_group", "runqueues" }, 4);
	for (size_t k = 0; k < ARRAY_SIZE(need); k++) {
		int32_t id = btf_find(kbtf, need[k][0], BTF_KIND_STRUCT);
		const struct btf_type *t = id > 0 ? btf_type_by_id(kbtf, (uint32_t)id) : NULL;

		for (uint32_t i = 0; t && i < btf_vlen(t); i++)
			if (!strcmp(btf_str(kbtf, btf_members(t)[i].name_off) ?: "", need[k][1])) {
				found++;
				break;
			}
	}
	if (found == ARRAY_SIZE(need)) {
		if (tool_common.verbose)
			fprintf(stderr, "cpuunclaimed: run queues: current->se.cfs_rq->tg->cfs_rq[cpu]->rq\n");
		return "sample_tg";
	}
	if (btf_find(kbtf, "runqueues", BTF_KIND_VAR) > 0 && ksym_scan_addr("runqueues")) {
		if (tool_common.verbose)
			fprintf(stderr, "cpuunclaimed: run queues: per-CPU runqueues\n");
		return "sample_pcpu";
	}
	tool_err("cpuunclaimed", "cannot reach the CPUs' run queues: no group scheduling "
		 "(CONFIG_FAIR_GROUP_SCHED) and no address for the per-CPU runqueues (CONFIG_KALLSYMS_ALL)");
	return NULL;
}

/* ---- summaries ---- */

struct state {
	int fd;
	struct cpuunclaimed_stats *cur, prev;
};

static int read_stats(struct state *s, struct cpuunclaimed_stats *sum)
{
	__u32 zero = 0;

	if (bpf_map_lookup(s->fd, &zero, s->cur) < 0) {
		tool_err("cpuunclaimed", "cannot read the samples: %s", err_msg());
		return -1;
	}
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; i < ncpus; i++) {
		sum->snapshots += s->cur[i].snapshots;
		sum->running += s->cur[i].running;
		sum->unclaimed += s->cur[i].unclaimed;
	}
	return 0;
}

static int report(struct state *s)
{
	struct cpuunclaimed_stats now;
	uint64_t snaps;
	double total, util = 0, uncl = 0;
	char ts[16];
	union out_val v[4];

	if (read_stats(s, &now) < 0)
		return -1;
	snaps = now.snapshots - s->prev.snapshots;
	total = (double)snaps * nonline;
	if (total > 0) {
		util = (double)(now.running - s->prev.running) / total;
		uncl = (double)(now.unclaimed - s->prev.unclaimed) / total;
	}
	s->prev = now;
	out_doc_begin();
	out_show(&table, C_TIME, env.iv.timestamp);
	v[C_TIME].s = tool_hms(ts, sizeof(ts));
	v[C_UTIL].f = 100 * util;
	v[C_UNCL].f = 100 * uncl;
	v[C_SNAPS].u = snaps;
	out_row(&table, v);
	return out_doc_end();
}

/* ---- -j / -J ---- */

static int print_csv(void *ctx, const void *data, size_t size)
{
	const struct cpuunclaimed_event *e = data;
	char ts[16];

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	if (env.iv.timestamp)
		printf("%-8s,", tool_hms(ts, sizeof(ts)));
	printf("%llu", (unsigned long long)e->ts);
	for (int c = 0; c < ncpus; c++)
		printf(",%u", c < (int)e->ncpus && c < CPUUNCLAIMED_CSV_CPUS ? e->lens[c] : 0);
	for (int c = 0; env.fullcsv && c < ncpus; c++)
		printf(",0");
	printf("\n");
	return 0;
}

static int run_csv(struct obj *o)
{
	struct events *ev = events_open(obj_map(o, "events"), print_csv, NULL);
	int ret;

	if (!ev) {
		tool_err("cpuunclaimed", "%s", err_msg());
		return 1;
	}
	if (env.iv.timestamp)
		printf("TIME,");
	printf("TIMESTAMP_ns");
	for (int c = 0; c < ncpus; c++)
		printf(",CPU%d", c);
	for (int c = 0; env.fullcsv && c < ncpus; c++)
		printf(",OFFSET_ns_CPU%d", c);
	printf("\n");
	/* bcc's count is of 0.2 s reads in CSV mode */
	ret = tool_event_loop("cpuunclaimed", ev,
			      env.iv.times < INTERVAL_FOREVER ? (uint64_t)env.iv.times * 200000000ull : 0);
	events_close(ev);
	return ret;
}

int cpuunclaimed_main(int argc, char **argv)
{
	struct perf_cpus pc = { 0 };
	struct state s = { 0 };
	const char *prog;
	struct obj *o;
	bool *online;
	int ret = 0, first = -1;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.csv && env.npos) {
		tool_err("cpuunclaimed", "cannot use interval with either -j or -J");
		return 2;
	}
	ncpus = cpus_possible();
	if (ncpus <= 0) {
		tool_err("cpuunclaimed", "cannot read the possible CPUs");
		return 1;
	}
	if (ncpus > CPUUNCLAIMED_MAX_CPUS || (env.csv && ncpus > CPUUNCLAIMED_CSV_CPUS)) {
		tool_err("cpuunclaimed", "%d CPUs: at most %d can be sampled%s", ncpus,
			 env.csv ? CPUUNCLAIMED_CSV_CPUS : CPUUNCLAIMED_MAX_CPUS, env.csv ? " with -j/-J" : "");
		return 1;
	}
	online = xcalloc((size_t)ncpus, sizeof(*online));
	if (cpus_online(online, ncpus) < 0)
		for (int i = 0; i < ncpus; i++)
			online[i] = true;
	for (int i = 0; i < ncpus; i++)
		if (online[i]) {
			nonline++;
			if (first < 0)
				first = i;
		}
	free(online);

	o = BPF_OBJ_OPEN(cpuunclaimed);
	if (!(prog = rq_program(o))) {
		obj_close(o);
		return 1;
	}
	prog_set_autoload(obj_prog(o, strcmp(prog, "sample_tg") ? "sample_tg" : "sample_pcpu"), false);
	OBJ_SET(o, nr_cpus, (uint32_t)ncpus);
	OBJ_SET(o, nr_online, (uint32_t)nonline);
	OBJ_SET(o, first_cpu, (uint32_t)(first < 0 ? 0 : first));
	OBJ_SET(o, csv, (uint8_t)env.csv);
	if (!env.csv)
		map_set_max_entries(obj_map(o, "events"), 4096); /* unused: the smallest ring */
	if (obj_setup_events(o, "events") < 0) {
		tool_err("cpuunclaimed", "%s", err_msg());
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "cpuunclaimed"))
		return 1;
	if (perf_cpus_attach(&pc, obj_prog(o, prog), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true, FREQ) < 0) {
		tool_err("cpuunclaimed", "cannot sample the CPUs: %s", err_msg());
		ret = 1;
		goto out;
	}
	tool_signals();
	if (env.csv) {
		ret = run_csv(o);
		goto out;
	}
	s.fd = map_fd(obj_map(o, "stats"));
	s.cur = xcalloc((size_t)ncpus, sizeof(*s.cur));
	out_info("Sampling run queues... Output every %ld seconds. Hit Ctrl-C to end.\n", env.iv.seconds);
	tool_flush();
	for (long n = env.iv.times; n > 0; n--) {
		tool_sleep_ms(env.iv.seconds * 1000);
		if (tool_stdout_gone())
			break;
		if (report(&s) < 0)
			ret = 1;
		tool_flush();
		if (ret || tool_exiting)
			break;
	}
	free(s.cur);
out:
	obj_close(o);
	perf_cpus_close(&pc);
	return ret;
}
