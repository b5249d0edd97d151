/* Register names -> struct pt_regs offsets, and USDT argument parsing,
 * for x86_64, arm64 and 32-bit arm (see arch.h).
 *
 * x86_64 pt_regs: r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di
 * orig_ax ip cs flags sp ss, 8 bytes each (the ptrace ABI, stable).
 * arm64 pt_regs starts with user_pt_regs: regs[31] (x0..x30), sp, pc,
 * pstate (also stable ABI).  arm (EABI) pt_regs: long uregs[18], 4 bytes
 * each: r0..r15, cpsr, ORIG_r0. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "lib/err.h"
#include "lib/util.h"

/* x86_64: one row per register, its 64/32/16/8-bit names. */
static const struct {
	unsigned off;
	const char *n64, *n32, *n16, *n8;
} x86_regs[] = {
	{ 0, "r15", "r15d", "r15w", "r15b" }, { 8, "r14", "r14d", "r14w", "r14b" },
	{ 16, "r13", "r13d", "r13w", "r13b" }, { 24, "r12", "r12d", "r12w", "r12b" },
	{ 32, "rbp", "ebp", "bp", "bpl" },     { 40, "rbx", "ebx", "bx", "bl" },
	{ 48, "r11", "r11d", "r11w", "r11b" }, { 56, "r10", "r10d", "r10w", "r10b" },
	{ 64, "r9", "r9d", "r9w", "r9b" },     { 72, "r8", "r8d", "r8w", "r8b" },
	{ 80, "rax", "eax", "ax", "al" },      { 88, "rcx", "ecx", "cx", "cl" },
	{ 96, "rdx", "edx", "dx", "dl" },      { 104, "rsi", "esi", "si", "sil" },
	{ 112, "rdi", "edi", "di", "dil" },    { 128, "rip", "eip", "ip", NULL },
	{ 152, "rsp", "esp", "sp", "spl" },
};

static int x86_reg(const char *name, unsigned *size)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++) {
		const char *n[4] = { x86_regs[i].n64, x86_regs[i].n32, x86_regs[i].n16, x86_regs[i].n8 };
		static const unsigned sz[4] = { 8, 4, 2, 1 };

		for (int k = 0; k < 4; k++)
			if (n[k] && !strcmp(n[k], name)) {
				*size = sz[k];
				return (int)x86_regs[i].off;
			}
	}
	return -1;
}

static int arm64_reg(const char *name, unsigned *size)
{
	char *end;
	long n;

	if (!strcmp(name, "sp") || !strcmp(name, "pc")) {
		*size = 8;
		return name[0] == 's' ? 31 * 8 : 32 * 8;
	}
	if (!strcmp(name, "fp") || !strcmp(name, "lr")) { /* x29, x30 */
		*size = 8;
		return name[0] == 'f' ? 29 * 8 : 30 * 8;
	}
	if ((name[0] != 'x' && name[0] != 'w') || name[1] < '0' || name[1] > '9')
		return -1;
	n = strtol(name + 1, &end, 10);
	if (*end || n > 30 || (name[1] == '0' && name[2]))
		return -1;
	*size = name[0] == 'x' ? 8 : 4;
	return (int)n * 8;
}

/* arm: r0..r15 and the assembler's aliases (sb r9, sl r10, fp r11, ip
 * r12, sp r13, lr r14, pc r15); every one a 4-byte uregs[] slot. */
static int arm_reg(const char *name, unsigned *size)
{
	static const char *const alias[] = { "sb", "sl", "fp", "ip", "sp", "lr", "pc" };
	char *end;
	long n;

	*size = 4;
	for (size_t i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(name, alias[i]))
			return (int)(9 + i) * 4;
	if (name[0] != 'r' || name[1] < '0' || name[1] > '9')
		return -1;
	n = strtol(name + 1, &end, 10);
	if (*end || n > 15 || (name[1] == '0' && name[2]))
		return -1;
	return (int)n * 4;
}

unsigned arch_reg_size(enum arch a)
{
	return a == ARCH_ARM ? 4 : 8;
}

int arch_reg_offset(enum arch a, const char *name, unsigned *size)
{
	unsigned sz = 0;
	int off = -1;

	if (name)
		off = a == ARCH_ARM64 ? arm64_reg(name, &sz) : a == ARCH_ARM ? arm_reg(name, &sz) : x86_reg(name, &sz);
	if (size)
		*size = off < 0 ? 0 : sz;
	return off;
}

int arch_arg_reg_offset(enum arch a, unsigned n)
{
	static const int x86[] = { 112, 104, 96, 88, 72, 64 }; /* di si dx cx r8 r9 */

	if (a == ARCH_ARM64)
		return n >= 1 && n <= 8 ? (int)(n - 1) * 8 : -1; /* x0..x7 */
	if (a == ARCH_ARM)
		return n >= 1 && n <= 4 ? (int)(n - 1) * 4 : -1; /* r0..r3 */
	return n >= 1 && n <= ARRAY_SIZE(x86) ? x86[n - 1] : -1;
}

int arch_ret_reg_offset(enum arch a)
{
	return a == ARCH_X86_64 ? 80 : 0; /* ax, x0, r0 */
}

int arch_syscall_arg_reg_offset(enum arch a, unsigned n)
{
	static const int x86[] = { 112, 104, 96, 56, 72, 64 }; /* di si dx r10 r8 r9 */
	static const int arm64[] = { 272, 8, 16, 24, 32, 40 };  /* orig_x0 x1..x5 */
	static const int arm[] = { 68, 4, 8, 12, 16, 20 };      /* ORIG_r0 r1..r5 */

	if (n < 1 || n > 6)
		return -1;
	return a == ARCH_ARM64 ? arm64[n - 1] : a == ARCH_ARM ? arm[n - 1] : x86[n - 1];
}

int arch_syscall_nr_offset(enum arch a, unsigned *size)
{
	*size = a == ARCH_X86_64 ? 8 : 4;
	/* orig_ax, syscallno (s32), r7 (EABI: the number is passed in r7) */
	return a == ARCH_ARM64 ? 280 : a == ARCH_ARM ? 28 : 120;
}

/* A signed decimal or 0x number at *p (strtoll base 0 would also take
 * octal, which sdt.h never writes). */
static int parse_num(const char **p, int64_t *v)
{
	const char *s = *p;
	char *end;
	int neg = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = (int64_t)strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || end == s)
		return -1;
	if (neg)
		*v = -*v;
	*p = end;
	return 0;
}

/* A register name at *p: letters and digits. */
static int parse_reg(enum arch a, const char **p, const char *spec)
{
	char name[8];
	size_t n = 0;
	int off;

	while (((**p >= 'a' && **p <= 'z') || (**p >= '0' && **p <= '9')) && n < sizeof(name) - 1)
		name[n++] = *(*p)++;
	name[n] = 0;
	off = n ? arch_reg_offset(a, name, NULL) : -1;
	if (off < 0)
		return err_set(EINVAL, "USDT argument '%s': unknown %s register '%s'", spec,
			       a == ARCH_ARM64 ? "arm64" : a == ARCH_ARM ? "arm" : "x86_64", name);
	return off;
}

static int bad(const char *spec, const char *why)
{
	return err_set(EINVAL, "USDT argument '%s': %s", spec, why);
}

/* x86: $IMM | %REG | [DISP](%REG) | [DISP](%BASE,%INDEX[,SCALE]) */
static int parse_x86(const char **p, struct arch_usdt_arg *arg, const char *spec)
{
	int64_t v = 0;
	int r;

	if (**p == '$') {
		(*p)++;
		if (parse_num(p, &v) < 0)
			return bad(spec, "bad immediate");
		arg->kind = ARCH_USDT_CONST;
		arg->val_off = v;
		return 0;
	}
	if (**p == '%') {
		(*p)++;
		if ((r = parse_reg(ARCH_X86_64, p, spec)) < 0)
			return r;
		arg->kind = ARCH_USDT_REG;
		arg->reg_off = r;
		return 0;
	}
	if (**p != '(' && parse_num(p, &v) < 0)
		return bad(spec, **p >= 'A' ? "symbolic (RIP-relative) operands are not supported"
					     : "bad displacement");
	if (*(*p)++ != '(' || *(*p)++ != '%')
		return bad(spec, "expected '(%reg'");
	if (!strncmp(*p, "rip", 3))
		return bad(spec, "RIP-relative operands are not supported");
	if ((r = parse_reg(ARCH_X86_64, p, spec)) < 0)
		return r;
	arg->kind = ARCH_USDT_REG_DEREF;
	arg->reg_off = r;
	arg->val_off = v;
	if (**p == ',') {
		int64_t scale = 1;

		(*p)++;
		if (*(*p)++ != '%')
			return bad(spec, "expected an index register");
		if ((r = parse_reg(ARCH_X86_64, p, spec)) < 0)
			return r;
		if (**p == ',') {
			(*p)++;
			if (parse_num(p, &scale) < 0 || (scale != 1 && scale != 2 && scale != 4 && scale != 8))
				return bad(spec, "scale must be 1, 2, 4 or 8");
		}
		arg->kind = ARCH_USDT_SIB;
		arg->idx_reg_off = r;
		arg->scale_shift = scale == 8 ? 3 : scale == 4 ? 2 : scale == 2 ? 1 : 0;
	}
	if (*(*p)++ != ')')
		return bad(spec, "expected ')'");
	return 0;
}

/* arm64 and arm: [#]IMM | REG | [REG] | [REG, [#]OFF] */
static int parse_arm(enum arch a, const char **p, struct arch_usdt_arg *arg, const char *spec)
{
	int64_t v = 0;
	int r;

	if (**p == '#' || **p == '-' || (**p >= '0' && **p <= '9')) {
		*p += **p == '#';
		if (parse_num(p, &v) < 0)
			return bad(spec, "bad immediate");
		arg->kind = ARCH_USDT_CONST;
		arg->val_off = v;
		return 0;
	}
	if (**p != '[') {
		if ((r = parse_reg(a, p, spec)) < 0)
			return r;
		arg->kind = ARCH_USDT_REG;
		arg->reg_off = r;
		return 0;
	}
	(*p)++;
	if ((r = parse_reg(a, p, spec)) < 0)
		return r;
	if (**p == ',') {
		(*p)++;
		while (**p == ' ')
			(*p)++;
		*p += **p == '#';
		if (parse_num(p, &v) < 0)
			return bad(spec, "bad offset");
	}
	if (*(*p)++ != ']')
		return bad(spec, "expected ']'");
	arg->kind = ARCH_USDT_REG_DEREF;
	arg->reg_off = r;
	arg->val_off = v;
	return 0;
}

int arch_usdt_arg_parse(enum arch a, const char **s, struct arch_usdt_arg *arg)
{
	const char *p = *s, *start;
	char spec[64];
	int64_t size;
	size_t n;
	int err;

	while (*p == ' ' || *p == '\t')
		p++;
	start = p;
	n = strcspn(p, " \t");
	if (a != ARCH_X86_64 && memchr(p, '[', n)) /* "[x1, 16]" holds a blank */
		n = (size_t)((strchr(p, ']') ? strchr(p, ']') + 1 : p + strlen(p)) - p);
	snprintf(spec, sizeof(spec), "%.*s", (int)n, start);
	memset(arg, 0, sizeof(*arg));
	arg->reg_off = arg->idx_reg_off = -1;
	if (parse_num(&p, &size) < 0 || *p != '@')
		return bad(spec, "expected SIZE@OPERAND");
	p++;
	arg->is_signed = size < 0;
	arg->size = (unsigned)(size < 0 ? -size : size);
	if (arg->size != 1 && arg->size != 2 && arg->size != 4 && arg->size != 8)
		return bad(spec, "size must be 1, 2, 4 or 8 bytes");
	err = a == ARCH_X86_64 ? parse_x86(&p, arg, spec) : parse_arm(a, &p, arg, spec);
	if (err)
		return err;
	if (*p && *p != ' ' && *p != '\t')
		return bad(spec, "junk after the operand");
	*s = p;
	return 0;
}

int arch_usdt_args_parse(enum arch a, const char *s, struct arch_usdt_arg *args, int max)
{
	int n = 0, err;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n >= max)
			return err_set(E2BIG, "USDT probe has more than %d arguments", max);
		if ((err = arch_usdt_arg_parse(a, &s, &args[n])) < 0)
			return err;
		n++;
	}
}
