/* Event plumbing shared by every event-emitting tool.
 *
 * The BTF declares `events` as a 256 KiB ring buffer.  Before load the
 * user side calls obj_setup_events(o, "events"): on a kernel with ring
 * buffers nothing changes; otherwise the loader retypes the map to a
 * PERF_EVENT_ARRAY (one slot per CPU) and sets cb_perfbuf = 1.  Because
 * .rodata is frozen, the verifier sees cb_perfbuf as a constant and drops
 * the branch that does not match the map's real type.
 *
 * Events bigger than the 512-byte stack are assembled in a CB_HEAP() map
 * slot and handed to events_output() from there. */
#ifndef COREBOX_EVENTS_BPF_H
#define COREBOX_EVENTS_BPF_H

#include "corebox.bpf.h"
#include "event_head.h"
#include "task_cgroup.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

const volatile int cb_perfbuf = 0;

/* Records the kernel could not hand over (the buffer was full), counted
 * here for both kinds of buffer: the loader reports this as the lost
 * events.  A perf buffer also says so in PERF_RECORD_LOST, but only when
 * a later record fits, so losses at the end of a burst would go unseen. */
__u64 cb_events_dropped = 0;

/* Copy size bytes at data into the events stream.  size must be provably
 * bounded for the verifier (clamp variable sizes before calling).
 * Returns 0 or a negative error (drops are counted for the consumer).
 * For streams that are not events of a task (samples, allocations):
 * events of a task go through events_output() below. */
static __always_inline long events_output_raw(void *ctx, void *data, __u64 size)
{
	long err;

	if (cb_perfbuf) {
		/* -ENOSPC is a full buffer; -ENOENT is a cpu whose buffer is
		 * not open yet (between attach and the reader's start), where
		 * nothing was traced for the user yet */
		err = bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, data, size);
		if (err == -28 /* -ENOSPC */)
			__sync_fetch_and_add(&cb_events_dropped, 1);
		return err;
	}
	err = bpf_ringbuf_output(&events, data, size, 0);
	if (err)
		__sync_fetch_and_add(&cb_events_dropped, 1);
	return err;
}

/* Which container an event came from: every event record starts with
 * this head, the id of the task's cgroup v2 (its directory's kernfs id),
 * which the user side turns into a path (tools/common/cgroup_path.c) for
 * the JSON "cgroup" key and the --show-cgroup column.  The helper runs
 * only when the user side asks for it (JSON or the column), so the text
 * output costs nothing more than 8 bytes of record. */
const volatile __u8 cb_cgroup_ids = 0;

/* The current task's cgroup id, or 0 when not asked for. */
static __always_inline __u64 event_cgroup_id(void)
{
	return cb_cgroup_ids ? bpf_get_current_cgroup_id() : 0;
}

/* The cgroup id of another task than current (the one sched_switch
 * runs next), or 0 when not asked for. */
static __always_inline __u64 event_task_cgroup_id(void *task)
{
	return cb_cgroup_ids ? task_cgroup_id(task) : 0;
}

/* An event of the current task: e points at a record whose first member
 * is `struct event_head head` (checked at compile time); its cgroup is
 * filled in here, once for every tool.  Where the event belongs to
 * another task than current (a completion in interrupt context, the task
 * sched_switch picks), the tool records event_cgroup_id() where that task
 * is current and sends with events_output_head(). */
#define events_output_head(ctx, e, size)                                                 \
	({                                                                               \
		_Static_assert(__builtin_offsetof(__typeof__(*(e)), head) == 0,          \
			       "an event record starts with struct event_head head");    \
		events_output_raw((ctx), (e), (size));                                   \
	})
#define events_output(ctx, e, size)                                                      \
	({                                                                               \
		(e)->head.cgroup_id = event_cgroup_id();                                 \
		events_output_head((ctx), (e), (size));                                  \
	})

#endif
