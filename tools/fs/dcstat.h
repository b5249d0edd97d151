/* dcstat: what the BPF side and the user side share. */
#ifndef COREBOX_DCSTAT_H
#define COREBOX_DCSTAT_H

/* running totals since start (the user side takes differences) */
struct dcstat_counts {
	__u64 refs; /* lookup_fast calls: a dcache reference per path component */
	__u64 slow; /* d_lookup calls: the fast (RCU) lookup did not do */
	__u64 miss; /* d_lookup returned nothing */
};

#endif
