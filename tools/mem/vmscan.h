/* vmscan: what the BPF and user sides share. */
#ifndef COREBOX_VMSCAN_H
#define COREBOX_VMSCAN_H

#define VMSCAN_SLOTS 48

/* The three timed activities: the index of their sums and histograms. */
enum { VMSCAN_SLAB, VMSCAN_DIRECT, VMSCAN_MEMCG, VMSCAN_NR };

/* Running totals (one per CPU, summed by the user side). */
struct vmscan_stats {
	unsigned long long ns[VMSCAN_NR];     /* time in each activity */
	unsigned long long count[VMSCAN_NR];  /* completed activities */
	unsigned long long kswapd_wakeups;
	unsigned long long writepages;
};

struct vmscan_hist {
	unsigned int slots[VMSCAN_SLOTS];     /* log2 of the duration in ns */
};

#endif
