/* vfsstat, kernel side: running counts of vfs_read, vfs_write,
 * vfs_fsync, vfs_open and vfs_create.
 *
 * Three ways in, one of which the user side loads: fentry or kprobes on
 * the five functions (libbpf-tools' way), or, where the kernel has
 * neither, the system calls that reach them, counted at their exit (raw
 * tracepoint sys_exit, one program for all): read/pread64 (vfs_read),
 * write/pwrite64 (vfs_write), fsync/fdatasync (vfs_fsync) unless the fd
 * was bad; open/openat/openat2/creat/open_by_handle_at that succeeded
 * (vfs_open); mknod/mknodat of a regular file that succeeded (vfs_create:
 * open(O_CREAT) creates through the directory's inode operation, not
 * vfs_create).  The syscall path misses what the kernel reads, writes and
 * opens on its own behalf (exec, module loading, nfsd, overlayfs). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "vfsstat.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct vfsstat_counts);
} counts SEC(".maps");

/* syscall number -> stat | when, filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VFSSTAT_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

static __always_inline int bump(__u32 stat)
{
	__u32 zero = 0;
	struct vfsstat_counts *c = bpf_map_lookup_elem(&counts, &zero);

	if (c && stat < S_MAXSTAT)
		__sync_fetch_and_add(&c->stats[stat], 1);
	return 0;
}

#define VFS_PROBES(fn, stat)                 \
	SEC("fentry/" #fn)                   \
	int BPF_PROG(fentry_##fn)            \
	{                                    \
		return bump(stat);           \
	}                                    \
	SEC("kprobe/" #fn)                   \
	int kprobe_##fn(void *ctx)           \
	{                                    \
		return bump(stat);           \
	}
VFS_PROBES(vfs_read, S_READ)
VFS_PROBES(vfs_write, S_WRITE)
VFS_PROBES(vfs_fsync, S_FSYNC)
VFS_PROBES(vfs_open, S_OPEN)
VFS_PROBES(vfs_create, S_CREATE)

#define S_IFMT 0170000
#define S_IFREG 0100000
#define EBADF 9

SEC("tp_btf/sys_exit")
int BPF_PROG(vfs_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 nr = (__u32)CB_SYSCALL_NR(regs);
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);
	__u32 mode;

	ret = CB_SYSCALL_RET(ret); /* a 32-bit kernel's negative ret arrives zero-extended */
	if (!v || !*v)
		return 0;
	switch (*v & 0xf0) {
	case VS_NOT_EBADF:
		if (ret == -EBADF)
			return 0;
		break;
	case VS_OK:
		if (ret < 0)
			return 0;
		break;
	case VS_MKNOD_REG:
	case VS_MKNODAT_REG:
		if (ret < 0)
			return 0;
		/* the saved argument registers: still the caller's at exit */
		mode = (*v & 0xf0) == VS_MKNOD_REG ? PT_REGS_PARM2_CORE_SYSCALL(regs)
						   : PT_REGS_PARM3_CORE_SYSCALL(regs);
		if ((mode & S_IFMT) && (mode & S_IFMT) != S_IFREG)
			return 0;
		break;
	default:
		return 0;
	}
	return bump(*v & 0xf);
}
