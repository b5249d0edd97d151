/* wqlat, kernel side: the time each work item waits on its workqueue,
 * from workqueue_queue_work (the item is put on the queue; the record
 * names the workqueue) to workqueue_execute_start (a worker picks it up),
 * keyed by the work_struct's address as bcc's wqlat does. */
#include "corebox.bpf.h"
#include "bits.bpf.h"
#include "wqlat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile char targ_wq[WQLAT_NAME_LEN] = {}; /* -w: this workqueue only */
const volatile __u8 targ_ns = 0;                  /* -N */
const volatile __u8 per_wq = 0;                   /* -W */

struct start {
	struct wqlat_key key;
	__u64 ts;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct start);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WQLAT_MAX_WQS);
	__type(key, struct wqlat_key);
	__type(value, struct wqlat_hist);
} hists SEC(".maps");

/* the records' fields read (CO-RE: pointers are 4 bytes on 32-bit ARM) */
struct trace_event_raw_workqueue_queue_work___wq {
	struct trace_entry ent;
	void *work;
	void *function;
	__u32 __data_loc_workqueue;
} __attribute__((preserve_access_index));

struct trace_event_raw_workqueue_execute_start___wq {
	struct trace_entry ent;
	void *work;
} __attribute__((preserve_access_index));

SEC("tracepoint/workqueue/workqueue_queue_work")
int wq_queue(struct trace_event_raw_workqueue_queue_work___wq *ctx)
{
	struct start s = {};
	__u64 work = (__u64)(long)ctx->work;

	bpf_probe_read_kernel_str(s.key.name, sizeof(s.key.name),
				  (void *)ctx + (ctx->__data_loc_workqueue & 0xffff));
	for (int i = 0; i < WQLAT_NAME_LEN && targ_wq[0]; i++) {
		if (s.key.name[i] != targ_wq[i])
			return 0;
		if (!targ_wq[i])
			break;
	}
	s.ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&starts, &work, &s, BPF_ANY);
	return 0;
}

SEC("tracepoint/workqueue/workqueue_execute_start")
int wq_start(struct trace_event_raw_workqueue_execute_start___wq *ctx)
{
	__u64 work = (__u64)(long)ctx->work, delta, slot;
	struct wqlat_key key = {};
	struct wqlat_hist *h;
	struct start *s = bpf_map_lookup_elem(&starts, &work);

	if (!s)
		return 0; /* queued before we started */
	delta = bpf_ktime_get_ns() - s->ts;
	if (per_wq)
		key = s->key;
	bpf_map_delete_elem(&starts, &work);
	if (!targ_ns)
		delta /= 1000;
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		struct wqlat_hist zero = {};

		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		if (!(h = bpf_map_lookup_elem(&hists, &key)))
			return 0;
	}
	/* bcc's bpf_log2l: 0 and 1 in slot 1, [2^(i-1), 2^i) in slot i */
	slot = delta ? log2_slot(delta, WQLAT_SLOTS - 1) + 1 : 1;
	__sync_fetch_and_add(&h->slots[slot], 1);
	__sync_fetch_and_add(&h->sum, delta);
	return 0;
}
