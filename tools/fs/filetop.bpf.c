/* filetop, kernel side: reads and writes per thread and file, counted in
 * a hash map the user side drains every interval.
 *
 * Ways in, one loaded: fentry or kprobes on vfs_read/vfs_write (as
 * libbpf-tools: the file and the byte count asked for are arguments), or
 * the system calls that reach them, read/pread64 and write/pwrite64
 * (raw tracepoint sys_enter, one program for all), the file found
 * through the task's file table.  The syscall path misses reads and
 * writes the kernel makes itself (exec, splice to a file, nfsd). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "fd_file.bpf.h"
#include "filetop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;
const volatile __u8 regular_file_only = 1;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FILETOP_MAX_ENTRIES);
	__type(key, struct filetop_key);
	__type(value, struct filetop_val);
} entries SEC(".maps");

/* syscall number -> enum filetop_op, filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FILETOP_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

/* a new entry is assembled here (too big for the stack) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct filetop_val);
} scratch SEC(".maps");

static __noinline int account(struct file___vfs *file, __u64 count, __u32 op)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct filetop_key key = {};
	struct filetop_val *v;
	struct inode___vfs *inode;
	__u32 pid = id >> 32, zero = 0;
	int mode;

	if (!file || (target_pid && target_pid != pid))
		return 0;
	inode = BPF_CORE_READ(file, f_inode);
	mode = BPF_CORE_READ(inode, i_mode) & VFS_S_IFMT;
	if (regular_file_only && mode != VFS_S_IFREG)
		return 0;
	key.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	key.rdev = BPF_CORE_READ(inode, i_rdev);
	key.inode = BPF_CORE_READ(inode, i_ino);
	key.pid = pid;
	key.tid = (__u32)id;
	v = bpf_map_lookup_elem(&entries, &key);
	if (!v) {
		v = bpf_map_lookup_elem(&scratch, &zero);
		if (!v)
			return 0;
		__builtin_memset(v, 0, sizeof(*v) - FILETOP_NAME_LEN);
		v->pid = pid;
		v->tid = (__u32)id;
		bpf_get_current_comm(v->comm, sizeof(v->comm));
		v->type = mode == VFS_S_IFREG ? 'R' : mode == VFS_S_IFSOCK ? 'S' : 'O';
		if (bpf_probe_read_kernel_str(v->filename, sizeof(v->filename),
					      BPF_CORE_READ(file, f_path.dentry, d_name.name)) < 0)
			v->filename[0] = 0;
		bpf_map_update_elem(&entries, &key, v, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&entries, &key);
		if (!v)
			return 0; /* the map is full */
	}
	if (op == FT_READ) {
		__sync_fetch_and_add(&v->reads, 1);
		__sync_fetch_and_add(&v->read_bytes, count);
	} else {
		__sync_fetch_and_add(&v->writes, 1);
		__sync_fetch_and_add(&v->write_bytes, count);
	}
	return 0;
}

/* vfs_read/vfs_write(file, buf, count, pos) */
SEC("fentry/vfs_read")
int BPF_PROG(fentry_vfs_read, struct file___vfs *file, void *buf, __u64 count)
{
	return account(file, count, FT_READ);
}

SEC("fentry/vfs_write")
int BPF_PROG(fentry_vfs_write, struct file___vfs *file, void *buf, __u64 count)
{
	return account(file, count, FT_WRITE);
}

SEC("kprobe/vfs_read")
int kprobe_vfs_read(struct pt_regs *ctx)
{
	return account((void *)PT_REGS_PARM1(ctx), PT_REGS_PARM3(ctx), FT_READ);
}

SEC("kprobe/vfs_write")
int kprobe_vfs_write(struct pt_regs *ctx)
{
	return account((void *)PT_REGS_PARM1(ctx), PT_REGS_PARM3(ctx), FT_WRITE);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ft_sys_enter, struct pt_regs *regs, long id)
{
	__u32 nr = (__u32)id;
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);

	if (!v || !*v)
		return 0;
	return account(fd_file(PT_REGS_PARM1_CORE_SYSCALL(regs)), PT_REGS_PARM3_CORE_SYSCALL(regs), *v);
}
