/* The same record as ringbuf.bpf.c through a perf event array (the
 * 32-byte struct arrives padded to 36 bytes by perf). */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

struct event {
	u32 pid;
	char comm[16];
	u64 count;
};

struct {
	__uint(type, MAP_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
} events SEC(".maps");

u64 submitted;

/* Taking the record by pointer in a subprogram puts struct event into the
 * object's BTF (a local variable's type alone would not be emitted). */
static __noinline void send(void *ctx, struct event *e)
{
	bpf_perf_event_output(ctx, &events, F_CURRENT_CPU, e, sizeof(*e));
}

SEC("tp/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	struct event e;

	if (!cbxrun_task(e.comm))
		return 0;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.count = ++submitted;
	send(ctx, &e);
	return 0;
}
