/* A runqlat-like object in libbpf-tools style, for `corebox run`:
 *
 * - every hook twice, as libbpf-tools ship it: tp_btf programs and raw_tp
 *   programs of the same tracepoints (user space keeps one set);
 * - const volatile knobs: targ_tgid (only that process), targ_ms (bool),
 *   unit (enum), targ_comm (char array);
 * - maps sized from user space: start and counts declared with 0 entries,
 *   a stack map with neither entries nor value size;
 * - events: a ring buffer of struct event built in a per-CPU heap map and
 *   sent with bpf_ringbuf_output (the record type is the heap's value).
 *
 * The run-queue latency of each task of targ_tgid: from wakeup (or
 * preemption) to running, counted per tgid in `counts`, one event each. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING 0

struct task_struct {
	unsigned int __state;
	int pid;
	int tgid;
	char comm[16];
} __attribute__((preserve_access_index));

enum unit { USECS = 0, MSECS = 1 };

const volatile pid_t targ_tgid = 0;
const volatile bool targ_ms = false;
const volatile enum unit unit = USECS;
const volatile char targ_comm[16] = {};

struct event {
	u32 tgid;
	u32 pid;
	u64 delta;
	char comm[16];
	s32 stack_id;
	enum unit unit;
};

struct {
	__uint(type, MAP_HASH);
	__type(key, u32);
	__type(value, u64);
} start SEC(".maps"); /* max_entries 0: set by user space */

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, 0);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

struct {
	__uint(type, MAP_STACK_TRACE);
	__uint(key_size, sizeof(u32));
} stacks SEC(".maps"); /* value size and entries: user space */

struct {
	__uint(type, MAP_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct event);
} heap SEC(".maps");

struct {
	__uint(type, MAP_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

u64 switches;

static __always_inline int trace_enqueue(struct task_struct *p)
{
	u32 tgid = 0, pid = 0;
	u64 ts;

	CORE_READ(tgid, p->tgid);
	CORE_READ(pid, p->pid);
	if (!pid || (targ_tgid && tgid != (u32)targ_tgid))
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &pid, &ts, 0);
	return 0;
}

static __always_inline int handle_switch(void *ctx, struct task_struct *prev, struct task_struct *next)
{
	u32 pid = 0, tgid = 0, state = 0, zero = 0;
	u64 *tsp, delta, one = 1, *c;
	struct event *e;

	__sync_fetch_and_add(&switches, 1);
	CORE_READ(state, prev->__state);
	if (state == TASK_RUNNING)
		trace_enqueue(prev);
	CORE_READ(pid, next->pid);
	CORE_READ(tgid, next->tgid);
	tsp = bpf_map_lookup_elem(&start, &pid);
	if (!tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &pid);
	c = bpf_map_lookup_elem(&counts, &tgid);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &tgid, &one, 0);
	e = bpf_map_lookup_elem(&heap, &zero);
	if (!e)
		return 0;
	e->tgid = tgid;
	e->pid = pid;
	e->delta = delta / (targ_ms || unit == MSECS ? 1000000 : 1000);
	e->unit = unit;
	CORE_READ(e->comm, next->comm);
	e->stack_id = bpf_get_stackid(ctx, &stacks, 0);
	bpf_ringbuf_output(&events, e, sizeof(*e), 0);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int sched_wakeup(u64 *ctx)
{
	return trace_enqueue((struct task_struct *)ctx[0]);
}

SEC("tp_btf/sched_wakeup_new")
int sched_wakeup_new(u64 *ctx)
{
	return trace_enqueue((struct task_struct *)ctx[0]);
}

SEC("tp_btf/sched_switch")
int sched_switch(u64 *ctx)
{
	return handle_switch(ctx, (struct task_struct *)ctx[1], (struct task_struct *)ctx[2]);
}

SEC("raw_tp/sched_wakeup")
int handle_sched_wakeup(struct bpf_raw_tracepoint_args *ctx)
{
	return trace_enqueue((struct task_struct *)ctx->args[0]);
}

SEC("raw_tp/sched_wakeup_new")
int handle_sched_wakeup_new(struct bpf_raw_tracepoint_args *ctx)
{
	return trace_enqueue((struct task_struct *)ctx->args[0]);
}

SEC("raw_tp/sched_switch")
int handle_sched_switch(struct bpf_raw_tracepoint_args *ctx)
{
	return handle_switch(ctx, (struct task_struct *)ctx->args[1], (struct task_struct *)ctx->args[2]);
}
