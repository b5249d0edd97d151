/* What the memory tools' kernel sides share: the -p/-t filter, log2
 * histogram slots, and pt_regs access for the uprobe and kprobe programs.
 *
 * Kernel structures are read through small local CO-RE flavors (struct
 * NAME___m with only the fields a tool reads): the object's BTF then
 * carries those few fields instead of the kernel's whole type graph
 * (task_struct alone drags in hundreds of types), which keeps the
 * embedded objects small. */
#ifndef COREBOX_MEM_BPF_H
#define COREBOX_MEM_BPF_H

#include "corebox.bpf.h"

#define MEM_COMM_LEN 16

/* Function arguments and return value of a kprobe/uprobe (pt_regs ctx).
 * The arch layer (arch.bpf.h, when present) defines these for every
 * target; this is the x86_64 fallback. */
#ifndef PT_REGS_PARM1
#if defined(__TARGET_ARCH_x86)
#define PT_REGS_PARM1(x) (((const struct pt_regs *)(x))->di)
#define PT_REGS_PARM2(x) (((const struct pt_regs *)(x))->si)
#define PT_REGS_PARM3(x) (((const struct pt_regs *)(x))->dx)
#define PT_REGS_PARM4(x) (((const struct pt_regs *)(x))->cx)
#define PT_REGS_RC(x) (((const struct pt_regs *)(x))->ax)
#else
#error "mem.bpf.h: pt_regs access for this architecture comes from arch.bpf.h"
#endif
#endif

/* Local CO-RE flavors on the way from a file to its name:
 * BPF_CORE_READ(file, f_path.dentry, d_name.name). */
struct qstr___m {
	const unsigned char *name;
} __attribute__((preserve_access_index));
struct dentry___m {
	struct qstr___m d_name;
} __attribute__((preserve_access_index));
struct path___m {
	struct dentry___m *dentry;
} __attribute__((preserve_access_index));
struct file___m {
	struct path___m f_path;
} __attribute__((preserve_access_index));

/* -p PID / -t TID (0: all). */
static __always_inline int mem_task_allowed(__u32 targ_tgid, __u32 targ_tid)
{
	__u64 id = bpf_get_current_pid_tgid();

	if (targ_tgid && (__u32)(id >> 32) != targ_tgid)
		return 0;
	if (targ_tid && (__u32)id != targ_tid)
		return 0;
	return 1;
}

/* floor(log2(v)), 0 for v <= 1 (the libbpf-tools histogram slot). */
static __always_inline __u32 mem_log2(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r = 32;
	}
	if (v > 0xFFFF) {
		v >>= 16;
		r += 16;
	}
	if (v > 0xFF) {
		v >>= 8;
		r += 8;
	}
	if (v > 0xF) {
		v >>= 4;
		r += 4;
	}
	if (v > 0x3) {
		v >>= 2;
		r += 2;
	}
	return r + (v > 1);
}

#endif
