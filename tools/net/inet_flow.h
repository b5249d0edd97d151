/* A TCP flow as the counting modes key it (tcpconnect -c, tcpretrans -c),
 * shared by the BPF and user sides. */
#ifndef COREBOX_INET_FLOW_H
#define COREBOX_INET_FLOW_H

#define INET_MAX_FLOWS 8192

struct inet_flow {
	__u8 saddr[16];   /* IPv4: the first 4 bytes */
	__u8 daddr[16];
	__u16 sport;      /* host order; 0 when the tool does not count by it */
	__u16 dport;
	__u16 family;
	__u16 pad;
};

#endif
