/* opensnoop, kernel side: remember open()/openat()/openat2() arguments at
 * syscall entry (by thread id) and emit one event at exit with the result.
 * With -F, a relative path gets the task's cwd components walked here. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "opensnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile int targ_tgid = 0;
const volatile int targ_tid = 0;
const volatile unsigned int targ_uid = OPENSNOOP_INVALID_UID;
const volatile int targ_failed = 0;
const volatile int full_path = 0;
/* -f: show only opens whose flags share a bit with flags_mask, or whose
 * access mode is O_RDONLY when want_rdonly is set; off when both are 0. */
const volatile unsigned int flags_mask = 0;
const volatile int want_rdonly = 0;

#define CB_O_ACCMODE 3

struct open_args {
	const char *fname;
	int flags;
	unsigned int mode;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, u32);
	__type(value, struct open_args);
} start SEC(".maps");

CB_HEAP(heap, struct opensnoop_event);

static __always_inline int allowed(void)
{
	u64 id = bpf_get_current_pid_tgid();

	if (targ_tgid && (u32)(id >> 32) != (u32)targ_tgid)
		return 0;
	if (targ_tid && (u32)id != (u32)targ_tid)
		return 0;
	if (targ_uid != OPENSNOOP_INVALID_UID && (u32)bpf_get_current_uid_gid() != targ_uid)
		return 0;
	return 1;
}

static __always_inline int remember(const char *fname, int flags, unsigned int mode)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct open_args a = { .fname = fname, .flags = flags, .mode = mode };

	bpf_map_update_elem(&start, &tid, &a, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_open")
int opensnoop_enter_open(struct trace_event_raw_sys_enter *ctx)
{
	if (!allowed())
		return 0;
	return remember((const char *)ctx->args[0], (int)ctx->args[1], (unsigned int)ctx->args[2]);
}

SEC("tracepoint/syscalls/sys_enter_openat")
int opensnoop_enter_openat(struct trace_event_raw_sys_enter *ctx)
{
	if (!allowed())
		return 0;
	return remember((const char *)ctx->args[1], (int)ctx->args[2], (unsigned int)ctx->args[3]);
}

SEC("tracepoint/syscalls/sys_enter_openat2")
int opensnoop_enter_openat2(struct trace_event_raw_sys_enter *ctx)
{
	struct open_how how = {};

	if (!allowed())
		return 0;
	bpf_probe_read_user(&how, sizeof(how), (const void *)ctx->args[2]);
	return remember((const char *)ctx->args[1], (int)how.flags, (unsigned int)how.mode);
}

/* Fill slots 1.. with the cwd's components, leaf first, crossing mount
 * points; path_depth = the last slot used.  One counter only, so the
 * verifier's state pruning keeps the bounded loop cheap. */
static __always_inline void walk_cwd(struct opensnoop_event *e)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct dentry *dentry = BPF_CORE_READ(task, fs, pwd.dentry);
	struct vfsmount *vfsmnt = BPF_CORE_READ(task, fs, pwd.mnt);
	unsigned long mnt_off = bpf_core_field_offset(struct mount, mnt);
	struct mount *mnt = (struct mount *)((char *)vfsmnt - mnt_off);
	int slot, depth = 0;

	for (slot = 1; slot < OPENSNOOP_MAX_DEPTH; slot++) {
		struct dentry *parent;
		const unsigned char *name;

		if (dentry == BPF_CORE_READ(vfsmnt, mnt_root)) {
			struct mount *up = BPF_CORE_READ(mnt, mnt_parent);

			if (up == mnt)
				goto done; /* the root of the root mount */
			dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
			mnt = up;
			vfsmnt = (struct vfsmount *)((char *)up + mnt_off);
		}
		parent = BPF_CORE_READ(dentry, d_parent);
		if (dentry == parent)
			goto done;
		name = BPF_CORE_READ(dentry, d_name.name);
		if (bpf_probe_read_kernel_str(&e->fname[slot * OPENSNOOP_NAME_MAX], OPENSNOOP_NAME_MAX,
					      name) < 0) {
			e->get_path_failed = 1;
			goto done;
		}
		depth = slot;
		dentry = parent;
	}
	e->get_path_failed = 1; /* deeper than the slots: the top is missing */
done:
	e->path_depth = depth;
}

static __always_inline int emit(void *ctx, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = (u32)id, zero = 0;
	struct opensnoop_event *e;
	struct open_args *a;
	unsigned long size;
	long n;

	a = bpf_map_lookup_elem(&start, &tid);
	if (!a)
		return 0;
	if (targ_failed && ret >= 0)
		goto cleanup;
	if ((flags_mask || want_rdonly) &&
	    !((unsigned int)a->flags & flags_mask) &&
	    !(want_rdonly && (a->flags & CB_O_ACCMODE) == 0))
		goto cleanup;
	e = bpf_map_lookup_elem(&heap, &zero);
	if (!e)
		goto cleanup;

	e->pid = (int)(id >> 32);
	e->tid = (int)tid;
	e->uid = (u32)bpf_get_current_uid_gid();
	e->ret = (int)ret;
	e->flags = a->flags;
	e->mode = a->mode;
	e->path_depth = 0;
	e->get_path_failed = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));

	if (full_path) {
		n = bpf_probe_read_user_str(e->fname, OPENSNOOP_NAME_MAX, a->fname);
		if (n <= 0)
			e->fname[0] = 0;
		else if (e->fname[0] != '/')
			walk_cwd(e);
		size = (unsigned long)(e->path_depth + 1) * OPENSNOOP_NAME_MAX;
	} else {
		n = bpf_probe_read_user_str(e->fname, sizeof(e->fname), a->fname);
		if (n <= 0) {
			e->fname[0] = 0;
			n = 1;
		}
		size = (unsigned long)n;
	}
	if (size > sizeof(e->fname))
		size = sizeof(e->fname);
	size += __builtin_offsetof(struct opensnoop_event, fname);
	barrier_var(size);
	if (size > sizeof(*e))
		goto cleanup;
	events_output(ctx, e, size);
cleanup:
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_open")
int opensnoop_exit_open(struct trace_event_raw_sys_exit *ctx)
{
	return emit(ctx, ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_openat")
int opensnoop_exit_openat(struct trace_event_raw_sys_exit *ctx)
{
	return emit(ctx, ctx->ret);
}

SEC("tracepoint/syscalls/sys_exit_openat2")
int opensnoop_exit_openat2(struct trace_event_raw_sys_exit *ctx)
{
	return emit(ctx, ctx->ret);
}
