/* syscount: what the BPF side and the user side share. */
#ifndef COREBOX_SYSCOUNT_H
#define COREBOX_SYSCOUNT_H

#define SC_TASK_COMM_LEN 16
/* Per-syscall mode: a per-CPU array indexed by syscall number (ids at or
 * above this are not counted; no architecture comes close). */
#define SC_MAX_NR 1024
/* Per-process mode and -L start times: hash sizes (as libbpf-tools). */
#define SC_MAX_ENTRIES 8192

/* Value of the per-syscall per-CPU array (cumulative; user space takes
 * differences between reports). */
struct sc_val {
	__u64 count;
	__u64 total_ns;
};

/* Value of the per-process hash (read and deleted at each report). */
struct sc_pval {
	__u64 count;
	__u64 total_ns;
	char comm[SC_TASK_COMM_LEN];
};

#endif
