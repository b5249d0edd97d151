/* tcprtt, kernel side: TCP smoothed RTT histograms from tcp:tcp_probe.
 *
 * libbpf-tools hooks tcp_rcv_established() (fentry, else kprobe), which
 * this kernel may not offer.  tcp:tcp_probe fires at the top of that same
 * function and carries what tcprtt reads there: the socket's srtt (already
 * srtt_us >> 3, i.e. microseconds), family, ports and addresses (as
 * sockaddr_in / sockaddr_in6), so the counts are the same. */
#include "corebox.bpf.h"
#include "inet.bpf.h"
#include "bits.bpf.h"
#include "tcprtt.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 by_laddr = 0;   /* -b */
const volatile __u8 by_raddr = 0;   /* -B */
const volatile __u8 ms = 0;         /* -m */
const volatile __u16 targ_lport = 0; /* -p, host order, 0: any */
const volatile __u16 targ_rport = 0; /* -P */
const volatile __u16 targ_lfamily = 0; /* -a: AF_INET/AF_INET6, 0: any */
const volatile __u16 targ_rfamily = 0; /* -A */
const volatile __u8 targ_laddr[16] = {};
const volatile __u8 targ_raddr[16] = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPRTT_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct tcprtt_key);
	__type(value, struct tcprtt_hist);
} hists SEC(".maps");

/* The tracepoint's record (include/trace/events/tcp.h); the addresses are
 * struct sockaddr_in or sockaddr_in6 in 28 bytes. */
struct trace_event_raw_tcp_probe {
	struct trace_entry ent;
	__u8 saddr[28];
	__u8 daddr[28];
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u32 srtt;
} __attribute__((preserve_access_index));

/* the address inside a sockaddr_in (offset 4) or sockaddr_in6 (offset 8) */
static __always_inline void sockaddr_ip(__u16 family, const __u8 *sa, __u8 *out)
{
	__builtin_memset(out, 0, 16);
	if (family == AF_INET6)
		__builtin_memcpy(out, sa + 8, 16);
	else
		__builtin_memcpy(out, sa + 4, 4);
}

/* -a/-A: an address of the other family never matches (libbpf-tools) */
static __always_inline int addr_allowed(__u16 tfamily, const volatile __u8 *want, __u16 family,
					const __u8 *addr)
{
	int i;

	if (!tfamily)
		return 1;
	if (tfamily != family)
		return 0;
	for (i = 0; i < 16; i++)
		if (want[i] != addr[i])
			return 0;
	return 1;
}

SEC("tracepoint/tcp/tcp_probe")
int tcprtt_probe(struct trace_event_raw_tcp_probe *ctx)
{
	struct tcprtt_key key = {};
	struct tcprtt_hist *h;
	__u8 sa[28], da[28], laddr[16], raddr[16];
	__u16 family = ctx->family;
	__u32 srtt;

	if (family != AF_INET && family != AF_INET6)
		return 0;
	if (targ_lport && ctx->sport != targ_lport)
		return 0;
	if (targ_rport && ctx->dport != targ_rport)
		return 0;
	/* probe reads: the verifier refuses copies out of ctx + offset */
	bpf_probe_read_kernel(sa, sizeof(sa), ctx->saddr);
	bpf_probe_read_kernel(da, sizeof(da), ctx->daddr);
	sockaddr_ip(family, sa, laddr);
	sockaddr_ip(family, da, raddr);
	if (!addr_allowed(targ_lfamily, targ_laddr, family, laddr) ||
	    !addr_allowed(targ_rfamily, targ_raddr, family, raddr))
		return 0;
	if (by_laddr) {
		key.family = family;
		__builtin_memcpy(key.addr, laddr, 16);
	} else if (by_raddr) {
		key.family = family;
		__builtin_memcpy(key.addr, raddr, 16);
	}
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		struct tcprtt_hist zero = {};

		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h)
			return 0;
	}
	srtt = ctx->srtt;
	if (ms)
		srtt /= 1000U;
	__sync_fetch_and_add(&h->slots[log2_slot(srtt, TCPRTT_MAX_SLOTS)], 1);
	__sync_fetch_and_add(&h->latency, srtt);
	__sync_fetch_and_add(&h->cnt, 1);
	return 0;
}
