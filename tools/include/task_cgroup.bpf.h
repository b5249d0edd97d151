/* The cgroup v2 id of a task other than current (the one sched_switch
 * runs next, the one woken): task->cgroups->dfl_cgrp->kn->id, what
 * bpf_get_current_cgroup_id() returns for the current task.  CO-RE
 * flavors of the four members read (kernfs ids are 64-bit since 5.5). */
#ifndef COREBOX_TASK_CGROUP_BPF_H
#define COREBOX_TASK_CGROUP_BPF_H

#include "corebox.bpf.h"

struct kernfs_node___tcg {
	__u64 id;
} __attribute__((preserve_access_index));
struct cgroup___tcg {
	struct kernfs_node___tcg *kn;
} __attribute__((preserve_access_index));
struct css_set___tcg {
	struct cgroup___tcg *dfl_cgrp;
} __attribute__((preserve_access_index));
struct task_struct___tcg {
	struct css_set___tcg *cgroups;
} __attribute__((preserve_access_index));

static __always_inline __u64 task_cgroup_id(void *task)
{
	struct task_struct___tcg *t = task;

	return BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
}

#endif
