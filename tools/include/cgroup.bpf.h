/* -c CGROUP / --cgroup PATH, kernel side: the one-slot "cgroup_map" the
 * user side fills with tool_cgroup_filter() (tools/common/common.h), and
 * the test "is the current task in that cgroup".  Every tool with a
 * cgroup filter declared the same map; it is declared here once. */
#ifndef COREBOX_CGROUP_BPF_H
#define COREBOX_CGROUP_BPF_H

#include "corebox.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_map SEC(".maps");

/* With the filter on (filter_cg), only tasks under the cgroup pass; an
 * error of the helper counts as "not under". */
static __always_inline int cgroup_allowed(__u8 filter_cg)
{
	return !filter_cg || bpf_current_task_under_cgroup(&cgroup_map, 0) > 0;
}

#endif
