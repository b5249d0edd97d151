/* tcpsynbl: what the BPF side and the user side share. */
#ifndef COREBOX_NET_TCPSYNBL_H
#define COREBOX_NET_TCPSYNBL_H

#define TCPSYNBL_MAX_SLOTS 32 /* libbpf-tools' MAX_SLOTS */
#define TCPSYNBL_MAX_ENTRIES 10240

/* key: the listen socket's backlog limit (sk_max_ack_backlog, __u64) */
struct tcpsynbl_hist {
	__u32 slots[TCPSYNBL_MAX_SLOTS];
};

#endif
