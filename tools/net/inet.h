/* What the TCP tools' user sides share: state names, addresses as text,
 * port lists (-L, -D, -P) and their filter maps. */
#ifndef COREBOX_NET_INET_H
#define COREBOX_NET_INET_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "inet_flow.h"

#define INET_PORTS_MAX 1024

/* libbpf-tools' names: "ESTABLISHED", ..., "NEW_SYN_RECV"; "UNKNOWN" else. */
const char *tcp_state_name(int state);
/* addr: 16 bytes (IPv4 in the first 4, network order) -> text. */
char *inet_addr_str(int family, const void *addr, char *buf, size_t size);
/* The IP column: 4 or 6 for an address family (2 or 10). */
static inline int inet_ip_version(int family)
{
	return family == 10 ? 6 : 4;
}

/* -t: seconds since the first event, in whole microseconds
 * (libbpf-tools' tcpconnect and tcpconnlat). */
double inet_since_first_s(uint64_t ts_ns);

/* "80,443" -> ports[] (host order); exits 2 with a usage error on a bad
 * list (what: "LOCALPORT").  Returns the count. */
int inet_ports_parse(const struct tool_help *h, const char *what, const char *list, uint16_t *ports,
		     int max);
/* Put the ports into the tool's PORT_FILTER_MAP (after load): 0, or -1
 * after a message. */
int inet_ports_fill(struct obj *o, const char *tool, const char *map, const uint16_t *ports, int n);

/* tcplife's and tcpstates' -4/-6, -L and -D (the same flags; their BPF
 * side is tools/net/state_filter.bpf.h). */
struct inet_state_filter {
	int family; /* 0: both, 2: -4, 10: -6 */
	int nsports, ndports;
	uint16_t sports[INET_PORTS_MAX], dports[INET_PORTS_MAX];
};
/* Before load: the knobs target_family, filter_sport, filter_dport. */
void inet_state_filter_set(struct obj *o, const struct inet_state_filter *f);
/* After load: the "sports" and "dports" maps; 0, or -1 after a message. */
int inet_state_filter_fill(struct obj *o, const char *tool, const struct inet_state_filter *f);

/* -c modes: read and delete the tool's "counts" map (struct inet_flow ->
 * __u64), sorted IPv4 first, then by count (most first when desc); the
 * rows in *rows (malloc'd).  Their number, or -1 after a message. */
struct inet_flow_count {
	struct inet_flow k;
	uint64_t n;
};
long inet_flows_read(struct obj *o, const char *tool, int desc, struct inet_flow_count **rows);
/* What a -c mode's after_load does once the tool is attached: count until
 * Ctrl-C (or a closed output), then one report: header(), row() per flow
 * in inet_flows_read's order.  1 (all done), or -1 after a message. */
int inet_flows_report(struct obj *o, const char *tool, int desc, void (*header)(void),
		      void (*row)(const struct inet_flow_count *r));

#endif
