/* The filters tcplife and tcpstates apply to sock:inet_sock_set_state,
 * kept in one place because their flags are the same (-4/-6, -L, -D):
 * the .rodata knobs their user sides set by these names, the two port
 * maps they fill after load (inet_ports_fill), and the test itself. */
#ifndef COREBOX_STATE_FILTER_BPF_H
#define COREBOX_STATE_FILTER_BPF_H

#include "inet.bpf.h"

const volatile __u16 target_family = 0;
const volatile __u8 filter_sport = 0;
const volatile __u8 filter_dport = 0;

PORT_FILTER_MAP(sports);
PORT_FILTER_MAP(dports);

/* A TCP socket of the wanted family and ports? */
static __always_inline int tcp_state_wanted(const struct trace_event_raw_inet_sock_set_state *ctx)
{
	if (ctx->protocol != IPPROTO_TCP)
		return 0;
	if (target_family && ctx->family != target_family)
		return 0;
	return port_allowed(filter_sport, &sports, ctx->sport) &&
	       port_allowed(filter_dport, &dports, ctx->dport);
}

#endif
