/* Architecture abstractions for the BPF side (included by corebox.bpf.h).
 *
 * The build compiles every BPF object for one target architecture:
 * -D__TARGET_ARCH_x86 (make) or -D__TARGET_ARCH_arm64 (make ARCH=arm64),
 * with the target's kernel UAPI headers first on the include path.  A tool
 * never names a register, a pt_regs field, a syscall number or a syscall
 * wrapper symbol itself; it uses what this header defines, and then builds
 * and runs on both architectures unchanged:
 *
 *  Syscall numbers
 *    __NR_xxx               the target's numbers, from its <asm/unistd.h>.
 *                           arm64 uses the generic table: open, stat, lstat,
 *                           access, pipe, poll, dup2, fork, ... do not exist
 *                           there (guard uses of the number with #ifdef
 *                           __NR_open).  Programs on such syscalls may be
 *                           written for every architecture: tool_open()
 *                           (tools/common/common.c) turns off the autoload
 *                           of sections tracepoint/syscalls/sys_{enter,exit}_X,
 *                           ksyscall/X and kprobe|fentry/<wrapper>X when X is
 *                           not a syscall of the running architecture.
 *    CB_SYSCALL_NR(regs)    the syscall number held in a struct pt_regs *
 *                           (the regs argument of raw_tp/tp_btf sys_enter
 *                           and sys_exit), read with a CO-RE probe read
 *                           (valid in every program type); -1: none.
 *    CB_SYSCALL_NR_BTF(regs)  the same as a direct load (tp_btf/fentry only:
 *                           regs must be a trusted BTF pointer).
 *
 *  Syscall wrappers (kprobe/fentry on a syscall; kernels >= 4.17 x86_64,
 *  4.19 arm64 always have them)
 *    CB_SYSCALL_FN(openat)  "__x64_sys_openat" / "__arm64_sys_openat", for
 *                           SEC("kprobe/" CB_SYSCALL_FN(openat)) and
 *                           SEC("fentry/" CB_SYSCALL_FN(openat)); the wrapper
 *                           takes one argument, the user pt_regs.  (The user
 *                           side has ARCH_SYSCALL_PREFIX, tools/probe/arch.h.)
 *    PT_REGS_PARM1_SYSCALL(regs) .. PARM6  a syscall's arguments from those
 *                           user pt_regs (direct loads: kprobe ctx);
 *    PT_REGS_PARM1_CORE_SYSCALL(regs) .. PARM6  the same through CO-RE probe
 *                           reads (regs from PT_REGS_PARM1(ctx) or fentry).
 *    BPF_KSYSCALL(name, int dfd, const char *path, ...)  a SEC("ksyscall/X")
 *                           or SEC("kprobe/" CB_SYSCALL_FN(X)) program whose
 *                           declared arguments are the syscall's.
 *
 *  Function arguments of a kprobe/uprobe ctx (struct pt_regs *ctx)
 *    PT_REGS_PARM1(ctx) .. PARM6, PT_REGS_RC (return value), PT_REGS_IP,
 *    PT_REGS_SP, PT_REGS_FP (frame pointer), PT_REGS_RET (x86: where the
 *    return address is, the stack pointer; arm64: the link register) --
 *    direct ctx loads.  PT_REGS_PARM1_CORE(regs) ... PT_REGS_RC_CORE,
 *    PT_REGS_IP_CORE, PT_REGS_SP_CORE, PT_REGS_FP_CORE: the same through
 *    CO-RE probe reads, for a pt_regs pointer that is not the ctx.
 *    BPF_KPROBE(name, args...), BPF_KRETPROBE(name, ret), BPF_UPROBE,
 *    BPF_URETPROBE: declared arguments filled from the registers.
 *    x86_64: di, si, dx, cx, r8, r9 (syscalls: r10 for the 4th), return ax.
 *    arm64: x0..x5 (syscalls: orig_x0 for the 1st), return x0, fp x29, lr x30.
 *
 *  USDT and register-named arguments are resolved on the user side
 *  (tools/probe/arch.c: register name -> pt_regs offset, USDT operand
 *  parsing for both architectures); the BPF side then reads
 *  bpf_probe_read_kernel(&v, size, (void *)ctx + offset).
 *
 *  CB_ARCH                  "x86", "arm64" or "arm".
 *
 *  arm (32-bit, EABI): no syscall wrappers (CB_SYSCALL_FN(openat) is
 *  "sys_openat", which takes the arguments itself, r0..r5), struct pt_regs
 *  is long uregs[18] read at fixed offsets (no BTF needed), registers are
 *  4 bytes (zero-extended), the return value in r0, fp r11, lr r14.
 *
 * Registers are described by flavored structs (pt_regs___x86,
 * pt_regs___arm64) that CO-RE matches against the running kernel's struct
 * pt_regs by field name, whatever struct pt_regs the trimmed vmlinux.h
 * happens to hold.  All targets are little-endian; arm is 32-bit. */
#ifndef COREBOX_ARCH_BPF_H
#define COREBOX_ARCH_BPF_H

/* __NR_* of the target: asm/ comes from the target's UAPI headers (the
 * Makefile puts build/kinc or build/arm64/kinc on the include path). */
#if __has_include(<asm/unistd.h>)
#include <asm/unistd.h>
#endif

#if defined(__TARGET_ARCH_x86)

#if defined(__NR_openat) && !defined(__NR_open)
#error "arch.bpf.h: __TARGET_ARCH_x86 with another architecture's asm/unistd.h on the include path"
#endif
#define CB_ARCH "x86"
#define CB_SYSCALL_FN(name) "__x64_sys_" #name

struct pt_regs___x86 {
	unsigned long bp;
	unsigned long r10;
	unsigned long r9;
	unsigned long r8;
	unsigned long ax;
	unsigned long cx;
	unsigned long dx;
	unsigned long si;
	unsigned long di;
	unsigned long orig_ax;
	unsigned long ip;
	unsigned long sp;
} __attribute__((preserve_access_index));
#define cb_pt_regs pt_regs___x86

#define __CB_PARM1 di
#define __CB_PARM2 si
#define __CB_PARM3 dx
#define __CB_PARM4 cx
#define __CB_PARM5 r8
#define __CB_PARM6 r9
#define __CB_SYSPARM1 di
#define __CB_SYSPARM4 r10
#define __CB_RC ax
#define __CB_IP ip
#define __CB_SP sp
#define __CB_FP bp
#define __CB_RET sp
#define __CB_SYSNR orig_ax

#elif defined(__TARGET_ARCH_arm64)

#if defined(__NR_open)
#error "arch.bpf.h: __TARGET_ARCH_arm64 with another architecture's asm/unistd.h on the include path"
#endif
#define CB_ARCH "arm64"
#define CB_SYSCALL_FN(name) "__arm64_sys_" #name

/* regs/sp/pc/pstate sit in an anonymous struct of an anonymous union in
 * the kernel's pt_regs; CO-RE finds them through the anonymous members. */
struct pt_regs___arm64 {
	unsigned long long regs[31];
	unsigned long long sp;
	unsigned long long pc;
	unsigned long long pstate;
	unsigned long long orig_x0;
	int syscallno;
} __attribute__((preserve_access_index));
#define cb_pt_regs pt_regs___arm64

#define __CB_PARM1 regs[0]
#define __CB_PARM2 regs[1]
#define __CB_PARM3 regs[2]
#define __CB_PARM4 regs[3]
#define __CB_PARM5 regs[4]
#define __CB_PARM6 regs[5]
/* x0 is overwritten by the return value; the entry code saved it */
#define __CB_SYSPARM1 orig_x0
#define __CB_SYSPARM4 regs[3]
#define __CB_RC regs[0]
#define __CB_IP pc
#define __CB_SP sp
#define __CB_FP regs[29]
#define __CB_RET regs[30]
#define __CB_SYSNR syscallno

#elif defined(__TARGET_ARCH_arm)

#if !defined(__NR_mmap2)
#error "arch.bpf.h: __TARGET_ARCH_arm with another architecture's asm/unistd.h on the include path"
#endif
#define CB_ARCH "arm"
/* 32-bit ARM has no syscall wrappers: sys_X takes the arguments itself,
 * in r0..r5 of the kprobe's pt_regs (BPF_KSYSCALL reads them there). */
#define CB_SYSCALL_FN(name) "sys_" #name
#define CB_NO_SYSCALL_WRAPPER 1

/* The EABI's struct pt_regs is long uregs[18] (r0..r15, cpsr, ORIG_r0),
 * a fixed user ABI: no preserve_access_index, so reading registers needs
 * no kernel BTF (the kernels of 32-bit boards rarely have it).  4-byte
 * slots; a BPF long is 8, so a register is zero-extended (a pointer
 * compares equal to the same pointer from a tracepoint or BTF). */
struct pt_regs___arm {
	unsigned int uregs[18];
};
#define cb_pt_regs pt_regs___arm
#define __CB_REG(x, f) ((unsigned long)((const struct cb_pt_regs *)(x))->f)
#define __CB_REG_CORE(x, f)                                                    \
	({                                                                     \
		unsigned int ___r = 0;                                         \
		bpf_probe_read_kernel(&___r, sizeof(___r),                     \
				      &((const struct cb_pt_regs *)(x))->f);   \
		(unsigned long)___r;                                           \
	})

#define __CB_PARM1 uregs[0]
#define __CB_PARM2 uregs[1]
#define __CB_PARM3 uregs[2]
#define __CB_PARM4 uregs[3]
/* AAPCS passes only four arguments in registers; the 5th and 6th are on
 * the stack.  These slots are right for syscalls (r4, r5) only. */
#define __CB_PARM5 uregs[4]
#define __CB_PARM6 uregs[5]
/* r0 is overwritten by the return value; the entry code saved it */
#define __CB_SYSPARM1 uregs[17]
#define __CB_SYSPARM4 uregs[3]
#define __CB_RC uregs[0]
#define __CB_IP uregs[15]
#define __CB_SP uregs[13]
#define __CB_FP uregs[11]
#define __CB_RET uregs[14]
#define __CB_SYSNR uregs[7]

#else
#error "corebox BPF objects need -D__TARGET_ARCH_x86, _arm64 or _arm (make ARCH=...)"
#endif

#ifndef __CB_REG
#define __CB_REG(x, f) (((const struct cb_pt_regs *)(x))->f)
#endif
#ifndef __CB_REG_CORE
#define __CB_REG_CORE(x, f) BPF_CORE_READ((struct cb_pt_regs *)(x), f)
#endif

#define PT_REGS_PARM1(x) __CB_REG(x, __CB_PARM1)
#define PT_REGS_PARM2(x) __CB_REG(x, __CB_PARM2)
#define PT_REGS_PARM3(x) __CB_REG(x, __CB_PARM3)
#define PT_REGS_PARM4(x) __CB_REG(x, __CB_PARM4)
#define PT_REGS_PARM5(x) __CB_REG(x, __CB_PARM5)
#define PT_REGS_PARM6(x) __CB_REG(x, __CB_PARM6)
#define PT_REGS_RC(x) __CB_REG(x, __CB_RC)
#define PT_REGS_IP(x) __CB_REG(x, __CB_IP)
#define PT_REGS_SP(x) __CB_REG(x, __CB_SP)
#define PT_REGS_FP(x) __CB_REG(x, __CB_FP)
#define PT_REGS_RET(x) __CB_REG(x, __CB_RET)

#define PT_REGS_PARM1_CORE(x) __CB_REG_CORE(x, __CB_PARM1)
#define PT_REGS_PARM2_CORE(x) __CB_REG_CORE(x, __CB_PARM2)
#define PT_REGS_PARM3_CORE(x) __CB_REG_CORE(x, __CB_PARM3)
#define PT_REGS_PARM4_CORE(x) __CB_REG_CORE(x, __CB_PARM4)
#define PT_REGS_PARM5_CORE(x) __CB_REG_CORE(x, __CB_PARM5)
#define PT_REGS_PARM6_CORE(x) __CB_REG_CORE(x, __CB_PARM6)
#define PT_REGS_RC_CORE(x) __CB_REG_CORE(x, __CB_RC)
#define PT_REGS_IP_CORE(x) __CB_REG_CORE(x, __CB_IP)
#define PT_REGS_SP_CORE(x) __CB_REG_CORE(x, __CB_SP)
#define PT_REGS_FP_CORE(x) __CB_REG_CORE(x, __CB_FP)

#define PT_REGS_PARM1_SYSCALL(x) __CB_REG(x, __CB_SYSPARM1)
#define PT_REGS_PARM2_SYSCALL(x) PT_REGS_PARM2(x)
#define PT_REGS_PARM3_SYSCALL(x) PT_REGS_PARM3(x)
#define PT_REGS_PARM4_SYSCALL(x) __CB_REG(x, __CB_SYSPARM4)
#define PT_REGS_PARM5_SYSCALL(x) PT_REGS_PARM5(x)
#define PT_REGS_PARM6_SYSCALL(x) PT_REGS_PARM6(x)
#define PT_REGS_PARM1_CORE_SYSCALL(x) __CB_REG_CORE(x, __CB_SYSPARM1)
#define PT_REGS_PARM2_CORE_SYSCALL(x) PT_REGS_PARM2_CORE(x)
#define PT_REGS_PARM3_CORE_SYSCALL(x) PT_REGS_PARM3_CORE(x)
#define PT_REGS_PARM4_CORE_SYSCALL(x) __CB_REG_CORE(x, __CB_SYSPARM4)
#define PT_REGS_PARM5_CORE_SYSCALL(x) PT_REGS_PARM5_CORE(x)
#define PT_REGS_PARM6_CORE_SYSCALL(x) PT_REGS_PARM6_CORE(x)

#define CB_SYSCALL_NR(regs) ((long)__CB_REG_CORE(regs, __CB_SYSNR))
#define CB_SYSCALL_NR_BTF(regs) ((long)__CB_REG(regs, __CB_SYSNR))
/* sys_exit's `long ret` from a raw_tp/tp_btf argument: the kernel widens
 * each argument to its u64 slot unsigned, so a 32-bit kernel's -EBADF
 * arrives as 0xfffffff7; sign-extended here (return values fit an int). */
#if defined(__TARGET_ARCH_arm)
#define CB_SYSCALL_RET(ret) ((long)(int)(ret))
#else
#define CB_SYSCALL_RET(ret) (ret)
#endif

/* ---- BPF_KPROBE & co: a program of ctx `struct pt_regs *` whose body
 * sees its declared arguments (ctx stays usable inside the body). */
#define ___cb_kp0() ctx
#define ___cb_kp1(x) ___cb_kp0(), (void *)PT_REGS_PARM1(ctx)
#define ___cb_kp2(x, ...) ___cb_kp1(__VA_ARGS__), (void *)PT_REGS_PARM2(ctx)
#define ___cb_kp3(x, ...) ___cb_kp2(__VA_ARGS__), (void *)PT_REGS_PARM3(ctx)
#define ___cb_kp4(x, ...) ___cb_kp3(__VA_ARGS__), (void *)PT_REGS_PARM4(ctx)
#define ___cb_kp5(x, ...) ___cb_kp4(__VA_ARGS__), (void *)PT_REGS_PARM5(ctx)
#define ___cb_kp6(x, ...) ___cb_kp5(__VA_ARGS__), (void *)PT_REGS_PARM6(ctx)
#define ___cb_kpn(n, ...) ___cb_cat(___cb_kp, n)(__VA_ARGS__)

#define ___cb_sc0() ctx
#define ___cb_sc1(x) ___cb_sc0(), (void *)PT_REGS_PARM1_CORE_SYSCALL(regs)
#define ___cb_sc2(x, ...) ___cb_sc1(__VA_ARGS__), (void *)PT_REGS_PARM2_CORE_SYSCALL(regs)
#define ___cb_sc3(x, ...) ___cb_sc2(__VA_ARGS__), (void *)PT_REGS_PARM3_CORE_SYSCALL(regs)
#define ___cb_sc4(x, ...) ___cb_sc3(__VA_ARGS__), (void *)PT_REGS_PARM4_CORE_SYSCALL(regs)
#define ___cb_sc5(x, ...) ___cb_sc4(__VA_ARGS__), (void *)PT_REGS_PARM5_CORE_SYSCALL(regs)
#define ___cb_sc6(x, ...) ___cb_sc5(__VA_ARGS__), (void *)PT_REGS_PARM6_CORE_SYSCALL(regs)
#define ___cb_scn(n, ...) ___cb_cat(___cb_sc, n)(__VA_ARGS__)

#define ___cb_regs_prog(name, call, ...)                                       \
	name(struct pt_regs *ctx);                                             \
	static __always_inline int ____##name(struct pt_regs *ctx, ##__VA_ARGS__); \
	int name(struct pt_regs *ctx)                                          \
	{                                                                      \
		_Pragma("GCC diagnostic push")                                 \
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")         \
		call;                                                          \
		_Pragma("GCC diagnostic pop")                                  \
	}                                                                      \
	static __always_inline int ____##name(struct pt_regs *ctx, ##__VA_ARGS__)

/* SEC("kprobe/vfs_read") int BPF_KPROBE(on_read, struct file *f, char *buf) */
#define BPF_KPROBE(name, ...)                                                  \
	___cb_regs_prog(name, return ____##name(___cb_kpn(___cb_argc(__VA_ARGS__), __VA_ARGS__)), \
			##__VA_ARGS__)
/* SEC("kretprobe/vfs_read") int BPF_KRETPROBE(on_read_ret, long ret) */
#define BPF_KRETPROBE(name, ...)                                               \
	___cb_regs_prog(name, return ____##name(ctx, (void *)PT_REGS_RC(ctx)), ##__VA_ARGS__)
#define BPF_UPROBE(name, ...) BPF_KPROBE(name, ##__VA_ARGS__)
#define BPF_URETPROBE(name, ...) BPF_KRETPROBE(name, ##__VA_ARGS__)
/* SEC("ksyscall/openat") int BPF_KSYSCALL(on_openat, int dfd, const char *path)
 * The kprobe sits on the wrapper, whose one argument is the user pt_regs;
 * the syscall's arguments are probe-read from there. */
#ifdef CB_NO_SYSCALL_WRAPPER
#define BPF_KSYSCALL(name, ...) BPF_KPROBE(name, ##__VA_ARGS__)
#else
#define BPF_KSYSCALL(name, ...)                                                \
	___cb_regs_prog(name,                                                  \
			struct pt_regs *regs = (struct pt_regs *)PT_REGS_PARM1(ctx); \
			return ____##name(___cb_scn(___cb_argc(__VA_ARGS__), __VA_ARGS__)), \
			##__VA_ARGS__)
#endif

#endif
