/* tcpsynbl, kernel side: the SYN backlog of listen sockets, as a log2
 * histogram per backlog limit, from sock:inet_sock_set_state.
 *
 * libbpf-tools reads the listener's sk_ack_backlog and sk_max_ack_backlog
 * at the entry of tcp_v4/v6_syn_recv_sock() (fentry or kprobe, which this
 * kernel may not offer): once per completed handshake, before the new
 * connection joins the accept queue.  That function makes the child
 * socket as a copy of the listener (sk_clone_lock copies both fields and
 * keeps them), and the copy announces itself with the stable event
 * inet_sock_set_state LISTEN -> SYN_RECV on the child: its two fields are
 * then exactly the listener's at that entry. */
#include "corebox.bpf.h"
#include "inet.bpf.h"
#include "bits.bpf.h"
#include "tcpsynbl.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 target_family = 0; /* -4 / -6 */

struct sock___synbl {
	__u32 sk_ack_backlog;
	__u32 sk_max_ack_backlog;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPSYNBL_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct tcpsynbl_hist);
} hists SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpsynbl_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	const struct sock___synbl *sk = ctx->skaddr;
	struct tcpsynbl_hist *h;
	__u64 max_backlog, backlog;

	if (ctx->protocol != IPPROTO_TCP || ctx->oldstate != CB_TCP_LISTEN ||
	    ctx->newstate != CB_TCP_SYN_RECV)
		return 0;
	if (target_family && ctx->family != target_family)
		return 0;
	max_backlog = BPF_CORE_READ(sk, sk_max_ack_backlog);
	backlog = BPF_CORE_READ(sk, sk_ack_backlog);
	h = bpf_map_lookup_elem(&hists, &max_backlog);
	if (!h) {
		struct tcpsynbl_hist zero = {};

		bpf_map_update_elem(&hists, &max_backlog, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &max_backlog);
		if (!h)
			return 0;
	}
	__sync_fetch_and_add(&h->slots[log2_slot(backlog, TCPSYNBL_MAX_SLOTS)], 1);
	return 0;
}
