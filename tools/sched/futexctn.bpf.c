/* futexctn, kernel side (libbpf-tools' semantics): a FUTEX_WAIT is timed
 * from sys_enter_futex to sys_exit_futex of the same thread; a wait that
 * returned 0 (it was woken, the lock was contended) goes into the
 * histogram of its thread, futex word and user stack.  Waits that failed
 * (EAGAIN: the word had changed, ETIMEDOUT, EINTR) are not contention. */
#include "stacks.bpf.h"
#include "bits.bpf.h"
#include "futexctn.h"

char LICENSE[] SEC("license") = "GPL";

#define FUTEX_WAIT 0
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)

const volatile __u8 targ_summary = 0; /* -s: per process, no stacks */
const volatile __u8 targ_ms = 0;
const volatile __u64 targ_lock = 0;
const volatile __u32 targ_pid = 0;
const volatile __u32 targ_tid = 0;

struct wait_start {
	__u64 ts;
	__u64 uaddr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FUTEXCTN_MAX_ENTRIES);
	__type(key, __u64);
	__type(value, struct wait_start);
} start SEC(".maps");

STACK_MAP(stackmap);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FUTEXCTN_MAX_ENTRIES);
	__type(key, struct futexctn_key);
	__type(value, struct futexctn_hist);
} hists SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_futex")
int futexctn_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct wait_start s = { .uaddr = ctx->args[0] };

	if (((int)ctx->args[1] & FUTEX_CMD_MASK) != FUTEX_WAIT)
		return 0;
	if (targ_pid && targ_pid != id >> 32)
		return 0;
	if (targ_tid && targ_tid != (__u32)id)
		return 0;
	if (targ_lock && targ_lock != s.uaddr)
		return 0;
	s.ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &id, &s, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_futex")
int futexctn_exit(struct trace_event_raw_sys_exit *ctx)
{
	static const struct futexctn_hist zero;
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), delta, min, max;
	struct futexctn_key key = {};
	struct futexctn_hist *h;
	struct wait_start *s = bpf_map_lookup_elem(&start, &id);

	if (!s)
		return 0;
	if ((int)ctx->ret < 0 || (__s64)(now - s->ts) < 0)
		goto out;
	delta = (now - s->ts) / (targ_ms ? 1000000 : 1000);
	key.pid_tgid = id;
	key.uaddr = s->uaddr;
	if (targ_summary)
		key.pid_tgid >>= 32;
	else
		key.user_stack_id = bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h)
			goto out;
	}
	__sync_fetch_and_add(&h->slots[log2_slot(delta, FUTEXCTN_MAX_SLOTS)], 1);
	__sync_fetch_and_add(&h->contended, 1);
	__sync_fetch_and_add(&h->total_elapsed, delta);
	/* as libbpf-tools: a min of 0 counts as unset */
	min = h->min;
	if (!min || min > delta)
		__sync_val_compare_and_swap(&h->min, min, delta);
	max = h->max;
	if (max < delta)
		__sync_val_compare_and_swap(&h->max, max, delta);
	bpf_get_current_comm(h->comm, sizeof(h->comm));
out:
	bpf_map_delete_elem(&start, &id);
	return 0;
}
