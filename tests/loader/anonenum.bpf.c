/* bpf_core_enum_value() on an anonymous kernel enum.  Since Linux 6.6
 * struct inet_sock keeps its socket options as bits of inet_flags,
 * numbered by an enum without a name (INET_FLAGS_*, include/net/
 * inet_sock.h); tests/unit/test_loader_btf.c compares what this program
 * saw with the enumerators of the kernel's BTF.  The local enum is
 * anonymous too, named only through typeof of an undefined extern; its
 * values are placeholders the loader must replace. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

extern enum {
	INET_FLAGS_PKTINFO = 100,
	INET_FLAGS_FREEBIND = 101,
	INET_FLAGS_TRANSPARENT = 102,
	INET_FLAGS_BIND_ADDRESS_NO_PORT = 103,
	INET_FLAGS_CBX_NO_SUCH = 104,
} inet_flags_bits;

const volatile __u32 targ_tgid = 0;
__u64 runs = 0;
__u64 exists[5] = {};
__u64 vals[5] = {};

#define GET(i, e)                                                           \
	do {                                                                \
		exists[i] = bpf_core_enum_value_exists(inet_flags_bits, e); \
		if (bpf_core_enum_value_exists(inet_flags_bits, e))         \
			vals[i] = bpf_core_enum_value(inet_flags_bits, e);  \
	} while (0)

SEC("tracepoint/syscalls/sys_enter_getppid")
int anon_enum(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	GET(0, INET_FLAGS_PKTINFO);
	GET(1, INET_FLAGS_FREEBIND);
	GET(2, INET_FLAGS_TRANSPARENT);
	GET(3, INET_FLAGS_BIND_ADDRESS_NO_PORT);
	GET(4, INET_FLAGS_CBX_NO_SUCH);
	__sync_fetch_and_add(&runs, 1);
	return 0;
}
