/* sigsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SIGSNOOP_H
#define COREBOX_SIGSNOOP_H

#include "../include/event_head.h"

struct sigsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 pid;  /* the sender's tgid */
	__s32 tpid; /* the target as the sender named it (kill's pid may be 0 or -pgrp) */
	__s32 sig;
	__s32 ret;  /* kill/tkill/tgkill: the return value; signal_generate: its errno field */
	char comm[16];
};

#endif
