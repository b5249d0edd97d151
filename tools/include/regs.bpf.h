/* Arguments and return values in kprobe programs (ctx = struct pt_regs).
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

#endif
