/* One sampling perf event per online CPU, each running the same BPF
 * program (runqlen, cpuunclaimed, llcstat; profile does its own). */
#ifndef COREBOX_TOOLS_PERF_CPUS_H
#define COREBOX_TOOLS_PERF_CPUS_H

#include <stdbool.h>
#include <stdint.h>

struct prog;

struct perf_cpus {
	int n;    /* events open */
	int *fds; /* their fds */
};

/* Open a sampling event (perf type/config; freq: sample_freq = rate,
 * else sample_period = rate) on every online CPU and attach p to each.
 * Offline CPUs are skipped.  0, or -errno with err_msg() set (what is
 * open stays in *pc: perf_cpus_close it after obj_close). */
int perf_cpus_attach(struct perf_cpus *pc, struct prog *p, uint32_t type, uint64_t config, bool freq,
		     uint64_t rate);
void perf_cpus_close(struct perf_cpus *pc);

#endif
