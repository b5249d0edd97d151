/* opensnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_OPENSNOOP_H
#define COREBOX_OPENSNOOP_H

#include "../include/event_head.h"

#define OPENSNOOP_NAME_MAX 255   /* bytes per path component slot */
#define OPENSNOOP_MAX_DEPTH 32   /* -F: slots (the path as given + cwd parts) */
#define OPENSNOOP_INVALID_UID ((unsigned int)-1)

/* Only the first offsetof(fname) + (path_depth + 1) * NAME_MAX bytes are
 * sent.  Slot 0 is the path as passed to open(); with -F and a relative
 * path, slots 1..path_depth hold the cwd's components, leaf first. */
struct opensnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	int pid;             /* tgid */
	int tid;
	unsigned int uid;
	int ret;             /* fd, or -errno */
	int flags;
	unsigned int mode;
	int path_depth;
	int get_path_failed;
	char comm[16];
	char fname[OPENSNOOP_NAME_MAX * OPENSNOOP_MAX_DEPTH];
};

#endif
