/* wqlat: what the BPF side and the user side share. */
#ifndef COREBOX_WQLAT_H
#define COREBOX_WQLAT_H

#define WQLAT_NAME_LEN 24 /* bcc's WQ_NAME_LEN (the kernel's WQ_NAME_LEN is 32) */
#define WQLAT_SLOTS 48    /* bcc's bpf_log2l slots; the last takes the rest */
#define WQLAT_MAX_WQS 1024

/* -W: one histogram per workqueue name; else the name is empty */
struct wqlat_key { /* aligned: the BPF side copies it in 8-byte words */
	char name[WQLAT_NAME_LEN];
} __attribute__((aligned(8)));

struct wqlat_hist {
	__u32 slots[WQLAT_SLOTS];
	__u64 sum; /* of the latencies in the unit shown (Prometheus _sum) */
};

#endif
