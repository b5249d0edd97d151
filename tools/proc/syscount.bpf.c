/* syscount, kernel side: count syscalls (and their time with -L) per
 * syscall number or per process, aggregated in the kernel.
 *
 * The hot path is sys_exit.  Per-syscall mode (the default) bumps a slot
 * of a per-CPU array indexed by the syscall number: no hashing, no
 * atomics, no shared cache lines; user space sums the CPUs and reports
 * the difference from the previous report.  Per-process mode (-P) uses a
 * hash keyed by tgid that user space reads and deletes each report; the
 * process name is copied only when an entry is created.  sys_enter is
 * loaded only for -L (the tool turns its autoload off otherwise). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "syscount.h"

const volatile __u32 filter_pid = 0;       /* tgid, 0: all */
const volatile __u8 filter_failed = 0;     /* -x: only ret < 0 */
const volatile __s32 filter_errno = 0;     /* -e: only ret == -errno */
const volatile __u8 filter_cg = 0;         /* -c: cgroup_map[0] */
const volatile __u8 by_process = 0;        /* -P */
const volatile __u8 measure_latency = 0;   /* -L */
const volatile __u8 by_cgroup = 0;         /* --cgroups (with by_process): keyed by the
					    * cgroup id's low 32 bits, not the tgid */

/* -L: sys_enter time per thread */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SC_MAX_NR);
	__type(key, __u32);
	__type(value, struct sc_val);
} syscalls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, struct sc_pval);
} procs SEC(".maps");

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;
	__u64 ts;

	if (filter_pid && (__u32)(pid_tgid >> 32) != filter_pid)
		return 0;
	if (!cgroup_allowed(filter_cg))
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

/* The process name: the thread group leader's comm. */
static __always_inline void leader_comm(char *buf)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct task_struct *leader = BPF_CORE_READ(task, group_leader);

	bpf_probe_read_kernel_str(buf, SC_TASK_COMM_LEN, &leader->comm);
}

static __always_inline int count_process(__u32 pid, __u64 delta, long nr)
{
	struct sc_pval *v, zero = {};

	v = bpf_map_lookup_elem(&procs, &pid);
	if (!v) {
		if (!by_cgroup)
			leader_comm(zero.comm);
		bpf_map_update_elem(&procs, &pid, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&procs, &pid);
		if (!v)
			return 0;
	} else if (!by_cgroup && (nr == __NR_execve || nr == __NR_execveat)) {
		/* the name changes at exec: the entry may predate it */
		leader_comm(v->comm);
	}
	__sync_fetch_and_add(&v->count, 1);
	if (measure_latency)
		__sync_fetch_and_add(&v->total_ns, delta);
	return 0;
}

/* direct: regs is a BTF pointer (tp_btf) and may be dereferenced; else
 * read through a CO-RE probe read (valid as tp_btf and as raw_tp). */
static __always_inline int handle_exit(struct pt_regs *regs, long ret, const int direct)
{
	__u64 pid_tgid = 0, delta = 0;
	struct sc_val *v;
	__u32 key;
	long nr;

	if (filter_failed && ret >= 0)
		return 0;
	if (filter_errno && ret != -(long)filter_errno)
		return 0;
	if (filter_pid || by_process || measure_latency) {
		pid_tgid = bpf_get_current_pid_tgid();
		if (filter_pid && (__u32)(pid_tgid >> 32) != filter_pid)
			return 0;
	}
	if (!cgroup_allowed(filter_cg))
		return 0;
	nr = direct ? CB_SYSCALL_NR_BTF(regs) : CB_SYSCALL_NR(regs);
	if (nr < 0) /* -1: no syscall (e.g. skipped by seccomp/ptrace) */
		return 0;
	if (measure_latency) {
		__u32 tid = (__u32)pid_tgid;
		__u64 *tsp = bpf_map_lookup_elem(&start, &tid);

		if (!tsp)
			return 0;
		delta = bpf_ktime_get_ns() - *tsp;
		bpf_map_delete_elem(&start, &tid);
	}
	if (by_process)
		return count_process(by_cgroup ? (__u32)bpf_get_current_cgroup_id() : (__u32)(pid_tgid >> 32),
				     delta, nr);

	if (nr >= SC_MAX_NR)
		return 0;
	key = (__u32)nr;
	v = bpf_map_lookup_elem(&syscalls, &key);
	if (!v)
		return 0;
	v->count++;
	if (measure_latency)
		v->total_ns += delta;
	return 0;
}

/* Portable: the loader turns it into raw_tp/sys_exit when the kernel
 * cannot do tp_btf. */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	return handle_exit(regs, CB_SYSCALL_RET(ret), 0);
}

/* Fast variant for kernels with tp_btf: a direct BTF load of the syscall
 * number instead of a probe-read helper call.  The tool loads exactly
 * one of sys_exit / sys_exit_btf. */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit_btf, struct pt_regs *regs, long ret)
{
	return handle_exit(regs, CB_SYSCALL_RET(ret), 1);
}

char LICENSE[] SEC("license") = "GPL";
