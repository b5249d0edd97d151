/* Expressions and probe prologues compiled to BPF (see probe.h).
 *
 * Registers: R6 = the program's context, R7 = the tool's record (map
 * value) when it has one, R8 = bpf_get_current_pid_tgid(), R9 free for
 * the tool.  Expressions compute into R0 and keep intermediate values in
 * stack slots (helper calls clobber R1-R5), so there is no register
 * allocation to get wrong; memory is read with the probe_read helpers
 * (user or kernel chosen by the probe, the type's __user, or at run time
 * by the address's top bit).  A system call's arguments are user memory
 * whatever their value: a traced process must not make the tool read the
 * kernel by passing a kernel address. */
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/probe/arch.h"

#define FRAME_MAX 512

enum where { W_ANY, W_KERNEL, W_USER, W_CTX };

struct gen {
	struct emit e;
	const struct loc *loc;
	const struct spec *spec;
	struct cg_opts o;
	const struct btf *btf;
	int frame;            /* stack bytes in use (below fp) */
	int errpos, errend;
	int base;             /* offset of the expression being compiled in the probe text */
	int entry_map;
	char **entry_names;
	int nentry;
	gen_ext_fn ext;
	void *ext_ctx;
	gen_read_fn rd;       /* -kk */
	const struct node *rd_at;
};

/* x86_64: a 32-bit process's syscalls (cs is __USER32_CS in its saved
 * registers) are numbered from another table */
#define CS_OFF 136
#define USER32_CS 0x23

/* Does the location's context hold a tracepoint's fields (args->...)? */
static bool tp_ctx(const struct loc *l)
{
	return l->mech == M_TP || l->mech == M_RAW_TP || l->mech == M_SYSCALL;
}

struct gen *gen_new(const struct loc *loc, const struct spec *s, const struct cg_opts *o)
{
	struct gen *g = xcalloc(1, sizeof(*g));

	emit_init(&g->e);
	g->loc = loc;
	g->spec = s;
	g->o = *o;
	g->errpos = -1;
	g->entry_map = -1;
	return g;
}

void gen_free(struct gen *g)
{
	if (!g)
		return;
	emit_free(&g->e);
	free(g);
}

struct emit *gen_emit(struct gen *g) { return &g->e; }
int gen_errpos(const struct gen *g) { return g->errpos; }
int gen_errend(const struct gen *g) { return g->errend; }

static int gfail(struct gen *g, const struct node *n, const char *fmt, const char *arg)
{
	if (g->errpos < 0) {
		g->errpos = n ? g->base + n->pos : g->base;
		g->errend = n ? g->base + n->end : 0;
	}
	return err_set(EINVAL, fmt, arg);
}

static const struct btf *kbtf(struct gen *g)
{
	if (!g->btf)
		g->btf = probe_kernel_btf();
	return g->btf;
}

int gen_stack(struct gen *g, int size)
{
	g->frame += (size + 7) & ~7;
	if (g->frame > FRAME_MAX && !g->e.err)
		g->e.err = err_set(E2BIG, "the probe needs more than %d bytes of BPF stack", FRAME_MAX);
	return -(g->frame > FRAME_MAX ? FRAME_MAX : g->frame);
}

static void stack_release(struct gen *g, int size)
{
	g->frame -= (size + 7) & ~7;
}

/* ---- prologue ---- */

int gen_begin(struct gen *g)
{
	struct emit *e = &g->e;
	int out = emit_label(e);

	emit_mov(e, R6, R1);
	if (g->loc->mech == M_SYSCALL && ARCH_HOST == ARCH_X86_64) {
		/* a 32-bit process's syscall numbers are another table's:
		 * the syscalls events leave them out, and so does this */
		int slot = gen_stack(g, 8);

		emit_st(e, 8, R10, (int16_t)slot, 0);
		emit_ldx(e, 8, R3, R6, 0);
		emit_alui(e, BPF_ADD, R3, CS_OFF);
		emit_mov(e, R1, R10);
		emit_alui(e, BPF_ADD, R1, slot);
		emit_movi(e, R2, 8);
		emit_call(e, BPF_FUNC_probe_read_kernel);
		emit_ldx(e, 8, R0, R10, (int16_t)slot);
		emit_jmpi(e, BPF_JEQ, R0, USER32_CS, out);
		stack_release(g, 8);
	}
	emit_call(e, BPF_FUNC_get_current_pid_tgid);
	emit_mov(e, R8, R0);
	if (g->o.tid > 0) {
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_LSH, R1, 32);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_jmpi(e, BPF_JNE, R1, g->o.tid, out);
	} else if (g->o.pid > 0 && !g->loc->user) {
		/* uprobes get -p from the perf event; kernel probes filter here */
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_jmpi(e, BPF_JNE, R1, g->o.pid, out);
	} else if (g->o.self > 0) {
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_jmpi(e, BPF_JEQ, R1, g->o.self, out);
	}
	if (g->o.uid >= 0) {
		emit_call(e, BPF_FUNC_get_current_uid_gid);
		emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
		emit_jmpi(e, BPF_JNE, R0, (int32_t)g->o.uid, out);
	}
	if (g->o.cpu >= 0) {
		emit_call(e, BPF_FUNC_get_smp_processor_id);
		emit_jmpi(e, BPF_JNE, R0, g->o.cpu, out);
	}
	if (g->o.cgroup) {
		emit_ldmap(e, R1, g->o.cgroup_map);
		emit_movi(e, R2, 0);
		emit_call(e, BPF_FUNC_current_task_under_cgroup);
		emit_jmpi(e, BPF_JNE, R0, 1, out);
	}
	return out;
}

void gen_cgroup_id(struct gen *g, int reg, int16_t off)
{
	emit_call(&g->e, BPF_FUNC_get_current_cgroup_id);
	emit_stx(&g->e, 8, reg, off, R0);
}

void gen_end(struct gen *g, int out)
{
	emit_place(&g->e, out);
	emit_movi(&g->e, R0, 0);
	emit_exit(&g->e);
}

/* ---- helpers ---- */

/* Truncate/extend R0 to type t (an integer narrower than 64 bits). */
static void fit(struct gen *g, const struct ctype *t)
{
	if (t->base != CT_INT || t->ptr || t->arr || t->size >= 8)
		return;
	emit_alui(&g->e, BPF_LSH, R0, 64 - 8 * t->size);
	emit_alui(&g->e, t->sign ? BPF_ARSH : BPF_RSH, R0, 64 - 8 * t->size);
}

/* Read size bytes from the address in R3 into (reg + off). */
static void read_mem(struct gen *g, enum where w, int reg, int off, int size, bool str)
{
	struct emit *e = &g->e;
	int hk = str ? BPF_FUNC_probe_read_kernel_str : BPF_FUNC_probe_read_kernel;
	int hu = str ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_user;

	emit_mov(e, R1, reg);
	emit_alui(e, BPF_ADD, R1, off);
	emit_movi(e, R2, size);
	if (w == W_KERNEL || w == W_CTX) {
		emit_call(e, hk);
	} else if (w == W_USER) {
		emit_call(e, hu);
	} else {
		int kern = emit_label(e), done = emit_label(e);

		emit_jmpi(e, BPF_JSLT, R3, 0, kern);
		emit_call(e, hu);
		emit_ja(e, done);
		emit_place(e, kern);
		emit_call(e, hk);
		emit_place(e, done);
	}
	if (g->rd && g->rd_at) {
		/* the helper 0.17 calls: by the pointer's address space, else
		 * the probe's (none for BEGIN, interval...: the old helper) */
		static const char *const names[] = { "probe_read", "probe_read_str", "probe_read_kernel",
						     "probe_read_kernel_str", "probe_read_user", "probe_read_user_str" };
		int as = w == W_USER || (w == W_ANY && g->loc->user) ? 2
			 : w != W_ANY || (g->loc->mech != M_PERF && g->loc->mech != M_RUN) ? 1 : 0;

		g->rd(g, g->rd_at, names[as * 2 + str], g->ext_ctx);
		g->rd_at = NULL; /* used: a later read names its own node */
	}
}

static enum where ptr_where(struct gen *g, const struct ctype *t)
{
	if (g->loc->user || t->user)
		return W_USER;
	return W_ANY;
}

/* R0 = address of an object of type t; load it as a value (scalars), or
 * keep the address (arrays decay, structs stay lvalues). */
static void load(struct gen *g, const struct ctype *t, enum where w, uint32_t bitoff, uint32_t bits)
{
	int slot;
	int size = bits ? 8 : (int)ct_size(t);

	if (!ct_is_scalar(t))
		return;
	slot = gen_stack(g, 8);
	emit_st(&g->e, 8, R10, (int16_t)slot, 0);
	emit_mov(&g->e, R3, R0);
	read_mem(g, w, R10, slot, size, false);
	emit_ldx(&g->e, 8, R0, R10, (int16_t)slot);
	stack_release(g, 8);
	if (bits) {
		emit_alui(&g->e, BPF_RSH, R0, (int32_t)bitoff);
		if (bits < 64) {
			emit_alui(&g->e, BPF_LSH, R0, 64 - (int32_t)bits);
			emit_alui(&g->e, t->sign ? BPF_ARSH : BPF_RSH, R0, 64 - (int32_t)bits);
		}
		return;
	}
	if (size < 8) {
		struct ctype tt = *t;

		if (t->ptr) /* never narrower than 8, but be safe */
			return;
		fit(g, &tt);
	}
}

/* ---- arguments, return values, tracepoint fields ---- */

/* R0 = syscall argument i (1-based) from the saved user registers
 * (M_SYSCALL: ctx[0] is the struct pt_regs *). */
static void syscall_arg(struct gen *g, int i)
{
	struct ctype reg = ct_int(arch_reg_size(ARCH_HOST), false);

	emit_ldx(&g->e, 8, R0, R6, 0);
	emit_alui(&g->e, BPF_ADD, R0, arch_syscall_arg_reg_offset(ARCH_HOST, (unsigned)i));
	load(g, &reg, W_KERNEL, 0, 0);
}

static int typed_param(struct gen *g, int i, struct ctype *t)
{
	const struct btf *btf;
	const struct btf_type *p;

	*t = ct_int(8, false);
	if (g->spec && i < g->spec->nparams) {
		if (ctype_parse(g->spec->params[i].type, kbtf(g), t, NULL) < 0)
			return -EINVAL;
		return 1;
	}
	if (!g->loc->proto || !(btf = kbtf(g)) || !(p = btf_type_by_id(btf, g->loc->proto)) || i >= (int)btf_vlen(p))
		return 0;
	if (ctype_from_btf(btf, btf_params(p)[i].type, t) < 0) {
		*t = ct_int(8, false);
		err_clear();
	}
	return 1;
}

static int usdt_arg(struct gen *g, const struct node *n, int i, struct ctype *t)
{
	struct emit *e = &g->e;
	const struct usdt_arg *a;

	if (i < 1 || i > g->loc->nuargs)
		return gfail(g, n, "this USDT probe has no %s", n->str);
	a = &g->loc->uargs[i - 1];
	if (!a->size)
		return gfail(g, n, "the USDT argument %s has an operand corebox cannot read", n->str);
	*t = ct_int(a->size, a->sign);
	switch (a->kind) {
	case UA_CONST:
		emit_ld64(e, R0, (uint64_t)a->val);
		break;
	case UA_REG:
		/* arm: a 64-bit value sits in an even/odd register pair, read
		 * at once from the 8-aligned first one (r0:r1 -> uregs[0..1]) */
		emit_ldx(e, a->size == 8 ? 8 : (int)arch_reg_size(ARCH_HOST), R0, R6, a->reg);
		break;
	case UA_MEM:
		emit_ldx(e, (int)arch_reg_size(ARCH_HOST), R0, R6, a->reg);
		if (a->idx >= 0) {
			emit_ldx(e, 8, R1, R6, a->idx);
			if (a->scale > 1)
				emit_alui(e, BPF_MUL, R1, a->scale);
			emit_alu(e, BPF_ADD, R0, R1);
		}
		if (a->val) {
			emit_ld64(e, R1, (uint64_t)a->val);
			emit_alu(e, BPF_ADD, R0, R1);
		}
		load(g, t, W_USER, 0, 0);
		return 0;
	}
	fit(g, t);
	return 0;
}

static int cg_arg(struct gen *g, const struct node *n, int i, struct ctype *t)
{
	const struct loc *l = g->loc;
	struct emit *e = &g->e;
	int typed;

	if (l->usdt)
		return usdt_arg(g, n, i, t);
	if (i < 1)
		return gfail(g, n, "no argument %s", n->str);
	switch (l->mech) {
	case M_TP:
	case M_RAW_TP:
	case M_SYSCALL: {
		const struct tp_field *f;
		int k = l->fmt.first_arg + i - 1;

		if (!l->syscall_tp)
			return gfail(g, n, "tracepoints have no %s: use args->FIELD", n->str);
		if (l->is_return)
			return gfail(g, n, "%s is not known at a syscall's return (use retval)", n->str);
		if (!l->fmt.first_arg || k >= l->fmt.n || arch_syscall_arg_reg_offset(ARCH_HOST, (unsigned)i) < 0)
			return gfail(g, n, "this syscall has no %s", n->str);
		f = &l->fmt.f[k];
		if (l->mech == M_SYSCALL)
			syscall_arg(g, i);
		else
			emit_ldx(e, 8, R0, R6, (int16_t)f->off);
		*t = ct_int(8, false);
		if (ctype_parse(f->type, kbtf(g), t, NULL) < 0) {
			*t = ct_int(8, f->sign);
			err_clear();
		}
		if (g->spec && i - 1 < g->spec->nparams && ctype_parse(g->spec->params[i - 1].type, kbtf(g), t, NULL) < 0)
			return gfail(g, n, "%s", err_msg());
		/* a system call's arguments come from user space: whatever
		 * their type or value, memory through them is user memory */
		t->user = true;
		fit(g, t);
		return 0;
	}
	case M_FENTRY:
	case M_FEXIT:
		if (i > l->nparams)
			return gfail(g, n, "the function has no %s", n->str);
		emit_ldx(e, 8, R0, R6, (int16_t)(8 * (i - 1)));
		break;
	default:
		if (arch_arg_reg_offset(ARCH_HOST, (unsigned)i) < 0)
			return gfail(g, n, "%s is not in a register", n->str);
		emit_ldx(e, (int)arch_reg_size(ARCH_HOST), R0, R6, (int16_t)arch_arg_reg_offset(ARCH_HOST, (unsigned)i));
		break;
	}
	typed = typed_param(g, i - 1, t);
	if (typed < 0)
		return gfail(g, n, "%s", err_msg());
	fit(g, t);
	return 0;
}

static int cg_retval(struct gen *g, const struct node *n, struct ctype *t)
{
	const struct loc *l = g->loc;
	struct emit *e = &g->e;
	const struct btf *btf;
	const struct btf_type *p;

	*t = ct_int(8, true);
	switch (l->mech) {
	case M_TP: {
		const struct tp_field *f = tp_field(&l->fmt, "ret");

		if (!l->syscall_tp || !l->is_return || !f)
			return gfail(g, n, "retval is only known in return probes%s", "");
		emit_ldx(e, 8, R0, R6, (int16_t)f->off);
		return 0;
	}
	case M_SYSCALL: /* sys_exit(regs, ret) */
		if (!l->is_return)
			return gfail(g, n, "retval is only known in return probes%s", "");
		emit_ldx(e, 8, R0, R6, 8);
		return 0;
	case M_FEXIT:
		emit_ldx(e, 8, R0, R6, (int16_t)(8 * l->nparams));
		break;
	case M_KRETPROBE:
	case M_URETPROBE:
		/* (arm: a 4-byte register, zero-extended like x86's eax) */
		emit_ldx(e, (int)arch_reg_size(ARCH_HOST), R0, R6, (int16_t)arch_ret_reg_offset(ARCH_HOST));
		break;
	default:
		return gfail(g, n, "retval is only known in return probes (r:...)%s", "");
	}
	if (l->proto && (btf = kbtf(g)) && (p = btf_type_by_id(btf, l->proto)) && p->type) {
		if (ctype_from_btf(btf, p->type, t) < 0) {
			*t = ct_int(8, true);
			err_clear();
		}
		fit(g, t);
	}
	return 0;
}

static int cg_value(struct gen *g, struct node *n, struct ctype *t);
static int cg_addr(struct gen *g, struct node *n, struct ctype *t, enum where *w, uint32_t *bitoff, uint32_t *bits);

static int tp_field_type(struct gen *g, const struct tp_field *f, struct ctype *t)
{
	if (f->data_loc) {
		*t = ct_int(1, true);
		t->arr = 1;
		return 0;
	}
	/* C's own types need no BTF: the kernel's (megabytes) is opened only
	 * for the struct and typedef names a format file writes */
	if (ctype_parse(f->type, NULL, t, NULL) < 0 && ctype_parse(f->type, kbtf(g), t, NULL) < 0) {
		err_clear();
		*t = ct_int(f->size == 1 || f->size == 2 || f->size == 4 ? (int)f->size : 8, f->sign);
		if (f->size > 8 || strchr(f->type, '[')) {
			*t = ct_int(1, f->sign);
			t->arr = f->size;
		}
	}
	{
		const char *br = strchr(f->type, '[');

		if (br && !t->arr) {
			uint32_t es = ct_size(t);

			t->arr = es ? f->size / es : f->size;
		}
	}
	return 0;
}

/* args->FIELD of a tracepoint: scalars loaded from the record, arrays and
 * strings as their address in it (W_CTX). */
static int cg_tp_field(struct gen *g, struct node *n, struct ctype *t, enum where *w)
{
	const struct tp_field *f;
	struct emit *e = &g->e;

	if (!tp_ctx(g->loc))
		return gfail(g, n, "'args' is only known in tracepoints%s", "");
	if (g->loc->mech == M_RAW_TP)
		return gfail(g, n, "a raw tracepoint has no record fields ('%s')", n->str);
	f = tp_field(&g->loc->fmt, n->str);
	if (!f && g->ext && g->loc->target && strchr(g->loc->target, '/')) { /* bpftrace: 0.17's words */
		char msg[300], *sl;

		snprintf(msg, sizeof(msg), "Struct/union of type 'struct _tracepoint_%.120s' does not contain a field named '%.60s'",
			 g->loc->target, n->str);
		if ((sl = strchr(msg + 36, '/'))) /* CAT/EVENT: CAT_EVENT */
			*sl = '_';
		return gfail(g, n, "%s", msg);
	}
	if (!f)
		return gfail(g, n, "the tracepoint has no field '%s'", n->str);
	tp_field_type(g, f, t);
	if (g->loc->mech == M_SYSCALL) {
		/* the record is not there: its fields from what it is made of */
		int k = (int)(f - g->loc->fmt.f), i = k - g->loc->fmt.first_arg + 1;

		if (!strcmp(f->name, "__syscall_nr")) {
			emit_movi(e, R0, g->loc->sc_nr);
			*t = ct_int(4, true);
		} else if (!strcmp(f->name, "ret") && g->loc->is_return) {
			emit_ldx(e, 8, R0, R6, 8);
			*t = ct_int(8, true);
		} else if (!strcmp(f->name, "common_pid")) {
			emit_mov(e, R0, R8);
			emit_alui(e, BPF_LSH, R0, 32);
			emit_alui(e, BPF_RSH, R0, 32);
			*t = ct_int(4, true);
		} else if (g->loc->fmt.first_arg && k >= g->loc->fmt.first_arg && !g->loc->is_return &&
			   arch_syscall_arg_reg_offset(ARCH_HOST, (unsigned)i) >= 0 && ct_is_scalar(t)) {
			syscall_arg(g, i);
			fit(g, t);
			t->user = true; /* an argument: a user address, if any */
		} else {
			return gfail(g, n, "field '%s' is not available here (syscall events come from raw_syscalls)",
				     n->str);
		}
		return 0;
	}
	if (f->data_loc) {
		/* u32 (len << 16 | offset from the record start) */
		emit_ldx(e, 4, R0, R6, (int16_t)f->off);
		emit_alui(e, BPF_AND, R0, 0xffff);
		emit_alu(e, BPF_ADD, R0, R6);
		*w = W_CTX;
		return 1;
	}
	if (ct_is_scalar(t) && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) &&
	    f->off % f->size == 0) {
		emit_ldx(e, (int)f->size, R0, R6, (int16_t)f->off);
		if (ct_size(t) != f->size)
			*t = ct_int((int)f->size, f->sign);
		fit(g, t);
		if (strstr(f->type, "__user") || g->loc->syscall_tp)
			t->user = true;
		return 0;
	}
	emit_mov(e, R0, R6);
	emit_alui(e, BPF_ADD, R0, (int32_t)f->off);
	*w = W_CTX;
	return 1; /* an address */
}

static int cg_ident(struct gen *g, struct node *n, struct ctype *t)
{
	struct emit *e = &g->e;
	const char *s = n->str;

	if (g->spec)
		for (int i = 0; i < g->spec->nparams; i++)
			if (!strcmp(g->spec->params[i].name, s))
				return cg_arg(g, n, i + 1, t);
	if (!strncmp(s, "arg", 3) && s[3] >= '1' && s[3] <= '9' && (!s[4] || (!s[5] && s[4] >= '0' && s[4] <= '9')))
		return cg_arg(g, n, atoi(s + 3), t);
	if (!strcmp(s, "retval") || !strcmp(s, "$retval"))
		return cg_retval(g, n, t);
	if (!strcmp(s, "$pid") || !strcmp(s, "$tgid") || !strcmp(s, "$PID")) {
		emit_mov(e, R0, R8);
		if (s[1] == 'p') {
			emit_alui(e, BPF_LSH, R0, 32);
			emit_alui(e, BPF_RSH, R0, 32);
		} else
			emit_alui(e, BPF_RSH, R0, 32);
		*t = ct_int(4, false);
		return 0;
	}
	if (!strcmp(s, "$uid") || !strcmp(s, "$gid")) {
		emit_call(e, BPF_FUNC_get_current_uid_gid);
		if (s[1] == 'u')
			emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
		*t = ct_int(4, false);
		return 0;
	}
	if (!strcmp(s, "$cpu")) {
		emit_call(e, BPF_FUNC_get_smp_processor_id);
		*t = ct_int(4, false);
		return 0;
	}
	if (!strcmp(s, "$task")) {
		int32_t id;

		emit_call(e, BPF_FUNC_get_current_task);
		*t = ct_int(8, false);
		if (kbtf(g) && (id = ctype_find_rec(g->btf, "task_struct", false)) > 0) {
			ctype_from_btf(g->btf, (uint32_t)id, t);
			t->ptr = 1;
		}
		return 0;
	}
	if (!strcmp(s, "$latency")) {
		int k;

		for (k = 0; k < g->nentry; k++)
			if (!strcmp(g->entry_names[k], "$latency"))
				break;
		if (k == g->nentry)
			return gfail(g, n, "%s needs a return probe", s);
		emit_call(e, BPF_FUNC_ktime_get_ns);
		emit_ldx(e, 8, R1, R9, (int16_t)(8 * k));
		emit_alu(e, BPF_SUB, R0, R1);
		*t = ct_int(8, false);
		return 0;
	}
	if (!strcmp(s, "args"))
		return gfail(g, n, "use args->FIELD%s", "");
	if (g->loc->proto && kbtf(g)) {
		const struct btf_type *p = btf_type_by_id(g->btf, g->loc->proto);

		for (uint32_t i = 0; p && i < btf_vlen(p); i++)
			if (!strcmp(btf_str(g->btf, btf_params(p)[i].name_off) ? btf_str(g->btf, btf_params(p)[i].name_off) : "", s))
				return cg_arg(g, n, (int)i + 1, t);
	}
	return gfail(g, n, "unknown identifier '%s'", s);
}

/* ---- lvalues ---- */

static int cg_addr(struct gen *g, struct node *n, struct ctype *t, enum where *w, uint32_t *bitoff, uint32_t *bits)
{
	struct emit *e = &g->e;
	struct ctype bt, mt;
	uint32_t off = 0;
	int err;

	*bitoff = *bits = 0;
	switch (n->kind) {
	case N_MEMBER:
		if (n->op == '>' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args") && tp_ctx(g->loc)) {
			err = cg_tp_field(g, n, t, w);
			if (err < 0)
				return err;
			if (err == 0)
				return gfail(g, n, "'%s' is not an object in memory", n->str);
			return 0;
		}
		if (n->op == '>') {
			if ((err = cg_value(g, n->a, &bt)) < 0)
				return err;
			if (!ct_is_ptr(&bt) && !bt.arr)
				return gfail(g, n, "'->%s' on something that is not a pointer (cast it)", n->str);
			*w = ptr_where(g, &bt);
			bt = ct_deref(&bt);
		} else {
			if ((err = cg_addr(g, n->a, &bt, w, bitoff, bits)) < 0)
				return err;
		}
		if (bt.ptr || bt.arr || bt.base != CT_REC)
			return gfail(g, n, "'%s': not a member of a struct (cast to a struct pointer first)", n->str);
		if (!kbtf(g))
			return gfail(g, n, "struct members need kernel BTF%s", "");
		if (ctype_member(g->btf, &bt, n->str, &mt, &off, bitoff, bits) < 0)
			return gfail(g, n, "%s", err_msg());
		if (bt.user)
			mt.user = true;
		if (off)
			emit_alui(e, BPF_ADD, R0, (int32_t)off);
		*t = mt;
		return 0;
	case N_INDEX: {
		int slot;
		struct ctype it;
		uint32_t es;

		if (n->a->kind == N_MEMBER || n->a->kind == N_INDEX || (n->a->kind == N_UNARY && n->a->op == '*')) {
			uint32_t b1, b2;

			if ((err = cg_addr(g, n->a, &bt, w, &b1, &b2)) < 0)
				return err;
			if (!bt.arr) {
				/* a pointer member: load it, index what it points to */
				load(g, &bt, *w, 0, 0);
				*w = ptr_where(g, &bt);
			}
		} else {
			if ((err = cg_value(g, n->a, &bt)) < 0)
				return err;
			*w = ptr_where(g, &bt);
		}
		if (!bt.arr && !ct_is_ptr(&bt))
			return gfail(g, n, "indexing something that is not an array or pointer%s", "");
		*t = ct_deref(&bt);
		es = ct_size(t);
		slot = gen_stack(g, 8);
		emit_stx(e, 8, R10, (int16_t)slot, R0);
		if ((err = cg_value(g, n->b, &it)) < 0)
			return err;
		if (es != 1)
			emit_alui(e, BPF_MUL, R0, (int32_t)es);
		emit_ldx(e, 8, R1, R10, (int16_t)slot);
		emit_alu(e, BPF_ADD, R0, R1);
		stack_release(g, 8);
		return 0;
	}
	case N_UNARY:
		if (n->op == '*') {
			if ((err = cg_value(g, n->a, &bt)) < 0)
				return err;
			if (bt.base == CT_INT && !bt.ptr && !bt.arr && g->ext) {
				/* bpftrace: *ADDRESS reads a u64 there */
				*w = bt.user || g->loc->user ? W_USER : W_ANY;
				*t = ct_int(8, false);
				return 0;
			}
			if (!ct_is_ptr(&bt) && !bt.arr)
				return gfail(g, n, "dereferencing something that is not a pointer%s", "");
			*w = ptr_where(g, &bt);
			*t = ct_deref(&bt);
			return 0;
		}
		break;
	default:
		break;
	}
	return gfail(g, n, "not an object in memory%s", "");
}

/* ---- values ---- */

static bool is_string_lit(const struct node *n) { return n->kind == N_STR; }

/* Copy the string expression n into (reg + off), size bytes. */
static int cg_string_to(struct gen *g, struct node *n, int reg, int off, int size)
{
	const struct node *at = g->rd_at; /* str(): the call, set by the front end */
	struct emit *e = &g->e;
	struct ctype t;
	enum where w = W_ANY;
	uint32_t bo, bs;
	int err, done = emit_label(e);

	if (n->kind == N_MEMBER && n->op == '>' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args") &&
	    tp_ctx(g->loc)) {
		err = cg_tp_field(g, n, &t, &w);
		if (err < 0)
			return err;
		if (err == 0) /* a pointer field */
			w = ptr_where(g, &t);
	} else if (n->kind == N_MEMBER || n->kind == N_INDEX || (n->kind == N_UNARY && n->op == '*')) {
		if ((err = cg_addr(g, n, &t, &w, &bo, &bs)) < 0)
			return err;
		if (!t.arr) { /* a char * member: follow it */
			load(g, &t, w, bo, bs);
			w = ptr_where(g, &t);
		}
	} else {
		if ((err = cg_value(g, n, &t)) < 0)
			return err;
		if (!ct_is_ptr(&t) && !t.arr && !(t.base == CT_INT && t.size == 8))
			return gfail(g, n, "not a string (char *)%s", "");
		w = ptr_where(g, &t);
	}
	emit_st(e, 1, reg, (int16_t)off, 0);
	emit_jmpi(e, BPF_JEQ, R0, 0, done);
	emit_mov(e, R3, R0);
	g->rd_at = at;
	read_mem(g, w, reg, off, size, true);
	emit_place(e, done);
	return 0;
}

/* R0 = 1 when the string expr equals lit (prefix: only its bytes). */
/* trace -B: "{0x41, 66, 'C', 0}" (bcc pastes the text as a C array
 * initializer) into bytes.  How many, or -1 when it is not such a list. */
static int bin_list(const char *s, unsigned char *out, int max)
{
	int n = 0;

	while (*s == ' ')
		s++;
	if (*s++ != '{')
		return -1;
	for (;;) {
		char *end;
		long v;

		while (*s == ' ')
			s++;
		if (*s == '\'' && s[1] && s[1] != '\\' && s[2] == '\'') {
			v = (unsigned char)s[1];
			end = (char *)s + 3;
		} else {
			v = strtol(s, &end, 0);
			if (end == s || v < -128 || v > 255)
				return -1;
		}
		if (n >= max)
			return -1;
		out[n++] = (unsigned char)v;
		for (s = end; *s == ' '; s++)
			;
		if (*s == '}')
			return s[1] ? -1 : n;
		if (*s++ != ',')
			return -1;
	}
}

static int cg_strcmp(struct gen *g, struct node *expr, const struct node *lit, bool prefix)
{
	struct emit *e = &g->e;
	size_t n = lit->len + (prefix ? 0 : 1), len = lit->len;
	const unsigned char *needle = (const unsigned char *)lit->str;
	unsigned char bin[256];
	int buf, no = emit_label(e), done = emit_label(e), err;

	if (g->o.bin_cmp) {
		int nb = bin_list(lit->str, bin, (int)sizeof(bin));

		if (nb < 1)
			return gfail(g, lit, "with -B, STRCMP's first argument is a C byte list such as \"{0x41,0x42,0}\"%s", "");
		/* bcc compares sizeof(needle) - 1 bytes: the list's last element
		 * stands where a string's NUL would */
		needle = bin;
		n = len = (size_t)nb - 1;
	}
	if (n > 256)
		return gfail(g, lit, "string literal longer than 255 bytes%s", "");
	buf = gen_stack(g, (int)n + 1);
	if ((err = cg_string_to(g, expr, R10, buf, (int)n + 1)) < 0)
		return err;
	for (size_t k = 0; k < n; k++) {
		emit_ldx(e, 1, R1, R10, (int16_t)(buf + (int)k));
		emit_jmpi(e, BPF_JNE, R1, k < len ? needle[k] : 0, no);
	}
	emit_movi(e, R0, 1);
	emit_ja(e, done);
	emit_place(e, no);
	emit_movi(e, R0, 0);
	emit_place(e, done);
	stack_release(g, (int)n + 1);
	return 0;
}

static int cmp_op(int op, bool sign)
{
	switch (op) {
	case OP_EQ: return BPF_JEQ;
	case OP_NE: return BPF_JNE;
	case '<': return sign ? BPF_JSLT : BPF_JLT;
	case '>': return sign ? BPF_JSGT : BPF_JGT;
	case OP_LE: return sign ? BPF_JSLE : BPF_JLE;
	case OP_GE: return sign ? BPF_JSGE : BPF_JGE;
	}
	return -1;
}

/* R0 = R0 / R1 (or %) as signed 64-bit C: truncated toward zero, the
 * remainder takes the dividend's sign; by zero as BPF: 0 (x % 0 = x). */
static void signed_divmod(struct gen *g, bool mod)
{
	struct emit *e = &g->e;
	int pos_a = emit_label(e), pos_b = emit_label(e), done = emit_label(e);

	emit_movi(e, R2, 0); /* negate the result? */
	emit_jmpi(e, BPF_JSGE, R0, 0, pos_a);
	emit_alui(e, BPF_NEG, R0, 0);
	emit_movi(e, R2, 1);
	emit_place(e, pos_a);
	emit_jmpi(e, BPF_JSGE, R1, 0, pos_b);
	emit_alui(e, BPF_NEG, R1, 0);
	if (!mod)
		emit_alui(e, BPF_XOR, R2, 1);
	emit_place(e, pos_b);
	emit_alu(e, mod ? BPF_MOD : BPF_DIV, R0, R1);
	emit_jmpi(e, BPF_JEQ, R2, 0, done);
	emit_alui(e, BPF_NEG, R0, 0);
	emit_place(e, done);
}

static int cg_binary(struct gen *g, struct node *n, struct ctype *t)
{
	struct emit *e = &g->e;
	struct ctype ta, tb;
	int slot, err, op = n->op;
	bool sign;

	if (op == OP_AND || op == OP_OR) {
		int short_l = emit_label(e), done = emit_label(e);

		if ((err = cg_value(g, n->a, &ta)) < 0)
			return err;
		emit_jmpi(e, op == OP_AND ? BPF_JEQ : BPF_JNE, R0, 0, short_l);
		if ((err = cg_value(g, n->b, &tb)) < 0)
			return err;
		emit_jmpi(e, op == OP_AND ? BPF_JEQ : BPF_JNE, R0, 0, short_l);
		emit_movi(e, R0, op == OP_AND ? 1 : 0);
		emit_ja(e, done);
		emit_place(e, short_l);
		emit_movi(e, R0, op == OP_AND ? 0 : 1);
		emit_place(e, done);
		*t = ct_int(4, true);
		return 0;
	}
	if ((op == OP_EQ || op == OP_NE) && (is_string_lit(n->a) || is_string_lit(n->b))) {
		struct node *lit = is_string_lit(n->a) ? n->a : n->b, *other = lit == n->a ? n->b : n->a;

		if ((err = cg_strcmp(g, other, lit, false)) < 0)
			return err;
		if (op == OP_NE)
			emit_alui(e, BPF_XOR, R0, 1);
		*t = ct_int(4, true);
		return 0;
	}
	if ((err = cg_value(g, n->a, &ta)) < 0)
		return err;
	slot = gen_stack(g, 8);
	emit_stx(e, 8, R10, (int16_t)slot, R0);
	if ((err = cg_value(g, n->b, &tb)) < 0)
		return err;
	emit_mov(e, R1, R0);
	emit_ldx(e, 8, R0, R10, (int16_t)slot);
	stack_release(g, 8);
	/* C promotes narrow unsigned operands to int; bpftrace does not */
	sign = (ta.sign || (!g->ext && ta.base == CT_INT && !ta.ptr && ta.size < 4)) &&
	       (tb.sign || (!g->ext && tb.base == CT_INT && !tb.ptr && tb.size < 4)) && !ct_is_ptr(&ta) && !ct_is_ptr(&tb);
	if (cmp_op(op, sign) >= 0) {
		int yes = emit_label(e), done = emit_label(e);

		emit_jmp(e, cmp_op(op, sign), R0, R1, yes);
		emit_movi(e, R0, 0);
		emit_ja(e, done);
		emit_place(e, yes);
		emit_movi(e, R0, 1);
		emit_place(e, done);
		*t = ct_int(4, true);
		return 0;
	}
	*t = ct_int(8, sign);
	if ((op == '+' || op == '-') && (ct_is_ptr(&ta) || ta.arr) && !ct_is_ptr(&tb)) {
		struct ctype el = ct_deref(&ta);
		uint32_t es = ct_size(&el);

		if (es > 1)
			emit_alui(e, BPF_MUL, R1, (int32_t)es);
		*t = ta;
		t->arr = 0;
		if (ta.arr)
			t->ptr++;
	} else if (op == '+' && ct_is_ptr(&tb) && !ct_is_ptr(&ta)) {
		struct ctype el = ct_deref(&tb);
		uint32_t es = ct_size(&el);

		if (es > 1)
			emit_alui(e, BPF_MUL, R0, (int32_t)es);
		*t = tb;
	}
	/* an offset from a user address is a user address (arg2 + 8) */
	t->user = ta.user || tb.user;
	switch (op) {
	case '+': emit_alu(e, BPF_ADD, R0, R1); break;
	case '-': emit_alu(e, BPF_SUB, R0, R1); break;
	case '*': emit_alu(e, BPF_MUL, R0, R1); break;
	case '/':
	case '%':
		/* C's signed division (BPF's is unsigned; sdiv is 6.6+ only); not
		 * for bpftrace (the one front end with an ext): 0.17 emits udiv,
		 * urem and lshr whatever the signs */
		if (sign && !g->ext) {
			signed_divmod(g, op == '%');
			break;
		}
		emit_alu(e, op == '/' ? BPF_DIV : BPF_MOD, R0, R1);
		break;
	case '&': emit_alu(e, BPF_AND, R0, R1); break;
	case '|': emit_alu(e, BPF_OR, R0, R1); break;
	case '^': emit_alu(e, BPF_XOR, R0, R1); break;
	case OP_SHL: emit_alu(e, BPF_LSH, R0, R1); break;
	case OP_SHR: emit_alu(e, ta.sign && !g->ext ? BPF_ARSH : BPF_RSH, R0, R1); break;
	default: return gfail(g, n, "operator not supported%s", "");
	}
	if (op == '-' && ct_is_ptr(&ta) && ct_is_ptr(&tb)) {
		struct ctype el = ct_deref(&ta);

		if (ct_size(&el) > 1)
			emit_alui(e, BPF_DIV, R0, (int32_t)ct_size(&el));
		*t = ct_int(8, true);
	}
	return 0;
}

static int cg_value(struct gen *g, struct node *n, struct ctype *t)
{
	struct emit *e = &g->e;
	enum where w;
	uint32_t bo, bs;
	int err;

	if (g->ext && (err = g->ext(g, n, t, g->ext_ctx)) != GEN_EXT_PASS)
		return err;

	switch (n->kind) {
	case N_NUM:
		emit_ld64(e, R0, n->num);
		*t = ct_int(8, n->num <= INT64_MAX);
		return 0;
	case N_STR:
		return gfail(g, n, "a string literal can only be compared (== \"...\", STRCMP)%s", "");
	case N_IDENT:
		return cg_ident(g, n, t);
	case N_MEMBER:
		if (n->op == '>' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args") && tp_ctx(g->loc)) {
			err = cg_tp_field(g, n, t, &w);
			return err < 0 ? err : 0;
		}
		/* fall through */
	case N_INDEX:
		if ((err = cg_addr(g, n, t, &w, &bo, &bs)) < 0)
			return err;
		g->rd_at = n;
		load(g, t, w, bo, bs);
		return 0;
	case N_UNARY:
		switch (n->op) {
		case '*':
			if ((err = cg_addr(g, n, t, &w, &bo, &bs)) < 0)
				return err;
			g->rd_at = n;
			load(g, t, w, 0, 0);
			return 0;
		case '&':
			if ((err = cg_addr(g, n->a, t, &w, &bo, &bs)) < 0)
				return err;
			if (bs)
				return gfail(g, n, "address of a bitfield%s", "");
			t->ptr++;
			return 0;
		}
		if ((err = cg_value(g, n->a, t)) < 0)
			return err;
		if (n->op == '-')
			emit_alui(e, BPF_NEG, R0, 0);
		else if (n->op == '~')
			emit_alui(e, BPF_XOR, R0, -1);
		else if (n->op == '!') {
			int z = emit_label(e), done = emit_label(e);

			emit_jmpi(e, BPF_JEQ, R0, 0, z);
			emit_movi(e, R0, 0);
			emit_ja(e, done);
			emit_place(e, z);
			emit_movi(e, R0, 1);
			emit_place(e, done);
			*t = ct_int(4, true);
		}
		return 0;
	case N_BINARY:
		return cg_binary(g, n, t);
	case N_COND: {
		int no = emit_label(e), done = emit_label(e);
		struct ctype tc;

		if ((err = cg_value(g, n->a, &tc)) < 0)
			return err;
		emit_jmpi(e, BPF_JEQ, R0, 0, no);
		if ((err = cg_value(g, n->b, t)) < 0)
			return err;
		emit_ja(e, done);
		emit_place(e, no);
		if ((err = cg_value(g, n->c, &tc)) < 0)
			return err;
		emit_place(e, done);
		return 0;
	}
	case N_CAST: {
		struct ctype from;

		if (ctype_parse(n->cast_text, kbtf(g), &n->cast, NULL) < 0)
			return gfail(g, n, "%s", err_msg());
		if ((err = cg_value(g, n->a, &from)) < 0)
			return err;
		/* an array's value is its address (in a tracepoint's record, a
		 * context pointer the verifier refuses to shift): not a number */
		if (from.arr && n->cast.base == CT_INT && !n->cast.ptr && !n->cast.arr && n->cast.size < 8)
			return gfail(g, n, "an array cast to a narrower integer (its address, cut): index it, or take a char array as a string (char *)%s", "");
		*t = n->cast;
		if (from.user)
			t->user = true;
		fit(g, t);
		return 0;
	}
	case N_CALL:
		if (!strcmp(n->str, "STRCMP")) {
			if (!n->a || !n->a->next || n->a->next->next || n->a->kind != N_STR)
				return gfail(g, n, "STRCMP takes a string literal and an expression%s", "");
			*t = ct_int(4, true);
			return cg_strcmp(g, n->a->next, n->a, true);
		}
		if (!strcmp(n->str, "$entry")) {
			int k;

			if (!n->a || n->a->kind != N_IDENT || n->a->next)
				return gfail(g, n, "$entry takes a parameter name%s", "");
			for (k = 0; k < g->nentry; k++)
				if (!strcmp(g->entry_names[k], n->a->str))
					break;
			if (k == g->nentry)
				return gfail(g, n, "$entry(%s): no such parameter in the signature", n->a->str);
			emit_ldx(e, 8, R0, R9, (int16_t)(8 * k));
			*t = ct_int(8, false);
			for (int i = 0; g->spec && i < g->spec->nparams; i++)
				if (!strcmp(g->spec->params[i].name, n->a->str) &&
				    ctype_parse(g->spec->params[i].type, kbtf(g), t, NULL) < 0)
					err_clear();
			fit(g, t);
			return 0;
		}
		return gfail(g, n, "unknown function '%s'", n->str);
	default:
		break;
	}
	return gfail(g, n, "unsupported expression%s", "");
}

/* ---- entry points ---- */

static struct node *parse_at(struct gen *g, const char *text, int pos)
{
	int ep = 0;
	struct node *n = expr_parse(text, &ep);

	if (!n)
		g->errpos = pos + ep;
	return n;
}

int gen_value_node(struct gen *g, struct node *n, struct ctype *t)
{
	return cg_value(g, n, t);
}

int gen_string_node(struct gen *g, struct node *n, int reg, int16_t off, int size)
{
	return cg_string_to(g, n, reg, off, size);
}

int gen_value(struct gen *g, const char *text, int pos, struct ctype *t)
{
	struct node *n = parse_at(g, text, pos);
	int err;

	if (!n)
		return -EINVAL;
	g->base = pos;
	err = cg_value(g, n, t);
	expr_free(n);
	return err;
}

int gen_string(struct gen *g, const char *text, int pos, int reg, int16_t off, int size)
{
	struct node *n = parse_at(g, text, pos);
	int err;

	if (!n)
		return -EINVAL;
	g->base = pos;
	err = cg_string_to(g, n, reg, off, size);
	expr_free(n);
	return err;
}

int gen_filter(struct gen *g, const char *text, int pos, int label)
{
	struct ctype t;
	int err = gen_value(g, text, pos, &t);

	if (err < 0)
		return err;
	emit_jmpi(&g->e, BPF_JEQ, R0, 0, label);
	return 0;
}

void gen_set_ext(struct gen *g, gen_ext_fn fn, void *ctx)
{
	g->ext = fn;
	g->ext_ctx = ctx;
}

void gen_set_read_check(struct gen *g, gen_read_fn fn) { g->rd = fn; }
void gen_read_at(struct gen *g, const struct node *n) { g->rd_at = n; }

int gen_fail(struct gen *g, const struct node *n, const char *msg)
{
	return gfail(g, n, "%s", msg);
}

const struct loc *gen_loc(const struct gen *g) { return g->loc; }
void gen_unstack(struct gen *g, int size) { stack_release(g, size); }

void gen_set_entry(struct gen *g, int map, char **names, int n)
{
	g->entry_map = map;
	g->entry_names = names;
	g->nentry = n;
}

void gen_log2l(struct gen *g)
{
	struct emit *e = &g->e;
	int zero = emit_label(e), done = emit_label(e);

	emit_movi(e, R0, 0);
	emit_jmpi(e, BPF_JEQ, R1, 0, zero);
	for (int s = 32; s >= 1; s /= 2) {
		int skip = emit_label(e);

		emit_ld64(e, R2, (1ull << s) - 1);
		emit_jmp(e, BPF_JLE, R1, R2, skip);
		emit_alui(e, BPF_RSH, R1, s);
		emit_alui(e, BPF_ADD, R0, s);
		emit_place(e, skip);
	}
	emit_alui(e, BPF_ADD, R0, 1);
	emit_ja(e, done);
	emit_place(e, zero);
	emit_place(e, done);
}

void gen_lookup(struct gen *g, int map, int keyoff, int out)
{
	struct emit *e = &g->e;

	emit_ldmap(e, R1, map);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, keyoff);
	emit_call(e, BPF_FUNC_map_lookup_elem);
	emit_jmpi(e, BPF_JEQ, R0, 0, out);
}

void gen_hash_add(struct gen *g, int map, int keyoff, int valoff, int nwords)
{
	struct emit *e = &g->e;
	int insert = emit_label(e), done = emit_label(e);

	gen_lookup(g, map, keyoff, insert);
	if (!nwords) { /* a count: 1 as an immediate, stored only for the insert */
		emit_movi(e, R1, 1);
		emit_xadd(e, 8, R0, 0, R1);
	}
	for (int i = 0; i < nwords * 8; i += 8) {
		emit_ldx(e, 8, R1, R10, (int16_t)(valoff + i));
		emit_xadd(e, 8, R0, (int16_t)i, R1);
	}
	emit_ja(e, done);
	emit_place(e, insert);
	if (!nwords)
		emit_st(e, 8, R10, (int16_t)valoff, 1);
	emit_map_update(e, map, keyoff, valoff, BPF_NOEXIST);
	emit_place(e, done);
}

void gen_hash_inc(struct gen *g, int map, int keyoff, int valoff) { gen_hash_add(g, map, keyoff, valoff, 0); }

void gen_array_inc(struct gen *g, int map, uint32_t idx, int keyoff, int out)
{
	struct emit *e = gen_emit(g);

	emit_st(e, 4, R10, (int16_t)keyoff, (int32_t)idx);
	gen_lookup(g, map, keyoff, out);
	emit_movi(e, R1, 1);
	emit_xadd(e, 8, R0, 0, R1);
}

/* the record's address into register r */
static void output_ptr(struct emit *e, int r, int ptr, int rec)
{
	emit_mov(e, r, ptr);
	if (ptr == R10)
		emit_alui(e, BPF_ADD, r, rec);
}

void gen_output(struct gen *g, int events, int ptr, int rec, int size, bool ring)
{
	struct emit *e = gen_emit(g);

	if (ring) {
		emit_ldmap(e, R1, events);
		output_ptr(e, R2, ptr, rec);
		emit_movi(e, R3, size);
		emit_movi(e, R4, 0);
		emit_call(e, BPF_FUNC_ringbuf_output);
	} else {
		emit_mov(e, R1, R6);
		emit_ldmap(e, R2, events);
		emit_ld64(e, R3, BPF_F_CURRENT_CPU);
		output_ptr(e, R4, ptr, rec);
		emit_movi(e, R5, size);
		emit_call(e, BPF_FUNC_perf_event_output);
	}
}
