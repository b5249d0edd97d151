/* The kernel side of the tools that count by struct memcount_key (faults,
 * ffaults, hfaults, swapin in faults.bpf.c; brkstack in syssnoop.bpf.c):
 * the "counts" and "stackmap" maps their user side reads (btmap.c), and
 * the key of the current task.  Declared once so both objects keep the
 * layout btmap.c expects. */
#ifndef COREBOX_MEMCOUNT_BPF_H
#define COREBOX_MEMCOUNT_BPF_H

#include "mem.bpf.h"
#include "stacks.bpf.h"
#include "memcount.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMCOUNT_MAX_ENTRIES);
	__type(key, struct memcount_key);
	__type(value, __u64);
} counts SEC(".maps");

STACK_MAP(stackmap);

/* The current process's tgid and comm, no stack (-1). */
static __always_inline void memcount_key_task(struct memcount_key *k)
{
	k->pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	k->stackid = -1;
	bpf_get_current_comm(k->comm, sizeof(k->comm));
}

#endif
