/* The file systems fsdist and fsslower trace (btrfs, ext4, fuse, nfs,
 * xfs, f2fs, bcachefs, zfs) and how: the file system's own file
 * operations through fentry/fexit where the kernel takes them all
 * (libbpf-tools' rule), else kprobes where they are all kernel functions
 * here, else the system calls on files of the file system's type (the
 * BPF side's fs_type.bpf.h).  The BPF objects name their programs
 * BASE_fentry/BASE_fexit and BASE_entry/BASE_exit, BASE one of
 * file_read, file_write, file_open, file_sync, getattr. */
#ifndef COREBOX_FS_FSOPS_H
#define COREBOX_FS_FSOPS_H

#include <stdbool.h>
#include <stddef.h>

/* the operations, in the order both tools number them */
enum { FSOPS_READ, FSOPS_WRITE, FSOPS_OPEN, FSOPS_FSYNC, FSOPS_GETATTR, FSOPS_MAX };

struct fs_config {
	const char *fs;
	const char *funcs[FSOPS_MAX]; /* per operation (getattr: NULL where none) */
	const char *types[2];         /* super_block type names (syscall path) */
};

/* the size of the BPF side's fs_name1/fs_name2 (fs_type.bpf.h) */
#define FSOPS_TYPE_LEN 16

enum fs_path { FS_PATH_FENTRY, FS_PATH_KPROBE, FS_PATH_SYSCALLS };

extern const char *const fsops_names[FSOPS_MAX]; /* "read", ... "getattr" */

/* The file system named by name's first len bytes, or NULL. */
const struct fs_config *fs_by_name(const char *name, size_t len);
/* The file system of alias NAME ("ext4dist" with suffix "dist"), or NULL. */
const struct fs_config *fs_of_applet(const char *name, const char *suffix);

struct obj;
/* The way in for the first nops operations (see above); then fs_setup
 * sets the programs of that way to load and attach (the others not: the
 * syscall path's own two programs are the tool's to set) and, for the
 * syscall path, the globals fs_name1/fs_name2. */
enum fs_path fs_choose_path(struct obj *o, const struct fs_config *fs, int nops);
void fs_setup(struct obj *o, const struct fs_config *fs, int nops, enum fs_path path);
/* -v: "TOOL: OP: fentry/fexit on FUNC" (or kprobe/kretprobe) per operation */
void fs_print_path(const char *tool, const struct fs_config *fs, int nops, enum fs_path path);

#endif
