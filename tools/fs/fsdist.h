/* fsdist: what the BPF side and the user side share. */
#ifndef COREBOX_FSDIST_H
#define COREBOX_FSDIST_H

#define FSDIST_MAX_SLOTS 32
#define FSDIST_MAX_SYSCALLS 512

enum fsdist_op { FD_READ, FD_WRITE, FD_OPEN, FD_FSYNC, FD_GETATTR, FD_MAX_OP };

/* the syscall path: what a system call number is (the sysops map) */
enum fsdist_sys_kind {
	FD_SYS_FD = 1, /* fd in arg 0: read, write, fsync, fstat families */
	FD_SYS_OPEN,   /* the file is known at exit: the returned fd */
	FD_SYS_AT_EMPTY3, /* statx(dfd, "", flags): flags in arg 2 with AT_EMPTY_PATH: fstat of dfd */
	FD_SYS_AT_EMPTY4, /* newfstatat(dfd, "", buf, flags): the same, flags in arg 3 (glibc's fstat) */
};
#define FD_SYS(kind, op) ((kind) << 4 | (op))

/* running totals per operation (the user side takes differences) */
struct fsdist_hist {
	__u32 slots[FSDIST_MAX_SLOTS];
};

#endif
