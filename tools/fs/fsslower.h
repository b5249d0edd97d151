/* fsslower: what the BPF side and the user side share. */
#ifndef COREBOX_FSSLOWER_H
#define COREBOX_FSSLOWER_H

#include "../include/event_head.h"

#define FSSLOWER_FILE_LEN 32
#define FSSLOWER_COMM_LEN 16
#define FSSLOWER_MAX_SYSCALLS 512

enum fsslower_op { FS_OP_READ, FS_OP_WRITE, FS_OP_OPEN, FS_OP_FSYNC, FS_OP_MAX };

/* Syscall tracepoint path: what a syscall number means (the sysops map):
 * its op, and where the file and the offset come from. */
enum fsslower_sys_kind {
	FS_SYS_NONE,    /* not traced */
	FS_SYS_FD_CUR,  /* fd in arg 0, at the file position (read, write, readv) */
	FS_SYS_FD_POS,  /* fd in arg 0, offset in arg 3 (pread64, preadv) */
	FS_SYS_FD_POS2, /* the same, -1 meaning the file position (preadv2) */
	FS_SYS_OPEN,    /* the file is known at exit: the returned fd */
	FS_SYS_FSYNC,   /* fd in arg 0, the whole file */
};
#define FS_SYS(kind, op) ((kind) << 4 | (op))

struct fsslower_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 delta_us;
	__u64 end_ns;
	__s64 offset;
	__s64 size;
	__u32 pid;
	__u32 op;
	char file[FSSLOWER_FILE_LEN];
	char task[FSSLOWER_COMM_LEN];
};

#endif
