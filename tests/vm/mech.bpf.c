/* One program per attach mechanism the loader has; each counts a known
 * event into counts[SLOT].  tests/vm/mechtest.c loads it, attaches every
 * program, causes the events and checks the counts (inside the VMs of
 * `make vmtest`, and on the host for the subset the host kernel has).
 *
 * Events: getpgid(pid) (fentry/fexit/kprobe/kretprobe on the syscall
 * wrapper __x64_sys_getpgid / __arm64_sys_getpgid, which is in kernel
 * BTF; zero-argument syscalls like getppid have only __do_sys_X there; the
 * kprobe also checks the syscall's argument and the kretprobe its return
 * value, through the arch macros), getppid() (tracepoint, raw_tp and
 * tp_btf on sys_enter, __NR_getppid of the target), a call of mech_uprobe_target() in mechtest itself
 * (uprobe/uretprobe), and cpu-clock samples (perf_event, count > 0).
 * Kernel-function programs come in a fentry and a kprobe variant; the
 * test switches one pair off before load, like the tools do. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

enum { S_FENTRY, S_FEXIT, S_KPROBE, S_KRETPROBE, S_TP_BTF, S_RAW_TP, S_TRACEPOINT, S_UPROBE,
       S_URETPROBE, S_PERF_EVENT, S_UPROBE_ARGSUM, S_URETPROBE_RETSUM, S_NR };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

const volatile __u32 targ_tgid = 0;
const volatile __u32 targ_pgid_arg = 0; /* the pid getpgid() is called with */

static __always_inline void add(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&counts, &k);

	if (p)
		__sync_fetch_and_add(p, v);
}

static __always_inline void bump(__u32 k)
{
	add(k, 1);
}

static __always_inline int mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == targ_tgid;
}

SEC("fentry/" CB_SYSCALL_FN(getpgid))
int on_fentry(void *ctx)
{
	if (mine())
		bump(S_FENTRY);
	return 0;
}

SEC("fexit/" CB_SYSCALL_FN(getpgid))
int on_fexit(void *ctx)
{
	if (mine())
		bump(S_FEXIT);
	return 0;
}

/* counts only calls whose first syscall argument is targ_pgid_arg */
SEC("kprobe/" CB_SYSCALL_FN(getpgid))
int BPF_KSYSCALL(on_kprobe, int pid)
{
	if (mine() && pid == (int)targ_pgid_arg)
		bump(S_KPROBE);
	return 0;
}

/* counts only calls that returned the caller's process group */
SEC("kretprobe/" CB_SYSCALL_FN(getpgid))
int BPF_KRETPROBE(on_kretprobe, long ret)
{
	if (mine() && ret == (long)targ_pgid_arg)
		bump(S_KRETPROBE);
	return 0;
}

SEC("tp_btf/sys_enter")
int on_tp_btf(__u64 *ctx)
{
	if (mine() && ctx[1] == __NR_getppid)
		bump(S_TP_BTF);
	return 0;
}

SEC("raw_tp/sys_enter")
int on_raw_tp(__u64 *ctx)
{
	if (mine() && ctx[1] == __NR_getppid)
		bump(S_RAW_TP);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_tracepoint(void *ctx)
{
	if (mine())
		bump(S_TRACEPOINT);
	return 0;
}

/* targets set by mechtest: its own path + ":mech_uprobe_target", called
 * with 0..n-1 and returning x + 1: the sums of the argument (PT_REGS_PARM1)
 * and of the return value (PT_REGS_RC) are known */
SEC("uprobe")
int BPF_UPROBE(on_uprobe, int x)
{
	if (mine()) {
		bump(S_UPROBE);
		add(S_UPROBE_ARGSUM, (__u64)x);
	}
	return 0;
}

SEC("uretprobe")
int BPF_URETPROBE(on_uretprobe, int ret)
{
	if (mine()) {
		bump(S_URETPROBE);
		add(S_URETPROBE_RETSUM, (__u64)ret);
	}
	return 0;
}

SEC("perf_event")
int on_perf_event(void *ctx)
{
	bump(S_PERF_EVENT);
	return 0;
}
