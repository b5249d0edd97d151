/* fsdist, kernel side: latency histograms of one file system's reads,
 * writes, opens, fsyncs and getattrs.
 *
 * Three ways in, one of which the user side loads:
 *  - fentry/fexit on the file system's file operations (ext4:
 *    ext4_file_read_iter, ext4_file_write_iter, ext4_file_open,
 *    ext4_sync_file, ext4_file_getattr), retargeted at run time;
 *  - kprobe/kretprobe on the same functions;
 *  - where the kernel has neither: the system calls (raw tracepoints
 *    sys_enter/sys_exit) on regular files of a super_block of that file
 *    system type: read/write families, opens (the file known at exit),
 *    fsync/fdatasync and fstat (getattr: fstat, and newfstatat/statx of
 *    an fd with AT_EMPTY_PATH and "", as glibc's fstat makes them; a stat
 *    by path cannot be told apart by file system before the call, and is
 *    not counted).  The latency is then the system call's. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "fs_type.bpf.h"
#include "fsdist.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;
const volatile __u8 in_ms = 0;

struct start {
	__u64 ts;
	__u32 op;
	__s32 nr; /* syscall path: the call's number */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct start);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FD_MAX_OP);
	__type(key, __u32);
	__type(value, struct fsdist_hist);
} hists SEC(".maps");

/* syscall number -> FD_SYS(kind, op), filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FSDIST_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

static __noinline int entry(__u32 op, __s32 nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct start s = { bpf_ktime_get_ns(), op, nr };

	if (target_pid && target_pid != id >> 32)
		return 0;
	bpf_map_update_elem(&starts, &tid, &s, BPF_ANY);
	return 0;
}

static __always_inline __u64 log2_u32(__u32 v)
{
	__u64 r, shift;

	r = (v > 0xFFFF) << 4; v >>= r;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u64 log2_u64(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_u32(hi) + 32 : log2_u32((__u32)v);
}

static __noinline int record(struct start *s)
{
	__s64 delta = (__s64)(bpf_ktime_get_ns() - s->ts);
	struct fsdist_hist *h;
	__u32 op = s->op;
	__u64 slot;

	if (delta < 0 || op >= FD_MAX_OP)
		return 0;
	delta /= in_ms ? 1000000 : 1000;
	slot = log2_u64(delta);
	if (slot >= FSDIST_MAX_SLOTS)
		slot = FSDIST_MAX_SLOTS - 1;
	h = bpf_map_lookup_elem(&hists, &op);
	if (h)
		__sync_fetch_and_add(&h->slots[slot], 1);
	return 0;
}

static __noinline int exit_op(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct start *sp, s;

	sp = bpf_map_lookup_elem(&starts, &tid);
	if (!sp)
		return 0;
	s = *sp;
	bpf_map_delete_elem(&starts, &tid);
	return record(&s);
}

/* ---- fentry/fexit and kprobe/kretprobe, retargeted by the user side ---- */

#define FS_PROBES(name, op)                                  \
	SEC("fentry/" #name)                                 \
	int BPF_PROG(name##_fentry)                          \
	{                                                    \
		return entry(op, -1);                        \
	}                                                    \
	SEC("fexit/" #name)                                  \
	int BPF_PROG(name##_fexit)                           \
	{                                                    \
		return exit_op();                            \
	}                                                    \
	SEC("kprobe/" #name)                                 \
	int name##_entry(struct pt_regs *ctx)                \
	{                                                    \
		return entry(op, -1);                        \
	}                                                    \
	SEC("kretprobe/" #name)                              \
	int name##_exit(struct pt_regs *ctx)                 \
	{                                                    \
		return exit_op();                            \
	}
FS_PROBES(file_read, FD_READ)
FS_PROBES(file_write, FD_WRITE)
FS_PROBES(file_open, FD_OPEN)
FS_PROBES(file_sync, FD_FSYNC)
FS_PROBES(getattr, FD_GETATTR)

/* ---- system calls ---- */

#define AT_EMPTY_PATH 0x1000

SEC("tp_btf/sys_enter")
int BPF_PROG(fd_sys_enter, struct pt_regs *regs, long id)
{
	__u32 nr = (__u32)id;
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);
	struct file___vfs *f;

	if (!v || !*v)
		return 0;
	if (*v >> 4 == FD_SYS_OPEN) /* the file is known at exit */
		return entry(*v & 0xf, (__s32)nr);
	if (*v >> 4 == FD_SYS_AT_EMPTY3 || *v >> 4 == FD_SYS_AT_EMPTY4) {
		__u64 flags = *v >> 4 == FD_SYS_AT_EMPTY3 ? PT_REGS_PARM3_CORE_SYSCALL(regs)
							   : PT_REGS_PARM4_CORE_SYSCALL(regs);
		char c = 1;

		if (!(flags & AT_EMPTY_PATH))
			return 0;
		/* NULL (6.11+ allows it) or "": the dfd itself */
		if (PT_REGS_PARM2_CORE_SYSCALL(regs) &&
		    bpf_probe_read_user(&c, 1, (void *)PT_REGS_PARM2_CORE_SYSCALL(regs)) == 0 && c)
			return 0;
	}
	f = fd_file(PT_REGS_PARM1_CORE_SYSCALL(regs));
	if (!f || !on_traced_fs(f))
		return 0;
	return entry(*v & 0xf, (__s32)nr);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fd_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct start *sp, s;
	struct file___vfs *f;

	ret = CB_SYSCALL_RET(ret); /* a 32-bit kernel's negative ret arrives zero-extended */
	sp = bpf_map_lookup_elem(&starts, &tid);
	if (!sp)
		return 0;
	s = *sp;
	bpf_map_delete_elem(&starts, &tid);
	/* the exit of the call recorded (a thread killed inside one leaves a
	 * stale entry behind) */
	if (s.nr != (__s32)CB_SYSCALL_NR(regs))
		return 0;
	if (s.op == FD_OPEN) {
		if (ret < 0)
			return 0;
		f = fd_file(ret);
		if (!f || !on_traced_fs(f))
			return 0;
	}
	return record(&s);
}
