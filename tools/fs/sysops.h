/* The system-call paths of the VFS tools (vfsstat, filetop, filelife,
 * fileslower, fsdist): one BPF program on sys_enter/sys_exit for every
 * call, and an array map "sysops" that says what each syscall number
 * means to the tool.  The user side fills it from names, skipping those
 * the architecture lacks (open, creat, mknod, unlink on arm64). */
#ifndef COREBOX_FS_SYSOPS_H
#define COREBOX_FS_SYSOPS_H

#include <stddef.h>

struct sysop {
	const char *name; /* syscall name, as syscall_nr() knows it */
	unsigned char val;
};

/* map fd[nr] = val for each op; max: the map's size.  0, or -1 after
 * "TOOL: cannot fill the system call table: ..." on stderr. */
int sysops_fill(const char *tool, int fd, const struct sysop *ops, size_t n, unsigned max);

#endif
