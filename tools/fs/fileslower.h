/* fileslower: what the BPF side and the user side share. */
#ifndef COREBOX_FILESLOWER_H
#define COREBOX_FILESLOWER_H

#include "../include/event_head.h"

#define FILESLOWER_NAME_LEN 40 /* more than bcc's 32: to tell a longer name */
#define FILESLOWER_MAX_SYSCALLS 512

enum fileslower_mode { FSL_READ, FSL_WRITE };

struct fileslower_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 delta_us;
	__u32 mode; /* enum fileslower_mode */
	__u32 tid;
	__u32 sz;   /* bytes asked for */
	__u32 pad;
	char name[FILESLOWER_NAME_LEN];
	char comm[16];
};

#endif
