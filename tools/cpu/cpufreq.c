/* applet cpufreq: sample CPU frequency system-wide and by process
 * readme: CPU frequency at timed samples, per process and system-wide, as linear histograms (MHz)
 *
 * libbpf-tools' 0.26 flags and layout: the banner, then at Ctrl-C or
 * after -d seconds an empty line, one linear histogram (200 MHz steps)
 * per command, each followed by an empty line, an empty line and the
 * system-wide one; the command name stands where the unit is.  The
 * starting frequencies come from cpufreq's sysfs files: a system without
 * them (no cpufreq driver: most virtual machines) fails as libbpf-tools
 * does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/common/perf_cpus.h"
#include "cpufreq.h"

BPF_OBJ_DECLARE(cpufreq);

static struct {
	long duration, freq;
	const char *cgroup;
} env = { .duration = 99999999, .freq = 99 };

static const struct opt opts[] = {
	{ 'd', "duration", "DURATION", "Duration to sample in seconds" },
	{ 'f', "frequency", "FREQUENCY", "Sample with a certain frequency" },
	{ 'c', "cgroup", "/sys/fs/cgroup/unified", "Trace process in cgroup path" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help] [-d DURATION] [-f FREQUENCY] [-c CG]",
	.examples = "    cpufreq         # sample CPU freq at 99HZ (default)\n"
		    "    cpufreq -d 5    # sample for 5 seconds only\n"
		    "    cpufreq -c CG   # Trace process under cgroupsPath CG\n"
		    "    cpufreq -f 199  # sample CPU freq at 199HZ\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, 99999999); break;
	case 'f': env.freq = (long)opt_num(&help, "freq (in HZ)", arg, 1, 1000000); break;
	case 'c': env.cgroup = arg; break;
	default: return 1;
	}
	return 0;
}

/* scaling_cur_freq of every possible CPU (kHz) into the freqs map (MHz):
 * 0, or -1 after one line (libbpf-tools prints two, the second a bare
 * "failed to init freqs") */
static int init_freqs(struct obj *o)
{
	int fd = map_fd(obj_map(o, "freqs")), n = cpus_possible();

	for (__u32 i = 0; i < (__u32)n && i < CPUFREQ_MAX_CPU; i++) {
		char path[80];
		unsigned int khz;
		char line[64];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", i);
		if (!(f = fopen(path, "r"))) {
			tool_err("cpufreq", "cannot read CPU %u's frequency (%s: %s): without a cpufreq driver "
				 "(common in virtual machines) there is nothing to sample", i, path, strerror(errno));
			return -1;
		}
		if (!fgets(line, sizeof(line), f) || str_scan(line, "%u", &khz) != 1) {
			tool_err("cpufreq", "cannot parse CPU %u's frequency in %s", i, path);
			fclose(f);
			return -1;
		}
		fclose(f);
		khz /= 1000;
		bpf_map_update(fd, &i, &khz, 0);
	}
	return 0;
}

static const struct out_hist hist_desc = {
	.key = "freq", .help = "CPU frequency at timed samples", .unit = "MHz", .linear = true,
	.base = 0, .step = CPUFREQ_STEP,
};

static void one_hist(const struct cpufreq_hist *h, const char *comm, bool syswide)
{
	struct out_label l = { syswide ? "scope" : "comm", syswide ? "syswide" : comm };
	uint64_t s[CPUFREQ_SLOTS];

	for (int i = 0; i < CPUFREQ_SLOTS; i++)
		s[i] = h->slots[i];
	if (!out_hist64_data(&hist_desc, &l, 1, s, CPUFREQ_SLOTS, NULL))
		print_linear_hist(h->slots, CPUFREQ_SLOTS, 0, CPUFREQ_STEP, syswide ? "syswide" : comm);
}

static int report(struct obj *o)
{
	int fd = map_fd(obj_map(o, "hists"));
	struct cpufreq_key k = { 0 }, next, sys = { .syswide = 1 };
	struct cpufreq_hist h, syswide = { 0 };
	bool first = true;

	out_doc_begin();
	out_text("\n");
	while (bpf_map_next_key(fd, first ? NULL : &k, &next) == 0) {
		first = false;
		k = next;
		if (next.syswide || bpf_map_lookup(fd, &next, &h) < 0)
			continue;
		next.comm[15] = 0;
		one_hist(&h, next.comm, false);
		out_text("\n");
	}
	err_clear();
	if (bpf_map_lookup(fd, &sys, &syswide) < 0)
		err_clear();
	out_text("\n");
	one_hist(&syswide, NULL, true);
	return out_doc_end() < 0;
}

int cpufreq_main(int argc, char **argv)
{
	struct perf_cpus pc = { 0 };
	struct obj *o;
	int cgfd = -1, rc = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(cpufreq);
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	if (tool_load_attach_cgroup(o, "cpufreq", env.cgroup, &cgfd) < 0)
		return 1;
	if (init_freqs(o) < 0) {
		rc = 1;
		goto out;
	}
	if (perf_cpus_attach(&pc, obj_prog(o, "cpufreq_sample"), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
			     true, (uint64_t)env.freq) < 0) {
		tool_err("cpufreq", "failed to init perf sampling: %s", err_msg());
		rc = 1;
		goto out;
	}
	out_info("Sampling CPU freq system-wide & by process. Ctrl-C to end.\n");
	tool_flush();
	tool_sleep_ms(env.duration * 1000);
	if (!tool_stdout_gone())
		rc = report(o);
out:
	obj_close(o);
	perf_cpus_close(&pc);
	if (cgfd >= 0)
		close(cgfd);
	return rc;
}
