/* futexctn: the histogram map's key and value, shared by both sides. */
#ifndef COREBOX_FUTEXCTN_H
#define COREBOX_FUTEXCTN_H

#define FUTEXCTN_MAX_SLOTS 26   /* libbpf-tools' MAX_SLOTS: the last takes the rest */
#define FUTEXCTN_MAX_ENTRIES 10240

/* One histogram per thread (-s: process), lock and user stack. */
struct futexctn_key {
	__u64 pid_tgid; /* -s: the tgid alone */
	__u64 uaddr;    /* the futex word's address */
	__s32 user_stack_id;
	__u32 pad;
};

struct futexctn_hist {
	__u32 slots[FUTEXCTN_MAX_SLOTS];
	char comm[16];
	__u64 contended;     /* waits */
	__u64 total_elapsed; /* in the histogram's unit */
	__u64 min, max;
};

#endif
