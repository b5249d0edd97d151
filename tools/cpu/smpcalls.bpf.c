/* smpcalls, kernel side: the latency of SMP calls (functions one CPU asks
 * another to run) by function, as bpftrace-style log2 histograms.
 *
 * Kernels with the csd tracepoints (6.3+): csd_queue_cpu stores the time
 * a call was queued for a CPU, by its call_single_data; csd_function_exit
 * on the target CPU closes it: queue -> done, per remote call (the
 * kernel's own local runs carry no csd and are not SMP calls).  The ipi
 * tracepoints count the IPIs sent, by callback (NULL: reschedule).
 *
 * Older kernels, as the book's smpcalls.bt: the caller's time in
 * smp_call_function_single / _many / _many_cond and the x86 reschedule
 * IPI, with fentry/fexit, else kprobe/kretprobe (keyed by thread; an
 * inner _many_cond replaces its _many caller's start). */
#include "cpu.bpf.h"
#include "smpcalls.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 ttwu_func = 0;   /* sched_ttwu_pending: queued, but never run as a csd */
const volatile __u32 mask_words = 1;  /* u64 words of a cpumask to count (possible CPUs / 64) */

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH); /* queued entries whose run we never see age out */
	__uint(max_entries, SMPCALLS_MAX_START);
	__type(key, __u64); /* csd pointer, or the thread (kprobe/fentry) */
	__type(value, struct smpcalls_start);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SMPCALLS_MAX_FUNCS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64); /* function */
	__type(value, struct smpcalls_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SMPCALLS_MAX_FUNCS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64); /* IPI callback */
	__type(value, __u64);
} ipis SEC(".maps");

static __always_inline void record(__u64 func, __u64 delta)
{
	struct smpcalls_hist *h = bpf_map_lookup_elem(&hists, &func);
	__u64 slot;

	if (!h) {
		struct smpcalls_hist zero = {};

		bpf_map_update_elem(&hists, &func, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &func);
		if (!h)
			return;
	}
	slot = delta ? log2_slot(delta, SMPCALLS_MAX_SLOTS - 1) + 1 : 0;
	if (slot >= SMPCALLS_MAX_SLOTS)
		slot = SMPCALLS_MAX_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[slot], 1);
	__sync_fetch_and_add(&h->sum_ns, delta);
}

static __noinline int begin(__u64 key, __u64 func)
{
	struct smpcalls_start s = { bpf_ktime_get_ns(), func };

	bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	return 0;
}

static __noinline int end(__u64 key)
{
	struct smpcalls_start *s = bpf_map_lookup_elem(&start, &key);
	__u64 now = bpf_ktime_get_ns();

	if (!s)
		return 0;
	if (now >= s->ts)
		record(s->func, now - s->ts);
	bpf_map_delete_elem(&start, &key);
	return 0;
}

static __always_inline void count_ipis(__u64 callback, __u64 n)
{
	__u64 *c = bpf_map_lookup_elem(&ipis, &callback);

	if (c) {
		__sync_fetch_and_add(c, n);
		return;
	}
	bpf_map_update_elem(&ipis, &callback, &n, BPF_NOEXIST);
}

/* ---- 6.3+: tracepoints ---- */

/* csd_queue_cpu(cpu, callsite, func, csd).  As tp_btf the verifier
 * refuses to load a function pointer argument from the context: it is
 * copied out with a probe read (valid as raw_tp too). */
SEC("tp_btf/csd_queue_cpu")
int csd_queue(unsigned long long *ctx)
{
	__u64 func = 0, csd = ctx[3];

	bpf_probe_read_kernel(&func, sizeof(func), &ctx[2]);
	return func != ttwu_func ? begin(csd, func) : 0;
}

/* csd_function_exit(func, csd) */
SEC("tp_btf/csd_function_exit")
int csd_exit(unsigned long long *ctx)
{
	__u64 csd = ctx[1];

	return csd ? end(csd) : 0;
}

SEC("tp_btf/ipi_send_cpu")
int BPF_PROG(ipi_cpu, unsigned int cpu, unsigned long callsite, void *callback)
{
	count_ipis((__u64)callback, 1);
	return 0;
}

SEC("tp_btf/ipi_send_cpumask")
int BPF_PROG(ipi_mask, unsigned long *mask, unsigned long callsite, void *callback)
{
	__u64 n = 0;

	for (__u32 i = 0; i < 16; i++) { /* 1024 CPUs */
		__u64 w = 0;

		if (i >= mask_words)
			break;
		bpf_probe_read_kernel(&w, sizeof(w), &mask[i]);
		n += __builtin_popcountll(w);
	}
	count_ipis((__u64)callback, n);
	return 0;
}

/* ---- older kernels: the callers, fentry/fexit ---- */

#define TID() (bpf_get_current_pid_tgid() & 0xffffffff)

/* The verifier refuses a function pointer argument loaded from the
 * context (its type is no struct): copy it out. */
static __always_inline __u64 arg1(unsigned long long *ctx)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &ctx[1]);
	return v;
}

SEC("fentry/smp_call_function_single")
int fe_single(unsigned long long *ctx)
{
	return begin(TID(), arg1(ctx));
}

SEC("fentry/smp_call_function_many")
int fe_many(unsigned long long *ctx)
{
	return begin(TID(), arg1(ctx));
}

SEC("fentry/smp_call_function_many_cond")
int fe_many_cond(unsigned long long *ctx)
{
	return begin(TID(), arg1(ctx));
}

SEC("fentry/native_smp_send_reschedule")
int fe_resched(unsigned long long *ctx)
{
	return begin(TID(), SMPCALLS_RESCHED);
}

SEC("fexit/smp_call_function_single")
int BPF_PROG(fx_single)
{
	return end(TID());
}

SEC("fexit/smp_call_function_many")
int BPF_PROG(fx_many)
{
	return end(TID());
}

SEC("fexit/smp_call_function_many_cond")
int BPF_PROG(fx_many_cond)
{
	return end(TID());
}

SEC("fexit/native_smp_send_reschedule")
int BPF_PROG(fx_resched)
{
	return end(TID());
}

/* ---- older kernels without fentry: kprobes ---- */

SEC("kprobe/smp_call_function_single")
int kp_single(struct pt_regs *ctx)
{
	return begin(TID(), PT_REGS_PARM2(ctx));
}

SEC("kprobe/smp_call_function_many")
int kp_many(struct pt_regs *ctx)
{
	return begin(TID(), PT_REGS_PARM2(ctx));
}

SEC("kprobe/smp_call_function_many_cond")
int kp_many_cond(struct pt_regs *ctx)
{
	return begin(TID(), PT_REGS_PARM2(ctx));
}

SEC("kprobe/native_smp_send_reschedule")
int kp_resched(void *ctx)
{
	return begin(TID(), SMPCALLS_RESCHED);
}

SEC("kretprobe/smp_call_function_single")
int kr_single(void *ctx)
{
	return end(TID());
}

SEC("kretprobe/smp_call_function_many")
int kr_many(void *ctx)
{
	return end(TID());
}

SEC("kretprobe/smp_call_function_many_cond")
int kr_many_cond(void *ctx)
{
	return end(TID());
}

SEC("kretprobe/native_smp_send_reschedule")
int kr_resched(void *ctx)
{
	return end(TID());
}
