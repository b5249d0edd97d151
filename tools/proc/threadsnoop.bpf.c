/* threadsnoop, kernel side: every new thread, named by its start routine
 * when it came from pthread_create().
 *
 * Two hooks meet in the creating thread: a uprobe on pthread_create (in
 * glibc's libc.so.6 since 2.34, libpthread.so.0 before; in musl's libc)
 * notes the start routine (third argument) by thread id, and the
 * sched_process_fork tracepoint, which sees every clone()/clone3() of
 * every runtime (Go, Rust std without libc's wrapper, static binaries),
 * keeps the clones that made a thread (child tgid == parent tgid) and
 * emits one record, with the noted start routine if there is one.  So a
 * thread is reported exactly once, after it exists, whichever way it was
 * made. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "threadsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0; /* tgid, 0: all */

/* creating thread id -> start routine, between pthread_create() and its
 * clone; entries live for microseconds */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} starts SEC(".maps");

static __always_inline int note_start(struct pt_regs *regs)
{
	__u64 id = bpf_get_current_pid_tgid(), start = PT_REGS_PARM3(regs);
	__u32 tid = (__u32)id;

	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	bpf_map_update_elem(&starts, &tid, &start, BPF_ANY);
	return 0;
}

/* Attached by the user side to pthread_create in the libc it finds: one
 * program per C library (glibc, musl). */
SEC("uprobe")
int threadsnoop_glibc(struct pt_regs *regs)
{
	return note_start(regs);
}

SEC("uprobe")
int threadsnoop_musl(struct pt_regs *regs)
{
	return note_start(regs);
}

/* the members read (a CO-RE flavor: not task_struct's whole type graph) */
struct task_struct___ts {
	pid_t pid;
	pid_t tgid;
} __attribute__((preserve_access_index));

SEC("tp_btf/sched_process_fork")
int BPF_PROG(threadsnoop_fork, struct task_struct___ts *parent, struct task_struct___ts *child)
{
	__u64 id = bpf_get_current_pid_tgid(), *start;
	__u32 tid = (__u32)id, pid = id >> 32;
	struct threadsnoop_event e;

	if (target_pid && pid != target_pid)
		return 0;
	if (BPF_CORE_READ(child, tgid) != pid)
		return 0; /* a new process, not a thread */
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = pid;
	e.tid = BPF_CORE_READ(child, pid);
	e.start = 0;
	start = bpf_map_lookup_elem(&starts, &tid);
	if (start) {
		e.start = *start;
		bpf_map_delete_elem(&starts, &tid);
	}
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}
