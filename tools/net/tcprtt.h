/* tcprtt: what the BPF side and the user side share. */
#ifndef COREBOX_NET_TCPRTT_H
#define COREBOX_NET_TCPRTT_H

#define TCPRTT_MAX_SLOTS 27 /* libbpf-tools' MAX_SLOTS */
#define TCPRTT_MAX_ENTRIES 10240

/* One histogram per key: family 0 and no address unless -b/-B. */
struct tcprtt_key {
	__u16 family;
	__u8 addr[16]; /* IPv4 in the first 4 bytes, network order */
};

struct tcprtt_hist {
	__u64 latency; /* sum of the smoothed RTTs, in the histogram's unit */
	__u64 cnt;
	__u32 slots[TCPRTT_MAX_SLOTS];
};

#endif
