/* mountsnoop, kernel side: the arguments of mount(2), umount2(2) and the
 * new mount API (fsopen, fsconfig, fsmount, move_mount) remembered at
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

static __always_inline int enter(struct trace_event_raw_sys_enter *ctx, __u32 op, int nargs)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct mountsnoop_args a = { .op = op };

	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	a.ts = bpf_ktime_get_ns();
	/* only the call's own arguments: the kernel refuses to attach a
	 * program that reads past the end of the event's record (umount2's
	 * has two); one by one, since a loop makes clang offset the ctx
	 * pointer, which the verifier refuses */
	a.arg[0] = ctx->args[0];
	a.arg[1] = ctx->args[1];
	if (nargs > 2)
		a.arg[2] = ctx->args[2];
	if (nargs > 3)
		a.arg[3] = ctx->args[3];
	if (nargs > 4)
		a.arg[4] = ctx->args[4];
	bpf_map_update_elem(&start, &tid, &a, BPF_ANY);
	return 0;
}

/* a user string into dst; "" when it cannot be read (a NULL source) */
static __always_inline void user_str(char *dst, __u32 size, __u64 src)
{
	if (bpf_probe_read_user_str(dst, size, (const void *)src) < 0)
		dst[0] = 0;
}

/* the call's own fields (see mountsnoop.h).  Not inlined: the six exit
 * programs call one copy (a BPF-to-BPF call), which keeps the object small */
static __noinline void fill(struct mountsnoop_event *e, const struct mountsnoop_args *a)
{
	switch (a->op) {
	case MOUNTSNOOP_MOUNT:
		user_str(e->src, sizeof(e->src), a->arg[0]);
		user_str(e->dest, sizeof(e->dest), a->arg[1]);
		user_str(e->fs, sizeof(e->fs), a->arg[2]);
		e->flags = a->arg[3];
		user_str(e->data, sizeof(e->data), a->arg[4]);
		break;
	case MOUNTSNOOP_UMOUNT:
		user_str(e->dest, sizeof(e->dest), a->arg[0]);
		e->flags = a->arg[1];
		break;
	case MOUNTSNOOP_FSOPEN:
		user_str(e->fs, sizeof(e->fs), a->arg[0]);
		e->flags = (__u32)a->arg[1];
		break;
	case MOUNTSNOOP_FSCONFIG:
		e->fd = (__s32)a->arg[0];
		e->cmd = (__u32)a->arg[1];
		user_str(e->src, MOUNTSNOOP_DATA_LEN, a->arg[2]);
		user_str(e->data, sizeof(e->data), a->arg[3]);
		e->aux = (__s32)a->arg[4];
		break;
	case MOUNTSNOOP_FSMOUNT:
		e->fd = (__s32)a->arg[0];
		e->flags = (__u32)a->arg[1];
		e->attr_flags = (__u32)a->arg[2];
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		e->fd = (__s32)a->arg[0];
		user_str(e->src, sizeof(e->src), a->arg[1]);
		e->to_fd = (__s32)a->arg[2];
		user_str(e->dest, sizeof(e->dest), a->arg[3]);
		e->flags = (__u32)a->arg[4];
		break;
	}
}

/* at exit: the event from the remembered arguments (not inlined either) */
static __noinline int leave(void *ctx, long ret)
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
	e->pid = id >> 32;
	e->tid = tid;
	e->mnt_ns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	e->ret = (__s32)ret;
	e->op = a->op;
	e->flags = 0;
	e->fd = e->to_fd = e->aux = 0;
	e->cmd = e->attr_flags = 0;
	e->fs[0] = e->data[0] = e->src[0] = e->dest[0] = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	fill(e, a);
	events_output(ctx, e, sizeof(*e));
cleanup:
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

#define MOUNTSNOOP_CALL(name, op, nargs)                                         \
	SEC("tracepoint/syscalls/sys_enter_" #name)                              \
	int mountsnoop_##name##_entry(struct trace_event_raw_sys_enter *ctx)     \
	{                                                                        \
		return enter(ctx, op, nargs);                                    \
	}                                                                        \
	SEC("tracepoint/syscalls/sys_exit_" #name)                               \
	int mountsnoop_##name##_exit(struct trace_event_raw_sys_exit *ctx)       \
	{                                                                        \
		return leave(ctx, ctx->ret);                                     \
	}

MOUNTSNOOP_CALL(mount, MOUNTSNOOP_MOUNT, 5)
MOUNTSNOOP_CALL(umount, MOUNTSNOOP_UMOUNT, 2) /* umount2: SYSCALL_DEFINE2(umount, ...) */
MOUNTSNOOP_CALL(fsopen, MOUNTSNOOP_FSOPEN, 2)
MOUNTSNOOP_CALL(fsconfig, MOUNTSNOOP_FSCONFIG, 5)
MOUNTSNOOP_CALL(fsmount, MOUNTSNOOP_FSMOUNT, 3)
MOUNTSNOOP_CALL(move_mount, MOUNTSNOOP_MOVE_MOUNT, 5)
