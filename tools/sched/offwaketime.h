/* offwaketime: what the BPF side and the user side share. */
#ifndef COREBOX_OFFWAKETIME_H
#define COREBOX_OFFWAKETIME_H

#define OFFWAKE_COMM_LEN 16
#define OFFWAKE_MAX_ENTRIES 10240
#define OFFWAKE_MAX_FILTER 30

/* One record: the blocked thread ("target") with the stacks it went off
 * CPU with, and the thread that woke it with the stacks it had then.
 * Stack ids: -1 not taken (-U/-K, kernel thread, no waker seen), other
 * negatives are the kernel's error (-EFAULT, -EEXIST, -ENOMEM). */
struct offwake_key {
	char waker[OFFWAKE_COMM_LEN];
	char target[OFFWAKE_COMM_LEN];
	__s32 w_k_stack_id;
	__s32 w_u_stack_id;
	__s32 t_k_stack_id;
	__s32 t_u_stack_id;
	__u32 t_pid;
	__u32 t_tgid;
	__u32 w_pid;
	__u32 w_tgid;
};

#endif
