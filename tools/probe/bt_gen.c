/* bpftrace programs on the shared code generator (see bt.h): statements,
 * maps and records here; expressions through gen_value_node, with this
 * file's vocabulary (maps, $variables, builtins) as its extension.
 *
 * Registers: R6 context, R8 pid_tgid (gen_begin), R7 the record being
 * filled by printf (a per-CPU heap value). */
#include "bt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "bpf/kallsyms.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"

struct bt_var *bt_find_var(struct bt_prog *p, int probe, const char *name);
struct bt_type bt_type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n);
bool bt_value_call(const char *s);

struct cg {
	struct bt_prog *p;
	int pi;
	struct gen *g;
	struct emit *e;
	const struct bt_maps *m;
	bool ring;
	const char *probe_name, *func;
	int names, idx;      /* one program on many functions: the names map (-1: none), index slot */
	int var_off[256];    /* frame offsets of this probe's variables (by index in p->vars) */
	struct ctype var_ct[256]; /* the C type an integer variable was last given (a struct pointer...) */
	int place_off;       /* agg_place: bytes R9 is past an 8-aligned start */
	int upd_act;         /* -k: the helper action of the map update being made, or -1 */
	int lkp_act;         /* -kk: that of its lookup finding nothing, or -1 */
	uint64_t start_ns;
};

static int string_to(struct cg *c, struct node *n, int reg, int off, int size);
static int map_assign(struct cg *c, struct bt_stmt *s, int out);
static int var_assign(struct cg *c, struct bt_stmt *s);
static int str_compare(struct cg *c, struct node *n, struct ctype *t);
static void check_act(struct cg *c, int act, bool miss, int ok_op);

static bool is_map(const struct node *n)
{
	return (n->kind == N_IDENT && n->str[0] == '@') ||
	       (n->kind == N_INDEX && n->a->kind == N_IDENT && n->a->str[0] == '@');
}

static struct bt_map *map_of(struct cg *c, const struct node *n)
{
	const char *name = n->kind == N_IDENT ? n->str : n->a->str;

	for (int i = 0; i < c->p->nmaps; i++)
		if (!strcmp(c->p->maps[i].name, name))
			return &c->p->maps[i];
	return NULL;
}

static void zero(struct cg *c, int reg, int off, int size)
{
	/* the widest store aligned at off + k: a field inside a tuple may sit
	 * at 4 (the stack takes no misaligned access) */
	for (int k = 0, w; k < size; k += w) {
		for (w = 8; w > size - k || ((off + k) & (w - 1)); w >>= 1)
			;
		emit_st(c->e, w, reg, (int16_t)(off + k), 0);
	}
}

/* R0 = stack id of the current kernel/user stack (user: | tgid << 32). */
static int stackid(struct cg *c, const struct node *n, bool user, int depth)
{
	struct emit *e = c->e;
	int k;

	for (k = 0; k < c->m->nstacks && c->m->depth[k] != depth; k++)
		;
	if (k == c->m->nstacks)
		return gen_fail(c->g, n, "no stack map of this depth");
	emit_mov(e, R1, R6);
	emit_ldmap(e, R2, c->m->stacks[k]);
	emit_movi(e, R3, user ? BPF_F_USER_STACK : 0);
	emit_call(e, BPF_FUNC_get_stackid);
	if (c->p->helper_check && n) /* -k: a negative id is the kernel's error */
		check_act(c, bt_helper_action(c->p, "get_stackid", n->pos, n->end), false, BPF_JSGE);
	if (user) {
		emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
		emit_mov(e, R1, R8);
		emit_alui(e, BPF_RSH, R1, 32);
		emit_alui(e, BPF_LSH, R1, 32);
		emit_alu(e, BPF_OR, R0, R1);
	} else {
		emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
	}
	return 0;
}

/* kstack(N) / ustack(N) / kstack: the depth asked for (bt_check's rule). */
static int stack_depth(const struct node *n)
{
	if (n->kind == N_CALL && n->a && n->a->kind == N_NUM && n->a->num > 0 && n->a->num <= 127)
		return (int)n->a->num;
	return 127;
}

static bool is_stack(const struct node *n)
{
	return (n->kind == N_IDENT || n->kind == N_CALL) &&
	       (!strcmp(n->str, "kstack") || !strcmp(n->str, "ustack") || (n->kind == N_IDENT && !strcmp(n->str, "stack")));
}

static void depths_node(const struct node *n, struct bt_maps *m)
{
	for (; n; n = n->next) {
		if (is_stack(n)) {
			int d = stack_depth(n), k;

			for (k = 0; k < m->nstacks && m->depth[k] != d; k++)
				;
			if (k == m->nstacks && k < BT_STACK_DEPTHS)
				m->depth[m->nstacks++] = d;
		}
		depths_node(n->a, m);
		depths_node(n->b, m);
		depths_node(n->c, m);
	}
}

static void depths_stmts(const struct bt_stmt *s, struct bt_maps *m)
{
	for (; s; s = s->next) {
		depths_node(s->lhs, m);
		depths_node(s->rhs, m);
		depths_stmts(s->body, m);
		depths_stmts(s->els, m);
	}
}

void bt_stack_map_name(int depth, char *buf, int size)
{
	snprintf(buf, (size_t)size, "stacks_%d", depth);
}

/* Key of map expression n at fp+off (m->key_size bytes, the hist slot
 * excluded: the caller fills it). */
static int value_to(struct cg *c, struct node *n, const struct bt_type *bt, int reg, int off);

static int build_key(struct cg *c, const struct node *n, const struct bt_map *m, int off)
{
	int k = 0, pos = off;

	zero(c, R10, off, m->key_size);
	if (n->kind != N_INDEX)
		return 0;
	for (struct node *x = n->b; x; x = x->next, k++) {
		const struct bt_type *kt = &m->keys[k];

		if (value_to(c, x, kt, R10, pos) < 0)
			return -EINVAL;
		pos += (bt_type_size(kt) + 7) & ~7;
	}
	return 0;
}

static void record_out(struct cg *c, int reg, int off, int size);

/* -k: when the helper's return in R0 is an error (R0 != 0; a lookup's
 * miss: R0 == 0 with miss), a record {action, R0} for the user side,
 * built on the stack: the heap may hold a printf record being filled. */
static void check_act(struct cg *c, int act, bool miss, int ok_op)
{
	struct emit *e = c->e;
	int ok = emit_label(e), rec = gen_stack(c->g, 24);

	emit_stx(e, 8, R10, (int16_t)(rec + 16), R0);
	emit_jmpi(e, ok_op, R0, 0, ok);
	emit_st(e, 8, R10, (int16_t)rec, act);
	if (miss)
		emit_st(e, 8, R10, (int16_t)(rec + 8), 0);
	else
		emit_stx(e, 8, R10, (int16_t)(rec + 8), R0);
	record_out(c, R10, rec, 16);
	emit_place(e, ok);
	emit_ldx(e, 8, R0, R10, (int16_t)(rec + 16));
	gen_unstack(c->g, 24);
}

static void helper_check(struct cg *c, const struct node *n, const char *name, bool miss)
{
	check_act(c, bt_helper_action(c->p, name, n->kind == N_INDEX ? n->a->pos : n->pos, n->end), miss,
		  miss ? BPF_JNE : BPF_JEQ);
}

/* -kk: a read of memory failed (R0 < 0; _str helpers return a length).
 * 0.17 points at a dereference's '*' alone, at the whole of others. */
static void read_check(struct gen *g, const struct node *n, const char *name, void *ctx)
{
	struct cg *c = ctx;
	const struct node *l = n;

	while (l->a && (l->kind == N_MEMBER || l->kind == N_INDEX)) /* a->b.c: from a */
		l = l->a;
	check_act(c, bt_helper_action(c->p, name, l->pos, n->kind == N_UNARY ? n->pos + 1 : n->end), false, BPF_JSGE);
}

/* R0 = the value of map expression n in map m, or NULL (helpers clobber
 * R1-R5). */
static int lookup(struct cg *c, const struct node *n, const struct bt_map *m)
{
	int key = gen_stack(c->g, m->key_size);

	if (build_key(c, n, m, key) < 0)
		return -EINVAL;
	emit_ldmap(c->e, R1, m->idx);
	emit_mov(c->e, R2, R10);
	emit_alui(c->e, BPF_ADD, R2, key);
	emit_call(c->e, BPF_FUNC_map_lookup_elem);
	gen_unstack(c->g, m->key_size);
	return 0;
}

/* R0 = the integer value of map expression n (0 when absent). */
static int map_read(struct cg *c, struct node *n, struct ctype *t)
{
	struct bt_map *m = map_of(c, n);
	int none = emit_label(c->e), done = emit_label(c->e);

	if (!m || m->nkeys < 0)
		return gen_fail(c->g, n, "Undefined map");
	if (m->agg == AG_HIST || m->agg == AG_LHIST || m->agg == AG_STATS ||
	    (m->agg == AG_VALUE && !bt_vt_int(m->val.vt)))
		return gen_fail(c->g, n, "this map's value cannot be used in an expression");
	if (lookup(c, n, m) < 0)
		return -EINVAL;
	if (c->p->helper_check > 1)
		helper_check(c, n, "map_lookup_elem", true);
	emit_jmpi(c->e, BPF_JEQ, R0, 0, none);
	if (m->agg == AG_AVG) {
		emit_ldx(c->e, 8, R1, R0, 0);
		emit_ldx(c->e, 8, R0, R0, 8);
		emit_jmpi(c->e, BPF_JEQ, R1, 0, none);
		emit_alu(c->e, BPF_DIV, R0, R1);
	} else {
		emit_ldx(c->e, 8, R0, R0, 0);
	}
	emit_ja(c->e, done);
	emit_place(c->e, none);
	emit_movi(c->e, R0, 0);
	emit_place(c->e, done);
	*t = ct_is_ptr(&m->vct) ? m->vct : ct_int(8, true);
	return 0;
}

static int var_slot(struct cg *c, const char *name, struct bt_var **v)
{
	*v = bt_find_var(c->p, c->pi, name);
	if (!*v)
		return 0;
	return c->var_off[*v - c->p->vars];
}

struct ksearch {
	const char *name;
	uint64_t addr;
	bool found;
};

static int ksearch_one(void *ctx, const struct kallsym *s)
{
	struct ksearch *k = ctx;

	if (strcmp(s->name, k->name))
		return 0;
	k->addr = s->addr;
	k->found = true;
	return 1;
}

/* kaddr("name"): the symbol's address, at compile time. */
static int kernel_addr(const char *name, uint64_t *addr)
{
	struct ksearch k = { name, 0, false };

	if (kallsyms_each(NULL, ksearch_one, &k) < 0 || !k.found || !k.addr) {
		err_clear();
		return -ENOENT;
	}
	*addr = k.addr;
	return 0;
}

/* The end of a comparison of two size-byte stack copies whose loop jumps
 * to differ on a difference: R0 = eq when it fell through, else !eq;
 * both copies leave the stack; the result is an integer. */
static int compare_end(struct cg *c, int differ, bool eq, int size, struct ctype *t)
{
	struct emit *e = c->e;
	int done = emit_label(e);

	emit_movi(e, R0, eq);
	emit_ja(e, done);
	emit_place(e, differ);
	emit_movi(e, R0, !eq);
	emit_place(e, done);
	gen_unstack(c->g, size);
	gen_unstack(c->g, size);
	*t = ct_int(8, false);
	return 0;
}

/* x == y on strings (buffers: VT_BUF, length and bytes): both into the
 * stack, compared up to the first NUL and at most limit bytes (a
 * literal's length + 1 when one side is a literal); R0 = eq when they
 * are the same, else !eq.  strncmp is limit n, eq 0. */
static int str_compare_n(struct cg *c, struct node *x, struct node *y, int limit, bool eq, struct ctype *t)
{
	struct emit *e = c->e;
	struct bt_type tx = bt_type_of(c->p, c->pi, gen_loc(c->g), x), ty = bt_type_of(c->p, c->pi, gen_loc(c->g), y);
	bool buf = tx.vt == VT_BUF || ty.vt == VT_BUF;
	int size = buf ? 8 + (tx.size > ty.size ? tx.size : ty.size) : c->p->strlen;
	int a = gen_stack(c->g, size), b = gen_stack(c->g, size);
	int len = size, differ = emit_label(e), same = emit_label(e);

	if (buf && tx.vt != ty.vt)
		return gen_fail(c->g, x, "a buffer compares only with a buffer");
	if (!buf && x->kind == N_STR && (int)x->len + 1 < len)
		len = (int)x->len + 1;
	if (!buf && y->kind == N_STR && (int)y->len + 1 < len)
		len = (int)y->len + 1;
	if (limit < len)
		len = limit;
	if (buf) {
		zero(c, R10, a, size);
		zero(c, R10, b, size);
	}
	if (value_to(c, x, buf ? &tx : &(struct bt_type){ .vt = VT_STR, .size = (uint16_t)size }, R10, a) < 0 ||
	    value_to(c, y, buf ? &ty : &(struct bt_type){ .vt = VT_STR, .size = (uint16_t)size }, R10, b) < 0)
		return -EINVAL;
	for (int k = 0; k < len; k++) {
		emit_ldx(e, 1, R1, R10, (int16_t)(a + k));
		emit_ldx(e, 1, R2, R10, (int16_t)(b + k));
		emit_jmp(e, BPF_JNE, R1, R2, differ);
		if (!buf)
			emit_jmpi(e, BPF_JEQ, R1, 0, same);
	}
	emit_place(e, same);
	return compare_end(c, differ, eq, size, t);
}

static int str_compare(struct cg *c, struct node *n, struct ctype *t)
{
	return str_compare_n(c, n->a, n->b, 1 << 16, n->op == OP_EQ, t);
}

/* 0 when call n has want arguments, else 0.17's message: -EINVAL. */
static int nargs_check(struct gen *g, struct node *n, int want)
{
	int k = 0;
	char msg[80];

	for (struct node *x = n->a; x; x = x->next)
		k++;
	if (k == want)
		return 0;
	snprintf(msg, sizeof(msg), "%s() requires %d argument%s (%d provided)", n->str, want, want == 1 ? "" : "s", k);
	return gen_fail(g, n, msg);
}

/* strncmp(a, b, n): 0 when the first n bytes (up to a NUL) are the same. */
static int strncmp_call(struct cg *c, struct node *n, struct ctype *t)
{
	int64_t lim;

	if (nargs_check(c->g, n, 3) < 0)
		return -EINVAL;
	for (struct node *x = n->a; x != n->a->next->next; x = x->next)
		if (bt_type_of(c->p, c->pi, gen_loc(c->g), x).vt != VT_STR && x->kind != N_MEMBER &&
		    (x->kind != N_INDEX || is_map(x)))
			return gen_fail(c->g, n, "strncmp() only supports string arguments (integer provided)");
	if (!bt_const_int(c->p, n->a->next->next, &lim))
		return gen_fail(c->g, n, "strncmp() expects a integer literal (integer provided)");
	if (lim < 0)
		return gen_fail(c->g, n, "Builtin strncmp requires a non-negative size");
	return str_compare_n(c, n->a, n->a->next, lim > 1 << 16 ? 1 << 16 : (int)lim, false, t);
}

/* str($N): the positional parameter's text ("" when not given), or NULL
 * when n is something else. */
static const char *positional_text(struct cg *c, const struct node *n)
{
	int k;

	if (n->kind != N_CALL || strcmp(n->str, "str") || !n->a || n->a->next || n->a->kind != N_IDENT ||
	    n->a->str[0] != '$' || n->a->str[1] < '1' || n->a->str[1] > '9')
		return NULL;
	k = atoi(n->a->str + 1);
	return k <= c->p->nparams ? c->p->params[k - 1] : "";
}

/* Kernel header macros the book's tools use (bpftrace asks clang for
 * them; they are not in BTF). */
static const struct { const char *name; int64_t val; } macros[] = {
	{ "TASK_RUNNING", 0 }, { "TASK_INTERRUPTIBLE", 1 }, { "TASK_UNINTERRUPTIBLE", 2 },
	{ "AF_INET", 2 }, { "AF_INET6", 10 }, { "AF_UNIX", 1 },
};

/* An enumerator of the kernel's BTF (SKB_DROP_REASON_..., TCP_ESTABLISHED):
 * one pass over the types, only for a name nothing else knew. */
static bool btf_enumerator(const char *name, int64_t *val)
{
	const struct btf *btf = probe_kernel_btf();
	uint32_t n = btf ? btf_nr_types(btf) : 0;

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (!t)
			continue;
		if (btf_kind(t) == BTF_KIND_ENUM) {
			const struct btf_enum *e = btf_enums(t);

			for (uint32_t i = 0; i < btf_vlen(t); i++) {
				const char *en = btf_str(btf, e[i].name_off);

				if (en && !strcmp(en, name)) {
					*val = btf_kflag(t) ? (int64_t)(int32_t)e[i].val : (int64_t)(uint32_t)e[i].val;
					return true;
				}
			}
		} else if (btf_kind(t) == BTF_KIND_ENUM64) {
			const struct btf_enum64 *e = btf_enums64(t);

			for (uint32_t i = 0; i < btf_vlen(t); i++) {
				const char *en = btf_str(btf, e[i].name_off);

				if (en && !strcmp(en, name)) {
					*val = (int64_t)((uint64_t)e[i].val_hi32 << 32 | e[i].val_lo32);
					return true;
				}
			}
		}
	}
	return false;
}

/* n names a tuple/struct/array value held in a variable or map, or a
 * part of one ($t.1, @s.m, $a[2]): R9 = its address (a map's value:
 * jump to none when the key is absent), *t its type.  0, 1 when n is not
 * such a value, or -errno. */
static int agg_place(struct cg *c, struct node *n, struct bt_type *t, int *none)
{
	struct emit *e = c->e;
	int r;

	if (n->kind == N_IDENT && n->str[0] == '$') {
		struct bt_var *v;
		int off = var_slot(c, n->str, &v);

		if (!v || !off || v->t.vt != VT_AGG)
			return 1;
		emit_mov(e, R9, R10);
		emit_alui(e, BPF_ADD, R9, off);
		*t = v->t;
		c->place_off = 0;
		return 0;
	}
	if (is_map(n)) {
		struct bt_map *m = map_of(c, n);

		if (!m || m->agg != AG_VALUE || m->val.vt != VT_AGG)
			return 1;
		if (lookup(c, n, m) < 0)
			return -EINVAL;
		if (*none < 0) /* made only when used: the verifier refuses dead code */
			*none = emit_label(e);
		emit_jmpi(e, BPF_JEQ, R0, 0, *none);
		emit_mov(e, R9, R0);
		*t = m->val;
		c->place_off = 0;
		return 0;
	}
	if (n->kind == N_MEMBER && n->op == '.') {
		const struct bt_field *f;

		if ((r = agg_place(c, n->a, t, none)) != 0)
			return r;
		if (!(f = bt_field(c->p, t, n->str))) {
			char msg[160];

			snprintf(msg, sizeof(msg), "%s has no member %.60s", t->vt == VT_AGG ? "this value" : "an integer",
				 n->str);
			return gen_fail(c->g, n, msg);
		}
		if (f->off)
			emit_alui(e, BPF_ADD, R9, f->off);
		c->place_off += f->off;
		*t = f->t;
		return 0;
	}
	if (n->kind == N_INDEX && !is_map(n) && n->b->kind == N_NUM) { /* $a[2] of an array value */
		const struct bt_shape *s;

		if ((r = agg_place(c, n->a, t, none)) != 0)
			return r;
		s = t->vt == VT_AGG ? &c->p->shapes[t->depth] : NULL;
		if (!s || s->kind != 'a' || n->b->num >= (uint64_t)s->n) {
			char msg[160];

			snprintf(msg, sizeof(msg), "the index %llu is out of bounds for array of size %d",
				 (unsigned long long)n->b->num, s ? s->n : 0);
			return gen_fail(c->g, n, msg);
		}
		if (s->f[n->b->num].off)
			emit_alui(e, BPF_ADD, R9, s->f[n->b->num].off);
		c->place_off += s->f[n->b->num].off;
		*t = s->f[n->b->num].t;
		return 0;
	}
	return 1;
}

/* R0 = the integer at R9 of type t (its width, its sign). */
static void load_int(struct cg *c, const struct bt_type *t, int reg, int off)
{
	int size = t->size == 1 || t->size == 2 || t->size == 4 ? t->size : 8;

	emit_ldx(c->e, size, R0, reg, (int16_t)off);
	if (size < 8 && t->sign) {
		emit_alui(c->e, BPF_LSH, R0, 64 - 8 * size);
		emit_alui(c->e, BPF_ARSH, R0, 64 - 8 * size);
	}
}

/* A value of type st at R9 into (reg + off) as type dt (the same shape,
 * or a tuple whose strings or integers are wider). */
static void copy_agg(struct cg *c, const struct bt_type *st, int soff, const struct bt_type *dt, int reg, int off)
{
	struct emit *e = c->e;

	if (st->vt == VT_AGG && dt->vt == VT_AGG && st->depth != dt->depth) {
		const struct bt_shape *ss = &c->p->shapes[st->depth], *ds = &c->p->shapes[dt->depth];

		for (int i = 0; i < ss->n && i < ds->n; i++)
			copy_agg(c, &ss->f[i].t, soff + ss->f[i].off, &ds->f[i].t, reg, off + ds->f[i].off);
		return;
	}
	if (st->vt == VT_INT && dt->size != st->size) {
		load_int(c, st, R9, soff);
		emit_stx(e, dt->size == 1 || dt->size == 2 || dt->size == 4 ? dt->size : 8, reg, (int16_t)off, R0);
		return;
	}
	for (int k = 0, n = bt_type_size(st) < bt_type_size(dt) ? bt_type_size(st) : bt_type_size(dt); k < n;) {
		int w = 8; /* the widest access aligned at both ends (the stack takes no other) */

		while (w > n - k || ((c->place_off + soff + k) & (w - 1)) || ((off + k) & (w - 1)))
			w >>= 1;

		emit_ldx(e, w, R1, R9, (int16_t)(soff + k));
		emit_stx(e, w, reg, (int16_t)(off + k), R1);
		k += w;
	}
}

/* A tuple/struct/array value into (reg + off), bt->size bytes. */
static int agg_to(struct cg *c, struct node *n, const struct bt_type *bt, int reg, int off)
{
	const struct bt_shape *s = &c->p->shapes[bt->depth];
	struct bt_type st;
	int none = -1, r;

	zero(c, reg, off, bt->size);
	if (n->kind == N_CALL && !strcmp(n->str, "pton") && n->a && n->a->kind == N_STR) {
		/* the address bytes of the literal, at compile time */
		uint8_t b[16];
		int len = bt_pton(n->a->str, b);

		for (int k = 0; k < len && k < bt->size; k++)
			if (b[k])
				emit_st(c->e, 1, reg, (int16_t)(off + k), b[k]);
		return 0;
	}
	if (n->kind == N_TUPLE) {
		int i = 0;

		for (struct node *x = n->a; x; x = x->next, i++) {
			if (i >= s->n)
				return gen_fail(c->g, n, "this tuple does not fit the value it is stored in");
			if (value_to(c, x, &s->f[i].t, reg, off + s->f[i].off) < 0)
				return -EINVAL;
		}
		return 0;
	}
	if ((r = agg_place(c, n, &st, &none)) < 0)
		return r;
	if (r) { /* a struct or array in memory: *(struct Foo *)p, p->array */
		struct ctype t;

		if (gen_value_node(c->g, n, &t) < 0)
			return -EINVAL;
		if (ct_is_scalar(&t))
			return gen_fail(c->g, n, "expected a tuple, struct or array value");
		emit_mov(c->e, R3, R0);
		emit_mov(c->e, R1, reg);
		emit_alui(c->e, BPF_ADD, R1, off);
		emit_movi(c->e, R2, bt->size);
		bt_read_at(c->e, gen_loc(c->g)->user || t.user);
		return 0;
	}
	copy_agg(c, &st, 0, bt, reg, off);
	if (none >= 0)
		emit_place(c->e, none);
	return 0;
}

/* macaddr(X): R0 = the 6 bytes of a byte array (in memory, a variable
 * or a map) or at the address X holds, as 0.17 takes them. */
static int mac_value(struct cg *c, struct node *n, struct ctype *t)
{
	struct emit *e = c->e;
	struct node *a = n->a;
	struct bt_type at;
	struct ctype ct;
	int slot, bytes = 0;
	bool mem;
	char msg[120];

	if (nargs_check(c->g, n, 1) < 0)
		return -EINVAL;
	at = bt_type_of(c->p, c->pi, gen_loc(c->g), a);
	if ((mem = bt_ctype_of(c->p, c->pi, a, &ct) && ct.arr))
		bytes = (int)ct_size(&ct);
	else if (at.vt == VT_STR || (at.vt == VT_AGG && c->p->shapes[at.depth].kind == 'a'))
		bytes = at.vt == VT_STR && a->kind == N_STR ? (int)a->len + 1 : at.size;
	else if (!bt_vt_int(at.vt)) {
		snprintf(msg, sizeof(msg), "macaddr() only supports array or pointer arguments (%s provided)",
			 at.vt == VT_AGG ? "record" : "string");
		return gen_fail(c->g, n, msg);
	}
	if (bytes && bytes != 6)
		return gen_fail(c->g, n, "macaddr() argument must be 6 bytes in size");
	if (a->kind == N_STR)
		return gen_fail(c->g, n, "macaddr() does not support literal string arguments");
	slot = gen_stack(c->g, 8);
	emit_st(e, 8, R10, (int16_t)slot, 0);
	if (at.vt == VT_AGG && !mem) {
		if (agg_to(c, a, &at, R10, slot) < 0)
			return -EINVAL;
	} else {
		if (gen_value_node(c->g, a, &ct) < 0)
			return -EINVAL;
		emit_mov(e, R3, R0);
		emit_mov(e, R1, R10);
		emit_alui(e, BPF_ADD, R1, slot);
		emit_movi(e, R2, 6);
		bt_read_at(e, gen_loc(c->g)->user || ct.user);
	}
	emit_ldx(e, 8, R0, R10, (int16_t)slot);
	gen_unstack(c->g, 8);
	*t = ct_int(8, false);
	return 0;
}

/* strcontains(H, N): 1 when string N is in string H, by every start in H
 * and every byte of N, unrolled as 0.17 compiles it. */
static int strcontains_call(struct cg *c, struct node *n, struct ctype *t)
{
	struct emit *e = c->e;
	struct node *x = n->a, *y = x ? x->next : NULL;
	int hs = c->p->strlen, ns = c->p->strlen, a, b, yes = emit_label(e), no = emit_label(e), done = emit_label(e);

	if (nargs_check(c->g, n, 2) < 0)
		return -EINVAL;
	for (struct node *k = x; k; k = k->next)
		if (bt_type_of(c->p, c->pi, gen_loc(c->g), k).vt != VT_STR && k->kind != N_MEMBER)
			return gen_fail(c->g, n, "strcontains() only supports string arguments (integer provided)");
	if (x->kind == N_STR && (int)x->len < hs)
		hs = (int)x->len + 1;
	if (y->kind == N_STR && (int)y->len < ns)
		ns = (int)y->len + 1;
	a = gen_stack(c->g, hs);
	b = gen_stack(c->g, ns);
	if (value_to(c, x, &(struct bt_type){ .vt = VT_STR, .size = (uint16_t)hs }, R10, a) < 0 ||
	    value_to(c, y, &(struct bt_type){ .vt = VT_STR, .size = (uint16_t)ns }, R10, b) < 0)
		return -EINVAL;
	for (int j = 0; j < hs; j++) {
		int next = emit_label(e);

		/* N from H's byte j: N's NUL reached is a match; H's NUL (or
		 * any other byte) that differs moves on to j + 1 */
		for (int i = 0; i < ns && i + j < hs; i++) {
			emit_ldx(e, 1, R2, R10, (int16_t)(b + i));
			emit_jmpi(e, BPF_JEQ, R2, 0, yes);
			emit_ldx(e, 1, R1, R10, (int16_t)(a + j + i));
			emit_jmp(e, BPF_JNE, R1, R2, next);
		}
		emit_place(e, next);
		emit_ldx(e, 1, R1, R10, (int16_t)(a + j));
		emit_jmpi(e, BPF_JEQ, R1, 0, no);
	}
	emit_place(e, no);
	emit_movi(e, R0, 0);
	emit_ja(e, done);
	emit_place(e, yes);
	emit_movi(e, R0, 1);
	emit_place(e, done);
	gen_unstack(c->g, ns);
	gen_unstack(c->g, hs);
	*t = ct_int(8, false);
	return 0;
}

/* x == y, x != y on integer arrays: their contents, as 0.17 compares
 * arrays of the same element type and count. */
static int array_compare(struct cg *c, struct node *n, const struct bt_type *ta, const struct bt_type *tb, struct ctype *t)
{
	struct emit *e = c->e;
	const struct bt_shape *sa = &c->p->shapes[ta->depth], *sb = &c->p->shapes[tb->depth];
	int a, b, differ = emit_label(e), size = ta->size, eq = n->op == OP_EQ;
	char msg[80];

	if (n->op != OP_EQ && n->op != OP_NE) {
		snprintf(msg, sizeof(msg), "The %s operator cannot be used on arrays.",
			 n->op < 256 ? (char[2]){ (char)n->op } : n->op == OP_LE ? "<=" : n->op == OP_GE ? ">=" : "&&/||/<</>>");
		return gen_fail(c->g, n, msg);
	}
	if (sa->n != sb->n)
		return gen_fail(c->g, n, "Only arrays of same size support comparison operators.");
	if (!sa->n || sa->f[0].t.vt != VT_INT || memcmp(&sa->f[0].t, &sb->f[0].t, sizeof(sa->f[0].t)))
		return gen_fail(c->g, n, "Only arrays of same sized integer support comparison operators.");
	a = gen_stack(c->g, size);
	b = gen_stack(c->g, size);
	if (agg_to(c, n->a, ta, R10, a) < 0 || agg_to(c, n->b, tb, R10, b) < 0)
		return -EINVAL;
	for (int k = 0, w; k < size; k += w) {
		for (w = 8; w > size - k; w >>= 1)
			;
		emit_ldx(e, w, R1, R10, (int16_t)(a + k));
		emit_ldx(e, w, R2, R10, (int16_t)(b + k));
		emit_jmp(e, BPF_JNE, R1, R2, differ);
	}
	return compare_end(c, differ, eq, size, t);
}

/* The extension: bpftrace's identifiers, maps and calls as values. */
static int ext(struct gen *g, struct node *n, struct ctype *t, void *ctx)
{
	struct cg *c = ctx;
	struct emit *e = c->e;
	const char *s = n->str;

	if (n->kind == N_INDEX && is_map(n))
		return map_read(c, n, t);
	if (n->kind == N_UNARY && (n->op == OP_INC || n->op == OP_DEC)) {
		/* ++x, x++: the assignment x += 1, then x's value (x++: less 1) */
		struct bt_stmt st = { .kind = BS_ASSIGN, .op = n->op, .lhs = n->a, .pos = n->pos,
				      .op_pos = n->num ? n->end - 2 : n->pos };
		bool var = n->a->kind == N_IDENT && n->a->str[0] == '$' && (n->a->str[1] < '0' || n->a->str[1] > '9');
		int r = (!is_map(n->a) && !var) || bt_type_of(c->p, c->pi, gen_loc(g), n->a).vt != VT_INT ||
				(is_map(n->a) && (!map_of(c, n->a) || map_of(c, n->a)->agg != AG_VALUE))
			? gen_fail(g, n, "++ and -- take an integer map or variable")
			: is_map(n->a) ? map_assign(c, &st, 0) : var_assign(c, &st);

		if (r < 0 || gen_value_node(g, n->a, t) < 0)
			return -EINVAL;
		if (n->num) { /* back by what x moved: a pointer's pointee size */
			struct ctype el = ct_is_ptr(t) ? ct_deref(t) : ct_int(1, false);

			emit_alui(e, n->op == OP_INC ? BPF_SUB : BPF_ADD, R0, ct_size(&el) > 1 ? (int32_t)ct_size(&el) : 1);
		}
		return 0;
	}
	if (n->kind == N_UNARY && (n->op == '-' || n->op == '~') && bt_ctype_of(c->p, c->pi, n->a, t) &&
	    t->base == CT_INT && !t->ptr && !t->arr && t->size < 8) {
		/* -x, ~x of a narrow x: 0.17 computes them at x's width, then
		 * widens (~(uint32)0 is 4294967295) */
		int sh = 64 - 8 * (int)t->size;
		bool sign = t->sign;

		if (gen_value_node(g, n->a, t) < 0)
			return -EINVAL;
		emit_alui(e, n->op == '-' ? BPF_NEG : BPF_XOR, R0, n->op == '-' ? 0 : -1);
		emit_alui(e, BPF_LSH, R0, sh);
		emit_alui(e, sign ? BPF_ARSH : BPF_RSH, R0, sh);
		*t = ct_int(8, sign);
		return 0;
	}
	if (!strcmp(s ? s : "", "ctx") && n->kind == N_IDENT) { /* the probe's context pointer */
		emit_mov(e, R0, R6);
		*t = ct_int(8, false);
		return 0;
	}
	if (n->kind == N_INDEX && !is_map(n) && n->b->kind == N_NUM) {
		struct ctype ct;

		if (bt_ctype_of(c->p, c->pi, n->a, &ct) && ct.arr && n->b->num >= ct.arr) {
			char msg[160];

			snprintf(msg, sizeof(msg), "the index %llu is out of bounds for array of size %u",
				 (unsigned long long)n->b->num, ct.arr);
			return gen_fail(g, n, msg);
		}
	}
	if (n->kind == N_INDEX && !is_map(n) && is_map(n->a) && map_of(c, n->a) && map_of(c, n->a)->val.vt != VT_AGG) {
		/* @a[k][i]: a pointer kept in a map, indexed: *(@a[k] + i) */
		struct node sum = { .kind = N_BINARY, .op = '+', .pos = n->pos, .end = n->end, .a = n->a, .b = n->b };
		struct node deref = { .kind = N_UNARY, .op = '*', .pos = n->pos, .end = n->end, .a = &sum };

		return gen_value_node(g, &deref, t);
	}
	if ((n->kind == N_MEMBER && n->op == '.') || (n->kind == N_INDEX && n->b->kind == N_NUM)) {
		struct bt_type bt;
		int none = -1, done = emit_label(e), r = agg_place(c, n, &bt, &none);

		if (r <= 0) {
			if (r < 0)
				return r;
			if (bt.vt != VT_INT)
				return gen_fail(g, n, "this member is not an integer");
			load_int(c, &bt, R9, 0);
			if (none >= 0) {
				emit_ja(e, done);
				emit_place(e, none);
				emit_movi(e, R0, 0);
			}
			emit_place(e, done);
			*t = ct_int(8, bt.sign);
			return 0;
		}
	}
	if (n->kind == N_MEMBER && n->op == '>' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args")) {
		const struct loc *l = gen_loc(g);

		if (l->mech != M_TP && l->mech != M_RAW_TP && l->mech != M_SYSCALL) {
			/* kfunc's args->NAME: the function's parameter of that
			 * name (BTF), which the shared generator knows by name */
			expr_free(n->a);
			n->a = NULL;
			n->kind = N_IDENT;
			n->op = 0;
			return GEN_EXT_PASS;
		}
	}
	if (n->kind == N_BINARY) {
		struct bt_type ta = bt_type_of(c->p, c->pi, gen_loc(g), n->a), tb = bt_type_of(c->p, c->pi, gen_loc(g), n->b);

		if (ta.vt == VT_AGG && tb.vt == VT_AGG && c->p->shapes[ta.depth].kind == 'a' &&
		    c->p->shapes[tb.depth].kind == 'a')
			return array_compare(c, n, &ta, &tb, t);
	}
	if (n->kind == N_BINARY && (n->op == OP_EQ || n->op == OP_NE) &&
	    (bt_type_of(c->p, c->pi, gen_loc(g), n->a).vt == VT_STR ||
	     bt_type_of(c->p, c->pi, gen_loc(g), n->b).vt == VT_STR ||
	     bt_type_of(c->p, c->pi, gen_loc(g), n->a).vt == VT_BUF))
		return str_compare(c, n, t);
	if (n->kind == N_CALL) {
		if (!strcmp(s, "strncmp"))
			return strncmp_call(c, n, t);
		if (!strcmp(s, "strcontains"))
			return strcontains_call(c, n, t);
		if (!strcmp(s, "macaddr"))
			return mac_value(c, n, t);
		if (!strcmp(s, "uaddr"))
			return bt_uaddr(g, c->p, c->pi, n, c->probe_name, t);
		if (!strcmp(s, "cgroup_path")) { /* the id; the user side finds its paths */
			if (!n->a || (n->a->next && (n->a->next->kind != N_STR || n->a->next->next)))
				return gen_fail(g, n, "cgroup_path() takes an id and a filter literal");
			return gen_value_node(g, n->a, t);
		}
		if (!strcmp(s, "kstack") || !strcmp(s, "ustack")) {
			*t = ct_int(8, false);
			return stackid(c, n, s[0] == 'u', stack_depth(n));
		}
		if (!strcmp(s, "ksym") || !strcmp(s, "strerror")) {
			return nargs_check(g, n, 1) < 0 ? -EINVAL : gen_value_node(g, n->a, t);
		}
		if (!strcmp(s, "bswap")) {
			/* to big endian from this (little-endian) host: a swap of
			 * the operand's width */
			int bits;

			if (nargs_check(g, n, 1) < 0 || gen_value_node(g, n->a, t) < 0)
				return -EINVAL;
			bits = t->base == CT_INT && !t->ptr && t->size < 8 ? t->size * 8 : 64;
			if (bits > 8)
				emit_insn(e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE, .dst_reg = R0, .imm = bits });
			return 0;
		}
		if (!strcmp(s, "kaddr")) {
			uint64_t addr;
			const char *sym = n->a && !n->a->next ? positional_text(c, n->a) : NULL;

			if (n->a && n->a->kind == N_STR && !n->a->next)
				sym = n->a->str;
			if (!sym)
				return gen_fail(g, n, "kaddr() expects a string literal");
			if (kernel_addr(sym, &addr) < 0) {
				char msg[200];

				snprintf(msg, sizeof(msg), "Failed to resolve kernel symbol: %.100s", sym);
				return gen_fail(g, n, msg);
			}
			emit_ld64(e, R0, addr);
			*t = ct_int(8, false);
			return 0;
		}
		if (!strcmp(s, "strftime")) {
			/* the nanoseconds; the user side formats them (VT_TIME) */
			if (!n->a || n->a->kind != N_STR || !n->a->next || n->a->next->next)
				return gen_fail(g, n, "strftime() expects a format string literal and a time in nanoseconds");
			return gen_value_node(g, n->a->next, t);
		}
		if (!strcmp(s, "sizeof")) {
			/* sizeof(TYPE) from the built-in names or BTF; sizeof(EXPR): a
			 * string's bytes, else the width of the compiled value */
			struct ctype ct;
			struct bt_type bt;
			uint32_t size;

			if (n->cast_text) {
				if (ctype_parse(n->cast_text, probe_kernel_btf(), &ct, NULL) < 0)
					return gen_fail(g, n, err_msg());
				size = ct_size(&ct);
			} else if (!n->a || n->a->next) {
				return gen_fail(g, n, "sizeof() requires 1 argument");
			} else if (n->a->kind == N_STR) {
				size = (uint32_t)n->a->len + 1;
			} else if ((bt = bt_type_of(c->p, c->pi, gen_loc(g), n->a)).vt != VT_INT) {
				size = (uint32_t)bt_type_size(&bt);
			} else {
				if (gen_value_node(g, n->a, &ct) < 0)
					return -EINVAL;
				size = ct_size(&ct);
				/* only what is read from memory keeps its width: the
				 * rest (1 == 1, $x) is bpftrace's int64 */
				if (n->a->kind != N_MEMBER && n->a->kind != N_INDEX && n->a->kind != N_CAST &&
				    !(n->a->kind == N_UNARY && n->a->op == '*'))
					size = ct_is_scalar(&ct) ? 8 : size;
			}
			emit_movi(e, R0, (int32_t)size);
			*t = ct_int(8, false);
			return 0;
		}
		if (!strcmp(s, "has_key")) {
			/* has_key(@m, k1, ...): 1 when the key is in the map (bpftrace
			 * 0.21+; 0.17 has no such call), the key built as @m[k1, ...] */
			struct node idx = { .kind = N_INDEX, .pos = n->pos, .end = n->end };
			struct bt_map *m;
			int no, nk = 0;

			if (!n->a || n->a->kind != N_IDENT || n->a->str[0] != '@' || !n->a->next)
				return gen_fail(g, n, "has_key() expects a map and a key");
			m = map_of(c, n->a);
			for (struct node *x = n->a->next; x; x = x->next)
				nk++;
			if (!m || m->nkeys < 0)
				return gen_fail(g, n->a, "Undefined map");
			if (m->agg == AG_HIST || m->agg == AG_LHIST || nk != m->nkeys)
				return gen_fail(g, n, m->agg == AG_HIST || m->agg == AG_LHIST ? "has_key() of a hist/lhist map"
											: "has_key(): the key does not match the map's keys");
			idx.a = n->a;
			idx.b = n->a->next;
			if (lookup(c, &idx, m) < 0)
				return -EINVAL;
			no = emit_label(e);
			/* null stays 0; a value pointer becomes 1 */
			emit_jmpi(e, BPF_JEQ, R0, 0, no);
			emit_movi(e, R0, 1);
			emit_place(e, no);
			*t = ct_int(8, false);
			return 0;
		}
		if (!strcmp(s, "str") || !strcmp(s, "STRCMP") || !strcmp(s, "$entry")) {
			if (!strcmp(s, "str"))
				return gen_fail(g, n, "str() gives a string, not an integer");
			return gen_fail(g, n, "Unknown function");
		}
		{
			char msg[160];

			snprintf(msg, sizeof(msg), "Unknown function: %s", s);
			return gen_fail(g, n, msg);
		}
	}
	if (n->kind != N_IDENT)
		return GEN_EXT_PASS;
	*t = ct_int(8, false);
	if (s[0] == '@')
		return map_read(c, n, t);
	if (!strcmp(s, "$#") || !strcmp(s, "cpid")) {
		emit_ld64(e, R0, (uint64_t)(s[0] == '$' ? c->p->nparams : c->p->cpid));
		return 0;
	}
	if (s[0] == '$' && s[1] >= '0' && s[1] <= '9') {
		int k = atoi(s + 1);
		const char *v = k >= 1 && k <= c->p->nparams ? c->p->params[k - 1] : "0";
		char *end;
		long long x = strtoll(v, &end, 0);

		if (*end)
			return gen_fail(g, n, "this positional parameter is a string: use str($N)");
		emit_ld64(e, R0, (uint64_t)x);
		*t = ct_int(8, true);
		return 0;
	}
	if (s[0] == '$' && strcmp(s, "$retval")) {
		struct bt_var *v;
		int off = var_slot(c, s, &v);
		char msg[160];

		if (!v || !off) {
			snprintf(msg, sizeof(msg), "Undefined or undeclared variable: %s", s);
			return gen_fail(g, n, msg);
		}
		if (!bt_vt_int(v->t.vt))
			return gen_fail(g, n, "a string variable is no integer");
		emit_ldx(e, 8, R0, R10, (int16_t)off);
		*t = c->var_ct[v - c->p->vars];
		return 0;
	}
	{
		int r = bt_builtin_ident(g, n, t);

		if (r != GEN_EXT_PASS)
			return r;
	}
	if (!strcmp(s, "pid")) {
		emit_mov(e, R0, R8);
		emit_alui(e, BPF_RSH, R0, 32);
		return 0;
	}
	if (!strcmp(s, "tid")) {
		emit_mov(e, R0, R8);
		emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
		return 0;
	}
	if (!strcmp(s, "uid") || !strcmp(s, "gid") || !strcmp(s, "username")) {
		emit_call(e, BPF_FUNC_get_current_uid_gid);
		if (s[0] == 'u')
			emit_alui(e, BPF_LSH, R0, 32);
		emit_alui(e, BPF_RSH, R0, 32);
		return 0;
	}
	if (!strcmp(s, "cpu")) {
		emit_call(e, BPF_FUNC_get_smp_processor_id);
		return 0;
	}
	if (!strcmp(s, "nsecs") || !strcmp(s, "elapsed")) {
		emit_call(e, BPF_FUNC_ktime_get_ns);
		if (s[0] == 'e') {
			emit_ld64(e, R1, c->start_ns);
			emit_alu(e, BPF_SUB, R0, R1);
		}
		return 0;
	}
	if (!strcmp(s, "cgroup")) {
		emit_call(e, BPF_FUNC_get_current_cgroup_id);
		return 0;
	}
	if (!strcmp(s, "rand")) {
		emit_call(e, BPF_FUNC_get_prandom_u32);
		return 0;
	}
	if (!strcmp(s, "curtask")) {
		n->str[0] = '$'; /* the shared $task, typed from BTF */
		free(n->str);
		n->str = xstrdup("$task");
		return GEN_EXT_PASS;
	}
	if (!strcmp(s, "kstack") || !strcmp(s, "ustack") || !strcmp(s, "stack"))
		return stackid(c, n, s[0] == 'u', 127);
	if (!strncmp(s, "arg", 3) && s[3] >= '0' && s[3] <= '9' && (!s[4] || (!s[5] && s[4] >= '0' && s[4] <= '9')) &&
	    gen_loc(g)->mech == M_RAW_TP) {
		/* rawtracepoint: the tracepoint's own arguments, u64 args[] of
		 * the context (bpftrace only makes M_RAW_TP for rawtracepoint:) */
		emit_ldx(e, 8, R0, R6, (int16_t)((atoi(s + 3) - (n->op == 'A')) * 8));
		return 0;
	}
	if (!strncmp(s, "arg", 3) && s[3] >= '0' && s[3] <= '9' && (!s[4] || (!s[5] && s[4] >= '0' && s[4] <= '9'))) {
		/* bpftrace counts from arg0, the shared generator (bcc) from arg1;
		 * renamed once (op 'A'): the tree is compiled again for every
		 * location the probe resolved to */
		char name[16];

		if (n->op == 'A')
			return GEN_EXT_PASS;
		n->op = 'A';

		snprintf(name, sizeof(name), "arg%d", atoi(s + 3) + 1);
		free(n->str);
		n->str = xstrdup(name);
		return GEN_EXT_PASS;
	}
	if (!strcmp(s, "comm") || !strcmp(s, "probe") || !strcmp(s, "func"))
		return gen_fail(g, n, "a string is no integer");
	if (!strcmp(s, "retval") || !strcmp(s, "args"))
		return GEN_EXT_PASS;
	for (int i = 0; i < c->p->ndefs; i++)
		if (!strcmp(c->p->def_names[i], s)) {
			emit_ld64(e, R0, (uint64_t)c->p->def_vals[i]);
			*t = ct_int(8, true);
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(macros); i++)
		if (!strcmp(macros[i].name, s)) {
			emit_ld64(e, R0, (uint64_t)macros[i].val);
			*t = ct_int(8, true);
			return 0;
		}
	{
		int64_t v;

		if (s[0] != '$' && s[0] != '@' && btf_enumerator(s, &v)) {
			emit_ld64(e, R0, (uint64_t)v);
			*t = ct_int(8, true);
			return 0;
		}
	}
	{
		char msg[160];

		snprintf(msg, sizeof(msg), "Unknown identifier: '%s'", s);
		return gen_fail(g, n, msg);
	}
}

static int inet_to(struct cg *c, struct node *n, int reg, int off);

/* A value of kind vt kept in a variable or map (n) into (reg + off),
 * zeroed first, at most size bytes (nothing more when the key is
 * absent): 0, 1 when n holds no such value, or -errno. */
static int stored_to(struct cg *c, struct node *n, int vt, int size, int reg, int off)
{
	struct emit *e = c->e;
	struct bt_var *v = NULL;
	struct bt_map *m = is_map(n) ? map_of(c, n) : NULL;
	int src = R10, soff = 0, none = emit_label(e);
	const struct bt_type *t;

	zero(c, reg, off, size);
	if (m ? m->agg != AG_VALUE || m->val.vt != vt
	      : n->kind != N_IDENT || n->str[0] != '$' || !(soff = var_slot(c, n->str, &v)) || v->t.vt != vt)
		return 1;
	t = m ? &m->val : &v->t;
	if (bt_type_size(t) < size)
		size = bt_type_size(t);
	if (m) {
		if (lookup(c, n, m) < 0)
			return -EINVAL;
		emit_jmpi(e, BPF_JEQ, R0, 0, none);
		src = R0;
	}
	for (int k = 0; k < size; k += 8) {
		emit_ldx(e, 8, R1, src, (int16_t)(soff + k));
		emit_stx(e, 8, reg, (int16_t)(off + k), R1);
	}
	emit_place(e, none);
	return 0;
}

/* A buffer {length, cap bytes} into (reg + off): buf(...), or a copy of
 * one kept in a variable or map. */
static int buf_to(struct cg *c, struct node *n, int reg, int off, int cap)
{
	int r;

	if (n->kind == N_CALL && !strcmp(n->str, "buf"))
		return bt_buf_to(c->g, c->p, n, reg, off, cap);
	r = stored_to(c, n, VT_BUF, 8 + cap, reg, off);
	return r > 0 ? gen_fail(c->g, n, "expected a buffer: buf(...)") : r;
}

/* Any value into (reg + off): strings and addresses by their size,
 * integers (stack ids, symbols' addresses) as 8 bytes. */
static int value_to(struct cg *c, struct node *n, const struct bt_type *bt, int reg, int off)
{
	struct ctype t;

	if (bt->vt == VT_STR)
		return string_to(c, n, reg, off, bt->size);
	if (bt->vt == VT_AGG)
		return agg_to(c, n, bt, reg, off);
	if (bt->vt == VT_INET)
		return inet_to(c, n, reg, off);
	if (bt->vt == VT_BUF)
		return buf_to(c, n, reg, off, bt->size);
	if (bt->vt == VT_USYM) { /* the address and whose it is, or a copy of such a value */
		int r = n->kind == N_CALL ? 1 : stored_to(c, n, VT_USYM, 16, reg, off);

		if (r <= 0)
			return r;
		if (n->kind != N_CALL || strcmp(n->str, "usym") || !n->a || n->a->next)
			return gen_fail(c->g, n, "usym() takes one address");
		if (gen_value_node(c->g, n->a, &t) < 0)
			return -EINVAL;
		emit_stx(c->e, 8, reg, (int16_t)off, R0);
		emit_mov(c->e, R1, R8);
		emit_alui(c->e, BPF_RSH, R1, 32);
		emit_stx(c->e, 8, reg, (int16_t)(off + 8), R1);
		return 0;
	}
	if (gen_value_node(c->g, n, &t) < 0)
		return -EINVAL;
	/* a tuple's integers keep their width */
	emit_stx(c->e, bt->vt == VT_INT && (bt->size == 1 || bt->size == 2 || bt->size == 4) ? bt->size : 8, reg,
		 (int16_t)off, R0);
	return 0;
}

/* A literal into (reg + off), size bytes (zeroed already). */
static void literal(struct cg *c, const char *s, size_t len, int reg, int off, int size)
{
	for (size_t k = 0; k < len && (int)k < size - 1; k++)
		emit_st(c->e, 1, reg, (int16_t)(off + (int)k), (unsigned char)s[k]);
}

static int string_to(struct cg *c, struct node *n, int reg, int off, int size)
{
	struct emit *e = c->e;
	struct ctype t;

	zero(c, reg, off, size);
	switch (n->kind) {
	case N_STR:
		literal(c, n->str, n->len, reg, off, size);
		return 0;
	case N_IDENT:
		if (!strcmp(n->str, "comm")) {
			emit_mov(e, R1, reg);
			emit_alui(e, BPF_ADD, R1, off);
			emit_movi(e, R2, size < 16 ? size : 16);
			emit_call(e, BPF_FUNC_get_current_comm);
			if (c->p->helper_check)
				helper_check(c, n, "get_current_comm", false);
			return 0;
		}
		if (!strcmp(n->str, "probe") || !strcmp(n->str, "func")) {
			const char *v = n->str[0] == 'p' ? c->probe_name : c->func;
			int len = size - 1 < c->p->name_len ? size - 1 : c->p->name_len, skip = emit_label(e);

			if (c->names < 0) {
				literal(c, v, strlen(v), reg, off, size);
				return 0;
			}
			/* the function hit's names (bt_gen_body): probe's then func's,
			 * name_len bytes each, NUL-padded; the slot keeps its NUL */
			gen_lookup(c->g, c->names, c->idx, skip);
			emit_mov(e, R3, R0);
			emit_alui(e, BPF_ADD, R3, n->str[0] == 'p' ? 0 : c->p->name_len);
			emit_mov(e, R1, reg);
			emit_alui(e, BPF_ADD, R1, off);
			emit_movi(e, R2, len);
			emit_call(e, BPF_FUNC_probe_read_kernel);
			emit_place(e, skip);
			return 0;
		}
		if (n->str[0] == '$' && n->str[1] >= '0' && n->str[1] <= '9') {
			int k = atoi(n->str + 1);
			const char *v = k >= 1 && k <= c->p->nparams ? c->p->params[k - 1] : "";

			literal(c, v, strlen(v), reg, off, size);
			return 0;
		}
		if (n->str[0] == '$') {
			struct bt_var *v;
			int vo = var_slot(c, n->str, &v);

			struct bt_type dt = { .vt = VT_STR, .size = (uint16_t)(size - 1) };

			if (!v || !vo || v->t.vt != VT_STR)
				return gen_fail(c->g, n, "not a string variable");
			emit_mov(e, R9, R10);
			emit_alui(e, BPF_ADD, R9, vo);
			c->place_off = 0;
			copy_agg(c, &v->t, 0, &dt, reg, off); /* the NUL stays from zero() */
			return 0;
		}
		break;
	case N_CALL:
		if (!strcmp(n->str, "str")) {
			int len = size;

			if (!n->a)
				return gen_fail(c->g, n, "str() requires at least 1 argument (0 provided)");
			if (n->a->next) {
				struct ctype lt;
				int16_t lim;

				if (n->a->next->kind == N_NUM) {
					if ((int)n->a->next->num + 1 < len)
						len = (int)n->a->next->num + 1;
				} else {
					(void)lt;
					(void)lim;
				}
			}
			{ /* str($1), str($1 + K): the parameter's text (from K on) */
				struct node *x = n->a->kind == N_BINARY && n->a->op == '+' && n->a->b->kind == N_NUM ? n->a->a : n->a;
				size_t skip = x != n->a ? (size_t)n->a->b->num : 0;

				if (x->kind == N_IDENT && x->str[0] == '$' && x->str[1] >= '0' && x->str[1] <= '9') {
					int k = atoi(x->str + 1);
					const char *v = k >= 1 && k <= c->p->nparams ? c->p->params[k - 1] : "";

					v += skip < strlen(v) ? skip : strlen(v);
					literal(c, v, strlen(v), reg, off, len);
					return 0;
				}
			}
			if (is_map(n->a) || (n->a->kind == N_IDENT && n->a->str[0] == '$')) {
				/* an address kept earlier: read the string there (a user
				 * address below the kernel's half) */
				int kern = emit_label(e), done = emit_label(e), none = emit_label(e);

				if (gen_value_node(c->g, n->a, &t) < 0)
					return -EINVAL;
				emit_jmpi(e, BPF_JEQ, R0, 0, none);
				emit_mov(e, R3, R0);
				emit_mov(e, R1, reg);
				emit_alui(e, BPF_ADD, R1, off);
				emit_movi(e, R2, len);
				emit_jmpi(e, BPF_JSLT, R3, 0, kern);
				emit_call(e, BPF_FUNC_probe_read_user_str);
				emit_ja(e, done);
				emit_place(e, kern);
				emit_call(e, BPF_FUNC_probe_read_kernel_str);
				emit_place(e, done);
				emit_place(e, none);
				return 0;
			}
			gen_read_at(c->g, n);
			return gen_string_node(c->g, n->a, reg, (int16_t)off, len);
		}
		break;
	case N_MEMBER: {
		struct bt_type bt;
		int none = -1, r = n->op == '.' ? agg_place(c, n, &bt, &none) : 1;

		if (r < 0)
			return r;
		if (r == 0) { /* a tuple's string */
			struct bt_type dt = { .vt = VT_STR, .size = (uint16_t)(size - 1) };

			if (bt.vt != VT_STR)
				return gen_fail(c->g, n, "this member is not a string");
			copy_agg(c, &bt, 0, &dt, reg, off);
			if (none >= 0)
				emit_place(e, none);
			return 0;
		}
		return gen_string_node(c->g, n, reg, (int16_t)off, size);
	}
	case N_COND: {
		int no = emit_label(e), done = emit_label(e);

		if (gen_value_node(c->g, n->a, &t) < 0)
			return -EINVAL;
		emit_jmpi(e, BPF_JEQ, R0, 0, no);
		if (string_to(c, n->b, reg, off, size) < 0)
			return -EINVAL;
		emit_ja(e, done);
		emit_place(e, no);
		if (string_to(c, n->c, reg, off, size) < 0)
			return -EINVAL;
		emit_place(e, done);
		return 0;
	}
	default:
		break;
	}
	if (is_map(n)) {
		struct bt_map *m = map_of(c, n);
		int none = emit_label(e);

		if (!m || m->agg != AG_VALUE || m->val.vt != VT_STR)
			return gen_fail(c->g, n, "not a string map");
		if (lookup(c, n, m) < 0)
			return -EINVAL;
		emit_jmpi(e, BPF_JEQ, R0, 0, none);
		for (int k = 0; k + 8 <= size && k + 8 <= m->val.size; k += 8) {
			emit_ldx(e, 8, R1, R0, (int16_t)k);
			emit_stx(e, 8, reg, (int16_t)(off + k), R1);
		}
		emit_st(e, 1, reg, (int16_t)(off + size - 1), 0);
		emit_place(e, none);
		return 0;
	}
	return gen_fail(c->g, n, "expected a string");
}

/* ntop([AF, ]ADDR) into (reg + off): {family, 16 bytes}; an int is an
 * IPv4 address, a byte array of 16 an IPv6 one.  Or a copy of such a
 * value from a variable or map. */
static int inet_to(struct cg *c, struct node *n, int reg, int off)
{
	struct emit *e = c->e;
	struct ctype t;
	struct node *addr;
	int r;

	if (n->kind != N_CALL && (r = stored_to(c, n, VT_INET, 24, reg, off)) <= 0)
		return r; /* a copy of one kept in a variable or map */
	zero(c, reg, off, 24);
	if (n->kind != N_CALL || strcmp(n->str, "ntop") || !n->a || (n->a->next && n->a->next->next))
		return gen_fail(c->g, n, "ntop() takes an address, or a family and an address");
	addr = n->a->next ? n->a->next : n->a;
	if (n->a->next) {
		if (gen_value_node(c->g, n->a, &t) < 0)
			return -EINVAL;
		emit_stx(e, 8, reg, (int16_t)off, R0);
	}
	if (addr->kind == N_CALL && !strcmp(addr->str, "pton")) {
		/* pton("LITERAL"): the address bytes, at compile time */
		uint8_t bytes[16];
		int len = addr->a && addr->a->kind == N_STR && !addr->a->next ? bt_pton(addr->a->str, bytes) : -EINVAL;
		char msg[160];

		if (len < 0) {
			snprintf(msg, sizeof(msg), "pton() expects an string argument of an IPv4/IPv6 address, got %.100s",
				 addr->a && addr->a->kind == N_STR ? addr->a->str : "");
			return gen_fail(c->g, addr, msg);
		}
		if (!n->a->next)
			emit_st(e, 8, reg, (int16_t)off, len == 16 ? 10 : 2);
		for (int k = 0; k < len; k++)
			emit_st(e, 1, reg, (int16_t)(off + 8 + k), bytes[k]);
		return 0;
	}
	if (gen_value_node(c->g, addr, &t) < 0)
		return -EINVAL;
	if (t.arr) { /* u8[16] (in6_addr's bytes) or u32[4]: its address is in R0 */
		uint32_t size = ct_size(&t) > 16 ? 16 : ct_size(&t);

		if (!n->a->next)
			emit_st(e, 8, reg, (int16_t)off, size == 16 ? 10 : 2);
		emit_mov(e, R3, R0);
		emit_mov(e, R1, reg);
		emit_alui(e, BPF_ADD, R1, off + 8);
		emit_movi(e, R2, (int32_t)size);
		emit_call(e, BPF_FUNC_probe_read_kernel);
		return 0;
	}
	if (!n->a->next)
		emit_st(e, 8, reg, (int16_t)off, 2);
	emit_stx(e, 4, reg, (int16_t)(off + 8), R0);
	return 0;
}

/* The record of action act: R7 = the heap, id stored; 0 or jump out. */
static void record_begin(struct cg *c, int act, int out)
{
	int key = gen_stack(c->g, 8);

	emit_st(c->e, 8, R10, (int16_t)key, 0);
	gen_lookup(c->g, c->m->heap, key, out);
	emit_mov(c->e, R7, R0);
	emit_ld64(c->e, R1, (uint64_t)act);
	emit_stx(c->e, 8, R7, 0, R1);
	gen_unstack(c->g, 8);
}

/* The record at (reg + off), size bytes, to the user side. */
static void record_out(struct cg *c, int reg, int off, int size)
{
	struct emit *e = c->e;
	int p = c->ring ? R2 : R4;

	if (c->ring) {
		emit_ldmap(e, R1, c->m->events);
		emit_movi(e, R3, size);
		emit_movi(e, R4, 0);
	} else {
		emit_mov(e, R1, R6);
		emit_ldmap(e, R2, c->m->events);
		emit_ld64(e, R3, BPF_F_CURRENT_CPU);
		emit_movi(e, R5, size);
	}
	emit_mov(e, p, reg);
	if (off)
		emit_alui(e, BPF_ADD, p, off);
	emit_call(e, c->ring ? BPF_FUNC_ringbuf_output : BPF_FUNC_perf_event_output);
}

static void record_send(struct cg *c, int size)
{
	record_out(c, R7, 0, size);
}

static int call_stmt(struct cg *c, struct node *n, int out)
{
	struct emit *e = c->e;
	struct ctype t;

	if (!strcmp(n->str, "printf") || !strcmp(n->str, "system") || !strcmp(n->str, "cat") ||
	    (!strcmp(n->str, "print") && c->p->acts[n->num].map < 0)) {
		/* by index: a -k check in an argument adds actions (p->acts moves) */
#define A (&c->p->acts[n->num])
		struct node *arg = strcmp(n->str, "print") ? n->a->next : n->a; /* print(VALUE) has no format */
		int skip = emit_label(e);

		record_begin(c, (int)n->num, skip);
		for (int i = 0; i < A->nargs; i++, arg = arg->next) {
			struct bt_type at = A->args[i];

			if (value_to(c, arg, &at, R7, A->off[i]) < 0)
				return -EINVAL;
		}
		record_send(c, A->size);
#undef A
		emit_place(e, skip);
		return 0;
	}
	if (!strcmp(n->str, "join")) {
		/* {id, count, BT_JOIN_MAX strings}: argv[i] until a NULL */
		int skip = emit_label(e), full = emit_label(e), ptr, sl = c->p->strlen;

		record_begin(c, (int)n->num, skip);
		emit_st(e, 8, R7, 8, 0);
		if (gen_value_node(c->g, n->a, &t) < 0)
			return -EINVAL;
		ptr = gen_stack(c->g, 16);
		emit_stx(e, 8, R10, (int16_t)ptr, R0);
		for (int i = 0; i < BT_JOIN_MAX; i++) {
			emit_st(e, 8, R10, (int16_t)(ptr + 8), 0);
			emit_mov(e, R1, R10);
			emit_alui(e, BPF_ADD, R1, ptr + 8);
			emit_movi(e, R2, 8);
			emit_ldx(e, 8, R3, R10, (int16_t)ptr);
			emit_alui(e, BPF_ADD, R3, 8 * i);
			emit_call(e, BPF_FUNC_probe_read_user);
			emit_ldx(e, 8, R3, R10, (int16_t)(ptr + 8));
			emit_jmpi(e, BPF_JEQ, R3, 0, full);
			emit_mov(e, R1, R7);
			emit_alui(e, BPF_ADD, R1, 16 + i * sl);
			emit_movi(e, R2, sl);
			emit_call(e, BPF_FUNC_probe_read_user_str);
			emit_st(e, 8, R7, 8, i + 1);
		}
		emit_place(e, full);
		gen_unstack(c->g, 16);
		record_send(c, c->p->acts[n->num].size); /* acts may have moved */
		emit_place(e, skip);
		return 0;
	}
	if (!strcmp(n->str, "exit") || !strcmp(n->str, "time") || !strcmp(n->str, "print") ||
	    !strcmp(n->str, "clear") || !strcmp(n->str, "zero")) {
		int skip = emit_label(e);

		record_begin(c, (int)n->num, skip);
		record_send(c, 8);
		emit_place(e, skip);
		if (n->str[0] == 'e')
			emit_ja(e, out); /* nothing after exit() runs */
		return 0;
	}
	if (!strcmp(n->str, "signal")) {
		if (gen_value_node(c->g, n->a, &t) < 0)
			return -EINVAL;
		emit_mov(e, R1, R0);
		emit_call(e, BPF_FUNC_send_signal);
		if (c->p->helper_check)
			helper_check(c, n, "send_signal", false);
		return 0;
	}
	if (!strcmp(n->str, "delete")) {
		struct bt_map *m = map_of(c, n->a);
		int key;

		if (!m)
			return gen_fail(c->g, n, "delete() of an unknown map");
		key = gen_stack(c->g, m->key_size);
		if (build_key(c, n->a, m, key) < 0)
			return -EINVAL;
		emit_ldmap(e, R1, m->idx);
		emit_mov(e, R2, R10);
		emit_alui(e, BPF_ADD, R2, key);
		emit_call(e, BPF_FUNC_map_delete_elem);
		if (c->p->helper_check)
			helper_check(c, n, "map_delete_elem", false);
		gen_unstack(c->g, m->key_size);
		return 0;
	}
	return gen_fail(c->g, n, "Unknown function");
}

/* R1 = the value to fold into a map (aggregation argument or rhs). */
static int agg_update(struct cg *c, struct bt_map *m, int key, int val, int op)
{
	struct emit *e = c->e;
	int insert = emit_label(e), done = emit_label(e);

	/* the new value is in fp+val (8 bytes) */
	emit_ldmap(e, R1, m->idx);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key);
	emit_call(e, BPF_FUNC_map_lookup_elem);
	for (int k = 0; c->lkp_act >= 0 && k < 1 + (op == AG_AVG || op == AG_STATS); k++)
		check_act(c, c->lkp_act, true, BPF_JNE); /* 0.17 looks avg's up twice */
	emit_jmpi(e, BPF_JEQ, R0, 0, insert);
	emit_ldx(e, 8, R1, R10, (int16_t)val);
	switch (op) {
	case AG_MIN:
	case AG_MAX: {
		int keep = emit_label(e);

		emit_ldx(e, 8, R2, R0, 0);
		emit_jmp(e, op == AG_MIN ? BPF_JSGE : BPF_JSLE, R1, R2, keep);
		emit_stx(e, 8, R0, 0, R1);
		emit_place(e, keep);
		break;
	}
	case AG_AVG:
	case AG_STATS:
		emit_movi(e, R2, 1);
		emit_xadd(e, 8, R0, 0, R2);
		emit_xadd(e, 8, R0, 8, R1);
		break;
	case AG_VALUE:
		emit_stx(e, 8, R0, 0, R1);
		break;
	default: /* count, sum, hist, lhist, += */
		emit_xadd(e, 8, R0, 0, R1);
		break;
	}
	emit_ja(e, done);
	emit_place(e, insert);
	if (op == AG_AVG || op == AG_STATS) {
		/* {1, v} in place of {key...}: the key stays, a second slot holds the pair */
		int pair = gen_stack(c->g, 16);

		emit_st(e, 8, R10, (int16_t)pair, 1);
		emit_ldx(e, 8, R1, R10, (int16_t)val);
		emit_stx(e, 8, R10, (int16_t)(pair + 8), R1);
		val = pair;
		gen_unstack(c->g, 16);
	}
	emit_map_update(e, m->idx, key, val, BPF_ANY);
	if (c->upd_act >= 0)
		check_act(c, c->upd_act, false, BPF_JEQ);
	emit_place(e, done);
	return 0;
}

static int bin_op(int op)
{
	switch (op) {
	case OP_ADD_ASSIGN: case OP_INC: return '+';
	case OP_SUB_ASSIGN: case OP_DEC: return '-';
	case OP_MUL_ASSIGN: return '*';
	case OP_DIV_ASSIGN: return '/';
	case OP_MOD_ASSIGN: return '%';
	case OP_AND_ASSIGN: return '&';
	case OP_OR_ASSIGN: return '|';
	case OP_XOR_ASSIGN: return '^';
	case OP_SHL_ASSIGN: return OP_SHL;
	case OP_SHR_ASSIGN: return OP_SHR;
	}
	return 0;
}

/* x OP= y as the tree x = x OP y (y: 1 for ++/--); freed by the caller
 * without its borrowed children. */
static struct node *compound(struct bt_stmt *s)
{
	struct node *b = xcalloc(1, sizeof(*b)), *one = NULL;

	b->kind = N_BINARY;
	b->op = bin_op(s->op);
	b->pos = s->lhs->pos;
	b->end = s->rhs ? s->rhs->end : s->lhs->end;
	b->a = s->lhs;
	if (s->rhs) {
		b->b = s->rhs;
	} else {
		one = xcalloc(1, sizeof(*one));
		one->kind = N_NUM;
		one->num = 1;
		b->b = one;
	}
	return b;
}

static void compound_free(struct node *b, struct bt_stmt *s)
{
	if (!s->rhs)
		free(b->b);
	free(b);
}

static int map_assign(struct cg *c, struct bt_stmt *s, int out)
{
	struct bt_map *m = map_of(c, s->lhs);
	struct emit *e = c->e;
	struct ctype t;
	int key, val, err = 0;
	struct node *rhs = s->rhs;
	enum bt_agg op = m->agg;

	(void)out;
	/* -k: a failed update is shown where 0.17 shows it: under the
	 * aggregation call, the '=', or the whole x++ / x += y */
	c->upd_act = -1;
	if (c->p->helper_check) {
		int pos = s->op_pos, end = s->op_pos + 1;

		if (s->op == OP_ASSIGN && m->agg != AG_VALUE) {
			pos = rhs->pos;
			end = rhs->end;
		} else if (s->op_pos < s->lhs->pos) { /* ++x: the operator alone */
			end = s->op_pos + 2;
		} else if (s->op != OP_ASSIGN) {
			pos = s->lhs->pos;
			end = rhs ? rhs->end : s->op_pos + 2;
		}
		c->upd_act = bt_helper_action(c->p, "map_update_elem", pos, end);
	}
	/* -kk: the lookup of an aggregation or x++ / x OP= y finding nothing,
	 * under the call, the whole x++ (++x: the ++), or the map of x OP= y (0.17 keeps a
	 * keyless count() in an array, where every lookup finds its slot) */
	c->lkp_act = -1;
	if (c->p->helper_check > 1 && !(s->op == OP_ASSIGN && m->agg == AG_VALUE) && !(m->agg == AG_COUNT && !m->nkeys) &&
	    (s->op == OP_ASSIGN || s->op == OP_INC || s->op == OP_DEC || s->op == OP_ADD_ASSIGN || s->op == OP_SUB_ASSIGN)) {
		int pos = s->lhs->pos, end = s->lhs->end;

		if (s->op == OP_ASSIGN) {
			pos = rhs->pos;
			end = rhs->end;
		} else if (s->op == OP_INC || s->op == OP_DEC) {
			pos = s->op_pos < s->lhs->pos ? s->op_pos : s->lhs->pos; /* ++x: the operator alone */
			end = s->op_pos + 2;
		}
		c->lkp_act = bt_helper_action(c->p, "map_lookup_elem", pos, end);
	}
	key = gen_stack(c->g, m->key_size);
	if (build_key(c, s->lhs, m, key) < 0)
		return -EINVAL;
	if (m->agg == AG_VALUE && (m->val.vt == VT_STR || m->val.vt == VT_INET || m->val.vt == VT_USYM || m->val.vt == VT_AGG || m->val.vt == VT_BUF)) {
		val = gen_stack(c->g, m->val_size);
		if (value_to(c, rhs, &m->val, R10, val) < 0)
			return -EINVAL;
		emit_map_update(e, m->idx, key, val, BPF_ANY);
		if (c->upd_act >= 0)
			check_act(c, c->upd_act, false, BPF_JEQ);
		gen_unstack(c->g, m->val_size);
		gen_unstack(c->g, m->key_size);
		return 0;
	}
	val = gen_stack(c->g, 8);
	if (m->agg == AG_VALUE && s->op != OP_ASSIGN) {
		op = 100; /* x OP= y: add for +=/-=/++/--, else read-modify-write */
		if (s->op == OP_ADD_ASSIGN || s->op == OP_INC || s->op == OP_SUB_ASSIGN || s->op == OP_DEC) {
			if (rhs) {
				if (gen_value_node(c->g, rhs, &t) < 0)
					return -EINVAL;
			} else {
				emit_movi(e, R0, 1);
			}
			if (ct_is_ptr(&m->vct)) { /* a pointer moves by its pointee's size */
				struct ctype el = ct_deref(&m->vct);

				if (ct_size(&el) > 1)
					emit_alui(e, BPF_MUL, R0, (int32_t)ct_size(&el));
			}
			if (s->op == OP_SUB_ASSIGN || s->op == OP_DEC)
				emit_alui(e, BPF_NEG, R0, 0);
			op = AG_SUM;
		} else {
			struct node *b = compound(s);

			err = gen_value_node(c->g, b, &t);
			compound_free(b, s);
			if (err < 0)
				return err;
			op = AG_VALUE;
		}
	} else if (m->agg == AG_VALUE) {
		if (gen_value_node(c->g, rhs, &t) < 0)
			return -EINVAL;
		if (ct_is_ptr(&t) && !ct_is_ptr(&m->vct))
			m->vct = t;
	} else if (m->agg == AG_COUNT) {
		emit_movi(e, R0, 1);
	} else {
		if (gen_value_node(c->g, rhs->a, &t) < 0)
			return -EINVAL;
	}
	emit_stx(e, 8, R10, (int16_t)val, R0);
	if (m->agg == AG_HIST || m->agg == AG_LHIST) {
		int slot_off = key + m->key_size - 8, neg = emit_label(e), done = emit_label(e);

		emit_ldx(e, 8, R1, R10, (int16_t)val);
		if (m->agg == AG_HIST) {
			/* slot 0: negative, 1: zero, k + 1: log2 bucket k of bcc's log2l */
			emit_jmpi(e, BPF_JSLT, R1, 0, neg);
			gen_log2l(c->g);
			emit_alui(e, BPF_ADD, R0, 1);
			emit_ja(e, done);
			emit_place(e, neg);
			emit_movi(e, R0, 0);
			emit_place(e, done);
		} else {
			int64_t nb = (m->lmax - m->lmin) / m->lstep;
			int hi = emit_label(e);

			emit_ld64(e, R2, (uint64_t)m->lmin);
			emit_jmp(e, BPF_JSLT, R1, R2, neg);
			emit_ld64(e, R2, (uint64_t)m->lmax);
			emit_jmp(e, BPF_JSGE, R1, R2, hi);
			emit_ld64(e, R2, (uint64_t)m->lmin);
			emit_alu(e, BPF_SUB, R1, R2);
			emit_mov(e, R0, R1);
			emit_ld64(e, R2, (uint64_t)m->lstep);
			emit_alu(e, BPF_DIV, R0, R2);
			emit_alui(e, BPF_ADD, R0, 1);
			emit_ja(e, done);
			emit_place(e, hi);
			emit_ld64(e, R0, (uint64_t)(nb + 1));
			emit_ja(e, done);
			emit_place(e, neg);
			emit_movi(e, R0, 0);
			emit_place(e, done);
		}
		emit_stx(e, 8, R10, (int16_t)slot_off, R0);
		emit_st(e, 8, R10, (int16_t)val, 1);
	}
	agg_update(c, m, key, val, op);
	gen_unstack(c->g, 8);
	gen_unstack(c->g, m->key_size);
	return 0;
}

static int var_assign(struct cg *c, struct bt_stmt *s)
{
	struct bt_var *v;
	int off = var_slot(c, s->lhs->str, &v);
	struct ctype t;
	int err;

	if (!v)
		return gen_fail(c->g, s->lhs, "unknown variable");
	if (!off) {
		off = gen_stack(c->g, (bt_type_size(&v->t) + 7) & ~7);
		c->var_off[v - c->p->vars] = off;
		c->var_ct[v - c->p->vars] = ct_int(8, true);
		if (v->t.vt == VT_INT)
			emit_st(c->e, 8, R10, (int16_t)off, 0);
	}
	if (v->t.vt == VT_STR || v->t.vt == VT_INET || v->t.vt == VT_USYM || v->t.vt == VT_AGG || v->t.vt == VT_BUF)
		return s->rhs ? value_to(c, s->rhs, &v->t, R10, off) : gen_fail(c->g, s->lhs, "not an integer");
	if (s->op == OP_ASSIGN) {
		err = gen_value_node(c->g, s->rhs, &t);
	} else {
		struct node *b = compound(s);

		err = gen_value_node(c->g, b, &t);
		compound_free(b, s);
	}
	if (err < 0)
		return err;
	/* the value as 64 bits; a pointer keeps its type for -> and [] */
	c->var_ct[v - c->p->vars] = ct_is_ptr(&t) ? t : ct_int(8, v->t.sign); /* its first value's sign, as 0.17 */
	emit_stx(c->e, 8, R10, (int16_t)off, R0);
	return 0;
}

/* 1 when the statements end in exit() (what follows never runs, and the
 * verifier refuses code nothing reaches), 0, or -errno. */
static int stmts(struct cg *c, struct bt_stmt *s, int out)
{
	struct ctype t;

	for (; s; s = s->next) {
		int err = 0;

		if (s->kind == BS_IF) {
			int no = emit_label(c->e), done = emit_label(c->e), rb, re;

			if (gen_value_node(c->g, s->lhs, &t) < 0)
				return -EINVAL;
			emit_jmpi(c->e, BPF_JEQ, R0, 0, no);
			if ((rb = stmts(c, s->body, out)) < 0)
				return -EINVAL;
			if (!rb)
				emit_ja(c->e, done);
			emit_place(c->e, no);
			if ((re = stmts(c, s->els, out)) < 0)
				return -EINVAL;
			emit_place(c->e, done);
			if (rb && re && s->els)
				return 1;
			continue;
		}
		if (s->kind == BS_WHILE) {
			int top = emit_label(c->e), end = emit_label(c->e), rb;

			emit_place(c->e, top);
			if (gen_value_node(c->g, s->lhs, &t) < 0)
				return -EINVAL;
			emit_jmpi(c->e, BPF_JEQ, R0, 0, end);
			if ((rb = stmts(c, s->body, out)) < 0)
				return -EINVAL;
			if (!rb)
				emit_ja(c->e, top);
			emit_place(c->e, end);
			continue;
		}
		if (s->kind == BS_UNROLL) {
			for (int k = 0; k < s->op; k++) {
				int rb = stmts(c, s->body, out);

				if (rb)
					return rb;
			}
			continue;
		}
		if (s->kind == BS_EXPR && s->lhs->kind == N_CALL && !bt_value_call(s->lhs->str)) {
			if ((err = call_stmt(c, s->lhs, out)) < 0)
				return err;
			if (!strcmp(s->lhs->str, "exit"))
				return 1;
			continue;
		}
		if (s->kind == BS_EXPR)
			err = gen_value_node(c->g, s->lhs, &t);
		else if (is_map(s->lhs))
			err = map_assign(c, s, out);
		else
			err = var_assign(c, s);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The ring buffer's bytes.  The kernel maps all of it into the reader at
 * once (512 KiB of resident memory), which only printf-like records, one
 * per event, need; exit(), clear(), zero() and print(@map) send a few
 * bytes per action, and a page or four holds them. */
static uint32_t ring_bytes(const struct bt_prog *p)
{
	uint32_t pg = (uint32_t)sysconf(_SC_PAGESIZE), small = pg > 16384 ? pg : 16384;

	for (int i = 0; i < p->nacts; i++) {
		enum bt_act k = p->acts[i].kind;

		if (!(k == BA_CLEAR || k == BA_ZERO || k == BA_EXIT || (k == BA_PRINT && p->acts[i].map >= 0)))
			return 1u << 19;
	}
	return small;
}

int bt_new_maps(struct bt_prog *p, struct obj *o, struct bt_maps *m, bool ring)
{
	uint32_t rec = (uint32_t)(p->max_rec < 16 ? 16 : p->max_rec);
	uint32_t max_keys = 4096;
	const char *env = getenv("BPFTRACE_MAP_KEYS_MAX");

	if (env && atoi(env) > 0)
		max_keys = (uint32_t)atoi(env);
	m->events = ring ? obj_new_map(o, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, ring_bytes(p), 0)
			 : obj_new_map(o, "events", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	m->heap = obj_new_map(o, "heap", BPF_MAP_TYPE_PERCPU_ARRAY, 4, (rec + 7) & ~7u, 1, 0);
	if (m->events < 0 || m->heap < 0)
		return -EINVAL;
	m->nstacks = 0;
	for (int i = 0; i < p->np; i++) {
		depths_node(p->p[i].pred, m);
		depths_stmts(p->p[i].body, m);
	}
	for (int k = 0; k < m->nstacks; k++) {
		char name[32];

		bt_stack_map_name(m->depth[k], name, sizeof(name));
		m->stacks[k] = obj_new_map(o, name, BPF_MAP_TYPE_STACK_TRACE, 4, (uint32_t)m->depth[k] * 8, 4096, 0);
		if (m->stacks[k] < 0)
			return m->stacks[k];
	}
	for (int i = 0; i < p->nmaps; i++) {
		struct bt_map *bm = &p->maps[i];
		char name[16];

		snprintf(name, sizeof(name), "m%d", i);
		bm->idx = obj_new_map(o, name, BPF_MAP_TYPE_HASH, (uint32_t)bm->key_size, (uint32_t)bm->val_size,
				      max_keys, 0);
		if (bm->idx < 0)
			return bm->idx;
	}
	return 0;
}

int bt_gen_body(struct bt_prog *p, int pi, struct gen *g, const struct bt_maps *m, bool ring, const char *probe_name,
		const char *func, int names, int idx, int out)
{
	static struct cg c; /* bss: large, one program at a time */
	struct timespec ts;

	memset(&c, 0, sizeof(c));
	c.p = p;
	c.pi = pi;
	c.g = g;
	c.e = gen_emit(g);
	c.m = m;
	c.ring = ring;
	c.probe_name = probe_name;
	c.func = func ? func : "";
	c.names = names;
	c.idx = idx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c.start_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (p->nvars > (int)ARRAY_SIZE(c.var_off))
		return gen_fail(g, NULL, "too many variables");
	gen_set_ext(g, ext, &c);
	if (p->helper_check > 1)
		gen_set_read_check(g, read_check);
	if (p->p[pi].pred) {
		struct ctype t;

		if (gen_value_node(g, p->p[pi].pred, &t) < 0)
			return -EINVAL;
		emit_jmpi(c.e, BPF_JEQ, R0, 0, out);
	}
	return stmts(&c, p->p[pi].body, out) < 0 ? -EINVAL : 0;
}

int bt_gen_probe(struct bt_prog *p, int pi, struct gen *g, const struct bt_maps *m, bool ring, const char *probe_name,
		 const char *func)
{
	int out = gen_begin(g);

	if (bt_gen_body(p, pi, g, m, ring, probe_name, func, -1, 0, out) < 0)
		return -EINVAL;
	gen_end(g, out);
	return 0;
}
