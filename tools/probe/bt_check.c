/* bpftrace's semantic pass (see bt.h): what each map, variable and
 * action holds, so every program of every probe lays out keys, values and
 * records the same way, and the user side can print them. */
#include "bt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"

static int cfail(struct bt_prog *p, const struct node *n, const char *msg)
{
	if (p->errpos < 0) {
		p->errpos = n ? n->pos : 0;
		p->errend = n && n->end > n->pos ? n->end : p->errpos + 1;
		err_set(EINVAL, "%s", msg);
	}
	return -EINVAL;
}

/* An error of those 0.17 reports all of: printed now; bt_check fails
 * at its end. */
static int nerrs;

static void err_at(struct bt_prog *p, int pos, int end, const char *msg)
{
	nerrs++;
	bt_report_kind(stderr, p->file ? p->file : "stdin", p->text, pos, end, "ERROR", msg);
}

/* One of those errors: f takes the operator (ol bytes of the text at op;
 * ol 0: none) and the operands' type names. */
static void agg_err(struct bt_prog *p, const char *f, int ol, int op, const char *an, const char *bn, int pos, int end)
{
	char msg[160];

	snprintf(msg, sizeof(msg), f, ol, p->text + op, an, bn);
	err_at(p, pos, end, msg);
}

static const char unop_err[] = "The %.*s operator can not be used on expressions of type '%s'";

int bt_type_size(const struct bt_type *t)
{
	if (t->vt == VT_INT && t->size < 8) /* a tuple's or struct's narrow integer */
		return t->size ? t->size : 8;
	return t->vt == VT_STR || t->vt == VT_AGG ? t->size : t->vt == VT_INET ? 24 : t->vt == VT_USYM ? 16 : t->vt == VT_BUF ? 8 + t->size : 8;
}

static bool is_map(const struct node *n)
{
	return (n->kind == N_IDENT && n->str[0] == '@') ||
	       (n->kind == N_INDEX && n->a->kind == N_IDENT && n->a->str[0] == '@');
}

static const char *map_name(const struct node *n)
{
	return n->kind == N_IDENT ? n->str : n->a->str;
}

static struct bt_map *find_map(struct bt_prog *p, const char *name)
{
	for (int i = 0; i < p->nmaps; i++)
		if (!strcmp(p->maps[i].name, name))
			return &p->maps[i];
	return NULL;
}

static struct bt_map *get_map(struct bt_prog *p, const char *name)
{
	struct bt_map *m = find_map(p, name);

	if (m)
		return m;
	p->maps = xrealloc(p->maps, (size_t)(p->nmaps + 1) * sizeof(*p->maps));
	m = &p->maps[p->nmaps++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->nkeys = -1;
	m->agg = -1;
	return m;
}

struct bt_var *bt_find_var(struct bt_prog *p, int probe, const char *name);
struct bt_var *bt_find_var(struct bt_prog *p, int probe, const char *name)
{
	for (int i = 0; i < p->nvars; i++)
		if (p->vars[i].probe == probe && !strcmp(p->vars[i].name, name))
			return &p->vars[i];
	return NULL;
}

static int nargs(const struct node *n)
{
	int k = 0;

	for (const struct node *a = n->a; a; a = a->next)
		k++;
	return k;
}

static const struct tp_field *tp_string_field(const struct loc *l, const struct node *n)
{
	const struct tp_field *f;

	if (!l || n->kind != N_MEMBER || n->a->kind != N_IDENT || strcmp(n->a->str, "args") ||
	    (l->mech != M_TP && l->mech != M_SYSCALL && l->mech != M_RAW_TP))
		return NULL;
	f = tp_field(&l->fmt, n->str);
	if (f && (f->data_loc || (strstr(f->type, "char") && strchr(f->type, '['))))
		return f;
	return NULL;
}

/* The type an expression has (no code): what keys and values store. */
static struct bt_type type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n);
struct bt_type bt_type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n);

/* The sign 0.17's semantic analyser gives an integer expression: literals
 * signed; its builtins (uint64), argN, retval, !x and integer functions
 * (strncmp, sizeof, bswap, kaddr, reg...) unsigned; casts, members and
 * tracepoint fields as declared; x OP y signed only when both sides are (a
 * shift: as x); -x, ~x and x++ as x; a ternary as its first branch.
 * dflt: what type_of said (maps and variables keep their first value's). */
static bool int_sign(struct bt_prog *p, int pi, const struct loc *l, const struct node *n, bool dflt)
{
	static const char u[] = " nsecs elapsed pid tid uid gid cpu cgroup rand numaid jiffies retval cpid ";
	const char *w;
	const struct tp_field *f;
	struct ctype ct;

	switch (n->kind) {
	case N_NUM:
		return true;
	case N_BINARY:
		return bt_type_of(p, pi, l, n->a).sign &&
		       (n->op == OP_SHL || n->op == OP_SHR || bt_type_of(p, pi, l, n->b).sign);
	case N_UNARY:
		if (n->op == '!')
			return false;
		if (n->op != '*')
			return bt_type_of(p, pi, l, n->a).sign;
		break;
	case N_COND:
		return bt_type_of(p, pi, l, n->b).sign;
	case N_CALL:
		return (!strcmp(n->str, "kptr") || !strcmp(n->str, "uptr")) && n->a ? bt_type_of(p, pi, l, n->a).sign
										    : false;
	case N_IDENT:
		for (w = u; (w = strstr(w + 1, n->str)); )
			if (w[-1] == ' ' && w[strlen(n->str)] == ' ')
				return false;
		if ((!strncmp(n->str, "arg", 3) || !strncmp(n->str, "sarg", 4)) && isdigit((unsigned char)n->str[strlen(n->str) - 1]))
			return false;
		return dflt;
	case N_MEMBER:
		if (n->op == '>' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args") && l &&
		    (l->mech == M_TP || l->mech == M_SYSCALL || l->mech == M_RAW_TP) && (f = tp_field(&l->fmt, n->str)))
			return f->sign && !strchr(f->type, '*');
		break;
	default:
		break;
	}
	if (bt_ctype_of(p, pi, n, &ct) && ct.base == CT_INT && !ct.ptr && !ct.arr)
		return ct.sign;
	return dflt;
}
struct bt_type bt_type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	struct bt_type t = type_of(p, pi, l, n);
	struct ctype ct;

	t.ptr = t.vt == VT_INT && bt_ctype_of(p, pi, n, &ct) && ct_is_ptr(&ct);
	if (t.vt == VT_INT && t.size == 8)
		t.sign = int_sign(p, pi, l, n, t.sign);
	return t;
}

/* A map's value read: what it holds; a count(), sum()... one is typed that
 * aggregation (0.17 lets no operator, condition or printf take it). */
static struct bt_type map_val(struct bt_prog *p, const struct node *n, struct bt_type t)
{
	struct bt_map *m = find_map(p, map_name(n));

	if (m && (int)m->agg >= 0) {
		t = m->val;
		if (m->agg != AG_VALUE)
			t.agg = (uint8_t)m->agg;
	}
	return t;
}

static struct bt_type type_of(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	struct bt_type t = { .vt = VT_INT, .sign = true, .size = 8 };
	struct bt_type s = { .vt = VT_STR, .size = (uint16_t)p->strlen };

	switch (n->kind) {
	case N_STR:
		return s;
	case N_IDENT:
		if (!strcmp(n->str, "comm")) {
			s.size = 16; /* the task's comm, whatever BPFTRACE_STRLEN says */
			return s;
		}
		if (!strcmp(n->str, "probe") || !strcmp(n->str, "func")) {
			if (p->name_len > s.size)
				s.size = (uint16_t)p->name_len;
			return s;
		}
		if (!strcmp(n->str, "username")) {
			t.vt = VT_USER;
			return t;
		}
		if (!strcmp(n->str, "kstack") || !strcmp(n->str, "ustack") || !strcmp(n->str, "stack")) {
			t.vt = n->str[0] == 'u' ? VT_USTACK : VT_KSTACK;
			t.depth = 127;
			return t;
		}
		if (n->str[0] == '$' && n->str[1] >= '0' && n->str[1] <= '9') {
			int k = atoi(n->str + 1);
			const char *v = k >= 1 && k <= p->nparams ? p->params[k - 1] : "0"; /* absent: 0, or "" in str() */
			char *end;

			strtoll(v, &end, 0);
			if (*v && !*end)
				return t;
			return s;
		}
		if (n->str[0] == '$') {
			struct bt_var *v = bt_find_var(p, pi, n->str);

			return v ? v->t : t;
		}
		if (n->str[0] == '@')
			return map_val(p, n, t);
		return t;
	case N_INDEX:
		if (is_map(n))
			return map_val(p, n, t);
		{
			struct bt_type bt = bt_type_of(p, pi, l, n->a);
			struct ctype ct;

			if (bt.vt == VT_AGG && p->shapes[bt.depth].kind == 'a' && p->shapes[bt.depth].n) {
				bt = p->shapes[bt.depth].f[0].t;
				if (bt.vt == VT_INT)
					bt.size = 8;
				return bt;
			}
			if (bt_ctype_of(p, pi, n, &ct) && (ct.arr || (ct.base == CT_REC && !ct.ptr)))
				return bt_value_type(p, &ct);
		}
		return t;
	case N_CALL:
		if (!strcmp(n->str, "str"))
			return s;
		if (!strcmp(n->str, "buf"))
			return bt_buf_type(p, n);
		if (!strcmp(n->str, "pton")) { /* uint8[4] or [16], as 0.17 types it */
			uint8_t b[16];
			struct ctype ct = ct_int(1, false);

			ct.arr = n->a && n->a->kind == N_STR && !n->a->next ? bt_pton(n->a->str, b) : 0;
			return (int)ct.arr > 0 ? bt_value_type(p, &ct) : t;
		}
		if (!strcmp(n->str, "strerror")) {
			t.vt = VT_ERRNO;
			return t;
		}
		if (!strcmp(n->str, "ksym")) {
			t.vt = VT_KSYM;
			return t;
		}
		if (!strcmp(n->str, "usym")) {
			t.vt = VT_USYM;
			t.size = 16;
			return t;
		}
		if (!strcmp(n->str, "macaddr")) {
			t.vt = VT_MAC;
			return t;
		}
		if ((!strcmp(n->str, "strftime") && n->a && n->a->kind == N_STR && n->a->next && !n->a->next->next) ||
		    !strcmp(n->str, "cgroup_path")) {
			/* the format (filter) stays on the user side: the value is
			 * the time (the cgroup id) */
			const char *f = n->str[0] == 's' ? n->a->str : n->a && n->a->next && n->a->next->kind == N_STR ? n->a->next->str : "*";
			int k;

			for (k = 0; k < p->ntfmts && strcmp(p->tfmts[k], f); k++)
				;
			if (k == p->ntfmts && k < 0xffff) {
				p->tfmts = xrealloc(p->tfmts, (size_t)(k + 1) * sizeof(*p->tfmts));
				p->tfmts[p->ntfmts++] = xstrdup(f);
			}
			t.vt = n->str[0] == 's' ? VT_TIME : VT_CGPATH;
			t.depth = (uint16_t)k;
			return t;
		}
		if (!strcmp(n->str, "ntop")) {
			t.vt = VT_INET;
			t.size = 24;
			return t;
		}
		if (!strcmp(n->str, "kstack") || !strcmp(n->str, "ustack")) {
			t.vt = n->str[0] == 'k' ? VT_KSTACK : VT_USTACK;
			t.depth = n->a && n->a->kind == N_NUM && n->a->num > 0 && n->a->num <= 127 ? (uint16_t)n->a->num : 127;
			return t;
		}
		return t;
	case N_TUPLE:
		return bt_tuple_type(p, pi, l, n);
	case N_UNARY:
		if (n->op == '*') { /* *(struct Foo *)p: a struct value */
			struct ctype ct;

			if (bt_ctype_of(p, pi, n, &ct) && (ct.arr || (ct.base == CT_REC && !ct.ptr)))
				return bt_value_type(p, &ct);
		}
		return t;
	case N_MEMBER:
		if (n->op == '.') { /* a tuple's or struct value's member */
			struct bt_type bt = bt_type_of(p, pi, l, n->a);
			const struct bt_field *f = bt_field(p, &bt, n->str);

			if (f && f->t.vt == VT_INT)
				t.sign = f->t.sign; /* read as an int64 */
			else if (f)
				return f->t;
		}
		if (!tp_string_field(l, n)) {
			struct ctype ct;

			if (bt_ctype_of(p, pi, n, &ct) && (ct.arr || (ct.base == CT_REC && !ct.ptr))) {
				t = bt_value_type(p, &ct);
				t.size += t.vt == VT_STR; /* char s[5] holds 5 characters and no NUL */
				return t;
			}
		}
		return tp_string_field(l, n) ? s : t;
	case N_COND:
		return bt_type_of(p, pi, l, n->b);
	default:
		return t;
	}
}

static bool same_type(const struct bt_type *a, const struct bt_type *b)
{
	return a->vt == b->vt && a->agg == b->agg;
}

static const char *const agg_word[] = { "", "count", "sum", "min", "max", "avg", "stats", "hist", "lhist" };

static const char *type_word(const struct bt_type *t)
{
	if (t->agg)
		return agg_word[t->agg];
	switch (t->vt) {
	case VT_STR: return "string";
	case VT_KSTACK: return "kstack";
	case VT_USTACK: return "ustack";
	case VT_KSYM: return "ksym";
	case VT_INET: return "inet";
	case VT_USYM: return "usym";
	case VT_TIME: return "string"; /* 0.17 names it so */
	case VT_AGG: return "tuple";
	case VT_BUF: return "buffer";
	case VT_USER: return "username";
	case VT_ERRNO: return "strerror";
	case VT_MAC: return "mac_address";
	case VT_CGPATH: return "cgroup_path";
	default: return "int64";
	}
}

/* The keys of map expression n: set once, then checked. */
static int map_keys(struct bt_prog *p, int pi, const struct loc *l, const struct node *n, struct bt_map *m)
{
	struct bt_type k[BT_MAX_KEYS];
	int nk = 0;

	if (n->kind == N_INDEX)
		for (const struct node *e = n->b; e; e = e->next) {
			if (nk == BT_MAX_KEYS)
				return cfail(p, e, "too many map keys");
			k[nk++] = bt_type_of(p, pi, l, e);
			if (k[nk - 1].vt == VT_AGG && p->shapes[k[nk - 1].depth].kind == 't')
				return cfail(p, e, "tuple cannot be used as a map key. Try a multi-key associative array instead (eg `@map[$1, $2] = ...)`.");
		}
	if (m->nkeys < 0) {
		m->nkeys = nk;
		memcpy(m->keys, k, sizeof(k[0]) * (size_t)nk);
		m->key_size = 0;
		for (int i = 0; i < nk; i++)
			m->key_size += (bt_type_size(&k[i]) + 7) & ~7;
		if (!nk)
			m->key_size = 8;
		return 0;
	}
	if (m->nkeys != nk) {
		char msg[200];

		snprintf(msg, sizeof(msg), "Argument mismatch for %s: trying to access with %d arguments when map expects %d arguments",
			 m->name, nk, m->nkeys);
		return cfail(p, n, msg);
	}
	for (int i = 0; i < nk; i++)
		if (!same_type(&k[i], &m->keys[i])) {
			char msg[200];

			snprintf(msg, sizeof(msg), "Argument mismatch for %s: trying to access with arguments: [%s] when map expects arguments: [%s]",
				 m->name, type_word(&k[i]), type_word(&m->keys[i]));
			return cfail(p, n, msg);
		}
	return 0;
}

static void int_name(struct bt_prog *p, int pi, const struct node *n, bool sign, char *buf);

/* A value's type as 0.17 names it in an error: int64, int32, string[16],
 * count... (n: the expression, if any, of probe pi) */
static const char *val_name(struct bt_prog *p, int pi, const struct node *n, const struct bt_type *t, char *buf)
{
	if (t->agg || t->vt > VT_STR)
		return type_word(t);
	if (t->vt == VT_STR)
		sprintf(buf, "string[%d]", n && n->kind == N_STR ? (int)n->len + 1 : t->size);
	else if (n && pi >= 0)
		int_name(p, pi, n, t->sign, buf);
	else
		return t->sign ? "int64" : "unsigned int64";
	return buf;
}

/* lhs is assigned v (an aggregation agg, or a value: rhs) */
static int set_agg(struct bt_prog *p, const struct node *lhs, const struct node *rhs, struct bt_map *m, enum bt_agg agg,
		   struct bt_type v)
{
	char msg[200], a[24], b[24];
	struct bt_type had = m->val;

	if ((int)m->agg < 0) {
		m->agg = agg;
		m->val = v;
		m->val_size = agg == AG_AVG || agg == AG_STATS ? 16 : agg == AG_VALUE ? (bt_type_size(&v) + 7) & ~7 : 8;
		return 0;
	}
	if (m->agg == agg && (agg != AG_VALUE || same_type(&m->val, &v))) {
		if (agg == AG_VALUE && bt_merge_type(p, &m->val, &v) == 0) {
			m->val_size = (bt_type_size(&m->val) + 7) & ~7;
			return 0;
		}
		if (agg != AG_VALUE)
			return 0;
	}
	if (agg)
		v.agg = (uint8_t)agg;
	if (m->agg)
		had.agg = (uint8_t)m->agg;
	/* (0.17 leaves the last quote out) */
	snprintf(msg, sizeof(msg), "Type mismatch for %s: trying to assign value of type '%s' when map already contains a value of type '%s",
		 m->name, val_name(p, -1, agg ? NULL : rhs, &v, a), val_name(p, -1, NULL, &had, b));
	return cfail(p, lhs, msg);
}

static int64_t num_arg(const struct node *n, bool *ok)
{
	if (n && n->kind == N_NUM) {
		*ok = true;
		return (int64_t)n->num;
	}
	if (n && n->kind == N_UNARY && n->op == '-' && n->a->kind == N_NUM) {
		*ok = true;
		return -(int64_t)n->a->num;
	}
	*ok = false;
	return 0;
}

/* A map assigned an aggregation: count(), hist(x)... */
static int assign_agg(struct bt_prog *p, int pi, const struct loc *l, const struct node *lhs, const struct node *call)
{
	static const struct { const char *f; enum bt_agg agg; int args; } aggs[] = {
		{ "count", AG_COUNT, 0 }, { "sum", AG_SUM, 1 }, { "min", AG_MIN, 1 }, { "max", AG_MAX, 1 },
		{ "avg", AG_AVG, 1 }, { "stats", AG_STATS, 1 }, { "hist", AG_HIST, 1 }, { "lhist", AG_LHIST, 4 },
	};
	struct bt_map *m = get_map(p, map_name(lhs));
	struct bt_type v = { .vt = VT_INT, .sign = true, .size = 8 };

	for (size_t i = 0; i < ARRAY_SIZE(aggs); i++) {
		char msg[120];

		if (strcmp(call->str, aggs[i].f))
			continue;
		if (nargs(call) != aggs[i].args) {
			snprintf(msg, sizeof(msg), "%s() requires %d argument%s (%d provided)", aggs[i].f, aggs[i].args,
				 aggs[i].args == 1 ? "" : "s", nargs(call));
			return cfail(p, call, msg);
		}
		if (call->a && (v.agg = bt_type_of(p, pi, l, call->a).agg)) {
			snprintf(msg, sizeof(msg), "%s() only supports integer arguments (%s provided)", aggs[i].f, agg_word[v.agg]);
			return cfail(p, call, msg);
		}
		/* count() is a uint64; sum() has its argument's sign */
		v.sign = aggs[i].agg == AG_SUM ? bt_type_of(p, pi, l, call->a).sign : aggs[i].agg != AG_COUNT;
		bool had = (int)m->agg == AG_LHIST;
		int64_t lo = m->lmin, hi = m->lmax, step = m->lstep;

		if (map_keys(p, pi, l, lhs, m) < 0 || set_agg(p, lhs, call, m, aggs[i].agg, v) < 0)
			return -EINVAL;
		if (aggs[i].agg == AG_HIST || aggs[i].agg == AG_LHIST)
			m->key_size = (m->nkeys ? m->key_size : 0) + 8;
		if (aggs[i].agg == AG_LHIST) {
			bool a, b, c;
			const struct node *x = call->a->next;

			m->lmin = num_arg(x, &a);
			m->lmax = num_arg(x->next, &b);
			m->lstep = num_arg(x->next->next, &c);
			if (!a || !b || !c)
				return cfail(p, call, "lhist() expects integer literals for min, max and step");
			/* 0.17's checks, each its error */
			{
				int64_t r = m->lmax - m->lmin, st = m->lstep;
				const struct { bool on; const char *f; int64_t a, b; } e[] = {
					{ st <= 0, "step must be >= 1 (%lld provided)", st, 0 },
					{ st > 0 && r / st > 1000, "too many buckets, must be <= 1000 (would need %lld)", st > 0 ? r / st : 0, 0 },
					{ m->lmin < 0, "min must be non-negative (provided min %lld)", m->lmin, 0 },
					{ r < 0, "min must be less than max (provided min %lld and max %lld)", m->lmin, m->lmax },
					{ r < st, "step is too large for the given range (provided step %lld for range %lld)", st, r },
				};

				for (size_t k = 0; k < ARRAY_SIZE(e); k++)
					if (e[k].on) {
						strcpy(msg, "lhist() ");
						snprintf(msg + 8, sizeof(msg) - 8, e[k].f, (long long)e[k].a, (long long)e[k].b);
						err_at(p, call->pos, call->end, msg);
					}
			}
			if (had && (lo != m->lmin || hi != m->lmax || step != m->lstep) && !nerrs)
				return cfail(p, call, "Different lhist bounds in a single map unsupported");
		}
		return 0;
	}
	return GEN_EXT_PASS;
}

static int add_action(struct bt_prog *p, enum bt_act kind)
{
	struct bt_action *a;

	p->acts = xrealloc(p->acts, (size_t)(p->nacts + 1) * sizeof(*p->acts));
	a = &p->acts[p->nacts];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->map = -1;
	a->size = 8;
	return p->nacts++;
}

/* The conversions of a printf format: how many, and which want strings. */
static int printf_convs(const char *f, char *kinds, int max)
{
	int n = 0;

	for (size_t i = 0; f[i]; i++) {
		if (f[i] != '%')
			continue;
		if (f[i + 1] == '%') {
			i++;
			continue;
		}
		i++;
		while (f[i] && strchr("-+ #0", f[i]))
			i++;
		while (f[i] >= '0' && f[i] <= '9')
			i++;
		if (f[i] == '.')
			for (i++; f[i] >= '0' && f[i] <= '9'; i++)
				;
		while (f[i] && strchr("hlzjt", f[i]))
			i++;
		if (!f[i] || !strchr("diuxXocspr", f[i]))
			return -1;
		if (n < max)
			kinds[n] = f[i];
		if (f[i] == 'r' && (f[i + 1] == 'x' || f[i + 1] == 'h'))
			i++; /* %rx: every byte as \xNN; %rh: hex bytes */
		n++;
	}
	return n;
}

/* A function whose integer value a statement may drop (0.17 runs
 * `strncmp(a, b, n);` as such), not an action. */
bool bt_value_call(const char *s);
bool bt_value_call(const char *s)
{
	return !strcmp(s, "strncmp") || !strcmp(s, "bswap") || !strcmp(s, "kaddr") || !strcmp(s, "ksym") ||
	       !strcmp(s, "strerror") || !strcmp(s, "sizeof");
}

static int check_call_stmt(struct bt_prog *p, int pi, const struct loc *l, struct node *c)
{
	int k = nargs(c);
	char msg[160];

	if (!strcmp(c->str, "printf") || !strcmp(c->str, "system") || !strcmp(c->str, "cat")) {
		char kinds[64];
		int conv, act, off = 8;
		struct bt_action *a;
		struct node *arg;

		if (c->str[0] == 's' && !p->unsafe)
			return cfail(p, c, "system() is an unsafe function being used in safe mode");
		if (!c->a || c->a->kind != N_STR) {
			int vt = c->a ? bt_type_of(p, pi, l, c->a).vt : VT_STR;

			snprintf(msg, sizeof(msg), "%s() expects a string literal (%s provided)", c->str,
				 vt == VT_INT ? "integer" : vt == VT_AGG ? "tuple" : "string");
			return cfail(p, c, msg);
		}
		conv = printf_convs(c->a->str, kinds, 64);
		if (conv < 0)
			return cfail(p, c->a, "printf: Invalid format string");
		if (conv != k - 1) {
			snprintf(msg, sizeof(msg), "%s: %s arguments for format string (%d supplied, %d expected)", c->str,
				 conv > k - 1 ? "Not enough" : "Too many", k - 1, conv);
			return cfail(p, c, msg);
		}
		if (conv > 32)
			return cfail(p, c, "printf: too many arguments (at most 32)");
		/* cat(FMT, ...): the file's name formatted as printf's */
		act = add_action(p, c->str[0] == 's' ? BA_SYSTEM : c->str[0] == 'c' ? BA_CAT : BA_PRINTF);
		a = &p->acts[act];
		a->fmt = xstrdup(c->a->str);
		a->nargs = conv;
		a->args = xcalloc((size_t)conv + 1, sizeof(*a->args));
		a->off = xcalloc((size_t)conv + 1, sizeof(*a->off));
		arg = c->a->next;
		for (int i = 0; i < conv; i++, arg = arg->next) {
			a->args[i] = bt_type_of(p, pi, l, arg);
			if (kinds[i] == 's' && a->args[i].vt == VT_INT &&
			    (arg->kind == N_MEMBER || (arg->kind == N_INDEX && !is_map(arg)))) {
				/* a char array or char * member (BTF knows; the code
				 * generator checks): read as a string */
				a->args[i].vt = VT_STR;
				a->args[i].size = (uint16_t)p->strlen;
			}
			{
				/* what the conversion takes, in 0.17's words: %s any
				 * text (stacks, symbols, addresses print as text) but
				 * not a plain integer, tuple, buffer or aggregation, %r a
				 * buffer, the others an integer */
				int vt = a->args[i].vt, agg = a->args[i].agg;
				const char *want = kinds[i] == 's' ? "string" : kinds[i] == 'r' ? "buffer" : "integer";
				const char *have = agg ? agg_word[agg] : vt == VT_INT ? "integer" : vt == VT_BUF ? "buffer"
								     : vt == VT_AGG ? "tuple" : "string";

				if (strcmp(want, have) && (kinds[i] != 's' || vt == VT_BUF || vt == VT_INT || vt == VT_AGG || agg)) {
					snprintf(msg, sizeof(msg), "%s: %%%c specifier expects a value of type %s (%s supplied)",
						 c->str, kinds[i], want, have);
					return cfail(p, c, msg);
				}
			}
			if (arg->kind == N_STR && (int)arg->len + 1 > a->args[i].size && arg->len < 1024)
				a->args[i].size = (uint16_t)((arg->len + 8) & ~7u); /* a literal keeps its length */
			a->off[i] = off;
			off += (bt_type_size(&a->args[i]) + 7) & ~7;
		}
		a->size = off;
		c->num = (uint64_t)act; /* the codegen finds its action here */
		if (off > p->max_rec)
			p->max_rec = off;
		return 0;
	}
	if (!strcmp(c->str, "join")) {
		int act;

		if (k < 1 || k > 2 || (k == 2 && c->a->next->kind != N_STR))
			return cfail(p, c, "join() takes an array of strings and an optional delimiter literal");
		act = add_action(p, BA_JOIN);
		p->acts[act].fmt = xstrdup(k == 2 ? c->a->next->str : " ");
		p->acts[act].size = 16 + BT_JOIN_MAX * p->strlen;
		if (p->acts[act].size > p->max_rec)
			p->max_rec = p->acts[act].size;
		c->num = (uint64_t)act;
		return 0;
	}
	if (!strcmp(c->str, "exit") || !strcmp(c->str, "time")) {
		int act = add_action(p, c->str[0] == 'e' ? BA_EXIT : BA_TIME);

		if (c->str[0] == 't')
			p->acts[act].fmt = xstrdup(k && c->a->kind == N_STR ? c->a->str : "%H:%M:%S\n");
		c->num = (uint64_t)act;
		return 0;
	}
	if (!strcmp(c->str, "print") || !strcmp(c->str, "clear") || !strcmp(c->str, "zero")) {
		int act;
		bool ok;

		if (c->str[0] == 'p' && k && (!is_map(c->a) || c->a->kind == N_INDEX)) {
			/* print(VALUE): a record of the value, printed as 0.17 */
			struct bt_action *a;

			if (k > 1) {
				snprintf(msg, sizeof(msg), "Non-map print() only takes 1 argument, %d found", k);
				return cfail(p, c, msg);
			}
			act = add_action(p, BA_PRINT);
			a = &p->acts[act];
			a->nargs = 1;
			a->args = xcalloc(1, sizeof(*a->args));
			a->off = xcalloc(1, sizeof(*a->off));
			a->args[0] = bt_type_of(p, pi, l, c->a);
			if (c->a->kind == N_STR && (int)c->a->len + 1 > a->args[0].size && c->a->len < 1024)
				a->args[0].size = (uint16_t)((c->a->len + 8) & ~7u);
			a->off[0] = 8;
			a->size = 8 + ((bt_type_size(&a->args[0]) + 7) & ~7);
			if (a->size > p->max_rec)
				p->max_rec = a->size;
			c->num = (uint64_t)act;
			return 0;
		}
		if (!k) {
			snprintf(msg, sizeof(msg), "%s() requires at least one argument (0 provided)", c->str);
			return cfail(p, c, msg);
		}
		if (!is_map(c->a) || c->a->kind != N_IDENT) {
			snprintf(msg, sizeof(msg), "%s() expects a map to be provided", c->str);
			return cfail(p, c, msg);
		}
		act = add_action(p, c->str[0] == 'p' ? BA_PRINT : c->str[0] == 'c' ? BA_CLEAR : BA_ZERO);
		p->acts[act].map = (int)(get_map(p, c->a->str) - p->maps);
		if (k > 1 && p->maps[p->acts[act].map].agg == AG_STATS && p->file)
			bt_report_kind(stderr, p->file, p->text, c->pos, c->end, "WARNING",
				       "print()'s top and div arguments are ignored when used on stats() maps.");
		p->acts[act].top = k > 1 ? (int)num_arg(c->a->next, &ok) : 0;
		p->acts[act].div = k > 2 ? (int)num_arg(c->a->next->next, &ok) : 0;
		c->num = (uint64_t)act;
		return 0;
	}
	if (!strcmp(c->str, "signal")) {
		/* signal(NAME or N) to the current task (bpf_send_signal), as
		 * 0.17: not from BEGIN/END, only with --unsafe, 1..64 */
		static const char names[] = " HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT"
					    " CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS ";

		for (int i = 0; i < p->p[pi].nap; i++)
			if (!strcmp(p->p[pi].ap[i].text, "BEGIN") || !strcmp(p->p[pi].ap[i].text, "END")) {
				snprintf(msg, sizeof(msg), "signal can not be used with \"%s\" probes", p->p[pi].ap[i].text);
				return cfail(p, c, msg);
			}
		if (!p->unsafe)
			return cfail(p, c, "signal() is an unsafe function being used in safe mode");
		if (k != 1)
			return cfail(p, c, "signal() takes 1 argument: a signal name or number");
		if (c->a->kind == N_STR) {
			const char *nm = c->a->str + (strncmp(c->a->str, "SIG", 3) ? 0 : 3), *f;
			char w[16];
			int sig = 1;

			snprintf(w, sizeof(w), " %s ", nm);
			f = *nm && strlen(nm) < 8 ? strstr(names, w) : NULL;
			if (!f) {
				snprintf(msg, sizeof(msg), "%.60s is not a valid signal", c->a->str);
				return cfail(p, c, msg);
			}
			for (const char *x = names; x < f; x++)
				sig += *x == ' ';
			free(c->a->str);
			c->a->str = NULL;
			c->a->kind = N_NUM;
			c->a->num = (uint64_t)sig;
		} else if (c->a->kind == N_NUM && (c->a->num < 1 || c->a->num > 64)) {
			snprintf(msg, sizeof(msg), "%lld is not a valid signal, allowed range: [1,64]", (long long)c->a->num);
			return cfail(p, c, msg);
		}
		return 0;
	}
	if (!strcmp(c->str, "delete")) {
		struct bt_map *m;

		if (!k || !is_map(c->a))
			return cfail(p, c, "delete() expects a map to be provided");
		if (k > 1 && c->a->kind == N_IDENT) { /* delete(@m, key): today's spelling */
			struct node *idx = xcalloc(1, sizeof(*idx));

			idx->kind = N_INDEX;
			idx->pos = c->a->pos;
			idx->end = c->end;
			idx->a = c->a;
			idx->b = c->a->next;
			c->a->next = NULL;
			c->a = idx;
		}
		m = get_map(p, map_name(c->a));
		return m->nkeys < 0 ? 0 : map_keys(p, pi, l, c->a, m);
	}
	snprintf(msg, sizeof(msg), "Unknown function: %s", c->str);
	cfail(p, c, msg);
	p->errend = c->pos + (int)strlen(c->str); /* the name, as bpftrace marks it */
	return -EINVAL;
}

/* x++ with x a count()... value: 0.17's error over "x++" (or "++") */
static void incdec_agg(struct bt_prog *p, const struct bt_stmt *s, int agg)
{
	agg_err(p, unop_err, 2, s->op_pos, agg_word[agg], NULL, s->op_pos < s->lhs->pos ? s->op_pos : s->lhs->pos, s->op_pos + 2);
}

static int check_stmts(struct bt_prog *p, int pi, const struct loc *l, struct bt_stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == BS_UNROLL && s->op < 0) { /* unroll($N) */
			int k = -s->op;
			long n = k <= p->nparams ? strtol(p->params[k - 1], NULL, 0) : 0;

			if (n < 1 || n > 100) {
				const char *cl = p->text ? strchr(p->text + s->pos, ')') : NULL; /* 0.17 marks unroll($N) */
				struct node at = { .pos = s->pos, .end = cl ? (int)(cl - p->text) + 1 : s->pos + 6 };

				return cfail(p, &at, n < 1 ? "unroll minimum value is 1" : "unroll maximum value is 100");
			}
			s->op = (int)n;
		}
		if (s->kind == BS_IF || s->kind == BS_UNROLL || s->kind == BS_WHILE) {
			if (check_stmts(p, pi, l, s->body) < 0 || check_stmts(p, pi, l, s->els) < 0)
				return -EINVAL;
			continue;
		}
		if (s->kind == BS_EXPR) {
			if (s->lhs->kind != N_CALL || bt_value_call(s->lhs->str))
				continue; /* a value computed for nothing: compiled, dropped */
			if (check_call_stmt(p, pi, l, s->lhs) < 0)
				return -EINVAL;
			continue;
		}
		if (is_map(s->lhs)) {
			struct bt_map *m;
			struct bt_type v = { .vt = VT_INT, .sign = true, .size = 8 };
			int r;

			if (s->rhs && s->rhs->kind == N_CALL && s->op == OP_ASSIGN &&
			    (r = assign_agg(p, pi, l, s->lhs, s->rhs)) != GEN_EXT_PASS) {
				if (r < 0)
					return r;
				continue;
			}
			m = get_map(p, map_name(s->lhs));
			if ((s->op == OP_INC || s->op == OP_DEC) && ((int)m->agg > AG_VALUE || m->val.agg))
			{
				incdec_agg(p, s, (int)m->agg > AG_VALUE ? (int)m->agg : m->val.agg);
				continue;
			}
			if (s->op == OP_ASSIGN)
				v = bt_type_of(p, pi, l, s->rhs);
			else /* @x -= 1 first: 0.17 types @x = @x - 1 with @x unknown (unsigned) */
				v.sign = s->op == OP_INC || s->op == OP_DEC || (int)m->agg > AG_VALUE;
			if (v.vt == VT_KSTACK || v.vt == VT_USTACK)
				return cfail(p, s->rhs, "a stack can only be a map key");
			if (map_keys(p, pi, l, s->lhs, m) < 0 || set_agg(p, s->lhs, s->rhs, m, AG_VALUE, v) < 0)
				return -EINVAL;
			continue;
		}
		if (s->lhs->kind == N_IDENT && s->lhs->str[0] == '$' && !(s->lhs->str[1] >= '0' && s->lhs->str[1] <= '9')) {
			struct bt_type v = { .vt = VT_INT, .sign = true, .size = 8 };
			struct bt_var *var = bt_find_var(p, pi, s->lhs->str);

			if (s->op == OP_ASSIGN)
				v = bt_type_of(p, pi, l, s->rhs);
			else if (var && var->t.agg && (s->op == OP_INC || s->op == OP_DEC))
			{
				incdec_agg(p, s, var->t.agg);
				continue;
			}
			else if (!var) { /* `$x++`, `$x -= 1` read $x first */
				char msg[160];

				snprintf(msg, sizeof(msg), "Undefined or undeclared variable: %s", s->lhs->str);
				return cfail(p, s->lhs, msg);
			}
			if (v.vt == VT_KSTACK || v.vt == VT_USTACK)
				return cfail(p, s->rhs, "a stack can only be a map key");
			if (var && (!same_type(&var->t, &v) || bt_merge_type(p, &var->t, &v) < 0)) {
				char msg[200], vw[24];

				/* a string as 0.17 sizes it: string[N], a literal its bytes and NUL */
				if (v.vt == VT_STR)
					snprintf(vw, sizeof(vw), "string[%d]", s->rhs->kind == N_STR ? (int)s->rhs->len + 1 : v.size);
				else
					snprintf(vw, sizeof(vw), "%s", type_word(&v));
				snprintf(msg, sizeof(msg), "Type mismatch for %s: trying to assign value of type '%s' when variable already contains a value of type '%s'",
					 var->name, vw, type_word(&var->t));
				cfail(p, s->lhs, msg);
				p->errpos = s->op_pos; /* bpftrace points at the '=' */
				p->errend = s->op_pos + 1;
				return -EINVAL;
			}
			if (!var) {
				p->vars = xrealloc(p->vars, (size_t)(p->nvars + 1) * sizeof(*p->vars));
				var = &p->vars[p->nvars++];
				var->name = xstrdup(s->lhs->str);
				var->probe = pi;
				var->t = v;
				memset(&var->ct, 0, sizeof(var->ct));
				if (s->op == OP_ASSIGN && !bt_ctype_of(p, pi, s->rhs, &var->ct))
					memset(&var->ct, 0, sizeof(var->ct));
			}
			continue;
		}
		return cfail(p, s->lhs, "only maps (@x) and variables ($x) can be assigned");
	}
	return 0;
}

/* 0.17's warnings on integer operands of different signs (a literal >= 0
 * takes the other side's sign) and on signed ones for / and %. */
static bool lit_nonneg(const struct bt_prog *p, const struct node *n)
{
	int k = n->kind == N_IDENT && n->str[0] == '$' ? atoi(n->str + 1) : 0;

	if (n->kind == N_NUM)
		return n->num <= INT64_MAX;
	if (n->kind == N_IDENT && n->str[0] != '$' && n->str[0] != '@') {
		/* a #define, macro or enumerator: 0.17 has its value there */
		for (int i = 0; i < p->ndefs; i++)
			if (!strcmp(p->def_names[i], n->str))
				return p->def_vals[i] >= 0;
		return true;
	}
	return k > 0 && (k > p->nparams || strtoll(p->params[k - 1], NULL, 0) >= 0);
}

/* p->q that 0.17 finds no type for (no such member): its error, no warning */
static bool untyped(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	struct ctype ct;

	return n->kind == N_MEMBER && n->op == '>' && !(l && tp_field(&l->fmt, n->str)) && !bt_ctype_of(p, pi, n, &ct);
}

static void int_name(struct bt_prog *p, int pi, const struct node *n, bool sign, char *buf)
{
	struct ctype ct;
	int bits = bt_ctype_of(p, pi, n, &ct) && ct.base == CT_INT && !ct.ptr && !ct.arr ? (int)ct.size * 8 : 64;

	sprintf(buf, "%sint%d", sign ? "" : "unsigned ", bits);
}

static void sign_warn(struct bt_prog *p, int pi, const struct loc *l, int op, const struct node *a,
		      const struct node *b, int pos, int end)
{
	struct bt_type ta = bt_type_of(p, pi, l, a), tb = bt_type_of(p, pi, l, b);
	bool ls = ta.sign, rs = tb.sign, cmp = op == '<' || op == '>' || (op >= OP_EQ && op <= OP_GE);
	char msg[160], an[24], bn[24];

	if (ta.vt != VT_INT || tb.vt != VT_INT || ta.ptr || tb.ptr || ta.agg || tb.agg || !p->file || untyped(p, pi, l, a) ||
	    untyped(p, pi, l, b))
		return;
	if (ls != rs) {
		if (ls && lit_nonneg(p, a))
			ls = false;
		else if (rs && lit_nonneg(p, b))
			rs = false;
		else if (cmp || strchr("+-*/%", op)) {
			int_name(p, pi, a, ta.sign, an);
			int_name(p, pi, b, tb.sign, bn);
			snprintf(msg, sizeof(msg), "%s integers of different signs: '%s' and '%s' can lead to undefined behavior",
				 cmp ? "comparison of" : "arithmetic on", an, bn);
			bt_report_kind(stderr, p->file, p->text, pos, end, "WARNING", msg);
		}
	}
	if ((op == '/' || op == '%') && ((ls && !lit_nonneg(p, a)) || (rs && !lit_nonneg(p, b)))) {
		snprintf(msg, sizeof(msg), "signed operands for '%c' can lead to undefined behavior (cast to unsigned to silence warning)", op);
		bt_report_kind(stderr, p->file, p->text, pos, end, "WARNING", msg);
	}
}

/* Every binary operation under n (and n's siblings), operands first. */
static void warn_nodes(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	for (; n; n = n->next) {
		if (n->a)
			warn_nodes(p, pi, l, n->a);
		if (n->b)
			warn_nodes(p, pi, l, n->b);
		if (n->c)
			warn_nodes(p, pi, l, n->c);
		if (n->kind == N_BINARY && n->op < 128)
			sign_warn(p, pi, l, n->op, n->a, n->b, n->pos, n->pos + 1);
		else if (n->kind == N_BINARY)
			sign_warn(p, pi, l, n->op, n->a, n->b, n->pos, n->pos + 2);
	}
}

static void warn_stmts(struct bt_prog *p, int pi, const struct loc *l, const struct bt_stmt *s)
{
	static const char ops[] = "+-*/%";

	for (; s; s = s->next) {
		if (s->lhs)
			warn_nodes(p, pi, l, s->lhs);
		if (s->rhs)
			warn_nodes(p, pi, l, s->rhs);
		/* x OP= y: 0.17 checks x OP y, at the operator */
		if (s->kind == BS_ASSIGN && s->rhs && s->op >= OP_ADD_ASSIGN && s->op <= OP_MOD_ASSIGN)
			sign_warn(p, pi, l, ops[s->op - OP_ADD_ASSIGN], s->lhs, s->rhs, s->op_pos, s->op_pos + 2);
		warn_stmts(p, pi, l, s->body);
		warn_stmts(p, pi, l, s->els);
	}
}

/* A count(), sum()... value (0.17 types it so) in an operation or a
 * condition: 0.17's errors, all of them, in its order (operands first). */

static void agg_nodes(struct bt_prog *p, int pi, const struct loc *l, const struct node *n)
{
	for (; n; n = n->next) {
		const struct node *x;
		struct bt_type a, b = { 0 };
		char ab[24], bb[24];
		const char *an, *bn = "";
		int ol = n->op < 128 ? 1 : 2, begin;

		agg_nodes(p, pi, l, n->a);
		agg_nodes(p, pi, l, n->b);
		agg_nodes(p, pi, l, n->c);
		if (!n->a)
			continue;
		a = bt_type_of(p, pi, l, n->a);
		if (n->b && (n->kind == N_BINARY || n->kind == N_COND)) {
			b = bt_type_of(p, pi, l, n->b);
			bn = val_name(p, pi, n->b, &b, bb);
		}
		for (x = n->a; (x->kind == N_BINARY || x->kind == N_COND || x->kind == N_INDEX) && x->a; x = x->a)
			; /* 0.17 marks from the left operand's start */
		begin = x->pos;
		an = val_name(p, pi, n->a, &a, ab);
		if (n->kind == N_BINARY && (a.agg || b.agg) && !a.ptr && !b.ptr) {
			if (a.agg != b.agg || a.vt != b.vt)
				agg_err(p, "Type mismatch for '%.*s': comparing '%s' with '%s'", ol, n->pos, an, bn, begin, n->end);
			else if (n->op != OP_EQ && n->op != OP_NE)
				agg_err(p, "The %.*s operator can not be used on expressions of types %s, %s", ol, n->pos, an, bn,
					n->pos, n->pos + ol);
		} else if (n->kind == N_UNARY && n->op != '&' && a.agg) {
			agg_err(p, unop_err, 1, n->pos, an, NULL, n->pos, n->pos + 1);
		} else if (n->kind == N_CAST && a.agg) {
			agg_err(p, "%.*sCasts are not supported for type: \"%s\"", 0, 0, an, NULL, n->pos, n->a->pos);
		} else if (n->kind == N_COND && (a.agg || b.agg)) {
			agg_err(p, b.agg ? "%.*sTernary return type unsupported %s" : "%.*sInvalid condition in ternary: %s", 0, 0,
				b.agg ? bn : an, NULL, begin, n->end);
		}
	}
}

static void agg_stmts(struct bt_prog *p, int pi, const struct loc *l, const struct bt_stmt *s)
{
	for (; s; s = s->next) {
		int agg = s->kind == BS_IF ? bt_type_of(p, pi, l, s->lhs).agg : 0;

		agg_nodes(p, pi, l, s->lhs);
		agg_nodes(p, pi, l, s->rhs);
		if (agg) { /* 0.17's if has no location: line 1, nothing marked */
			nerrs++;
			fprintf(stderr, "%s:1:1-1: ERROR: Invalid condition in if(): %s\n%.*s\n\n", p->file, agg_word[agg],
				(int)strcspn(p->text, "\n"), p->text);
		}
		agg_stmts(p, pi, l, s->body);
		agg_stmts(p, pi, l, s->els);
	}
}

/* args.field (0.19+) is args->field (0.17): one spelling for the codegen. */
static void arrows(struct node *n)
{
	for (; n; n = n->next) {
		if (n->kind == N_MEMBER && n->op == '.' && n->a->kind == N_IDENT && !strcmp(n->a->str, "args"))
			n->op = '>';
		arrows(n->a);
		arrows(n->b);
		arrows(n->c);
	}
}

static void arrows_stmts(struct bt_stmt *s)
{
	for (; s; s = s->next) {
		arrows(s->lhs);
		arrows(s->rhs);
		arrows_stmts(s->body);
		arrows_stmts(s->els);
	}
}

int bt_check(struct bt_prog *p, const struct loc *const *locs)
{
	nerrs = 0;
	if (bt_declare_types(p) < 0)
		return -EINVAL;
	for (int pi = 0; pi < p->np; pi++) {
		arrows(p->p[pi].pred);
		arrows_stmts(p->p[pi].body);
		if (bt_check_nargs(p, pi) < 0)
			return -EINVAL;
		if (check_stmts(p, pi, locs[pi], p->p[pi].body) < 0)
			return -EINVAL;
	}
	for (int pi = 0; pi < p->np; pi++) {
		if (p->p[pi].pred)
			warn_nodes(p, pi, locs[pi], p->p[pi].pred);
		warn_stmts(p, pi, locs[pi], p->p[pi].body);
	}
	for (int pi = 0; pi < p->np && p->file; pi++) {
		const struct node *c = p->p[pi].pred;
		int agg = c ? bt_type_of(p, pi, locs[pi], c).agg : 0;

		agg_nodes(p, pi, locs[pi], c);
		if (agg) /* /@c/: marked with its closing '/' */
			agg_err(p, "%.*sInvalid type for predicate: %s", 0, 0, agg_word[agg], NULL, c->pos, c->end + 1);
		agg_stmts(p, pi, locs[pi], p->p[pi].body);
	}
	if (nerrs) {
		p->errpos = -2; /* printed */
		return err_set(EINVAL, "%s", "type errors");
	}
	for (int i = 0; i < p->nmaps; i++) {
		struct bt_map *m = &p->maps[i];

		if ((int)m->agg < 0 || m->nkeys < 0) {
			char msg[160];

			snprintf(msg, sizeof(msg), "Undefined map: %s", m->name);
			p->errpos = 0;
			p->errend = 1;
			for (int pi = 0; pi < p->np && p->text; pi++) {
				const char *f = strstr(p->text, m->name);

				if (f) {
					p->errpos = (int)(f - p->text);
					p->errend = p->errpos + (int)strlen(m->name);
				}
				break;
			}
			return err_set(EINVAL, "%s", msg);
		}
	}
	return 0;
}
