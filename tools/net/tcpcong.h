/* tcpcong: what the BPF side and the user side share. */
#ifndef COREBOX_TCPCONG_H
#define COREBOX_TCPCONG_H

#define TCPCONG_STATES 5 /* TCP_CA_Open, Disorder, CWR, Recovery, Loss */
#define TCPCONG_SLOTS 40 /* bcc's bpf_log2l slots; the last takes the rest */
#define TCPCONG_MAX_FLOWS 10240

/* A connection as bcc keys it: local and remote address and port. */
struct tcpcong_key {
	__u8 saddr[16]; /* IPv4: the first 4 bytes */
	__u8 daddr[16];
	__u16 lport, dport;
	__u16 family; /* 2 or 10 */
	__u16 pad;
};

struct tcpcong_val {
	__u64 last_ts;
	__u64 dura_us[TCPCONG_STATES]; /* time spent in each state, microseconds */
	__u64 changes;
	__u8 last_state; /* state + 1 (bcc's encoding; 0: none yet) */
};

/* the knobs (.rodata), set in one piece */
struct tcpcong_cfg {
	__u16 lport[2], rport[2]; /* -L, -R: inclusive ranges */
	__u8 dist, dist_ms;       /* -d, and without -u */
};

struct tcpcong_hist {
	__u32 slots[TCPCONG_SLOTS];
};

#endif
