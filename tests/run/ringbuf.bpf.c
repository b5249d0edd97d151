/* Ring buffer records from tracepoint syscalls/sys_enter_getppid, only
 * for tasks named cbxrun_*; the record count lives in .bss, a .rodata
 * knob and a .data variable ride along, and a real (noinline)
 * subprogram fills the record. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

struct event {
	u32 pid;
	char comm[16];
	u64 count;
};

struct {
	__uint(type, MAP_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

const volatile u64 count_base = 0;
u64 submitted;
u32 data_tag = 7;

static __noinline int fill(struct event *e, const char *comm)
{
	e->pid = bpf_get_current_pid_tgid() >> 32;
	for (int i = 0; i < 16; i++)
		e->comm[i] = comm[i];
	e->count = count_base + ++submitted;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	char comm[16];
	struct event *e;

	if (!cbxrun_task(comm))
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	fill(e, comm);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
