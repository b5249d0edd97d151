/* filetop: the map records shared by the BPF and user sides. */
#ifndef COREBOX_FILETOP_H
#define COREBOX_FILETOP_H

#define FILETOP_MAX_ENTRIES 10240
#define FILETOP_NAME_LEN 256 /* NAME_MAX + 1: a dentry name */
#define FILETOP_MAX_SYSCALLS 512

enum filetop_op { FT_READ = 1, FT_WRITE };

/* a file per thread (libbpf-tools' file_id) */
struct filetop_key {
	__u64 inode;
	__u32 dev;
	__u32 rdev;
	__u32 pid;
	__u32 tid;
};

struct filetop_val {
	__u64 reads;
	__u64 read_bytes;  /* requested, as vfs_read's count */
	__u64 writes;
	__u64 write_bytes;
	__u32 pid;
	__u32 tid;
	char comm[16];
	char type; /* R regular, S socket, O other */
	char filename[FILETOP_NAME_LEN];
};

#endif
