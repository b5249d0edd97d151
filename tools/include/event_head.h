/* The head every event record starts with, shared by the BPF side
 * (events.bpf.h fills it) and the user side (tools/common/event_tool.c
 * reads it before the tool's callback): which container the event came
 * from, as the id of the task's cgroup v2 (its directory's kernfs id;
 * 0: not recorded).  Included by each tool's record header as
 * "../include/event_head.h", a path both compilers resolve. */
#ifndef COREBOX_EVENT_HEAD_H
#define COREBOX_EVENT_HEAD_H

struct event_head {
	unsigned long long cgroup_id; /* __u64, spelled so no header is needed */
};

#endif
