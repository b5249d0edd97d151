/* profile: what the BPF side and the user side share. */
#ifndef COREBOX_PROFILE_H
#define COREBOX_PROFILE_H

#define PROFILE_COMM_LEN 16
#define PROFILE_MAX_ENTRIES 10240
#define PROFILE_MAX_FILTER 30

/* One bucket of samples: a process, its two stacks and its command name.
 * Stack ids are negative when not taken (-1: -U/-K) or when the kernel
 * failed (-EFAULT: no stack in this context, -EEXIST/-ENOMEM: lost). */
struct profile_key {
	__u32 pid; /* tgid */
	__s32 kern_stack_id;
	__s32 user_stack_id;
	char comm[PROFILE_COMM_LEN];
};

#endif
