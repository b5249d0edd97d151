/* mountsnoop: the records shared by the BPF and user sides. */
#ifndef COREBOX_MOUNTSNOOP_H
#define COREBOX_MOUNTSNOOP_H

#include "../include/event_head.h"

#define MOUNTSNOOP_FS_LEN 16 /* libbpf-tools: 8, which cuts "fuse.sshfs" */
#define MOUNTSNOOP_DATA_LEN 512
#define MOUNTSNOOP_PATH_LEN 4096

enum mountsnoop_op {
	MOUNTSNOOP_MOUNT = 1,
	MOUNTSNOOP_UMOUNT,
	MOUNTSNOOP_FSOPEN,
	MOUNTSNOOP_FSCONFIG,
	MOUNTSNOOP_FSMOUNT,
	MOUNTSNOOP_MOVE_MOUNT,
};

/* The raw arguments at syscall entry, by thread */
struct mountsnoop_args {
	__u64 ts;
	__u64 arg[5];
	__u32 op;
};

/* One call.  Which fields a call fills (the others are 0 or ""):
 *   mount(src, dest, fs, flags, data)     umount(dest, flags)
 *   fsopen(fs, flags)                     fsmount(fd, flags, attr_flags)
 *   fsconfig(fd, cmd, src = the key, data = the value, aux)
 *   move_mount(fd, src, to_fd, dest, flags) */
struct mountsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 delta_ns; /* entry to exit */
	__u64 flags;
	__u32 pid;
	__u32 tid;
	__u32 mnt_ns; /* the caller's mount namespace inode */
	__s32 ret;
	__u32 op;
	__s32 fd;
	__s32 to_fd;
	__u32 cmd;
	__s32 aux;
	__u32 attr_flags;
	char comm[16];
	char fs[MOUNTSNOOP_FS_LEN];
	char data[MOUNTSNOOP_DATA_LEN];
	char src[MOUNTSNOOP_PATH_LEN];
	char dest[MOUNTSNOOP_PATH_LEN];
};

#endif
