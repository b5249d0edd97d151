/* Arguments and return values in kprobe programs (ctx = struct pt_regs),
 * and a syscall's in raw_tp/tp_btf sys_enter/sys_exit programs.
 * tools/include/arch.bpf.h (the arm64 work) defines these for every
 * target; until it is on the include path, x86-64's registers here. */
#ifndef COREBOX_REGS_BPF_H
#define COREBOX_REGS_BPF_H

#include "corebox.bpf.h"

#ifndef PT_REGS_PARM1
#if defined(__TARGET_ARCH_x86)
#define PT_REGS_PARM1(x) (((const struct pt_regs *)(x))->di)
#define PT_REGS_PARM2(x) (((const struct pt_regs *)(x))->si)
#define PT_REGS_PARM3(x) (((const struct pt_regs *)(x))->dx)
#define PT_REGS_PARM4(x) (((const struct pt_regs *)(x))->cx)
#define PT_REGS_RC(x) (((const struct pt_regs *)(x))->ax)
#else
#error "regs.bpf.h: no kprobe register layout for this target (needs tools/include/arch.bpf.h)"
#endif
#endif

/* A syscall's arguments and number from the user registers a raw_tp or
 * tp_btf sys_enter/sys_exit program gets (CO-RE probe reads). */
#ifndef PT_REGS_PARM1_CORE_SYSCALL
#if defined(__TARGET_ARCH_x86)
#define PT_REGS_PARM1_CORE_SYSCALL(x) BPF_CORE_READ((struct pt_regs *)(x), di)
#define PT_REGS_PARM2_CORE_SYSCALL(x) BPF_CORE_READ((struct pt_regs *)(x), si)
#define PT_REGS_PARM3_CORE_SYSCALL(x) BPF_CORE_READ((struct pt_regs *)(x), dx)
#define PT_REGS_PARM4_CORE_SYSCALL(x) BPF_CORE_READ((struct pt_regs *)(x), r10)
#endif
#endif
#ifndef CB_SYSCALL_NR
#if defined(__TARGET_ARCH_x86)
#define CB_SYSCALL_NR(x) ((long)BPF_CORE_READ((struct pt_regs *)(x), orig_ax))
#endif
#endif

#endif
