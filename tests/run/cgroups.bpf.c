/* Ring buffer records that carry the sender's cgroup id, as a tool that
 * wants to name containers records it: corebox run names the cgroup
 * (-j "cgroup", --show-cgroup) from the member cgroup_id.  Tracepoint
 * syscalls/sys_enter_getppid, only for tasks named cbxrun_*. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

static u64 (*bpf_get_current_cgroup_id)(void) = (void *)80;

struct cg_event {
	u32 pid;
	char comm[16];
	u64 cgroup_id;
};

struct {
	__uint(type, MAP_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

/* a subprogram: its signature puts struct cg_event in BTF */
static __noinline int fill(struct cg_event *e, const char *comm)
{
	e->pid = bpf_get_current_pid_tgid() >> 32;
	for (int i = 0; i < 16; i++)
		e->comm[i] = comm[i];
	e->cgroup_id = bpf_get_current_cgroup_id();
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	struct cg_event *e;
	char comm[16];

	if (!cbxrun_task(comm))
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	fill(e, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
