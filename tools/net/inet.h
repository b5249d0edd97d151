/* What the TCP tools' user sides share: state names, addresses as text,
 * port lists (-L, -D, -P) and their filter maps. */
#ifndef COREBOX_NET_INET_H
#define COREBOX_NET_INET_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "tools/common/common.h"
#include "inet_flow.h"

#define INET_PORTS_MAX 1024

/* libbpf-tools' names: "ESTABLISHED", ..., "NEW_SYN_RECV"; "UNKNOWN" else. */
const char *tcp_state_name(int state);
/* addr: 16 bytes (IPv4 in the first 4, network order) -> text. */
char *inet_addr_str(int family, const void *addr, char *buf, size_t size);
/* "80,443" -> ports[] (host order); exits 2 with a usage error on a bad
 * list (what: "LOCALPORT").  Returns the count. */
int inet_ports_parse(const struct tool_help *h, const char *what, const char *list, uint16_t *ports,
		     int max);
/* Put the ports into the tool's PORT_FILTER_MAP (after load): 0, or -1
 * after a message. */
int inet_ports_fill(struct obj *o, const char *tool, const char *map, const uint16_t *ports, int n);

/* -c modes: read and delete the tool's "counts" map (struct inet_flow ->
 * __u64), sorted IPv4 first, then by count (most first when desc); the
 * rows in *rows (malloc'd).  Their number, or -1 after a message. */
struct inet_flow_count {
	struct inet_flow k;
	uint64_t n;
};
long inet_flows_read(struct obj *o, const char *tool, int desc, struct inet_flow_count **rows);

#endif
