/* fsslower, kernel side: reads, writes, opens and fsyncs of one file
 * system that take longer than min_lat_ns.
 *
 * Three ways in, one of which the user side loads:
 *  - fentry/fexit on the file system's four file operations (ext4:
 *    ext4_file_read_iter, ext4_file_write_iter, ext4_file_open,
 *    ext4_sync_file), retargeted at run time;
 *  - kprobe/kretprobe on the same functions;
 *  - where the kernel has neither: the read/write/open/fsync system
 *    calls (raw tracepoints sys_enter/sys_exit), keeping the calls whose file is a
 *    regular file of a super_block of that file system type (fd -> file
 *    -> inode -> super_block -> file_system_type name, read with CO-RE).
 * Each records {start time, file, offset} per thread at entry and sends
 * an event at exit when the call was slow enough. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "fs_type.bpf.h"
#include "fsslower.h"

/* The kernel structures read: fd_file.bpf.h's CO-RE flavors, and the
 * read/write file operations' kiocb. */
struct kiocb___vfs {
	struct file___vfs *ki_filp;
	long long ki_pos;
} __attribute__((preserve_access_index));

#define LLONG_MAX 0x7fffffffffffffffLL

const volatile __u32 target_pid = 0;
const volatile __u32 self_pid = 0; /* the tool: its output may be on that file system */
const volatile __u64 min_lat_ns = 0;

struct data {
	__u64 ts;
	__s64 start;
	__s64 end;
	struct file___vfs *fp;
	__u32 op;
	__s32 nr; /* syscall path: the call's number */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct data);
} starts SEC(".maps");

/* syscall number -> FS_SYS(kind, op), filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FSSLOWER_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

static __always_inline int probe_entry(struct file___vfs *fp, __s64 start, __s64 end, __u32 op, __s32 nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct data d = {};

	if ((target_pid && target_pid != id >> 32) || self_pid == id >> 32)
		return 0;
	d.ts = bpf_ktime_get_ns();
	d.start = start;
	d.end = end;
	d.fp = fp;
	d.op = op;
	d.nr = nr;
	bpf_map_update_elem(&starts, &tid, &d, BPF_ANY);
	return 0;
}

static __noinline int send(void *ctx, struct data *d, __s64 size)
{
	__u64 id = bpf_get_current_pid_tgid(), end_ns = bpf_ktime_get_ns(), delta_ns;
	struct fsslower_event e = {};
	struct dentry___vfs *dentry;
	const unsigned char *name;

	delta_ns = end_ns - d->ts;
	if (delta_ns <= min_lat_ns || !d->fp)
		return 0;
	e.delta_us = delta_ns / 1000;
	e.end_ns = end_ns;
	e.offset = d->start;
	e.size = d->op == FS_OP_FSYNC ? d->end - d->start : size;
	e.pid = id >> 32;
	e.op = d->op;
	dentry = BPF_CORE_READ(d->fp, f_path.dentry);
	name = BPF_CORE_READ(dentry, d_name.name);
	bpf_probe_read_kernel_str(e.file, sizeof(e.file), name);
	bpf_get_current_comm(e.task, sizeof(e.task));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

static __always_inline int probe_exit(void *ctx, __s64 size)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct data *dp, d;

	dp = bpf_map_lookup_elem(&starts, &tid);
	if (!dp)
		return 0;
	d = *dp;
	bpf_map_delete_elem(&starts, &tid);
	return send(ctx, &d, size);
}

/* A read or write file operation: its kiocb holds the file and offset. */
static __always_inline int kiocb_entry(struct kiocb___vfs *iocb, int op)
{
	return probe_entry(BPF_CORE_READ(iocb, ki_filp), BPF_CORE_READ(iocb, ki_pos), 0, op, -1);
}

/* ---- fentry/fexit ---- */

/* file_read_fentry/fexit, file_write_fentry/fexit: (iocb, iov_iter) -> ssize_t */
#define KIOCB_FENTRY(rw, op)                                                      \
	SEC("fentry/file_" #rw)                                                   \
	int BPF_PROG(file_##rw##_fentry, struct kiocb___vfs *iocb)                 \
	{                                                                         \
		return kiocb_entry(iocb, op);                                     \
	}                                                                         \
	SEC("fexit/file_" #rw)                                                    \
	int BPF_PROG(file_##rw##_fexit, struct kiocb___vfs *iocb, void *iter, long ret) \
	{                                                                         \
		return probe_exit(ctx, ret);                                      \
	}
KIOCB_FENTRY(read, FS_OP_READ)
KIOCB_FENTRY(write, FS_OP_WRITE)

SEC("fentry/file_open")
int BPF_PROG(file_open_fentry, struct inode___vfs *inode, struct file___vfs *file)
{
	return probe_entry(file, 0, 0, FS_OP_OPEN, -1);
}

SEC("fexit/file_open")
int BPF_PROG(file_open_fexit)
{
	return probe_exit(ctx, 0);
}

SEC("fentry/file_sync")
int BPF_PROG(file_sync_fentry, struct file___vfs *file, long long start, long long end)
{
	return probe_entry(file, start, end, FS_OP_FSYNC, -1);
}

SEC("fexit/file_sync")
int BPF_PROG(file_sync_fexit)
{
	return probe_exit(ctx, 0);
}

/* ---- kprobe/kretprobe ---- */

/* file_read_entry/exit, file_write_entry/exit */
#define KIOCB_KPROBE(rw, op)                                                      \
	SEC("kprobe/file_" #rw)                                                   \
	int file_##rw##_entry(struct pt_regs *ctx)                                \
	{                                                                         \
		return kiocb_entry((struct kiocb___vfs *)PT_REGS_PARM1(ctx), op);  \
	}                                                                         \
	SEC("kretprobe/file_" #rw)                                                \
	int file_##rw##_exit(struct pt_regs *ctx)                                 \
	{                                                                         \
		return probe_exit(ctx, (long)PT_REGS_RC(ctx));                    \
	}
KIOCB_KPROBE(read, FS_OP_READ)
KIOCB_KPROBE(write, FS_OP_WRITE)

SEC("kprobe/file_open")
int file_open_entry(struct pt_regs *ctx)
{
	return probe_entry((struct file___vfs *)PT_REGS_PARM2(ctx), 0, 0, FS_OP_OPEN, -1);
}

SEC("kretprobe/file_open")
int file_open_exit(struct pt_regs *ctx)
{
	return probe_exit(ctx, 0);
}

SEC("kprobe/file_sync")
int file_sync_entry(struct pt_regs *ctx)
{
	return probe_entry((struct file___vfs *)PT_REGS_PARM1(ctx), (long long)PT_REGS_PARM2(ctx),
			   (long long)PT_REGS_PARM3(ctx), FS_OP_FSYNC, -1);
}

SEC("kretprobe/file_sync")
int file_sync_exit(struct pt_regs *ctx)
{
	return probe_exit(ctx, 0);
}

/* ---- system call tracepoints ---- */

/* One program on every system call's entry and exit (a pair of raw
 * tracepoints: attaching to each call's own tracepoints would make the
 * tool take seconds to detach, one RCU grace period per tracepoint); the
 * sysops map says which numbers count. */
SEC("tp_btf/sys_enter")
int BPF_PROG(fs_sys_enter, struct pt_regs *regs, long id)
{
	__u32 nr = (__u32)id;
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);
	struct file___vfs *f;
	__s64 pos;
	int kind;

	if (!v || !*v)
		return 0;
	kind = *v >> 4;
	if (kind == FS_SYS_OPEN) /* the file is known at exit */
		return probe_entry(NULL, 0, 0, FS_OP_OPEN, (__s32)nr);
	f = fd_file(PT_REGS_PARM1_CORE_SYSCALL(regs));
	if (!f || !on_traced_fs(f))
		return 0;
	if (kind == FS_SYS_FSYNC)
		return probe_entry(f, 0, LLONG_MAX, FS_OP_FSYNC, (__s32)nr);
	if (kind == FS_SYS_FD_CUR)
		pos = BPF_CORE_READ(f, f_pos);
	else
		pos = (__s64)PT_REGS_PARM4_CORE_SYSCALL(regs);
	if (kind == FS_SYS_FD_POS2 && pos == -1)
		pos = BPF_CORE_READ(f, f_pos);
	return probe_entry(f, pos, 0, *v & 0xf, (__s32)nr);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fs_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct data *dp, d;

	ret = CB_SYSCALL_RET(ret); /* a 32-bit kernel's negative ret arrives zero-extended */
	dp = bpf_map_lookup_elem(&starts, &tid);
	if (!dp)
		return 0;
	d = *dp;
	bpf_map_delete_elem(&starts, &tid);
	/* the exit of the call recorded (a thread killed inside one leaves a
	 * stale entry behind) */
	if (d.nr != (__s32)CB_SYSCALL_NR(regs))
		return 0;
	if (d.op == FS_OP_OPEN) {
		if (ret < 0)
			return 0;
		d.fp = fd_file(ret);
		if (!d.fp || !on_traced_fs(d.fp))
			return 0;
		return send(ctx, &d, 0);
	}
	return send(ctx, &d, ret);
}

char LICENSE[] SEC("license") = "GPL";
