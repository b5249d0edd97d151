/* fileslower, kernel side: synchronous reads and writes of named files
 * slower than min_us, as bcc's fileslower: from the entry of vfs_read/
 * vfs_write (a file whose file_operations have read_iter/write_iter, a
 * regular file unless all_files, with a name) to its return.
 *
 * Ways in, one loaded: fentry/fexit or kprobe/kretprobe on vfs_read and
 * vfs_write, or the system calls that reach them, read/pread64 and
 * write/pwrite64 (raw tracepoints sys_enter/sys_exit), the file found
 * through the task's file table; the latency is then the system call's. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "fd_file.bpf.h"
#include "fileslower.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;
/* the tool itself: its output may go to a file, whose writes would be
 * traced and printed, and traced again (bcc feeds back so with 0 ms) */
const volatile __u32 self_tgid = 0;
const volatile __u8 all_files = 0;
const volatile __u64 min_us = 10000;

struct file_operations___fsl {
	void *read_iter;
	void *write_iter;
} __attribute__((preserve_access_index));
struct file___fsl {
	struct file_operations___fsl *f_op;
} __attribute__((preserve_access_index));

struct val {
	__u64 ts;
	__u32 sz;
	__u32 mode;
	__s32 nr; /* syscall path: the call's number; -1 otherwise */
	__u32 pad;
	char name[FILESLOWER_NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct val);
} entryinfo SEC(".maps");

/* syscall number -> 1 + enum fileslower_mode, filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FILESLOWER_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

static __noinline int rw_entry(struct file___vfs *file, __u64 count, __u32 mode, __s32 nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_operations___fsl *fop;
	__u32 tid = (__u32)id;
	struct val v = {};

	if (!file || (target_tgid && target_tgid != id >> 32) || self_tgid == id >> 32)
		return 0;
	/* skip I/O that is not synchronous (no read_iter/write_iter), as bcc */
	fop = BPF_CORE_READ((struct file___fsl *)file, f_op);
	if (!(mode == FSL_READ ? BPF_CORE_READ(fop, read_iter) : BPF_CORE_READ(fop, write_iter)))
		return 0;
	if (!all_files && (BPF_CORE_READ(file, f_inode, i_mode) & VFS_S_IFMT) != VFS_S_IFREG)
		return 0;
	if (bpf_probe_read_kernel_str(v.name, sizeof(v.name), BPF_CORE_READ(file, f_path.dentry, d_name.name)) <= 1)
		return 0; /* no name */
	v.ts = bpf_ktime_get_ns();
	v.sz = (__u32)count;
	v.mode = mode;
	v.nr = nr;
	bpf_map_update_elem(&entryinfo, &tid, &v, BPF_ANY);
	return 0;
}

/* nr: the syscall's number at its exit (-1 on the function paths) */
static __noinline int rw_return(void *ctx, __s32 nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct fileslower_event e = {};
	struct val *vp;
	__u64 delta_us;

	vp = bpf_map_lookup_elem(&entryinfo, &tid);
	if (!vp)
		return 0;
	if (vp->nr != nr) { /* a stale entry of a thread killed inside a call */
		bpf_map_delete_elem(&entryinfo, &tid);
		return 0;
	}
	delta_us = (bpf_ktime_get_ns() - vp->ts) / 1000;
	e.mode = vp->mode;
	e.sz = vp->sz;
	__builtin_memcpy(e.name, vp->name, sizeof(e.name));
	bpf_map_delete_elem(&entryinfo, &tid);
	if (delta_us < min_us)
		return 0;
	e.delta_us = delta_us;
	e.tid = tid;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

/* vfs_read/vfs_write(file, buf, count, pos) */
SEC("fentry/vfs_read")
int BPF_PROG(fentry_vfs_read, struct file___vfs *file, void *buf, __u64 count)
{
	return rw_entry(file, count, FSL_READ, -1);
}

SEC("fexit/vfs_read")
int BPF_PROG(fexit_vfs_read)
{
	return rw_return(ctx, -1);
}

SEC("fentry/vfs_write")
int BPF_PROG(fentry_vfs_write, struct file___vfs *file, void *buf, __u64 count)
{
	return rw_entry(file, count, FSL_WRITE, -1);
}

SEC("fexit/vfs_write")
int BPF_PROG(fexit_vfs_write)
{
	return rw_return(ctx, -1);
}

SEC("kprobe/vfs_read")
int kprobe_vfs_read(struct pt_regs *ctx)
{
	return rw_entry((void *)PT_REGS_PARM1(ctx), PT_REGS_PARM3(ctx), FSL_READ, -1);
}

SEC("kretprobe/vfs_read")
int kretprobe_vfs_read(struct pt_regs *ctx)
{
	return rw_return(ctx, -1);
}

SEC("kprobe/vfs_write")
int kprobe_vfs_write(struct pt_regs *ctx)
{
	return rw_entry((void *)PT_REGS_PARM1(ctx), PT_REGS_PARM3(ctx), FSL_WRITE, -1);
}

SEC("kretprobe/vfs_write")
int kretprobe_vfs_write(struct pt_regs *ctx)
{
	return rw_return(ctx, -1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(fsl_sys_enter, struct pt_regs *regs, long id)
{
	__u32 nr = (__u32)id;
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);

	if (!v || !*v)
		return 0;
	return rw_entry(fd_file(PT_REGS_PARM1_CORE_SYSCALL(regs)), PT_REGS_PARM3_CORE_SYSCALL(regs), *v - 1,
			(__s32)nr);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fsl_sys_exit, struct pt_regs *regs)
{
	return rw_return(ctx, (__s32)CB_SYSCALL_NR(regs));
}
