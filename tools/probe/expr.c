/* C expressions and C type names for the probe languages (see expr.h). */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"

/* ---- types ---- */

bool ct_is_ptr(const struct ctype *t) { return !t->arr && t->ptr > 0; }
bool ct_is_scalar(const struct ctype *t) { return !t->arr && (t->ptr > 0 || t->base == CT_INT); }

bool ct_is_string(const struct ctype *t)
{
	return t->base == CT_INT && t->size == 1 && ((t->arr && !t->ptr) || (!t->arr && t->ptr == 1));
}

static uint32_t elem_size(const struct ctype *t)
{
	if (t->ptr)
		return 8;
	if (t->base == CT_INT)
		return t->size;
	if (t->base == CT_REC)
		return t->rec_size;
	return 1; /* void: byte arithmetic, as gcc does */
}

uint32_t ct_size(const struct ctype *t)
{
	return t->arr ? t->arr * (t->arr2 ? t->arr2 : 1) * elem_size(t) : elem_size(t);
}

struct ctype ct_deref(const struct ctype *t)
{
	struct ctype r = *t;

	if (r.arr) {
		r.arr = r.arr2;
		r.arr2 = 0;
	} else if (r.ptr)
		r.ptr--;
	return r;
}

void ct_name(const struct ctype *t, const struct btf *btf, char *buf, size_t size)
{
	char base[128];

	if (t->base == CT_INT)
		snprintf(base, sizeof(base), "%s%d", t->sign ? "s" : "u", t->size * 8);
	else if (t->base == CT_REC && btf)
		snprintf(base, sizeof(base), "struct %s", btf_name(btf, btf_type_by_id(btf, t->btf_id)));
	else
		snprintf(base, sizeof(base), t->base == CT_REC ? "struct" : "void");
	snprintf(buf, size, "%s%s%.*s", base, t->ptr ? " " : "", t->ptr > 8 ? 8 : t->ptr, "********");
	if (t->arr)
		snprintf(buf + strlen(buf), size - strlen(buf), "[%u]", t->arr);
}

static const struct { const char *name; int size; bool sign; } builtin_ints[] = {
	{ "u8", 1, 0 }, { "u16", 2, 0 }, { "u32", 4, 0 }, { "u64", 8, 0 },
	{ "s8", 1, 1 }, { "s16", 2, 1 }, { "s32", 4, 1 }, { "s64", 8, 1 },
	{ "__u8", 1, 0 }, { "__u16", 2, 0 }, { "__u32", 4, 0 }, { "__u64", 8, 0 },
	{ "__s8", 1, 1 }, { "__s16", 2, 1 }, { "__s32", 4, 1 }, { "__s64", 8, 1 },
	{ "uint8_t", 1, 0 }, { "uint16_t", 2, 0 }, { "uint32_t", 4, 0 }, { "uint64_t", 8, 0 },
	{ "int8_t", 1, 1 }, { "int16_t", 2, 1 }, { "int32_t", 4, 1 }, { "int64_t", 8, 1 },
	{ "size_t", 8, 0 }, { "ssize_t", 8, 1 }, { "off_t", 8, 1 }, { "loff_t", 8, 1 },
	{ "pid_t", 4, 1 }, { "uid_t", 4, 0 }, { "gid_t", 4, 0 }, { "bool", 1, 0 }, { "_Bool", 1, 0 },
	{ "umode_t", 2, 0 }, { "mode_t", 4, 0 }, { "dev_t", 4, 0 }, { "gfp_t", 4, 0 },
	{ "uintptr_t", 8, 0 }, { "intptr_t", 8, 1 }, { "time_t", 8, 1 }, { "clockid_t", 4, 1 },
	{ "uint8", 1, 0 }, { "uint16", 2, 0 }, { "uint32", 4, 0 }, { "uint64", 8, 0 },
	{ "int8", 1, 1 }, { "int16", 2, 1 }, { "int32", 4, 1 }, { "int64", 8, 1 },
	{ "socklen_t", 4, 0 }, { "ino_t", 8, 0 }, { "sector_t", 8, 0 }, { "blkcnt_t", 8, 1 },
};

static bool is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Next word of a type name into w; returns the text after it. */
static const char *type_word(const char *p, char *w, size_t size)
{
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	while (is_ident_char((unsigned char)*p) && n + 1 < size)
		w[n++] = *p++;
	w[n] = 0;
	return p;
}

int ctype_from_btf(const struct btf *btf, uint32_t id, struct ctype *out)
{
	const struct btf_type *t;
	int ptr = 0;
	uint32_t arr = 0, arr2 = 0;

	memset(out, 0, sizeof(*out));
	for (int guard = 0; guard < 64; guard++) {
		id = btf_resolve(btf, id, &t);
		if (!t) { /* void */
			out->base = CT_VOID;
			out->ptr = (uint8_t)ptr;
			out->arr = arr;
			out->arr2 = arr2;
			return 0;
		}
		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
			if (ptr >= 8)
				return err_set(EINVAL, "type nests too many pointers");
			ptr++;
			id = t->type;
			continue;
		case BTF_KIND_ARRAY:
			if (arr && !ptr && !arr2) { /* int y[2][3]: two dimensions */
				arr2 = btf_array_info(t)->nelems ? btf_array_info(t)->nelems : 1;
				id = btf_array_info(t)->type;
				continue;
			}
			if (arr || ptr) { /* deeper arrays, pointers to arrays: keep it an opaque block */
				*out = ct_int(1, false);
				out->arr = arr ? arr * (arr2 ? arr2 : 1) : 1;
				out->ptr = (uint8_t)ptr;
				return 0;
			}
			arr = btf_array_info(t)->nelems;
			if (!arr)
				arr = 1;
			id = btf_array_info(t)->type;
			continue;
		case BTF_KIND_INT:
			*out = ct_int(t->size <= 8 ? (int)t->size : 8, (btf_int_encoding(t) & BTF_INT_SIGNED) != 0);
			out->chr = t->size == 1 && (!strcmp(btf_name(btf, t), "char") || !strcmp(btf_name(btf, t), "signed char"));
			if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
				out->size = 8;
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			*out = ct_int(t->size == 8 ? 8 : t->size == 2 ? 2 : t->size == 1 ? 1 : 4, false);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			memset(out, 0, sizeof(*out));
			out->base = CT_REC;
			out->btf_id = id;
			out->rec_size = t->size;
			break;
		case BTF_KIND_FUNC_PROTO:
		case BTF_KIND_FWD:
		default:
			memset(out, 0, sizeof(*out));
			out->base = CT_VOID;
			break;
		}
		out->ptr = (uint8_t)ptr;
		out->arr = arr;
		out->arr2 = arr2;
		return 0;
	}
	return err_set(EINVAL, "BTF type chain too long");
}

static char *const *local_names;
static const uint32_t *local_ids;
static int nlocal;

void ctype_set_local(char *const *names, const uint32_t *ids, int n)
{
	local_names = names;
	local_ids = ids;
	nlocal = n;
}

int32_t ctype_find_rec(const struct btf *btf, const char *name, bool is_union)
{
	for (int i = 0; i < nlocal; i++)
		if (!strcmp(local_names[i], name))
			return (int32_t)local_ids[i];
	return btf ? btf_find(btf, name, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT) : -ENOENT;
}

int ctype_parse(const char *text, const struct btf *btf, struct ctype *out, const char **end)
{
	char w[128], name[128] = "", kw[130] = "";
	const char *p = text, *q;
	int nsigned = -1, nshort = 0, nlong = 0, nchar = 0, nint = 0, nvoid = 0, ptr = 0;
	bool user = false, any = false;

	memset(out, 0, sizeof(*out));
	for (;;) {
		q = type_word(p, w, sizeof(w));
		if (!w[0])
			break;
		if (!strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "restrict") ||
		    !strcmp(w, "__restrict")) {
			p = q;
			continue;
		}
		if (!strcmp(w, "__user")) {
			user = true;
			p = q;
			continue;
		}
		if (!strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum")) {
			snprintf(kw, sizeof(kw), "%s", w);
			q = type_word(q, name, sizeof(name));
			if (!name[0])
				return err_set(EINVAL, "'%s' without a name", w);
			p = q;
			any = true;
			continue;
		}
		if (!strcmp(w, "signed") || !strcmp(w, "unsigned")) nsigned = w[0] == 's';
		else if (!strcmp(w, "short")) nshort++;
		else if (!strcmp(w, "long")) nlong++;
		else if (!strcmp(w, "char")) nchar++;
		else if (!strcmp(w, "int")) nint++;
		else if (!strcmp(w, "void")) nvoid++;
		else if (!any && !name[0] && nsigned < 0 && !nshort && !nlong && !nchar && !nint && !nvoid)
			snprintf(name, sizeof(name), "%s", w); /* a typedef name */
		else
			break; /* a parameter name follows the type */
		any = true;
		p = q;
	}
	while (*p == ' ' || *p == '\t' || *p == '*' || (!strncmp(p, "const", 5) && !is_ident_char((unsigned char)p[5]))) {
		if (*p == '*')
			ptr++;
		p += (*p == 'c') ? 5 : 1;
	}
	if (!any && !name[0])
		return err_set(EINVAL, "expected a type name");
	if (ptr > 8)
		return err_set(EINVAL, "too many pointer levels");
	if (end)
		*end = p;
	if (kw[0]) {
		int32_t id;

		if (!strcmp(kw, "enum")) {
			*out = ct_int(4, false);
		} else {
			id = ctype_find_rec(btf, name, strcmp(kw, "struct"));
			if (id < 0 && !btf)
				return err_set(ENOENT, "%s %s: no kernel BTF to look it up in", kw, name);
			if (id < 0)
				return err_set(ENOENT, "%s %s is not in the kernel's BTF", kw, name);
			if (ctype_from_btf(btf, (uint32_t)id, out) < 0)
				return -EINVAL;
		}
	} else if (name[0]) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(builtin_ints); i++)
			if (!strcmp(builtin_ints[i].name, name))
				break;
		if (i < ARRAY_SIZE(builtin_ints)) {
			*out = ct_int(builtin_ints[i].size, builtin_ints[i].sign);
		} else {
			int32_t id = btf ? btf_find(btf, name, BTF_KIND_TYPEDEF) : -ENOENT;

			if (id < 0)
				return err_set(ENOENT, "unknown type '%s'%s", name, btf ? "" : " (no kernel BTF)");
			if (ctype_from_btf(btf, (uint32_t)id, out) < 0)
				return -EINVAL;
		}
	} else if (nvoid) {
		out->base = CT_VOID;
	} else {
		int size = nchar ? 1 : nshort ? 2 : nlong ? 8 : 4;

		*out = ct_int(size, nchar ? nsigned == 1 : nsigned != 0);
		out->chr = nchar && nsigned != 0;
	}
	out->ptr = (uint8_t)(out->ptr + ptr);
	out->user = user;
	return 0;
}

int ctype_member(const struct btf *btf, const struct ctype *t, const char *name, struct ctype *mt, uint32_t *off,
		 uint32_t *bitoff, uint32_t *bits)
{
	const struct btf_type *st;

	if (t->base != CT_REC || t->ptr || t->arr || !btf)
		return err_set(EINVAL, "'%s': not a struct or union", name);
	st = btf_type_by_id(btf, t->btf_id);
	if (!st)
		return err_set(EINVAL, "bad struct type");
	for (uint32_t i = 0; i < btf_vlen(st); i++) {
		const struct btf_member *m = &btf_members(st)[i];
		const char *mn = btf_str(btf, m->name_off);
		uint32_t bo = btf_member_bit_offset(st, m), bs = btf_member_bitfield_size(st, m);

		if (mn && !*mn) {
			/* anonymous struct/union: look inside */
			struct ctype inner;
			uint32_t o2, b2, s2;

			if (ctype_from_btf(btf, m->type, &inner) == 0 && inner.base == CT_REC && !inner.ptr &&
			    !inner.arr && ctype_member(btf, &inner, name, mt, &o2, &b2, &s2) == 0) {
				*off = bo / 8 + o2;
				*bitoff = b2;
				*bits = s2;
				return 0;
			}
			err_clear();
			continue;
		}
		if (!mn || strcmp(mn, name))
			continue;
		if (ctype_from_btf(btf, m->type, mt) < 0)
			return -EINVAL;
		if (!bs) {
			const struct btf_type *mtt;

			btf_resolve(btf, m->type, &mtt);
			if (mtt && btf_kind(mtt) == BTF_KIND_INT && btf_int_bits(mtt) != mtt->size * 8)
				bs = btf_int_bits(mtt);
		}
		*off = bo / 8;
		*bitoff = bs ? bo % 8 : 0;
		*bits = bs;
		return 0;
	}
	return err_set(ENOENT, "Struct/union of type '%s %s' does not contain a field named '%s'",
		       btf_kind(st) == BTF_KIND_UNION ? "union" : "struct", btf_name(btf, st), name);
}

/* ---- lexer ---- */

enum tok { T_EOF, T_NUM, T_STR, T_IDENT, T_OP };

struct lex {
	const char *s;
	int pos;       /* start of the current token */
	int next;      /* where scanning resumes */
	enum tok tok;
	int op;
	uint64_t num;
	char *str;
	size_t len;
	int errpos;
	bool failed;
	bool bt;       /* EXPR_BT */
	bool pred;     /* EXPR_PRED, and not inside parentheses */
	int prev_end;  /* end of the token consumed last */
};

static int fail_at(struct lex *l, int pos, const char *fmt, const char *what)
{
	if (!l->failed) {
		l->failed = true;
		l->errpos = pos;
		err_set(EINVAL, fmt, what);
	}
	return -1;
}

static void lex_next(struct lex *l)
{
	const char *s = l->s;
	int i = l->next;

	free(l->str);
	l->str = NULL;
	l->prev_end = i;
	for (;;) {
		while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || (l->bt && s[i] == '\r'))
			i++;
		if (l->bt && s[i] == '/' && s[i + 1] == '/') {
			while (s[i] && s[i] != '\n')
				i++;
			continue;
		}
		if (l->bt && s[i] == '/' && s[i + 1] == '*') {
			const char *e = strstr(s + i + 2, "*/");

			i = e ? (int)(e - s) + 2 : (int)strlen(s);
			continue;
		}
		break;
	}
	l->pos = i;
	if (!s[i]) {
		l->tok = T_EOF;
		l->next = i;
		return;
	}
	if (isdigit((unsigned char)s[i])) {
		char *end;

		errno = 0;
		l->num = strtoull(s + i, &end, 0);
		if (errno)
			fail_at(l, i, "number out of range%s", "");
		if (l->bt && (*end == 'e' || *end == 'E') && isdigit((unsigned char)end[1])) {
			/* bpftrace's 1e6: an integer times a power of ten */
			unsigned long long p = strtoull(end + 1, &end, 10);

			for (; p > 0 && !errno && l->num; p--) { /* 0e99999999999: 0 at once */
				if (l->num > UINT64_MAX / 10)
					errno = ERANGE;
				l->num *= 10;
			}
			if (errno)
				fail_at(l, i, "number out of range%s", "");
		}
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (is_ident_char((unsigned char)*end))
			fail_at(l, (int)(end - s), "bad number%s", "");
		l->tok = T_NUM;
		l->next = (int)(end - s);
		return;
	}
	if (is_ident_char((unsigned char)s[i]) || (l->bt && s[i] == '@')) {
		int j = i + 1;

		if (l->bt && s[i] == '$' && s[j] == '#')
			j++; /* $#: the number of positional parameters */
		else
			while (is_ident_char((unsigned char)s[j]))
				j++;
		l->tok = T_IDENT;
		l->str = xmalloc((size_t)(j - i) + 1);
		memcpy(l->str, s + i, (size_t)(j - i));
		l->str[j - i] = 0;
		l->next = j;
		return;
	}
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];
		size_t n = 0;
		int j = i + 1;

		l->str = xmalloc(strlen(s + i) + 1);
		while (s[j] && s[j] != q) {
			char c = s[j++];

			if (c == '\\' && s[j]) {
				c = s[j++];
				switch (c) {
				case 'n': c = '\n'; break;
				case 't': c = '\t'; break;
				case 'r': c = '\r'; break;
				case 'x': {
					int v = 0, k = 0;

					while (k < 2 && isxdigit((unsigned char)s[j])) {
						v = v * 16 + (isdigit((unsigned char)s[j]) ? s[j] - '0' : (s[j] | 0x20) - 'a' + 10);
						j++;
						k++;
					}
					c = (char)v;
					break;
				}
				default:
					if (c >= '0' && c <= '7') { /* \0, \101: up to 3 octal digits, as C */
						int v = c - '0';

						for (int k = 1; k < 3 && s[j] >= '0' && s[j] <= '7'; k++)
							v = v * 8 + s[j++] - '0';
						c = (char)v;
					}
				}
			}
			l->str[n++] = c;
		}
		if (s[j] != q) {
			fail_at(l, i, "unterminated %s", q == '"' ? "string" : "character");
			l->tok = T_EOF;
			l->next = j;
			return;
		}
		l->str[n] = 0;
		l->len = n;
		l->next = j + 1;
		if (q == '\'') {
			l->tok = T_NUM;
			l->num = n ? (unsigned char)l->str[0] : 0;
			free(l->str); /* a number token owns no text ($t.'a' would overwrite it) */
			l->str = NULL;
			return;
		}
		l->tok = T_STR;
		return;
	}
	{
		static const struct { const char *t; int op; } two[] = {
			{ "==", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE }, { "&&", OP_AND },
			{ "||", OP_OR }, { "<<", OP_SHL }, { ">>", OP_SHR }, { "->", '>' + 1000 },
		};

		static const struct { const char *t; int op; } bt_ops[] = {
			{ "<<=", OP_SHL_ASSIGN }, { ">>=", OP_SHR_ASSIGN }, { "++", OP_INC }, { "--", OP_DEC },
			{ "+=", OP_ADD_ASSIGN }, { "-=", OP_SUB_ASSIGN }, { "*=", OP_MUL_ASSIGN }, { "/=", OP_DIV_ASSIGN },
			{ "%=", OP_MOD_ASSIGN }, { "&=", OP_AND_ASSIGN }, { "|=", OP_OR_ASSIGN }, { "^=", OP_XOR_ASSIGN },
		};

		for (size_t k = 0; l->bt && k < ARRAY_SIZE(bt_ops); k++)
			if (!strncmp(s + i, bt_ops[k].t, strlen(bt_ops[k].t))) {
				l->tok = T_OP;
				l->op = bt_ops[k].op;
				l->next = i + (int)strlen(bt_ops[k].t);
				return;
			}
		for (size_t k = 0; k < ARRAY_SIZE(two); k++)
			if (!strncmp(s + i, two[k].t, 2)) {
				l->tok = T_OP;
				l->op = two[k].op;
				l->next = i + 2;
				return;
			}
		if (l->bt && s[i] == '=') {
			l->tok = T_OP;
			l->op = OP_ASSIGN;
			l->next = i + 1;
			return;
		}
		if (strchr("+-*/%&|^~!<>()[].?:,", s[i]) || (l->bt && strchr(";{}", s[i]))) {
			l->tok = T_OP;
			l->op = s[i];
			l->next = i + 1;
			return;
		}
	}
	fail_at(l, i, "unexpected character%s", "");
	l->tok = T_EOF;
	l->next = i;
}

#define OP_ARROW ('>' + 1000)

static struct node *mk(enum node_kind k, int pos)
{
	struct node *n = xcalloc(1, sizeof(*n));

	n->kind = k;
	n->pos = pos;
	return n;
}

void expr_free(struct node *n)
{
	if (!n)
		return;
	expr_free(n->a);
	expr_free(n->b);
	expr_free(n->c);
	expr_free(n->next);
	free(n->str);
	free(n->cast_text);
	free(n);
}

static bool is_op(const struct lex *l, int op) { return l->tok == T_OP && l->op == op; }

static struct node *parse_expr(struct lex *l, int depth);
static struct node *parse_unary(struct lex *l, int depth);

static const char *const type_words[] = {
	"struct", "union", "enum", "unsigned", "signed", "const", "volatile", "char", "short", "int", "long", "void",
};

/* After '(' at l->next: does a type name follow, closed by ')'? */
static int cast_end(const struct lex *l)
{
	const char *s = l->s;
	int i = l->next, words = 0;
	bool typey = false;
	char w[64];

	for (;;) {
		int j;

		while (s[i] == ' ' || s[i] == '\t')
			i++;
		if (s[i] == ')')
			break;
		if (s[i] == '*') {
			i++;
			continue;
		}
		if (!is_ident_char((unsigned char)s[i]) || s[i] == '$')
			return -1;
		j = i;
		while (is_ident_char((unsigned char)s[j]))
			j++;
		snprintf(w, sizeof(w), "%.*s", j - i, s + i);
		for (size_t k = 0; k < ARRAY_SIZE(type_words); k++)
			if (!strcmp(w, type_words[k]))
				typey = true;
		for (size_t k = 0; k < ARRAY_SIZE(builtin_ints); k++)
			if (!strcmp(w, builtin_ints[k].name))
				typey = true;
		if (j - i > 2 && s[j - 2] == '_' && s[j - 1] == 't') /* the word's end: w may be cut */
			typey = true;
		words++;
		i = j;
	}
	if (!words || !typey)
		return -1;
	return i;
}

static struct node *parse_primary(struct lex *l, int depth)
{
	struct node *n;

	if (depth > 200) {
		fail_at(l, l->pos, "expression nests too deeply%s", "");
		return NULL;
	}
	switch (l->tok) {
	case T_NUM:
		n = mk(N_NUM, l->pos);
		n->num = l->num;
		lex_next(l);
		n->end = l->prev_end;
		return n;
	case T_STR:
		n = mk(N_STR, l->pos);
		n->str = l->str;
		n->len = l->len;
		l->str = NULL;
		lex_next(l);
		n->end = l->prev_end;
		return n;
	case T_IDENT:
		n = mk(N_IDENT, l->pos);
		n->str = l->str;
		l->str = NULL;
		lex_next(l);
		if (is_op(l, '(') && !strcmp(n->str, "sizeof") && cast_end(l) >= 0) {
			/* sizeof(TYPE): the type's text, resolved by the code generator */
			int ce = cast_end(l);

			n->kind = N_CALL;
			n->cast_text = xmalloc((size_t)(ce - l->next) + 1);
			memcpy(n->cast_text, l->s + l->next, (size_t)(ce - l->next));
			n->cast_text[ce - l->next] = 0;
			l->next = ce + 1;
			lex_next(l);
			n->end = l->prev_end;
			return n;
		}
		if (is_op(l, '(')) { /* STRCMP("x", e), $entry(p) */
			struct node *args = NULL, **tail = &args;

			bool pred = l->pred;

			n->kind = N_CALL;
			l->pred = false;
			lex_next(l);
			while (!is_op(l, ')')) {
				struct node *a = parse_expr(l, depth + 1);

				if (!a) {
					expr_free(n);
					expr_free(args);
					return NULL;
				}
				*tail = a;
				tail = &a->next;
				if (is_op(l, ','))
					lex_next(l);
				else if (!is_op(l, ')')) {
					fail_at(l, l->pos, "expected ',' or ')'%s", "");
					expr_free(n);
					expr_free(args);
					return NULL;
				}
			}
			l->pred = pred;
			lex_next(l);
			n->a = args;
		}
		n->end = l->prev_end;
		return n;
	case T_OP:
		if (l->op == '(') {
			int ce = cast_end(l), pos = l->pos;

			if (ce >= 0) {
				n = mk(N_CAST, pos);
				n->cast_text = xmalloc((size_t)(ce - l->next) + 1);
				memcpy(n->cast_text, l->s + l->next, (size_t)(ce - l->next));
				n->cast_text[ce - l->next] = 0;
				l->next = ce + 1;
				lex_next(l);
				n->a = parse_unary(l, depth + 1);
				if (!n->a) {
					expr_free(n);
					return NULL;
				}
				n->end = n->a->end;
				return n;
			}
			{
				bool pred = l->pred;

				l->pred = false;
				lex_next(l);
				n = parse_expr(l, depth + 1);
				if (n && l->bt && is_op(l, ',')) { /* bpftrace's tuple (a, b, ...) */
					struct node *t = mk(N_TUPLE, pos), **tail = &n->next;

					t->a = n;
					n = t;
					while (*tail || is_op(l, ',')) {
						if (*tail) {
							tail = &(*tail)->next;
							continue;
						}
						lex_next(l);
						if (!(*tail = parse_expr(l, depth + 1))) {
							expr_free(n);
							n = NULL;
							break;
						}
					}
				}
				l->pred = pred;
			}
			if (!n)
				return NULL;
			if (n->kind == N_TUPLE && is_op(l, ')')) {
				lex_next(l);
				n->end = l->prev_end;
				return n;
			}
			if (!is_op(l, ')')) {
				fail_at(l, l->pos, "expected ')'%s", "");
				expr_free(n);
				return NULL;
			}
			lex_next(l);
			return n;
		}
		break;
	default:
		break;
	}
	fail_at(l, l->pos, l->tok == T_EOF ? "expression ends too soon%s" : "expected a value%s", "");
	return NULL;
}

static struct node *parse_postfix(struct lex *l, int depth)
{
	int start = l->pos; /* bpftrace's x->f: its range starts at x, "(" and all */
	struct node *n = parse_primary(l, depth);

	if (n && l->bt && (is_op(l, OP_INC) || is_op(l, OP_DEC))) { /* x++: num 1 marks it postfix */
		struct node *u = mk(N_UNARY, n->pos);

		u->op = l->op;
		u->num = 1;
		u->a = n;
		lex_next(l);
		u->end = l->prev_end;
		return u;
	}

	while (n && l->tok == T_OP && (l->op == '.' || l->op == OP_ARROW || l->op == '[')) {
		struct node *m;
		int op = l->op, pos = l->pos;

		lex_next(l);
		if (op == '[') {
			bool pred = l->pred, tuple = l->bt && n->kind == N_IDENT && n->str[0] == '@';
			struct node **tail;

			m = mk(N_INDEX, pos);
			m->a = n;
			l->pred = false;
			m->b = parse_expr(l, depth + 1);
			tail = m->b ? &m->b->next : NULL;
			while (tuple && tail && is_op(l, ',')) {
				lex_next(l);
				*tail = parse_expr(l, depth + 1);
				tail = *tail ? &(*tail)->next : NULL;
			}
			l->pred = pred;
			if (!tail || !is_op(l, ']')) {
				if (tail)
					fail_at(l, l->pos, "expected ']'%s", "");
				expr_free(m);
				return NULL;
			}
			lex_next(l);
			m->end = l->prev_end;
			n = m;
			continue;
		}
		if (l->bt && op == '.' && l->tok == T_NUM) { /* $tuple.0 */
			char num[24];

			snprintf(num, sizeof(num), "%llu", (unsigned long long)l->num);
			l->tok = T_IDENT;
			l->str = xstrdup(num);
		}
		if (l->tok != T_IDENT) {
			fail_at(l, l->pos, "expected a member name%s", "");
			expr_free(n);
			return NULL;
		}
		m = mk(N_MEMBER, l->bt && op == OP_ARROW ? start : pos);
		m->op = op == '.' ? '.' : '>';
		m->a = n;
		m->str = l->str;
		l->str = NULL;
		lex_next(l);
		m->end = l->prev_end;
		n = m;
	}
	return n;
}

static struct node *parse_unary(struct lex *l, int depth)
{
	if (depth > 200) {
		fail_at(l, l->pos, "expression nests too deeply%s", "");
		return NULL;
	}
	if (l->bt && (is_op(l, OP_INC) || is_op(l, OP_DEC))) { /* ++x */
		struct node *n = mk(N_UNARY, l->pos);

		n->op = l->op;
		lex_next(l);
		if (!(n->a = parse_unary(l, depth + 1))) {
			expr_free(n);
			return NULL;
		}
		n->end = n->a->end;
		return n;
	}
	if (l->tok == T_OP && strchr("-!~*&+", l->op) && l->op < 256) {
		int op = l->op, pos = l->pos;
		struct node *n;

		lex_next(l);
		n = mk(N_UNARY, pos);
		n->op = op;
		n->a = parse_unary(l, depth + 1);
		if (!n->a) {
			expr_free(n);
			return NULL;
		}
		n->end = n->a->end;
		if (op == '+') { /* unary plus: nothing */
			struct node *a = n->a;

			n->a = NULL;
			expr_free(n);
			return a;
		}
		return n;
	}
	return parse_postfix(l, depth);
}

static int prec(int op)
{
	switch (op) {
	case '*': case '/': case '%': return 10;
	case '+': case '-': return 9;
	case OP_SHL: case OP_SHR: return 8;
	case '<': case '>': case OP_LE: case OP_GE: return 7;
	case OP_EQ: case OP_NE: return 6;
	case '&': return 5;
	case '^': return 4;
	case '|': return 3;
	case OP_AND: return 2;
	case OP_OR: return 1;
	}
	return -1;
}

static struct node *parse_binary(struct lex *l, int min, int depth)
{
	struct node *lhs = parse_unary(l, depth + 1);

	while (lhs && l->tok == T_OP && prec(l->op) >= min && !(l->pred && l->op == '/')) {
		int op = l->op, p = prec(op), pos = l->pos;
		struct node *rhs, *n;

		lex_next(l);
		rhs = parse_binary(l, p + 1, depth + 1);
		if (!rhs) {
			expr_free(lhs);
			return NULL;
		}
		n = mk(N_BINARY, pos);
		n->op = op;
		n->a = lhs;
		n->b = rhs;
		n->end = rhs->end;
		lhs = n;
	}
	return lhs;
}

static struct node *parse_expr(struct lex *l, int depth)
{
	struct node *n;

	if (depth > 200) {
		fail_at(l, l->pos, "expression nests too deeply%s", "");
		return NULL;
	}
	n = parse_binary(l, 1, depth);
	if (n && is_op(l, '?')) {
		struct node *c = mk(N_COND, l->pos);

		lex_next(l);
		c->a = n;
		c->b = parse_expr(l, depth + 1);
		if (!c->b || !is_op(l, ':')) {
			if (c->b)
				fail_at(l, l->pos, "expected ':'%s", "");
			expr_free(c);
			return NULL;
		}
		lex_next(l);
		c->c = parse_expr(l, depth + 1);
		if (!c->c) {
			expr_free(c);
			return NULL;
		}
		c->end = c->c->end;
		n = c;
	}
	return n;
}

struct node *expr_parse(const char *text, int *errpos)
{
	struct lex l = { .s = text };
	struct node *n;

	lex_next(&l);
	n = l.failed ? NULL : parse_expr(&l, 0);
	if (n && !l.failed && l.tok != T_EOF)
		fail_at(&l, l.pos, "unexpected text after the expression%s", "");
	free(l.str);
	if (l.failed) {
		expr_free(n);
		*errpos = l.errpos;
		return NULL;
	}
	return n;
}

struct node *expr_parse_at(const char *text, int start, unsigned flags, int *end, int *errpos)
{
	struct lex l = { .s = text, .next = start, .bt = flags & EXPR_BT, .pred = flags & EXPR_PRED };
	struct node *n;

	lex_next(&l);
	n = l.failed ? NULL : parse_expr(&l, 0);
	free(l.str);
	if (l.failed) {
		expr_free(n);
		*errpos = l.errpos;
		return NULL;
	}
	*end = l.pos;
	return n;
}

bool expr_uses(const struct node *n, const char *name)
{
	if (!n)
		return false;
	if ((n->kind == N_IDENT || n->kind == N_CALL) && n->str && !strcmp(n->str, name))
		return true;
	return expr_uses(n->a, name) || expr_uses(n->b, name) || expr_uses(n->c, name) || expr_uses(n->next, name);
}
