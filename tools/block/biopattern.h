/* biopattern: what the BPF side and the user side share. */
#ifndef COREBOX_BIOPATTERN_H
#define COREBOX_BIOPATTERN_H

#define BIOPATTERN_MAX_DISKS 64

struct biopattern_counter {
	__u64 last_sector; /* where the disk's previous request ended */
	__u64 bytes;
	__u32 sequential;
	__u32 random;
};

#endif
