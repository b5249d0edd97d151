/* oomkill, kernel side.  oom:mark_victim fires for each task the OOM
 * killer picks, in the context of the task whose allocation failed (the
 * trigger).  Where the kernel also lets a program into oom_kill_process()
 * (fentry or kprobe), that entry records oc->totalpages and the chosen
 * task's comm per thread for mark_victim to add, as libbpf-tools prints
 * them; on kernels without mark_victim the kprobe entry emits the event
 * itself (emit_from_entry). */
#include "mem.bpf.h"
#include "events.bpf.h"
#include "oomkill.h"

char LICENSE[] SEC("license") = "GPL";

const volatile int emit_from_entry = 0;

/* Local CO-RE flavors: only the fields read here. */
struct task_struct___m {
	int tgid;
	char comm[16];
} __attribute__((preserve_access_index));

struct oom_control___m {
	struct task_struct___m *chosen;
	unsigned long totalpages;
} __attribute__((preserve_access_index));

/* oom:mark_victim's record: pid only up to 6.1; comm (a __data_loc
 * string), RSS and more since. */
struct trace_event_raw_mark_victim___m {
	int pid;
	__u32 __data_loc_comm;
	unsigned long anon_rss, file_rss, shmem_rss;
} __attribute__((preserve_access_index));

struct chosen {
	__u64 totalpages;
	__u32 tgid;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct chosen);
} entries SEC(".maps");

static __always_inline int on_oom_kill_process(void *ctx, struct oom_control___m *oc)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_struct___m *t = BPF_CORE_READ(oc, chosen);
	struct chosen c = {};

	c.totalpages = BPF_CORE_READ(oc, totalpages);
	c.tgid = BPF_CORE_READ(t, tgid);
	BPF_CORE_READ_STR_INTO(c.comm, t, comm);
	if (emit_from_entry) {
		struct oomkill_event e = {};

		e.fpid = (__u32)(bpf_get_current_pid_tgid() >> 32);
		e.tpid = c.tgid;
		e.pages = c.totalpages;
		e.has_pages = 1;
		e.has_tcomm = 1;
		bpf_get_current_comm(e.fcomm, sizeof(e.fcomm));
		__builtin_memcpy(e.tcomm, c.comm, sizeof(e.tcomm));
		events_output(ctx, &e, sizeof(e));
		return 0;
	}
	bpf_map_update_elem(&entries, &tid, &c, BPF_ANY);
	return 0;
}

SEC("fentry/oom_kill_process")
int BPF_PROG(okp_fentry, struct oom_control___m *oc)
{
	return on_oom_kill_process(ctx, oc);
}

SEC("kprobe/oom_kill_process")
int okp_kprobe(struct pt_regs *ctx)
{
	return on_oom_kill_process(ctx, (struct oom_control___m *)PT_REGS_PARM1(ctx));
}

SEC("tracepoint/oom/mark_victim")
int mark_victim(struct trace_event_raw_mark_victim___m *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct oomkill_event e = {};
	struct chosen *c;

	e.fpid = (__u32)(id >> 32);
	e.tpid = (__u32)BPF_CORE_READ(ctx, pid);
	bpf_get_current_comm(e.fcomm, sizeof(e.fcomm));
	if (bpf_core_field_exists(ctx->__data_loc_comm)) {
		__u32 loc = BPF_CORE_READ(ctx, __data_loc_comm);

		bpf_probe_read_kernel_str(e.tcomm, sizeof(e.tcomm), (char *)ctx + (loc & 0xffff));
		e.has_tcomm = 1;
	}
	if (bpf_core_field_exists(ctx->anon_rss)) {
		e.rss_kb = BPF_CORE_READ(ctx, anon_rss) + BPF_CORE_READ(ctx, file_rss) +
			   BPF_CORE_READ(ctx, shmem_rss);
		e.has_rss = 1;
	}
	c = bpf_map_lookup_elem(&entries, &tid);
	if (c) {
		e.pages = c->totalpages;
		e.has_pages = 1;
		if (!e.has_tcomm && c->tgid == e.tpid) {
			__builtin_memcpy(e.tcomm, c->comm, sizeof(e.tcomm));
			e.has_tcomm = 1;
		}
	}
	events_output(ctx, &e, sizeof(e));
	return 0;
}
