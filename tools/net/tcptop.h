/* tcptop: the map records shared by the BPF and user sides. */
#ifndef COREBOX_TCPTOP_H
#define COREBOX_TCPTOP_H

#define TCPTOP_MAX_ENTRIES 10240
#define TCPTOP_COMM_LEN 16

/* One connection of one process (libbpf-tools' ip_key_t) */
struct tcptop_key {
	__u8 saddr[16]; /* IPv4 in the first 4 bytes, network order */
	__u8 daddr[16];
	__u32 pid;      /* tgid */
	char name[TCPTOP_COMM_LEN];
	__u16 lport;    /* host order */
	__u16 dport;
	__u16 family;
	__u16 pad;
};

struct tcptop_val {
	__u64 sent;
	__u64 received;
};

#endif
