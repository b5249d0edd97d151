/* tcpcong, kernel side: every change of a TCP connection's congestion
 * state (tcp:tcp_cong_state_set, Linux 5.19+, fired by tcp_set_ca_state)
 * closes the time spent in the previous state: added to the flow's total
 * for that state, and with -d to the state's log2 histogram, as bcc's
 * tcpcong does on the same tracepoint.  The first event of a flow only
 * notes its state. */
#include "corebox.bpf.h"
#include "bits.bpf.h"
#include "tcpcong.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct tcpcong_cfg cfg = { { 0, 65535 }, { 0, 65535 }, 0, 0 };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPCONG_MAX_FLOWS);
	__type(key, struct tcpcong_key);
	__type(value, struct tcpcong_val);
} flows SEC(".maps");

/* -d: state -> bcc's log2 slots */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPCONG_STATES);
	__type(key, __u32);
	__type(value, struct tcpcong_hist);
} hists SEC(".maps");

struct trace_event_raw_tcp_cong_state_set___tc {
	struct trace_entry ent;
	const void *skaddr;
	__u16 sport, dport, family;
	__u8 saddr[4], daddr[4], saddr_v6[16], daddr_v6[16];
	__u8 cong_state;
} __attribute__((preserve_access_index));

SEC("tracepoint/tcp/tcp_cong_state_set")
int tcp_cong_state_set(struct trace_event_raw_tcp_cong_state_set___tc *ctx)
{
	struct tcpcong_key key = {};
	struct tcpcong_val *v, nv = {};
	__u8 state = ctx->cong_state + 1;
	__u64 now, us, last;

	key.lport = ctx->sport;
	key.dport = ctx->dport;
	key.family = ctx->family;
	if (key.lport < cfg.lport[0] || key.lport > cfg.lport[1] || key.dport < cfg.rport[0] ||
	    key.dport > cfg.rport[1])
		return 0;
	/* (copied with a helper: the verifier refuses loads through a ctx
	 * pointer moved by a CO-RE offset) */
	if (key.family == 2) {
		bpf_probe_read_kernel(key.saddr, 4, __builtin_preserve_access_index(&ctx->saddr));
		bpf_probe_read_kernel(key.daddr, 4, __builtin_preserve_access_index(&ctx->daddr));
	} else if (key.family == 10) {
		bpf_probe_read_kernel(key.saddr, 16, __builtin_preserve_access_index(&ctx->saddr_v6));
		bpf_probe_read_kernel(key.daddr, 16, __builtin_preserve_access_index(&ctx->daddr_v6));
	} else {
		return 0;
	}
	now = bpf_ktime_get_ns();
	v = bpf_map_lookup_elem(&flows, &key);
	if (!v) {
		nv.last_ts = now;
		nv.last_state = state;
		bpf_map_update_elem(&flows, &key, &nv, BPF_ANY);
		return 0;
	}
	if (state == v->last_state)
		return 0;
	last = v->last_state - 1; /* the state left */
	barrier_var(last);
	if (last >= TCPCONG_STATES)
		return 0;
	us = (now - v->last_ts) / 1000;
	v->last_ts = now;
	v->last_state = state;
	v->changes++;
	v->dura_us[last] += us;
	if (cfg.dist) {
		__u64 x = cfg.dist_ms ? us / 1000 : us;
		__u32 k = last;
		struct tcpcong_hist *h = bpf_map_lookup_elem(&hists, &k);

		if (!h) {
			struct tcpcong_hist zero = {};

			bpf_map_update_elem(&hists, &k, &zero, BPF_NOEXIST);
			if (!(h = bpf_map_lookup_elem(&hists, &k)))
				return 0;
		}
		/* bcc's bpf_log2l: 0 and 1 in slot 1, [2^(i-1), 2^i) in slot i */
		__sync_fetch_and_add(&h->slots[x ? log2_slot(x, TCPCONG_SLOTS - 1) + 1 : 1], 1);
	}
	return 0;
}
