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
 * Returns 0 or a negative error (drops are counted for the consumer). */
static __always_inline long events_output(void *ctx, void *data, __u64 size)
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

#endif
