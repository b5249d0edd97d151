/* execsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_EXECSNOOP_H
#define COREBOX_EXECSNOOP_H

#include "../include/event_head.h"

#define EXECSNOOP_ARGSIZE 128          /* bytes kept per argument (incl. NUL) */
#define EXECSNOOP_TOTAL_MAX_ARGS 60    /* --max-args upper bound */
#define EXECSNOOP_DEFAULT_MAXARGS 20
#define EXECSNOOP_ARGS_BUF (EXECSNOOP_TOTAL_MAX_ARGS * EXECSNOOP_ARGSIZE)
#define EXECSNOOP_LAST_ARG (EXECSNOOP_ARGS_BUF - EXECSNOOP_ARGSIZE)
#define EXECSNOOP_INVALID_UID ((unsigned int)-1)

/* Only the first offsetof(args) + args_size bytes are sent. */
struct execsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	int pid;            /* tgid */
	int ppid;           /* real_parent's tgid */
	unsigned int uid;
	int retval;
	int args_count;     /* strings captured; max_args + 1 when more existed */
	unsigned int args_size; /* bytes used in args */
	char comm[16];      /* after the exec: the new program's name */
	char args[EXECSNOOP_ARGS_BUF]; /* NUL-separated argv strings */
};

#endif
