/* exitsnoop, kernel side: one record per process exit (or thread exit
 * with --threaded), with the task's age and its exit code or signal. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "exitsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;   /* tgid, 0: all */
const volatile __u8 failed_only = 0;   /* -x */
const volatile __u8 by_process = 1;    /* not -T: thread group leaders only */
const volatile __u8 filter_cg = 0;

/* the members read (a CO-RE flavor: not task_struct's whole type graph) */
struct task_struct___es {
	int exit_code;
	__u64 start_time;
	struct task_struct___es *real_parent;
	pid_t tgid;
} __attribute__((preserve_access_index));

/* The task is current: everything is read from it, so the program is the
 * same as tp_btf and as raw_tp. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(exitsnoop_exit)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32, tid = (__u32)id;
	struct exitsnoop_event e;
	struct task_struct___es *task;
	int code;

	if (!cgroup_allowed(filter_cg))
		return 0;
	if (target_pid && pid != target_pid)
		return 0;
	if (by_process && pid != tid)
		return 0;
	task = (struct task_struct___es *)bpf_get_current_task();
	code = BPF_CORE_READ(task, exit_code);
	if (failed_only && code == 0)
		return 0;
	e.start_ns = BPF_CORE_READ(task, start_time);
	e.exit_ns = bpf_ktime_get_ns();
	e.pid = pid;
	e.tid = tid;
	e.ppid = BPF_CORE_READ(task, real_parent, tgid);
	e.sig = code & 0xff;
	e.exit_code = code >> 8;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}
