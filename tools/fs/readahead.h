/* readahead: what the BPF side and the user side share. */
#ifndef COREBOX_READAHEAD_H
#define COREBOX_READAHEAD_H

#define READAHEAD_MAX_SLOTS 20
#define READAHEAD_MAX_ENTRIES 10240

/* Pages read ahead (total), those not accessed yet (unused), and the age
 * of the others at first access, log2 msecs. */
struct readahead_hist {
	__s64 unused;
	__s64 total;
	__u32 slots[READAHEAD_MAX_SLOTS];
};

#endif
