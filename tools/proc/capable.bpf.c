/* capable, kernel side: one event per capability check, from the
 * capability:cap_capable tracepoint (Linux 6.13+), which fires as
 * cap_capable() returns with the capability and the verdict but not the
 * function's options word: audit and insetid are not known there (-1).
 * Before 6.13 (or with no tracepoint) the user side keeps instead fexit on
 * cap_capable(), else a kprobe/kretprobe pair as libbpf-tools uses, which
 * read the options too: cap_capable(cred, target_ns, cap, opts). */
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

/* cap_capable()'s options (include/linux/security.h, 5.1+) */
#define CAP_OPT_NOAUDIT (1 << 1)
#define CAP_OPT_INSETID (1 << 2)

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

/* kprobe: cap and opts of the call in progress, for the kretprobe
 * (max_entries 1 unless the kprobes are used) */
struct cap_args {
	__s32 cap;
	__u32 opts;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64); /* pid_tgid */
	__type(value, struct cap_args);
} calls SEC(".maps");

static __always_inline bool wanted(__u32 tgid)
{
	return (!target_pid || tgid == target_pid) && tgid != my_pid && cgroup_allowed(filter_cg);
}

/* One check of the current task; opts < 0: not known (the tracepoint). */
static __noinline int emit(void *ctx, int cap, int ret, long opts)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct capable_event e = {};

	if (unique_type != CAPABLE_UNQ_OFF) {
		struct unique_key k = { .cap = cap };
		__u8 one = 1;

		k.who = unique_type == CAPABLE_UNQ_PID ? tgid : bpf_get_current_cgroup_id();
		if (bpf_map_lookup_elem(&seen, &k))
			return 0;
		bpf_map_update_elem(&seen, &k, &one, BPF_ANY);
	}
	e.pid = tgid;
	e.tid = (__u32)id;
	e.uid = (__u32)bpf_get_current_uid_gid();
	e.cap = cap;
	e.ret = ret;
	e.audit = e.insetid = -1;
	if (opts >= 0) {
		e.audit = !(opts & CAP_OPT_NOAUDIT);
		e.insetid = !!(opts & CAP_OPT_INSETID);
	}
	e.kstack_id = stack_id(ctx, &stackmap, !kernel_stack, 0);
	e.ustack_id = stack_id(ctx, &stackmap, !user_stack, BPF_F_USER_STACK);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/capability/cap_capable")
int capable_check(struct trace_event_raw_cap_capable *ctx)
{
	if (!wanted(bpf_get_current_pid_tgid() >> 32))
		return 0;
	return emit(ctx, ctx->cap, ctx->ret, -1);
}

SEC("fexit/cap_capable")
int BPF_PROG(capable_fexit, const void *cred, void *ns, int cap, unsigned int opts, int ret)
{
	if (!wanted(bpf_get_current_pid_tgid() >> 32))
		return 0;
	return emit(ctx, cap, ret, opts);
}

SEC("kprobe/cap_capable")
int capable_kprobe(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct cap_args a = { (__s32)PT_REGS_PARM3(ctx), (__u32)PT_REGS_PARM4(ctx) };

	if (wanted(id >> 32))
		bpf_map_update_elem(&calls, &id, &a, BPF_ANY);
	return 0;
}

SEC("kretprobe/cap_capable")
int capable_kretprobe(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct cap_args *ap = bpf_map_lookup_elem(&calls, &id), a;

	if (!ap)
		return 0;
	a = *ap;
	bpf_map_delete_elem(&calls, &id);
	return emit(ctx, a.cap, (int)PT_REGS_RC(ctx), a.opts);
}
