/* llcstat: what the BPF side and the user side share. */
#ifndef COREBOX_LLCSTAT_H
#define COREBOX_LLCSTAT_H

#define LLCSTAT_MAX_ENTRIES 10240

struct llcstat_key {
	__u32 cpu;
	__u32 pid;
	__u32 tid; /* = pid without -t */
};

struct llcstat_value {
	__u64 ref;
	__u64 miss;
	char comm[16];
};

#endif
