/* The struct file behind a file descriptor of the current task, and the
 * few fields of it the VFS tools read (filelife, filetop, fileslower,
 * fsdist), for the syscall-tracepoint paths: the task's file table gives
 * the file (as the kernel's fdget would, without the reference).
 *
 * CO-RE flavors ("X___vfs" matches the kernel's X by field names): the
 * objects' BTF then carries these few members, not task_struct's whole
 * type graph. */
#ifndef COREBOX_FS_FD_FILE_BPF_H
#define COREBOX_FS_FD_FILE_BPF_H

#include "corebox.bpf.h"

struct file_system_type___vfs {
	const char *name;
} __attribute__((preserve_access_index));
struct super_block___vfs {
	unsigned int s_dev;
	struct file_system_type___vfs *s_type;
} __attribute__((preserve_access_index));
struct inode___vfs {
	unsigned short i_mode;
	unsigned long i_ino;
	unsigned int i_rdev;
	struct super_block___vfs *i_sb;
} __attribute__((preserve_access_index));
struct qstr___vfs {
	const unsigned char *name;
} __attribute__((preserve_access_index));
struct dentry___vfs {
	struct dentry___vfs *d_parent;
	struct qstr___vfs d_name;
	struct inode___vfs *d_inode;
} __attribute__((preserve_access_index));
struct path___vfs {
	struct dentry___vfs *dentry;
} __attribute__((preserve_access_index));
struct file___vfs {
	struct path___vfs f_path;
	struct inode___vfs *f_inode;
	unsigned int f_mode;
	unsigned int f_flags;
	long long f_pos;
} __attribute__((preserve_access_index));
struct fdtable___vfs {
	unsigned int max_fds;
	struct file___vfs **fd;
} __attribute__((preserve_access_index));
struct files_struct___vfs {
	struct fdtable___vfs *fdt;
} __attribute__((preserve_access_index));
struct task_struct___vfs {
	struct files_struct___vfs *files;
} __attribute__((preserve_access_index));

#define VFS_S_IFMT 0170000
#define VFS_S_IFREG 0100000
#define VFS_S_IFSOCK 0140000
#define VFS_S_IFDIR 0040000

/* NULL when fd is not open (or out of the table's range) */
static __always_inline struct file___vfs *fd_file(__u64 fd)
{
	struct task_struct___vfs *task = (void *)bpf_get_current_task();
	struct fdtable___vfs *fdt = BPF_CORE_READ(task, files, fdt);
	struct file___vfs **fds, *f = NULL;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

#endif
