/* mmapsnoop, shmsnoop (and brkstack's counts, memcount.h): the events of
 * syssnoop.bpf.c shared by the BPF and user sides. */
#ifndef COREBOX_SYSSNOOP_H
#define COREBOX_SYSSNOOP_H

#include "../include/event_head.h"

#define SYSSNOOP_PATH_LEN 32   /* a dentry's inline name (DNAME_INLINE_LEN) */

enum { EV_MMAP = 1, EV_SHM };
enum { SYS_SHMGET, SYS_SHMAT, SYS_SHMDT, SYS_SHMCTL };

struct mmap_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	unsigned int type;            /* EV_MMAP */
	unsigned int pid;
	unsigned long long len, prot, flags, off;
	long long fd;
	char comm[16];
	char path[SYSSNOOP_PATH_LEN]; /* the file's name, "" when anonymous */
};

struct shm_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	unsigned int type;            /* EV_SHM */
	unsigned int pid, tid;
	int sys;                      /* SYS_SHM* */
	unsigned long long ts_ns;
	unsigned long long key, size, shmflg, shmid, cmd, buf, shmaddr;
	long long ret;
	char comm[16];
};

#endif
