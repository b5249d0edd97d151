/* filelife: what the BPF side and the user side share. */
#ifndef COREBOX_FILELIFE_H
#define COREBOX_FILELIFE_H

#include "../include/event_head.h"

#define FILELIFE_NAME_LEN 32 /* DNAME_INLINE_LEN, as upstream */
#define FILELIFE_MAX_SYSCALLS 512

/* the syscall path: what a system call number is (the sysops map) */
enum filelife_sys {
	FL_OPEN = 1, /* open, openat, openat2, creat: fd returned */
	FL_MKNOD,    /* mknod(path, mode, dev) */
	FL_MKNODAT,  /* mknodat(dfd, path, mode, dev) */
	FL_UNLINK,   /* unlink(path) */
	FL_UNLINKAT, /* unlinkat(dfd, path, flags) */
};

struct filelife_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	char file[FILELIFE_NAME_LEN];
	char task[16];
	__u64 delta_ns;
	__u32 tgid;
	__u32 pad;
};

#endif
