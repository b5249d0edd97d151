/* biolatency: what the BPF side and the user side share. */
#ifndef COREBOX_BIOLATENCY_H
#define COREBOX_BIOLATENCY_H

#define BIOLAT_MAX_SLOTS 27
#define BIOLAT_MAX_ENTRIES 10240

/* Histogram key: zero fields unless -F (cmd_flags) / -D (dev) /
 * --cgroups (cgroup). */
struct biolat_key {
	__u32 cmd_flags;
	__u32 dev;    /* major << 20 | minor, as the kernel's dev_t */
	__u32 cgroup; /* the low 32 bits of the submitting task's cgroup v2 id */
	__u32 pad;
};

struct biolat_hist {
	__u32 slots[BIOLAT_MAX_SLOTS];
	__u32 pad;
	__u64 sum_ns; /* of the latencies (Prometheus _sum) */
};

#endif
