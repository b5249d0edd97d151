/* vfsstat: what the BPF side and the user side share. */
#ifndef COREBOX_VFSSTAT_H
#define COREBOX_VFSSTAT_H

/* libbpf-tools' columns, in its order */
enum vfsstat_stat { S_READ, S_WRITE, S_FSYNC, S_OPEN, S_CREATE, S_MAXSTAT };

#define VFSSTAT_MAX_SYSCALLS 512

/* The syscall path: what a system call number counts as (the sysops map),
 * decided at its exit: the low bits are the stat, the high bits when. */
enum vfsstat_when {
	VS_NOT_EBADF = 1 << 4, /* the fd was open: vfs_read/write/fsync ran */
	VS_OK = 2 << 4,        /* it succeeded: an open reached vfs_open */
	VS_MKNOD_REG = 3 << 4, /* mknod(path, mode, dev) made a regular file */
	VS_MKNODAT_REG = 4 << 4, /* mknodat(dfd, path, mode, dev): the same */
};

/* running totals since start (the user side takes differences) */
struct vfsstat_counts {
	__u64 stats[S_MAXSTAT];
};

#endif
