/* biotop: the map records shared by the BPF and user sides. */
#ifndef COREBOX_BIOTOP_H
#define COREBOX_BIOTOP_H

#define BIOTOP_MAX_ENTRIES 10240
#define BIOTOP_COMM_LEN 16

/* Who did I/O to which disk, in which direction (libbpf-tools' info_t) */
struct biotop_key {
	__u32 pid;    /* tgid of the submitter, 0 when unknown */
	__u32 rwflag; /* 1: write */
	__u32 major, minor;
	char name[BIOTOP_COMM_LEN];
};

struct biotop_val {
	__u64 bytes;
	__u64 us;  /* summed issue-to-completion time */
	__u32 io;
	__u32 pad;
};

#endif
