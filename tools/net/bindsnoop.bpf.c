/* bindsnoop, kernel side: bind(2) on IPv4 and IPv6 sockets, from the
 * syscall events.
 *
 * libbpf-tools probes inet_bind/inet6_bind (kprobe + kretprobe), which
 * this kernel may not offer.  sys_enter_bind carries the fd: the task's
 * file table gives the struct socket (tools/net/sock_fd.bpf.h), kept per
 * thread until sys_exit_bind, which has the result; the bound port,
 * address, device and socket options are then read from the socket as
 * the kretprobe reads them.  The option bits are inet_sock bitfields
 * before 6.6 and bits of inet_sock.inet_flags since: both are read,
 * whichever the running kernel has (CO-RE). */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "sock_fd.bpf.h"
#include "bindsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_cg = 0;      /* -c */
const volatile __u32 target_pid = 0;    /* tgid, 0: all */
const volatile __u8 ignore_errors = 1;  /* not -x */
const volatile __u8 filter_by_port = 0; /* -P */

PORT_FILTER_MAP(ports);

/* thread -> the socket its bind() is binding */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u64);
} sockets SEC(".maps");

/* the members read, as CO-RE flavors: the pre-6.6 bitfields and the
 * 6.6+ flag word (one of the two exists) */
struct inet_sock___bind {
	__be16 inet_sport;
	__u8 freebind : 1;
	__u8 transparent : 1;
	__u8 bind_address_no_port : 1;
	unsigned long inet_flags;
} __attribute__((preserve_access_index));

/* the bits of inet_flags (include/net/inet_sock.h, 6.6+): an anonymous
 * enum in the kernel's BTF, so not relocatable by name; its numbering
 * has only been appended to since */
#define INET_FLAGS_FREEBIND 11
#define INET_FLAGS_TRANSPARENT 15
#define INET_FLAGS_BIND_ADDRESS_NO_PORT 18

struct sock_common___bind {
	unsigned char skc_reuse : 4;
	unsigned char skc_reuseport : 1;
	__be32 skc_rcv_saddr; /* inet_sock's inet_saddr is a name for it */
	int skc_bound_dev_if;
	struct in6_addr skc_v6_rcv_saddr;
	unsigned short skc_family;
} __attribute__((preserve_access_index));

struct sock___bind {
	struct sock_common___bind __sk_common;
} __attribute__((preserve_access_index));

SEC("tracepoint/syscalls/sys_enter_bind")
int bindsnoop_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct socket___cb *sock;
	struct sock___bind *sk;
	__u16 family;
	__u64 p;

	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	if (!cgroup_allowed(filter_cg))
		return 0;
	sock = fd_socket(ctx->args[0]);
	if (!sock)
		return 0;
	sk = (struct sock___bind *)BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	family = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (family != AF_INET && family != AF_INET6)
		return 0;
	p = (__u64)sock;
	bpf_map_update_elem(&sockets, &tid, &p, BPF_ANY);
	return 0;
}

static __always_inline __u8 bind_opts(struct inet_sock___bind *inet, struct sock___bind *sk)
{
	__u8 o = 0;

	if (bpf_core_field_exists(inet->inet_flags)) {
		unsigned long f = BPF_CORE_READ(inet, inet_flags);

		if (f & (1UL << INET_FLAGS_FREEBIND))
			o |= BIND_FREEBIND;
		if (f & (1UL << INET_FLAGS_TRANSPARENT))
			o |= BIND_TRANSPARENT;
		if (f & (1UL << INET_FLAGS_BIND_ADDRESS_NO_PORT))
			o |= BIND_ADDRESS_NO_PORT;
	} else {
		if (BPF_CORE_READ_BITFIELD_PROBED(inet, freebind))
			o |= BIND_FREEBIND;
		if (BPF_CORE_READ_BITFIELD_PROBED(inet, transparent))
			o |= BIND_TRANSPARENT;
		if (BPF_CORE_READ_BITFIELD_PROBED(inet, bind_address_no_port))
			o |= BIND_ADDRESS_NO_PORT;
	}
	/* skc_reuse is SK_CAN_REUSE (1) or 0; libbpf-tools keeps its low bit */
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, __sk_common.skc_reuse) & 1)
		o |= BIND_REUSEADDR;
	if (BPF_CORE_READ_BITFIELD_PROBED(sk, __sk_common.skc_reuseport))
		o |= BIND_REUSEPORT;
	return o;
}

SEC("tracepoint/syscalls/sys_exit_bind")
int bindsnoop_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct bindsnoop_event e = {};
	struct socket___cb *sock;
	struct sock___bind *sk;
	struct inet_sock___bind *inet;
	__u64 *p = bpf_map_lookup_elem(&sockets, &tid);

	if (!p)
		return 0;
	sock = (struct socket___cb *)*p;
	bpf_map_delete_elem(&sockets, &tid);
	e.ret = (int)ctx->ret;
	if (ignore_errors && e.ret)
		return 0;
	sk = (struct sock___bind *)BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	inet = (struct inet_sock___bind *)sk;
	e.port = __builtin_bswap16(BPF_CORE_READ(inet, inet_sport));
	if (!port_allowed(filter_by_port, &ports, e.port))
		return 0;
	e.opts = bind_opts(inet, sk);
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.bound_dev_if = BPF_CORE_READ(sk, __sk_common.skc_bound_dev_if);
	e.proto = sk_protocol((struct sock___cb *)sk);
	if (BPF_CORE_READ(sk, __sk_common.skc_family) == AF_INET6) {
		e.ver = 6;
		BPF_CORE_READ_INTO(&e.addr, sk, __sk_common.skc_v6_rcv_saddr);
	} else {
		e.ver = 4;
		BPF_CORE_READ_INTO((__u32 *)e.addr, sk, __sk_common.skc_rcv_saddr);
	}
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}
