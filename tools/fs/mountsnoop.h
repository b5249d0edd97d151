/* mountsnoop: the records shared by the BPF and user sides. */
#ifndef COREBOX_MOUNTSNOOP_H
#define COREBOX_MOUNTSNOOP_H

#define MOUNTSNOOP_FS_LEN 16 /* libbpf-tools: 8, which cuts "fuse.sshfs" */
#define MOUNTSNOOP_DATA_LEN 512
#define MOUNTSNOOP_PATH_LEN 4096

enum mountsnoop_op { MOUNTSNOOP_MOUNT = 1, MOUNTSNOOP_UMOUNT };

/* The arguments at syscall entry, by thread */
struct mountsnoop_args {
	__u64 ts;
	__u64 flags;
	__u64 src, dest, fs, data; /* user pointers (umount: dest only) */
	__u32 op;
};

struct mountsnoop_event {
	__u64 delta_ns; /* entry to exit */
	__u64 flags;
	__u32 pid;
	__u32 tid;
	__u32 mnt_ns; /* the caller's mount namespace inode */
	__s32 ret;
	__u32 op;
	char comm[16];
	char fs[MOUNTSNOOP_FS_LEN];
	char data[MOUNTSNOOP_DATA_LEN];
	char src[MOUNTSNOOP_PATH_LEN];
	char dest[MOUNTSNOOP_PATH_LEN];
};

#endif
