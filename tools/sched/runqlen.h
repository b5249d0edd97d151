/* runqlen: what the BPF side and the user side share. */
#ifndef COREBOX_RUNQLEN_H
#define COREBOX_RUNQLEN_H

#define RUNQLEN_MAX_SLOTS 32

/* One per CPU (a per-CPU array slot): counts only grow, the user side
 * reports the difference from the previous read. */
struct runqlen_hist {
	__u32 slots[RUNQLEN_MAX_SLOTS];
};

#endif
