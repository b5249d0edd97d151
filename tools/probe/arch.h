/* What the user side knows about the CPU architecture (x86_64, arm64,
 * arm: 32-bit ARM EABI, armv7 hard-float).
 * The BPF side's counterpart is tools/include/arch.bpf.h.
 *
 *   ARCH_NAME, ARCH_SYSCALL_PREFIX   of the architecture corebox was built
 *                     for: "__x64_sys_" / "__arm64_sys_" + name is a
 *                     syscall's wrapper (fentry/kprobe target).
 *   arch_reg_offset() a register's byte offset in the kprobe/uprobe ctx
 *                     (struct pt_regs) from its name: x86_64 "rdi", "edi",
 *                     "di", "dil", "r8d", "rip", ...; arm64 "x0".."x30",
 *                     "w0".."w30", "sp", "pc", "lr", "fp"; arm "r0".."r15",
 *                     "sb", "sl", "fp", "ip", "sp", "lr", "pc".
 *   arch_reg_size()   how wide a pt_regs slot is: 8, or 4 on arm (its
 *                     struct pt_regs is long uregs[18]).
 *   arch_arg_reg_offset(), arch_ret_reg_offset()  where a function's n-th
 *                     argument and its return value are in struct pt_regs
 *                     (generated programs: tools/probe/codegen.c).
 *   arch_usdt_arg_parse(), arch_usdt_args_parse()  USDT arguments
 *                     ("-4@-20(%rbp)", "8@[x1, 16]"): what the BPF side
 *                     must read, as pt_regs offsets, a displacement and a
 *                     size (tools/probe/resolve.c decodes probes with it;
 *                     arm: "4@r0", "-4@[fp, #-12]", "4@#5").
 * Every architecture's tables are always compiled in (the unit tests check
 * both on any host); ARCH_HOST is the one this binary runs on. */
#ifndef COREBOX_TOOLS_ARCH_H
#define COREBOX_TOOLS_ARCH_H

#include <stdbool.h>
#include <stdint.h>

enum arch { ARCH_X86_64, ARCH_ARM64, ARCH_ARM };

#if defined(__x86_64__)
#define ARCH_HOST ARCH_X86_64
#define ARCH_NAME "x86_64"
#define ARCH_SYSCALL_PREFIX "__x64_sys_"
#elif defined(__aarch64__)
#define ARCH_HOST ARCH_ARM64
#define ARCH_NAME "arm64"
#define ARCH_SYSCALL_PREFIX "__arm64_sys_"
#elif defined(__arm__)
/* no syscall wrappers on 32-bit ARM: sys_X takes the arguments itself */
#define ARCH_HOST ARCH_ARM
#define ARCH_NAME "arm"
#define ARCH_SYSCALL_PREFIX "sys_"
#else
#error "corebox: unsupported architecture (x86_64, arm64 and arm are; see tools/probe/arch.h)"
#endif

/* Bytes per register slot in struct pt_regs (4 on arm). */
unsigned arch_reg_size(enum arch a);

/* Offset of register NAME in struct pt_regs of arch a, or -1 (and
 * *size = 0) when there is no such register.  *size (may be NULL): the
 * named register's width in bytes (4 for "edi" and "w3"). */
int arch_reg_offset(enum arch a, const char *name, unsigned *size);

/* pt_regs offset of function argument n (1-based) passed in a register
 * (x86_64: 1..6, arm64: 1..8, arm: 1..4), or -1; and of the return value. */
int arch_arg_reg_offset(enum arch a, unsigned n);
int arch_ret_reg_offset(enum arch a);
/* The syscall ABI in the struct pt_regs saved at syscall entry (what
 * raw_syscalls:sys_enter/sys_exit get): argument n (1..6; x86_64's 4th is
 * r10; arm64's 1st is orig_x0, arm's ORIG_r0, x0/r0 hold the return value at
 * exit), and the syscall number (*size bytes; arm: r7, the EABI's). */
int arch_syscall_arg_reg_offset(enum arch a, unsigned n);
int arch_syscall_nr_offset(enum arch a, unsigned *size);

enum arch_usdt_kind {
	ARCH_USDT_CONST,     /* the value is val_off */
	ARCH_USDT_REG,       /* the register at reg_off */
	ARCH_USDT_REG_DEREF, /* memory at (register at reg_off) + val_off */
	ARCH_USDT_SIB,       /* memory at reg + (idx_reg << scale_shift) + val_off (x86 only) */
};

struct arch_usdt_arg {
	enum arch_usdt_kind kind;
	int64_t val_off;
	int reg_off;      /* pt_regs offset; -1 for CONST */
	int idx_reg_off;  /* SIB index register; -1 otherwise */
	unsigned scale_shift;
	unsigned size;    /* 1, 2, 4 or 8 bytes */
	bool is_signed;
};

/* Parse the USDT argument at *s (leading blanks skipped) in arch a's
 * operand syntax; *s is advanced past it.  0, or -EINVAL with err_msg()
 * saying what is wrong (RIP-relative operands are not supported: the
 * symbol's run-time address is not known to the probe). */
int arch_usdt_arg_parse(enum arch a, const char **s, struct arch_usdt_arg *arg);

/* Parse a whole argument string ("-4@%edi 8@-16(%rbp)") into args[max]:
 * the number of arguments, or -EINVAL (err_msg()) / -E2BIG. */
int arch_usdt_args_parse(enum arch a, const char *s, struct arch_usdt_arg *args, int max);

#endif
