/* cpuunclaimed: what the BPF side and the user side share. */
#ifndef COREBOX_CPUUNCLAIMED_H
#define COREBOX_CPUUNCLAIMED_H

#define CPUUNCLAIMED_MAX_CPUS 1024 /* run queues a snapshot reads */
#define CPUUNCLAIMED_CSV_CPUS 128  /* -j/-J: run queue lengths per event */

/* Sums over the snapshots taken by one CPU (a per-CPU array slot). */
struct cpuunclaimed_stats {
	__u64 snapshots;
	__u64 running;  /* CPUs with a task, summed */
	__u64 unclaimed; /* min(idle CPUs, queued tasks), summed */
};

/* -j/-J: one snapshot. */
struct cpuunclaimed_event {
	__u64 ts;
	__u32 ncpus;
	__u32 lens[CPUUNCLAIMED_CSV_CPUS];
};

#endif
