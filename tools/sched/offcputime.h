/* offcputime: what the BPF side and the user side share. */
#ifndef COREBOX_OFFCPUTIME_H
#define COREBOX_OFFCPUTIME_H

#define OFFCPU_COMM_LEN 16
#define OFFCPU_MAX_ENTRIES 10240
#define OFFCPU_MAX_FILTER 30

/* Aggregation key: the thread and the stacks it went to sleep with.
 * Stack ids: -1 when not taken (-U/-K, user stack of a kernel thread),
 * other negatives are the kernel's error (-EFAULT, -EEXIST, -ENOMEM). */
struct offcpu_key {
	__u32 pid;  /* thread id (the CPU number for the idle task) */
	__u32 tgid;
	__s32 user_stack_id;
	__s32 kern_stack_id;
};

struct offcpu_val {
	__u64 delta; /* microseconds blocked */
	char comm[OFFCPU_COMM_LEN];
};

#endif
