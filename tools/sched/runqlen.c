/* applet runqlen: summarize scheduler run queue length as a histogram
 * readme: sampled run queue length as a linear histogram, per CPU (`-C`), or occupancy (`-O`)
 *
 * libbpf-tools flags and output.
 *
 * Every online CPU's cpu-clock event samples at -f HZ (99); the program
 * (runqlen.bpf.c) counts the run queue length it sees in that CPU's
 * histogram.  The counts only grow: each report is the difference from
 * the previous read, so nothing is lost between reading and clearing. */
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
#include "tools/common/perf_cpus.h"
#include "runqlen.h"

BPF_OBJ_DECLARE(runqlen);

static const struct opt opts[] = {
	{ 'C', "cpus", NULL, "Print output for each CPU separately" },
	{ 'f', "frequency", "FREQUENCY", "Sample with a certain frequency" },
	{ 'O', "runqocc", NULL, "Report run queue occupancy" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'H', "host", NULL, "Report nr_running from host's rq" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-C] [-O] [-T] [-H] [-f FREQUENCY] [interval] [count]",
	.examples =
		"    runqlen         # summarize run queue length as a histogram\n"
		"    runqlen 1 10    # print 1 second summaries, 10 times\n"
		"    runqlen -T 1    # 1s summaries and timestamps\n"
		"    runqlen -O      # report run queue occupancy\n"
		"    runqlen -C      # show each CPU separately\n"
		"    runqlen -H      # show nr_running from host's rq instead of cfs_rq\n"
		"    runqlen -f 199  # sample at 199HZ\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool per_cpu, runqocc, host;
	long freq;
	struct interval iv;
	int npos;
} env = { .freq = 99, .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'C': env.per_cpu = true; break;
	case 'O': env.runqocc = true; break;
	case 'T': env.iv.timestamp = true; break;
	case 'H': env.host = true; break;
	case 'f': env.freq = (long)opt_num(&help, "frequency", arg, 1, 100000); break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

static const struct out_hist hist = { "runqlen", "sampled run queue length", "runqlen", true, 0, 1 };

enum { C_CPU, C_OCC };
static const struct out_col occ_cols[] = {
	[C_CPU] = { "cpu", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[C_OCC] = { "runqocc", NULL, "runqocc: %0.2f%%\n", OUT_FLOAT, OUT_GAUGE,
		    .help = "percent of samples with tasks waiting in the run queue" },
};
static const struct out_col occ_cpu_cols[] = {
	[C_CPU] = { "cpu", NULL, "runqocc, CPU %-3d ", OUT_INT, OUT_LABEL },
	[C_OCC] = { "runqocc", NULL, "%6.2f%%\n", OUT_FLOAT, OUT_GAUGE,
		    .help = "percent of samples with tasks waiting in the run queue" },
};
static struct out_table occ_table = OUT_TABLE(NULL, occ_cols); /* one row: {"runqocc": N} */
static struct out_table occ_cpu_table = OUT_TABLE("runqocc", occ_cpu_cols);

struct state {
	int fd, ncpus;
	struct runqlen_hist *cur, *prev; /* per CPU, cumulative */
};

static int report(void *ctx)
{
	struct state *s = ctx;
	__u32 zero = 0, sum[RUNQLEN_MAX_SLOTS] = { 0 };

	if (bpf_map_lookup(s->fd, &zero, s->cur) < 0) {
		tool_err("runqlen", "cannot read the histograms: %s", err_msg());
		return -1;
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		__u32 d[RUNQLEN_MAX_SLOTS];
		unsigned long long samples = 0, queued = 0;
		char head[32], num[16];

		for (int i = 0; i < RUNQLEN_MAX_SLOTS; i++) {
			d[i] = s->cur[cpu].slots[i] - s->prev[cpu].slots[i];
			sum[i] += d[i];
			samples += d[i];
			queued += i ? d[i] : 0;
		}
		if (!env.per_cpu)
			continue;
		if (env.runqocc) {
			union out_val v[] = { [C_CPU].i = cpu,
					      [C_OCC].f = 100.0 * (double)queued / (double)(samples ? samples : 1) };

			out_row(&occ_cpu_table, v);
		} else {
			struct out_label l = { "cpu", num };

			snprintf(num, sizeof(num), "%d", cpu);
			snprintf(head, sizeof(head), "cpu = %d\n", cpu);
			out_hist(&hist, head, &l, 1, d, RUNQLEN_MAX_SLOTS, NULL);
		}
	}
	memcpy(s->prev, s->cur, (size_t)s->ncpus * sizeof(*s->cur));
	if (env.per_cpu)
		return 0;
	if (env.runqocc) {
		unsigned long long samples = 0, queued = 0;
		union out_val v[2];

		for (int i = 0; i < RUNQLEN_MAX_SLOTS; i++) {
			samples += sum[i];
			queued += i ? sum[i] : 0;
		}
		v[C_CPU].i = -1;
		v[C_OCC].f = 100.0 * (double)queued / (double)(samples ? samples : 1);
		out_row(&occ_table, v);
	} else {
		out_hist(&hist, NULL, NULL, 0, sum, RUNQLEN_MAX_SLOTS, NULL);
	}
	return 0;
}

/* Where the task's CFS run queue is: se.cfs_rq (CONFIG_FAIR_GROUP_SCHED),
 * else the per-CPU `runqueues` (BTF per-CPU variables; the kernel finds
 * a variable's address in kallsyms, so CONFIG_KALLSYMS_ALL too).  The
 * program to use, or NULL after a message. */
static const char *rq_program(struct obj *o)
{
	struct obj_opts oo = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
	const struct btf *kbtf = obj_kernel_btf(o, &oo);
	const struct btf_type *t;
	int32_t id;

	if (!kbtf)
		return "sample_cfs"; /* the load says what is wrong */
	/* look the two names up without indexing every kernel type (1 MB) */
	btf_find_prepare(kbtf, (const char *const[]){ "sched_entity", "runqueues" }, 2);
	id = btf_find(kbtf, "sched_entity", BTF_KIND_STRUCT);
	if (id > 0 && (t = btf_type_by_id(kbtf, (uint32_t)id)))
		for (uint32_t i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf_str(kbtf, btf_members(t)[i].name_off) ?: "", "cfs_rq")) {
				if (tool_common.verbose)
					fprintf(stderr, "runqlen: run queue: current->se.cfs_rq\n");
				return "sample_cfs";
			}
	if (btf_find(kbtf, "runqueues", BTF_KIND_VAR) > 0) {
		if (tool_common.verbose)
			fprintf(stderr, "runqlen: run queue: this CPU's runqueues (no CONFIG_FAIR_GROUP_SCHED)\n");
		return "sample_rq";
	}
	tool_err("runqlen", "cannot find the run queue: sched_entity has no cfs_rq (no "
		 "CONFIG_FAIR_GROUP_SCHED) and the kernel BTF has no per-CPU variable runqueues");
	return NULL;
}

int runqlen_main(int argc, char **argv)
{
	struct perf_cpus pc = { 0 };
	struct state s = { 0 };
	const char *prog;
	struct obj *o;
	int ret = 0, r;

	opt_parse(argc, argv, &help, parse, NULL);
	s.ncpus = cpus_possible();
	if (s.ncpus <= 0) {
		tool_err("runqlen", "cannot read the possible CPUs");
		return 1;
	}
	out_show(&occ_table, C_CPU, false);
	o = BPF_OBJ_OPEN(runqlen);
	if (env.host)
		OBJ_SET(o, targ_host, (uint8_t)1);
	if (!(prog = rq_program(o))) {
		obj_close(o);
		return 1;
	}
	prog_set_autoload(obj_prog(o, strcmp(prog, "sample_cfs") ? "sample_cfs" : "sample_rq"), false);
	if (tool_load_attach(o, "runqlen"))
		return 1;
	r = perf_cpus_attach(&pc, obj_prog(o, prog), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true,
			     (uint64_t)env.freq);
	if (r < 0) {
		tool_err("runqlen", "cannot sample the CPUs: %s", err_msg());
		ret = 1;
		goto out;
	}
	s.fd = map_fd(obj_map(o, "hists"));
	s.cur = xcalloc((size_t)s.ncpus, sizeof(*s.cur));
	s.prev = xcalloc((size_t)s.ncpus, sizeof(*s.prev));
	tool_signals();
	out_info("Sampling run queue length... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &s);
	free(s.cur);
	free(s.prev);
out:
	obj_close(o); /* detach before the events go */
	perf_cpus_close(&pc);
	return ret;
}
