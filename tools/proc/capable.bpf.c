/* capable, kernel side: one event per capability check, from the
 * capability:cap_capable tracepoint (Linux 6.13+), which fires as
 * cap_capable() returns with the capability and the verdict.  libbpf-tools
 * takes the same from a kprobe pair on cap_capable(); the tracepoint lacks
 * the function's options word, so the audit and insetid flags are not
 * known here (see capable.c). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "cgroup.bpf.h"
#include "stacks.bpf.h"
#include "capable.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;  /* tgid, 0: all */
const volatile __u32 my_pid = 0;      /* the tool itself: its own checks are not shown */
const volatile __u8 filter_cg = 0;    /* -c */
const volatile __u8 unique_type = CAPABLE_UNQ_OFF;
const volatile __u8 kernel_stack = 0; /* -K */
const volatile __u8 user_stack = 0;   /* -U */

STACK_MAP(stackmap);

/* The tracepoint's record as the kernel lays it out; the kernel BTF's
 * layout wins (CO-RE) should the fields move. */
struct trace_event_raw_cap_capable {
	struct trace_entry ent;
	const void *cred;
	void *target_ns;
	const void *capable_ns;
	int cap;
	int ret;
} __attribute__((preserve_access_index));

/* -u: (capability, process or cgroup) pairs already shown */
struct unique_key {
	__u64 who;
	__s32 cap;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct unique_key);
	__type(value, __u8);
} seen SEC(".maps");

SEC("tracepoint/capability/cap_capable")
int capable_check(struct trace_event_raw_cap_capable *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct capable_event e = {};

	if (target_pid && tgid != target_pid)
		return 0;
	if (tgid == my_pid)
		return 0;
	if (!cgroup_allowed(filter_cg))
		return 0;
	e.cap = ctx->cap;
	if (unique_type != CAPABLE_UNQ_OFF) {
		struct unique_key k = { .cap = e.cap };
		__u8 one = 1;

		k.who = unique_type == CAPABLE_UNQ_PID ? tgid : bpf_get_current_cgroup_id();
		if (bpf_map_lookup_elem(&seen, &k))
			return 0;
		bpf_map_update_elem(&seen, &k, &one, BPF_ANY);
	}
	e.pid = tgid;
	e.tid = (__u32)id;
	e.uid = (__u32)bpf_get_current_uid_gid();
	e.ret = ctx->ret;
	e.kstack_id = stack_id(ctx, &stackmap, !kernel_stack, 0);
	e.ustack_id = stack_id(ctx, &stackmap, !user_stack, BPF_F_USER_STACK);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}
