/* fsdist's and fsslower's system-call path: keep the calls on a regular
 * file of the traced file system type, the files the fentry/kprobe paths'
 * file operations see.  The user side writes the type names into
 * fs_name1 and fs_name2 (ext4: "ext4", "ext3"; nfs: "nfs", "nfs4"; ""
 * for none). */
#ifndef COREBOX_FS_FS_TYPE_BPF_H
#define COREBOX_FS_FS_TYPE_BPF_H

#include "fd_file.bpf.h"

#define FS_TYPE_NAME_LEN 16 /* fsops.h's FSOPS_TYPE_LEN */
#define O_PATH 010000000

const volatile char fs_name1[FS_TYPE_NAME_LEN] = {};
const volatile char fs_name2[FS_TYPE_NAME_LEN] = {};

static __always_inline int name_is(const char *s, const volatile char *want)
{
	if (!want[0])
		return 0;
	for (int i = 0; i < FS_TYPE_NAME_LEN; i++) {
		if (s[i] != want[i])
			return 0;
		if (!s[i])
			return 1;
	}
	return 1;
}

/* file -> inode -> super_block -> file_system_type name, read with CO-RE */
static __noinline int on_traced_fs(struct file___vfs *f)
{
	struct inode___vfs *inode = BPF_CORE_READ(f, f_inode);
	char name[FS_TYPE_NAME_LEN] = {};
	const char *type;

	if (!inode || (BPF_CORE_READ(inode, i_mode) & VFS_S_IFMT) != VFS_S_IFREG)
		return 0;
	if (BPF_CORE_READ(f, f_flags) & O_PATH)
		return 0;
	type = BPF_CORE_READ(inode, i_sb, s_type, name);
	if (!type || bpf_probe_read_kernel_str(name, sizeof(name), type) < 0)
		return 0;
	return name_is(name, fs_name1) || name_is(name, fs_name2);
}

#endif
