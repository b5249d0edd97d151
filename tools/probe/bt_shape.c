/* Tuple, struct and array values of bpftrace programs (see bt.h's
 * bt_shape): their layouts, kept once per program so that a type is one
 * small index, and the rules that let two of them meet (a map given
 * ("hello", 0) then ("hi", 1) holds strings of the longer size). */
#include "bt.h"

#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/util.h"

struct bt_type bt_type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n);

static int align_of(const struct bt_prog *p, const struct bt_type *t)
{
	if (t->vt == VT_AGG)
		return p->shapes[t->depth].align;
	if (t->vt == VT_STR)
		return 1;
	return t->vt == VT_INT ? t->size : 8;
}

static bool same_shape(const struct bt_shape *a, const struct bt_shape *b)
{
	if (a->kind != b->kind || a->n != b->n || a->align != b->align)
		return false;
	for (int i = 0; i < a->n; i++) {
		const struct bt_field *x = &a->f[i], *y = &b->f[i];

		if (x->off != y->off || memcmp(&x->t, &y->t, sizeof(x->t)) || !x->name != !y->name ||
		    (x->name && strcmp(x->name, y->name)))
			return false;
	}
	return true;
}

/* The shape's index (s's fields are taken over or freed). */
static int intern(struct bt_prog *p, struct bt_shape *s)
{
	for (int i = 0; i < p->nshapes; i++)
		if (same_shape(&p->shapes[i], s)) {
			for (int k = 0; k < s->n; k++)
				free(s->f[k].name);
			free(s->f);
			return i;
		}
	p->shapes = xrealloc(p->shapes, (size_t)(p->nshapes + 1) * sizeof(*p->shapes));
	p->shapes[p->nshapes] = *s;
	return p->nshapes++;
}

/* Tuple s: offsets of its fields in order, C alignment; its type. */
static struct bt_type tuple_layout(struct bt_prog *p, struct bt_shape *s)
{
	struct bt_type t = { .vt = VT_AGG };
	unsigned off = 0, al = 1;

	for (int i = 0; i < s->n; i++) {
		unsigned a = (unsigned)align_of(p, &s->f[i].t);

		off = (off + a - 1) / a * a;
		s->f[i].off = (uint16_t)off;
		off += (unsigned)bt_type_size(&s->f[i].t);
		if (a > al)
			al = a;
	}
	s->align = (uint8_t)al;
	t.size = (uint16_t)((off + al - 1) / al * al);
	t.depth = (uint16_t)intern(p, s);
	return t;
}

/* A tuple element keeps its width: (int8)1 is one byte, "abc" four. */
static struct bt_type elem_type(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	struct bt_type t = bt_type_of(p, pi, l, n);
	struct ctype ct;

	if (n->kind == N_STR && n->len < 1024)
		t.size = (uint16_t)(n->len + 1);
	if (n->kind == N_CAST && t.vt == VT_INT && ctype_parse(n->cast_text, probe_kernel_btf(), &ct, NULL) == 0 &&
	    ct_is_scalar(&ct) && !ct.ptr) {
		t.size = ct.size;
		t.sign = ct.sign;
	}
	return t;
}

struct bt_type bt_tuple_type(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	struct bt_shape s = { .kind = 't' };

	for (const struct node *e = n->a; e; e = e->next) {
		s.f = xrealloc(s.f, (size_t)(s.n + 1) * sizeof(*s.f));
		memset(&s.f[s.n], 0, sizeof(*s.f));
		s.f[s.n++].t = elem_type(p, pi, l, e);
	}
	return tuple_layout(p, &s);
}

const struct bt_field *bt_field(const struct bt_prog *p, const struct bt_type *t, const char *name)
{
	const struct bt_shape *s;

	if (t->vt != VT_AGG)
		return NULL;
	s = &p->shapes[t->depth];
	for (int i = 0; i < s->n; i++) {
		if (s->kind == 't' ? atoi(name) == i && name[0] >= '0' && name[0] <= '9'
				   : s->kind == 's' && s->f[i].name && !strcmp(s->f[i].name, name))
			return &s->f[i];
	}
	return NULL;
}

int bt_merge_type(struct bt_prog *p, struct bt_type *into, const struct bt_type *from)
{
	struct bt_shape s, *a, *b;

	if (into->vt != from->vt)
		return -1;
	if (into->vt == VT_STR) {
		if (from->size > into->size)
			into->size = from->size;
		return 0;
	}
	if (into->vt != VT_AGG || into->depth == from->depth)
		return 0;
	a = &p->shapes[into->depth];
	b = &p->shapes[from->depth];
	if (a->kind != 't' || b->kind != 't' || a->n != b->n)
		return -1;
	s.kind = 't';
	s.n = a->n;
	s.f = xcalloc((size_t)s.n, sizeof(*s.f));
	for (int i = 0; i < s.n; i++) {
		struct bt_type ft = p->shapes[into->depth].f[i].t;

		if (bt_merge_type(p, &ft, &p->shapes[from->depth].f[i].t) < 0) {
			free(s.f);
			return -1;
		}
		if (ft.vt == VT_INT && p->shapes[from->depth].f[i].t.size > ft.size)
			ft = p->shapes[from->depth].f[i].t;
		s.f[i].t = ft;
	}
	*into = tuple_layout(p, &s);
	return 0;
}

struct bt_var *bt_find_var(struct bt_prog *p, int probe, const char *name);

/* The C type of n when it can be known without compiling it (casts,
 * members, derefs, indexes of those, variables holding them). */
bool bt_ctype_of(struct bt_prog *p, int pi, const struct node *n, struct ctype *out)
{
	struct ctype t;
	uint32_t off, bo, bs;

	switch (n->kind) {
	case N_CAST: /* the kernel's BTF (megabytes) is opened only here and for members of a known type */
		return ctype_parse(n->cast_text, probe_kernel_btf(), out, NULL) == 0;
	case N_BINARY: /* pointer arithmetic keeps the pointer's type */
		return (n->op == '+' || n->op == '-') && bt_ctype_of(p, pi, n->a, out) && ct_is_ptr(out);
	case N_IDENT:
		if (!strcmp(n->str, "curtask"))
			return ctype_parse("struct task_struct *", probe_kernel_btf(), out, NULL) == 0;
		if (n->str[0] == '$') {
			struct bt_var *v = bt_find_var(p, pi, n->str);

			if (v && (v->ct.base != CT_VOID || v->ct.ptr)) {
				*out = v->ct;
				return true;
			}
		}
		return false;
	case N_UNARY:
		if (n->op != '*' || !bt_ctype_of(p, pi, n->a, &t) || !(ct_is_ptr(&t) || t.arr))
			return false;
		*out = ct_deref(&t);
		return true;
	case N_INDEX:
		if ((n->a->kind == N_IDENT && n->a->str[0] == '@') || !bt_ctype_of(p, pi, n->a, &t) ||
		    !(ct_is_ptr(&t) || t.arr))
			return false;
		*out = ct_deref(&t);
		return true;
	case N_MEMBER:
		if (!bt_ctype_of(p, pi, n->a, &t))
			return false;
		if (n->op == '>') {
			if (!ct_is_ptr(&t))
				return false;
			t = ct_deref(&t);
		}
		if (t.ptr || t.arr || t.base != CT_REC || ctype_member(probe_kernel_btf(), &t, n->str, out, &off, &bo, &bs) < 0)
			return false;
		return !bs;
	default:
		return false;
	}
}

/* A struct or array of C type ct as a value (VT_AGG; char arrays are
 * strings); scalars as int64. */
struct bt_type bt_value_type(struct bt_prog *p, const struct ctype *ct)
{
	const struct btf *btf = probe_kernel_btf();
	struct bt_type t = { .vt = VT_INT, .size = (uint16_t)(ct->base == CT_INT && !ct->ptr ? ct->size : 8),
			     .sign = ct->base == CT_INT && !ct->ptr && ct->sign, .ptr = ct->ptr && !ct->arr };
	struct bt_shape s = { 0 };
	unsigned al = 1;

	if (ct->arr && !ct->ptr && !ct->arr2 && ct->base == CT_INT && ct->size == 1 && ct->chr && ct->arr < 1024) {
		t.vt = VT_STR;
		t.size = (uint16_t)ct->arr;
		return t;
	}
	if (ct->arr && !ct->ptr && ct->arr <= 256 && ct_size(ct) < 4096) {
		struct ctype el = ct_deref(ct);

		s.kind = 'a';
		s.n = (int)ct->arr;
		s.f = xcalloc((size_t)s.n, sizeof(*s.f));
		for (int i = 0; i < s.n; i++) {
			s.f[i].t = bt_value_type(p, &el);
			s.f[i].off = (uint16_t)(i * ct_size(&el));
		}
		al = (unsigned)(s.n ? align_of(p, &s.f[0].t) : 1);
	} else if (ct->base == CT_REC && !ct->ptr && !ct->arr && btf && ct->rec_size < 4096) {
		const struct btf_type *st = btf_type_by_id(btf, ct->btf_id);

		s.kind = 's';
		for (uint32_t i = 0; st && i < btf_vlen(st); i++) {
			const struct btf_member *m = &btf_members(st)[i];
			struct ctype mt;

			if (btf_member_bitfield_size(st, m) || ctype_from_btf(btf, m->type, &mt) < 0)
				continue; /* bitfields: not printed */
			s.f = xrealloc(s.f, (size_t)(s.n + 1) * sizeof(*s.f));
			s.f[s.n].name = xstrdup(btf_str(btf, m->name_off) ? btf_str(btf, m->name_off) : "");
			s.f[s.n].off = (uint16_t)(btf_member_bit_offset(st, m) / 8);
			s.f[s.n].t = bt_value_type(p, &mt);
			if ((unsigned)align_of(p, &s.f[s.n].t) > al)
				al = (unsigned)align_of(p, &s.f[s.n].t);
			s.n++;
		}
	} else {
		return t;
	}
	s.align = (uint8_t)(al > 8 ? 8 : al);
	t.vt = VT_AGG;
	t.sign = false;
	t.size = (uint16_t)ct_size(ct);
	t.depth = (uint16_t)intern(p, &s);
	return t;
}

void bt_shapes_free(struct bt_prog *p)
{
	for (int i = 0; i < p->nshapes; i++) {
		for (int k = 0; k < p->shapes[i].n; k++)
			free(p->shapes[i].f[k].name);
		free(p->shapes[i].f);
	}
	free(p->shapes);
}
