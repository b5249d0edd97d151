/* mmapsnoop, brkstack and shmsnoop, kernel side: the syscall tracepoints
 * of mmap(2), brk(2) and the System V shared memory calls (one object;
 * each tool loads its own programs).
 *
 *  mmapsnoop: at sys_enter_mmap, the file behind the fd is looked up in
 *             the task's file table (current->files->fdt->fd[fd]), where
 *             the book's version needed kprobes on fd_install/close;
 *  brkstack:  brk() calls counted by user stack and comm;
 *  shmsnoop:  arguments at entry (by thread), the event at exit with the
 *             result (bcc used kprobes on the syscall functions). */
#include "memcount.bpf.h"
#include "events.bpf.h"
#include "syssnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_tgid = 0;
const volatile __u32 targ_tid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct shm_event);
} shm_args SEC(".maps");

/* ---- mmapsnoop ---- */

struct fdtable___m {
	unsigned int max_fds;
	struct file___m **fd;
} __attribute__((preserve_access_index));
struct files_struct___m {
	struct fdtable___m *fdt;
} __attribute__((preserve_access_index));
struct task_struct___m {
	struct files_struct___m *files;
} __attribute__((preserve_access_index));

#define MAP_ANONYMOUS_ 0x20

SEC("tracepoint/syscalls/sys_enter_mmap")
int mmap_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct mmap_event e = {};
	long fd = (long)ctx->args[4];

	if (!mem_task_allowed(targ_tgid, targ_tid))
		return 0;
	e.type = EV_MMAP;
	e.pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	e.len = ctx->args[1];
	e.prot = ctx->args[2];
	e.flags = ctx->args[3];
	e.off = ctx->args[5];
	e.fd = fd;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	if (fd >= 0 && !(e.flags & MAP_ANONYMOUS_)) {
		struct task_struct___m *t = (void *)bpf_get_current_task();
		struct fdtable___m *fdt = BPF_CORE_READ(t, files, fdt);
		struct file___m **fds = BPF_CORE_READ(fdt, fd);
		struct file___m *f = NULL;

		if (fd < BPF_CORE_READ(fdt, max_fds)) {
			bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
			if (f)
				bpf_probe_read_kernel_str(e.path, sizeof(e.path), BPF_CORE_READ(f, f_path.dentry, d_name.name));
		}
	}
	events_output(ctx, &e, sizeof(e));
	return 0;
}

/* ---- brkstack ---- */

SEC("tracepoint/syscalls/sys_enter_brk")
int brk_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct memcount_key k = {};

	if (!mem_task_allowed(targ_tgid, targ_tid))
		return 0;
	memcount_key_task(&k);
	k.stackid = (int)bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);
	counts_add(&counts, &k, 1);
	return 0;
}

/* ---- shmsnoop ---- */

static __always_inline struct shm_event *shm_begin(int sys)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct shm_event e = {};

	if (!mem_task_allowed(targ_tgid, targ_tid))
		return NULL;
	e.type = EV_SHM;
	e.sys = sys;
	e.pid = (__u32)(id >> 32);
	e.tid = tid;
	bpf_map_update_elem(&shm_args, &tid, &e, BPF_ANY);
	return bpf_map_lookup_elem(&shm_args, &tid);
}

static __always_inline int shm_end(void *ctx, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct shm_event *e = bpf_map_lookup_elem(&shm_args, &tid);

	if (!e)
		return 0;
	e->ret = ret;
	e->ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	events_output(ctx, e, sizeof(*e));
	bpf_map_delete_elem(&shm_args, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_shmget")
int shmget_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct shm_event *e = shm_begin(SYS_SHMGET);

	if (e) {
		e->key = ctx->args[0];
		e->size = ctx->args[1];
		e->shmflg = ctx->args[2];
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_shmat")
int shmat_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct shm_event *e = shm_begin(SYS_SHMAT);

	if (e) {
		e->shmid = ctx->args[0];
		e->shmaddr = ctx->args[1];
		e->shmflg = ctx->args[2];
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_shmdt")
int shmdt_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct shm_event *e = shm_begin(SYS_SHMDT);

	if (e)
		e->shmaddr = ctx->args[0];
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_shmctl")
int shmctl_enter(struct trace_event_raw_sys_enter *ctx)
{
	struct shm_event *e = shm_begin(SYS_SHMCTL);

	if (e) {
		e->shmid = ctx->args[0];
		e->cmd = ctx->args[1];
		e->buf = ctx->args[2];
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_shmget")
int shmget_exit(struct trace_event_raw_sys_exit *ctx) { return shm_end(ctx, ctx->ret); }
SEC("tracepoint/syscalls/sys_exit_shmat")
int shmat_exit(struct trace_event_raw_sys_exit *ctx) { return shm_end(ctx, ctx->ret); }
SEC("tracepoint/syscalls/sys_exit_shmdt")
int shmdt_exit(struct trace_event_raw_sys_exit *ctx) { return shm_end(ctx, ctx->ret); }
SEC("tracepoint/syscalls/sys_exit_shmctl")
int shmctl_exit(struct trace_event_raw_sys_exit *ctx) { return shm_end(ctx, ctx->ret); }
