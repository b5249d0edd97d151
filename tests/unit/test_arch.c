/* tools/probe/arch.c and the syscall table against the architecture's
 * own UAPI headers: register offsets (struct pt_regs / user_pt_regs of
 * <asm/ptrace.h>), __NR_* numbers, and USDT operand parsing in both
 * syntaxes.  Runs natively and, for arm64 and arm, under qemu-user. */
#include <asm/ptrace.h>
#include <asm/unistd.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "elf/elf.h"
#include "tools/probe/arch.h"
#include "tools/probe/usdt.h"
#include "tools/common/common.h"
#include "t.h"

static const char *arch_str(enum arch a)
{
	return a == ARCH_ARM64 ? "arm64" : a == ARCH_ARM ? "arm" : "x86_64";
}

static void reg(enum arch a, const char *name, int off, unsigned size)
{
	unsigned sz = 99;
	int got = arch_reg_offset(a, name, &sz);

	T_OK(got == off && sz == size, "%s register %s at %d (%u bytes), got %d (%u)",
	     arch_str(a), name, off, size, got, sz);
}

static void regs_vs_uapi(void)
{
#if defined(__x86_64__)
	reg(ARCH_X86_64, "rdi", offsetof(struct pt_regs, rdi), 8);
	reg(ARCH_X86_64, "esi", offsetof(struct pt_regs, rsi), 4);
	reg(ARCH_X86_64, "dx", offsetof(struct pt_regs, rdx), 2);
	reg(ARCH_X86_64, "cl", offsetof(struct pt_regs, rcx), 1);
	reg(ARCH_X86_64, "r8", offsetof(struct pt_regs, r8), 8);
	reg(ARCH_X86_64, "r9d", offsetof(struct pt_regs, r9), 4);
	reg(ARCH_X86_64, "r10", offsetof(struct pt_regs, r10), 8);
	reg(ARCH_X86_64, "r15b", offsetof(struct pt_regs, r15), 1);
	reg(ARCH_X86_64, "rax", offsetof(struct pt_regs, rax), 8);
	reg(ARCH_X86_64, "rbp", offsetof(struct pt_regs, rbp), 8);
	reg(ARCH_X86_64, "rsp", offsetof(struct pt_regs, rsp), 8);
	reg(ARCH_X86_64, "rip", offsetof(struct pt_regs, rip), 8);
	T_OK(ARCH_HOST == ARCH_X86_64 && !strcmp(ARCH_SYSCALL_PREFIX, "__x64_sys_"), "x86_64 build: host arch");
#elif defined(__aarch64__)
	reg(ARCH_ARM64, "x0", offsetof(struct user_pt_regs, regs[0]), 8);
	reg(ARCH_ARM64, "x7", offsetof(struct user_pt_regs, regs[7]), 8);
	reg(ARCH_ARM64, "w3", offsetof(struct user_pt_regs, regs[3]), 4);
	reg(ARCH_ARM64, "x29", offsetof(struct user_pt_regs, regs[29]), 8);
	reg(ARCH_ARM64, "lr", offsetof(struct user_pt_regs, regs[30]), 8);
	reg(ARCH_ARM64, "sp", offsetof(struct user_pt_regs, sp), 8);
	reg(ARCH_ARM64, "pc", offsetof(struct user_pt_regs, pc), 8);
	T_OK(ARCH_HOST == ARCH_ARM64 && !strcmp(ARCH_SYSCALL_PREFIX, "__arm64_sys_"), "arm64 build: host arch");
#elif defined(__arm__)
	reg(ARCH_ARM, "r0", offsetof(struct pt_regs, ARM_r0), 4);
	reg(ARCH_ARM, "r3", offsetof(struct pt_regs, ARM_r3), 4);
	reg(ARCH_ARM, "r7", offsetof(struct pt_regs, ARM_r7), 4);
	reg(ARCH_ARM, "fp", offsetof(struct pt_regs, ARM_fp), 4);
	reg(ARCH_ARM, "ip", offsetof(struct pt_regs, ARM_ip), 4);
	reg(ARCH_ARM, "sp", offsetof(struct pt_regs, ARM_sp), 4);
	reg(ARCH_ARM, "lr", offsetof(struct pt_regs, ARM_lr), 4);
	reg(ARCH_ARM, "pc", offsetof(struct pt_regs, ARM_pc), 4);
	T_OK(sizeof(struct pt_regs) == 72 && arch_reg_size(ARCH_ARM) == 4 &&
		     arch_syscall_arg_reg_offset(ARCH_ARM, 1) == (int)offsetof(struct pt_regs, ARM_ORIG_r0),
	     "arm pt_regs: 18 4-byte slots, the 1st syscall argument in ORIG_r0");
	T_OK(ARCH_HOST == ARCH_ARM && !strcmp(ARCH_SYSCALL_PREFIX, "sys_"), "arm build: host arch");
#endif
	/* the other architecture's table, from its (stable) ABI */
	reg(ARCH_ARM64, "x30", 240, 8);
	reg(ARCH_ARM64, "sp", 248, 8);
	reg(ARCH_ARM64, "pc", 256, 8);
	reg(ARCH_ARM64, "fp", 232, 8);
	reg(ARCH_X86_64, "di", 112, 2);
	reg(ARCH_X86_64, "r12", 24, 8);
	reg(ARCH_X86_64, "sp", 152, 2);
	reg(ARCH_ARM64, "x31", -1, 0);
	reg(ARCH_ARM64, "x01", -1, 0);
	reg(ARCH_ARM64, "rdi", -1, 0);
	reg(ARCH_X86_64, "x0", -1, 0);
	reg(ARCH_X86_64, "", -1, 0);
	reg(ARCH_ARM, "r11", 44, 4);
	reg(ARCH_ARM, "sl", 40, 4);
	reg(ARCH_ARM, "r15", 60, 4);
	reg(ARCH_ARM, "r16", -1, 0);
	reg(ARCH_ARM, "r01", -1, 0);
	reg(ARCH_ARM, "x0", -1, 0);
	T_OK(arch_reg_size(ARCH_X86_64) == 8 && arch_reg_size(ARCH_ARM64) == 8, "64-bit register slots");

	/* argument and return registers agree with the register names */
	T_OK(arch_arg_reg_offset(ARCH_X86_64, 1) == arch_reg_offset(ARCH_X86_64, "rdi", NULL) &&
		     arch_arg_reg_offset(ARCH_X86_64, 4) == arch_reg_offset(ARCH_X86_64, "rcx", NULL) &&
		     arch_arg_reg_offset(ARCH_X86_64, 6) == arch_reg_offset(ARCH_X86_64, "r9", NULL) &&
		     arch_arg_reg_offset(ARCH_X86_64, 7) == -1 && arch_arg_reg_offset(ARCH_X86_64, 0) == -1 &&
		     arch_ret_reg_offset(ARCH_X86_64) == arch_reg_offset(ARCH_X86_64, "rax", NULL),
	     "x86_64 arguments in rdi rsi rdx rcx r8 r9, return in rax");
	T_OK(arch_arg_reg_offset(ARCH_ARM64, 1) == arch_reg_offset(ARCH_ARM64, "x0", NULL) &&
		     arch_arg_reg_offset(ARCH_ARM64, 8) == arch_reg_offset(ARCH_ARM64, "x7", NULL) &&
		     arch_arg_reg_offset(ARCH_ARM64, 9) == -1 &&
		     arch_ret_reg_offset(ARCH_ARM64) == arch_reg_offset(ARCH_ARM64, "x0", NULL),
	     "arm64 arguments in x0..x7, return in x0");
	T_OK(arch_arg_reg_offset(ARCH_ARM, 1) == 0 && arch_arg_reg_offset(ARCH_ARM, 4) == 12 &&
		     arch_arg_reg_offset(ARCH_ARM, 5) == -1 && arch_ret_reg_offset(ARCH_ARM) == 0 &&
		     arch_syscall_arg_reg_offset(ARCH_ARM, 1) == 68 && arch_syscall_arg_reg_offset(ARCH_ARM, 6) == 20,
	     "arm arguments in r0..r3, return in r0, syscall arguments ORIG_r0 r1..r5");
	{
		unsigned sz = 0;
		int off = arch_syscall_nr_offset(ARCH_ARM, &sz);

		T_OK(off == 28 && sz == 4, "arm syscall number in r7 (EABI), 4 bytes");
	}
}

/* The built-in syscall table agrees with the UAPI header's numbers. */
static void syscalls_vs_uapi(void)
{
	static const struct {
		const char *name;
		int nr;
	} nrs[] = {
#define NR(n) { #n, __NR_##n }
		NR(read), NR(write), NR(openat), NR(close), NR(execve), NR(execveat), NR(getppid),
		NR(getpgid), NR(clone), NR(exit_group), NR(bpf), NR(perf_event_open),
		NR(finit_module), NR(ioctl), NR(futex), NR(nanosleep), NR(wait4), NR(kill), NR(socket),
		NR(connect), NR(accept4), NR(sendto), NR(recvfrom), NR(pread64), NR(fsync), NR(statx),
		NR(io_uring_setup), NR(openat2), NR(clone3), NR(rt_sigreturn),
		NR(epoll_pwait), NR(ppoll), NR(pselect6), NR(getrandom), NR(memfd_create),
#ifdef __NR_mmap2 /* 32-bit arm */
		NR(mmap2), NR(fstatat64), NR(clock_gettime64), NR(futex_time64), NR(recvmmsg_time64),
#else
		NR(mmap), NR(newfstatat),
#endif
#ifdef __NR_open
		NR(open), NR(stat), NR(fork), NR(poll), NR(pipe), NR(access),
#endif
#undef NR
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		const char *n = syscall_name((unsigned)nrs[i].nr);

		if (!n || strcmp(n, nrs[i].name) || syscall_nr(nrs[i].name) != nrs[i].nr) {
			printf("# %s: header %d, table name %s, table nr %d\n", nrs[i].name, nrs[i].nr,
			       n ? n : "(none)", syscall_nr(nrs[i].name));
			bad++;
		}
	}
	T_OK(!bad, "%zu syscall numbers of " ARCH_NAME " match <asm/unistd.h>", sizeof(nrs) / sizeof(nrs[0]));
#ifndef __NR_open
	T_OK(syscall_nr("open") < 0 && syscall_nr("stat") < 0 && syscall_nr("fork") < 0,
	     "no legacy open/stat/fork in the " ARCH_NAME " table");
#endif
	T_OK(syscall_nr(ARCH_SYSCALL_PREFIX "getppid") == __NR_getppid, "wrapper name " ARCH_SYSCALL_PREFIX
	     "getppid resolves");
}

static void usdt(enum arch a, const char *spec, enum arch_usdt_kind kind, int reg_off, long long val,
		 unsigned size, int sgn)
{
	struct arch_usdt_arg arg;
	const char *s = spec;
	int r = arch_usdt_arg_parse(a, &s, &arg);

	T_OK(r == 0 && !*s && arg.kind == kind && arg.reg_off == reg_off && arg.val_off == val && arg.size == size &&
		     arg.is_signed == sgn,
	     "usdt %s '%s' -> kind %d reg %d val %lld size %u%s (%s)", arch_str(a), spec,
	     kind, reg_off, val, size, sgn ? " signed" : "", r ? err_msg() : "ok");
}

static void usdt_bad(enum arch a, const char *spec, const char *why)
{
	struct arch_usdt_arg arg;
	const char *s = spec;
	int r = arch_usdt_arg_parse(a, &s, &arg);

	T_OK(r == -EINVAL && strstr(err_msg(), why), "usdt %s '%s' rejected: %s", arch_str(a),
	     spec, r ? err_msg() : "accepted");
}

static void usdt_specs(void)
{
	struct arch_usdt_arg args[12];

	usdt(ARCH_X86_64, "-4@%edi", ARCH_USDT_REG, 112, 0, 4, 1);
	usdt(ARCH_X86_64, "8@%rax", ARCH_USDT_REG, 80, 0, 8, 0);
	usdt(ARCH_X86_64, "8@-16(%rbp)", ARCH_USDT_REG_DEREF, 32, -16, 8, 0);
	usdt(ARCH_X86_64, "-2@(%r12)", ARCH_USDT_REG_DEREF, 24, 0, 2, 1);
	usdt(ARCH_X86_64, "4@$-5", ARCH_USDT_CONST, -1, -5, 4, 0);
	usdt(ARCH_X86_64, "1@$0x10", ARCH_USDT_CONST, -1, 16, 1, 0);
	usdt(ARCH_X86_64, "8@8(%rax,%rdx,8)", ARCH_USDT_SIB, 80, 8, 8, 0);
	usdt_bad(ARCH_X86_64, "8@counter(%rip)", "RIP-relative");
	usdt_bad(ARCH_X86_64, "8@16(%rip)", "RIP-relative");
	usdt_bad(ARCH_X86_64, "3@%rax", "size must be");
	usdt_bad(ARCH_X86_64, "4@%xmm0", "unknown x86_64 register");
	usdt_bad(ARCH_X86_64, "4", "SIZE@OPERAND");
	usdt_bad(ARCH_X86_64, "8@(%rax,%rdx,3)", "scale");

	usdt(ARCH_ARM64, "8@x0", ARCH_USDT_REG, 0, 0, 8, 0);
	usdt(ARCH_ARM64, "-4@w5", ARCH_USDT_REG, 40, 0, 4, 1);
	usdt(ARCH_ARM64, "-4@[x29, -20]", ARCH_USDT_REG_DEREF, 232, -20, 4, 1);
	usdt(ARCH_ARM64, "8@[sp, #16]", ARCH_USDT_REG_DEREF, 248, 16, 8, 0);
	usdt(ARCH_ARM64, "4@[x2]", ARCH_USDT_REG_DEREF, 16, 0, 4, 0);
	usdt(ARCH_ARM64, "-4@#5", ARCH_USDT_CONST, -1, 5, 4, 1);
	usdt(ARCH_ARM64, "8@-3", ARCH_USDT_CONST, -1, -3, 8, 0);
	usdt_bad(ARCH_ARM64, "8@x31", "unknown arm64 register");
	usdt_bad(ARCH_ARM64, "8@[x1, 8", "expected ']'");
	usdt_bad(ARCH_ARM64, "8@%rdi", "unknown arm64 register");

	/* arm (gcc's operand syntax for the sdt.h "nor" constraint) */
	usdt(ARCH_ARM, "-4@r0", ARCH_USDT_REG, 0, 0, 4, 1);
	usdt(ARCH_ARM, "4@[fp, #-12]", ARCH_USDT_REG_DEREF, 44, -12, 4, 0);
	usdt(ARCH_ARM, "-4@[r7, #8]", ARCH_USDT_REG_DEREF, 28, 8, 4, 1);
	usdt(ARCH_ARM, "4@[sp]", ARCH_USDT_REG_DEREF, 52, 0, 4, 0);
	usdt(ARCH_ARM, "8@r2", ARCH_USDT_REG, 8, 0, 8, 0);
	usdt(ARCH_ARM, "4@#5", ARCH_USDT_CONST, -1, 5, 4, 0);
	usdt_bad(ARCH_ARM, "4@x0", "unknown arm register");
	usdt_bad(ARCH_ARM, "4@r16", "unknown arm register");
	usdt_bad(ARCH_ARM, "4@[r1, #4", "expected ']'");
	T_OK(arch_usdt_args_parse(ARCH_ARM, "-4@[sp, #12] 4@r1 4@#7", args, 12) == 3 && args[0].reg_off == 52 &&
		     args[0].val_off == 12 && args[1].reg_off == 4 && args[2].val_off == 7,
	     "arm argument string with a blank inside brackets: 3 arguments");

	T_OK(arch_usdt_args_parse(ARCH_ARM64, "-4@[sp, 12] 8@x1  -8@#-1", args, 12) == 3 &&
		     args[0].kind == ARCH_USDT_REG_DEREF && args[0].val_off == 12 && args[1].reg_off == 8 &&
		     args[2].kind == ARCH_USDT_CONST && args[2].val_off == -1,
	     "arm64 argument string with a blank inside brackets: 3 arguments");
	T_OK(arch_usdt_args_parse(ARCH_X86_64, "-4@%edi 8@-16(%rbp) 4@$1", args, 12) == 3 && args[1].val_off == -16,
	     "x86 argument string: 3 arguments");
	T_OK(arch_usdt_args_parse(ARCH_X86_64, "4@$1 4@$2", args, 1) == -E2BIG, "too many arguments: E2BIG");
	T_OK(arch_usdt_args_parse(ARCH_X86_64, "", args, 12) == 0, "empty argument string: 0 arguments");
}

/* Real notes: tests/fuzz/corpus/elf/arm32-usdt.elf, cross-built by gcc
 * from tests/unit/data/arm32-usdt.c (-O2 -marm; one -O0 function, one
 * Thumb): every argument as gcc wrote it, and what it is.  pt_regs on arm:
 * r0 0, r1 4, r2 8, r3 12, fp (r11) 44. */
struct want32 {
	const char *name, *args;
	unsigned pc;
	int n;
	struct { int kind, reg; long long val; unsigned size; int sign; } a[3];
};
static const struct want32 arm32_notes[] = {
	{ "regs", "-4@r0 4@r1 -8@r2", 0x100b0, 3,
	  { { ARCH_USDT_REG, 0, 0, 4, 1 }, { ARCH_USDT_REG, 4, 0, 4, 0 }, { ARCH_USDT_REG, 8, 0, 8, 1 } } },
	{ "small", "-1@r0 -2@r1 -4@#5", 0x100b8, 3,
	  { { ARCH_USDT_REG, 0, 0, 1, 1 }, { ARCH_USDT_REG, 4, 0, 2, 1 }, { ARCH_USDT_CONST, -1, 5, 4, 1 } } },
	{ "frame", "-4@r3 -4@[fp, #-20]", 0x1009c, 2, { { ARCH_USDT_REG, 12, 0, 4, 1 }, { ARCH_USDT_REG_DEREF, 44, -20, 4, 1 } } },
	{ "thumb", "-4@r0 -4@[r1, #4]", 0x100c0, 2, { { ARCH_USDT_REG, 0, 0, 4, 1 }, { ARCH_USDT_REG_DEREF, 4, 4, 4, 1 } } },
};

static int arm32_note(void *ctx, const struct usdt_note *n)
{
	const struct want32 *w = NULL;
	struct arch_usdt_arg args[12];
	int got, ok;

	for (size_t i = 0; i < sizeof(arm32_notes) / sizeof(arm32_notes[0]); i++)
		if (!strcmp(n->name, arm32_notes[i].name))
			w = &arm32_notes[i];
	if (!w || strcmp(n->provider, "cbx") || strcmp(n->args, w->args)) {
		T_OK(0, "arm32 note %s:%s '%s' is one the test knows", n->provider, n->name, n->args);
		return 0;
	}
	/* (the addresses are 4 bytes in a 32-bit file's note: read as 8,
	 * pc took in the base, and the strings began 12 bytes late) */
	T_OK(n->pc == w->pc && n->sema == 0, "arm32 note %s at 0x%llx, no semaphore", n->name, (unsigned long long)n->pc);
	got = arch_usdt_args_parse(ARCH_ARM, n->args, args, 12);
	ok = got == w->n;
	for (int i = 0; ok && i < w->n; i++)
		ok = (int)args[i].kind == w->a[i].kind && args[i].reg_off == w->a[i].reg &&
		     (args[i].kind == ARCH_USDT_REG || args[i].val_off == w->a[i].val) && args[i].size == w->a[i].size &&
		     args[i].is_signed == w->a[i].sign;
	T_OK(ok, "arm32 binary's note %s '%s': %d arguments as gcc meant them (%s)", n->name, n->args, got,
	     got < 0 ? err_msg() : "ok");
	++*(int *)ctx;
	return 0;
}

static void usdt_arm32_binary(void)
{
	const char *path = "../fuzz/corpus/elf/arm32-usdt.elf";
	struct elf_view ev;
	const void *data;
	size_t size;
	int seen = 0;

	if (elf_map_file(path, &data, &size) < 0 || elf_open(&ev, data, size) < 0) {
		T_OK(0, "open %s: %s", path, err_msg());
		return;
	}
	T_OK(usdt_notes(&ev, path, arm32_note, &seen) == 0 && seen == 4, "%s: its 4 USDT notes read", path);
	elf_unmap_file(data, size);
}

/* tool_open() leaves out the programs on syscalls the architecture lacks:
 * opensnoop's open() pair on arm64, nothing on x86_64. */
static void absent_syscalls(void)
{
	const char *path = ARCH_HOST == ARCH_ARM64 ? "../../build/arm64/bpf/opensnoop.bpf.o"
			   : ARCH_HOST == ARCH_ARM ? "../../build/arm/bpf/opensnoop.bpf.o"
						   : "../../build/bpf/opensnoop.bpf.o";
	char *data;
	size_t len;
	struct obj *o;
	int has_open = syscall_nr("open") >= 0;

	if (read_file(path, 1 << 24, &data, &len) < 0) {
		T_OK(0, "read %s (make builds it): %s", path, err_msg());
		return;
	}
	o = tool_open("opensnoop", data, len);
	T_OK(prog_autoload(obj_prog(o, "opensnoop_enter_open")) == has_open &&
		     prog_autoload(obj_prog(o, "opensnoop_exit_open")) == has_open &&
		     prog_autoload(obj_prog(o, "opensnoop_enter_openat")) &&
		     prog_autoload(obj_prog(o, "opensnoop_exit_openat")),
	     "tool_open: opensnoop's open() programs %s on " ARCH_NAME ", openat() kept",
	     has_open ? "kept" : "left out");
	obj_close(o);
	free(data);
}

int main(void)
{
	absent_syscalls();
	regs_vs_uapi();
	syscalls_vs_uapi();
	usdt_specs();
	usdt_arm32_binary();
	T_EXIT();
}
