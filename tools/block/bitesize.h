/* bitesize: what the BPF side and the user side share. */
#ifndef COREBOX_BITESIZE_H
#define COREBOX_BITESIZE_H

#define BITESIZE_COMM_LEN 16
#define BITESIZE_MAX_SLOTS 20
#define BITESIZE_MAX_ENTRIES 10240

struct bitesize_key {
	char comm[BITESIZE_COMM_LEN];
};

struct bitesize_hist {
	__u32 slots[BITESIZE_MAX_SLOTS];
	__u64 bytes; /* sum of the sizes (Prometheus _sum) */
};

#endif
