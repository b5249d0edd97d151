/* klockstat: the map records shared by the BPF and user sides. */
#ifndef COREBOX_KLOCKSTAT_H
#define COREBOX_KLOCKSTAT_H

#define KLOCKSTAT_STACK_DEPTH 127 /* the stack map's frames (libbpf-tools' PERF_MAX_STACK_DEPTH) */

/* Per caller stack (or per thread with -P): the contended acquisitions,
 * their wait, and who waited longest on which lock. */
struct klockstat_stat {
	__u64 acq_count;
	__u64 acq_total_time; /* ns */
	__u64 acq_max_time;
	__u64 acq_max_id;     /* pid_tgid of the longest wait */
	__u64 acq_max_lock_ptr;
	char acq_max_comm[16];
};

#endif
