/* biostacks: what the BPF side and the user side share. */
#ifndef COREBOX_BIOSTACKS_H
#define COREBOX_BIOSTACKS_H

#define BIOSTACKS_MAX_ENTRIES 10240
#define BIOSTACKS_COMM_LEN 16
#define BIOSTACKS_MAX_SLOTS 20
#define BIOSTACKS_MAX_STACK 20

/* One histogram per (thread, disk, kernel stack when the request was
 * accounted): the stack is part of the key, as in libbpf-tools, so
 * nothing but the histogram map has to be read at the end. */
struct biostacks_key {
	__u32 pid; /* the thread id, as libbpf-tools records it */
	__s32 stack_bytes; /* bpf_get_stack's answer: bytes filled, or -errno */
	__u64 stack[BIOSTACKS_MAX_STACK];
	char comm[BIOSTACKS_COMM_LEN];
	__u32 dev;
	__u32 pad;
};

struct biostacks_hist {
	__u32 slots[BIOSTACKS_MAX_SLOTS];
};

#endif
