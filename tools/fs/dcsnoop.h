/* dcsnoop: what the BPF side and the user side share. */
#ifndef COREBOX_DCSNOOP_H
#define COREBOX_DCSNOOP_H

#include "../include/event_head.h"

#define DCSNOOP_NAME_LEN 64 /* bcc's MAX_FILE_LEN */

enum dcsnoop_type { DC_MISS, DC_REFERENCE };

struct dcsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 pid;
	__u32 type; /* enum dcsnoop_type */
	char comm[16];
	char filename[DCSNOOP_NAME_LEN];
};

#endif
