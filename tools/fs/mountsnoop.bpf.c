/* mountsnoop, kernel side: mount(2) and umount2(2) arguments remembered at
 * syscall entry (by thread), one event at exit with the result, the time
 * the call took and the caller's mount namespace. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "mountsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0; /* tgid, 0: all */

/* task->nsproxy->mnt_ns->ns.inum (CO-RE flavors: the trimmed vmlinux.h
 * has no mount namespace types) */
struct ns_common___ms {
	unsigned int inum;
} __attribute__((preserve_access_index));
struct mnt_namespace___ms {
	struct ns_common___ms ns;
} __attribute__((preserve_access_index));
struct nsproxy___ms {
	struct mnt_namespace___ms *mnt_ns;
} __attribute__((preserve_access_index));
struct task_struct___ms {
	struct nsproxy___ms *nsproxy;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct mountsnoop_args);
} start SEC(".maps");

CB_HEAP(heap, struct mountsnoop_event);

static __always_inline int enter(struct mountsnoop_args *a)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;

	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	a->ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &tid, a, BPF_ANY);
	return 0;
}

/* a user string into dst; "" when it cannot be read (a NULL source) */
static __always_inline void user_str(char *dst, __u32 size, __u64 src)
{
	if (bpf_probe_read_user_str(dst, size, (const void *)src) < 0)
		dst[0] = 0;
}

static __always_inline int leave(void *ctx, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, zero = 0;
	struct task_struct___ms *task;
	struct mountsnoop_args *a;
	struct mountsnoop_event *e;

	a = bpf_map_lookup_elem(&start, &tid);
	if (!a)
		return 0;
	e = bpf_map_lookup_elem(&heap, &zero);
	if (!e)
		goto cleanup;
	task = (struct task_struct___ms *)bpf_get_current_task();
	e->delta_ns = bpf_ktime_get_ns() - a->ts;
	e->flags = a->flags;
	e->pid = id >> 32;
	e->tid = tid;
	e->mnt_ns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	e->ret = (__s32)ret;
	e->op = a->op;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	user_str(e->dest, sizeof(e->dest), a->dest);
	e->fs[0] = e->src[0] = e->data[0] = 0;
	if (a->op == MOUNTSNOOP_MOUNT) {
		user_str(e->fs, sizeof(e->fs), a->fs);
		user_str(e->src, sizeof(e->src), a->src);
		user_str(e->data, sizeof(e->data), a->data);
	}
	events_output(ctx, e, sizeof(*e));
cleanup:
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

/* mount(source, target, fstype, flags, data) */
SEC("tracepoint/syscalls/sys_enter_mount")
int mountsnoop_mount_entry(struct trace_event_raw_sys_enter *ctx)
{
	struct mountsnoop_args a = {
		.op = MOUNTSNOOP_MOUNT,
		.src = ctx->args[0],
		.dest = ctx->args[1],
		.fs = ctx->args[2],
		.flags = ctx->args[3],
		.data = ctx->args[4],
	};

	return enter(&a);
}

SEC("tracepoint/syscalls/sys_exit_mount")
int mountsnoop_mount_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx, ctx->ret);
}

/* umount2(target, flags): the event is sys_enter_umount */
SEC("tracepoint/syscalls/sys_enter_umount")
int mountsnoop_umount_entry(struct trace_event_raw_sys_enter *ctx)
{
	struct mountsnoop_args a = {
		.op = MOUNTSNOOP_UMOUNT,
		.dest = ctx->args[0],
		.flags = ctx->args[1],
	};

	return enter(&a);
}

SEC("tracepoint/syscalls/sys_exit_umount")
int mountsnoop_umount_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx, ctx->ret);
}
