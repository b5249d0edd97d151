/* The -c CGROUP filter of the tools' kernel sides: the one-slot
 * "cgroup_map" the user side fills (tool_cgroup_filter() looks it up by
 * that name) and the test of the current task.  One copy, so that every
 * tool filters alike. */
#ifndef COREBOX_CGROUP_BPF_H
#define COREBOX_CGROUP_BPF_H

#include "corebox.bpf.h"

const volatile __u8 filter_cg = 0; /* set with -c */

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_map SEC(".maps");

/* 1 when no -c was given or the current task is in the cgroup. */
static __always_inline int cgroup_allowed(void)
{
	return !filter_cg || bpf_current_task_under_cgroup(&cgroup_map, 0) > 0;
}

#endif
