/* gethostlatency, kernel side: the time each getaddrinfo(),
 * gethostbyname() and gethostbyname2() call takes, with the host name
 * asked for, from uprobes on the C library (as libbpf-tools): entry
 * notes the name and the time per thread, return emits.  The user side
 * points each program at its function in the library it found. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "gethostlatency.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct gethostlatency_event);
} starts SEC(".maps");

static __always_inline int entry(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct gethostlatency_event e = {};
	const void *name = (const void *)PT_REGS_PARM1(ctx);

	if (!name)
		return 0;
	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	e.time = bpf_ktime_get_ns();
	e.pid = id >> 32;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_probe_read_user_str(e.host, sizeof(e.host), name);
	bpf_map_update_elem(&starts, &tid, &e, BPF_ANY);
	return 0;
}

static __always_inline int ret(struct pt_regs *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct gethostlatency_event *e = bpf_map_lookup_elem(&starts, &tid);

	if (!e)
		return 0;
	e->time = bpf_ktime_get_ns() - e->time;
	events_output(ctx, e, sizeof(*e));
	bpf_map_delete_elem(&starts, &tid);
	return 0;
}

SEC("uprobe")
int getaddrinfo_entry(struct pt_regs *ctx) { return entry(ctx); }
SEC("uretprobe")
int getaddrinfo_return(struct pt_regs *ctx) { return ret(ctx); }
SEC("uprobe")
int gethostbyname_entry(struct pt_regs *ctx) { return entry(ctx); }
SEC("uretprobe")
int gethostbyname_return(struct pt_regs *ctx) { return ret(ctx); }
SEC("uprobe")
int gethostbyname2_entry(struct pt_regs *ctx) { return entry(ctx); }
SEC("uretprobe")
int gethostbyname2_return(struct pt_regs *ctx) { return ret(ctx); }
