/* bpftrace program text -> struct bt_prog (see bt.h).  The structure
 * (probes, predicates, blocks, statements) is parsed here; expressions go
 * to the shared expression parser (expr_parse_at, EXPR_BT), so both front
 * ends build the same tree. */
#include "bt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"

struct ps {
	const char *s;
	int i;
	struct bt_prog *p;
	int depth;
};

static int fail(struct ps *ps, int pos, int end, const char *msg)
{
	if (ps->p->errpos < 0) {
		ps->p->errpos = pos;
		ps->p->errend = end > pos ? end : pos + 1;
		err_set(EINVAL, "%s", msg);
	}
	return -EINVAL;
}

static bool word_at(struct ps *ps, const char *w);

/* "#define NAME INTEGER": kept for the expressions (other #define,
 * #include and #if lines are dropped: kernel BTF answers for headers). */
static void define(struct ps *ps)
{
	const char *s = ps->s + ps->i + 1, *name;
	char *end;
	size_t n;
	long long v;
	struct bt_prog *p = ps->p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "define", 6) || (s[6] != ' ' && s[6] != '\t'))
		return;
	s += 6;
	while (*s == ' ' || *s == '\t')
		s++;
	name = s;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	n = (size_t)(s - name);
	if (!n || n > 64 || (*s != ' ' && *s != '\t'))
		return;
	while (*s == ' ' || *s == '\t' || *s == '(')
		s++;
	errno = 0;
	v = strtoll(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == ')')
		end++;
	if (errno || end == s || (*end && *end != '\n' && *end != ' ' && *end != '\t' && *end != '/'))
		return;
	if (p->ndefs >= 1024)
		return;
	p->def_names = xrealloc(p->def_names, (size_t)(p->ndefs + 1) * sizeof(char *));
	p->def_vals = xrealloc(p->def_vals, (size_t)(p->ndefs + 1) * sizeof(int64_t));
	p->def_names[p->ndefs] = xmalloc(n + 1);
	memcpy(p->def_names[p->ndefs], name, n);
	p->def_names[p->ndefs][n] = 0;
	p->def_vals[p->ndefs++] = v;
}

/* "struct NAME { ... };" at the top level: skipped (true), or not one. */
static bool struct_def(struct ps *ps)
{
	int i = ps->i, depth = 0;
	const char *s = ps->s;

	while (s[i] && s[i] != '{' && s[i] != ';' && s[i] != ':')
		i++;
	if (s[i] != '{')
		return false;
	for (; s[i]; i++) {
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			break;
	}
	if (!s[i])
		return false;
	i++;
	ps->p->decls = xrealloc(ps->p->decls, (size_t)(ps->p->ndecls + 1) * 2 * sizeof(int));
	ps->p->decls[2 * ps->p->ndecls] = ps->i;
	ps->p->decls[2 * ps->p->ndecls++ + 1] = i;
	while (isspace((unsigned char)s[i]))
		i++;
	if (s[i] == ';')
		i++;
	ps->i = i;
	return true;
}

/* Blanks and comments ('//', block comments; at the top level also '#'
 * lines: the #! line, #include and #define, which BTF answers). */
static void skip(struct ps *ps, bool top)
{
	const char *s = ps->s;

	for (;;) {
		while (isspace((unsigned char)s[ps->i]))
			ps->i++;
		if (s[ps->i] == '/' && s[ps->i + 1] == '/') {
			while (s[ps->i] && s[ps->i] != '\n')
				ps->i++;
		} else if (s[ps->i] == '/' && s[ps->i + 1] == '*') {
			const char *e = strstr(s + ps->i + 2, "*/");

			ps->i = e ? (int)(e - s) + 2 : (int)strlen(s);
		} else if (top && s[ps->i] == '#') {
			if (s[ps->i + 1] != '!') {
				ps->p->cpp = xrealloc(ps->p->cpp, (size_t)(ps->p->ncpp + 1) * sizeof(int));
				ps->p->cpp[ps->p->ncpp++] = ps->i;
			}
			define(ps);
			while (s[ps->i] && s[ps->i] != '\n')
				ps->i++;
		} else if (top && (word_at(ps, "struct") || word_at(ps, "union")) && struct_def(ps)) {
			/* a C type the script declares for clang: BTF has it */
		} else {
			return;
		}
	}
}

static bool word_at(struct ps *ps, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(ps->s + ps->i, w, n) && !isalnum((unsigned char)ps->s[ps->i + n]) && ps->s[ps->i + n] != '_';
}

static struct node *expr(struct ps *ps, unsigned flags)
{
	int end = 0, ep = 0;
	struct node *n = expr_parse_at(ps->s, ps->i, EXPR_BT | flags, &end, &ep);

	if (!n) {
		char msg[160];

		if (!strcmp(err_msg(), "expected a value") && strchr(";,)}]", ps->s[ep]))
			snprintf(msg, sizeof(msg), "syntax error, unexpected %c", ps->s[ep]); /* 0.17 (bison) words */
		else
			snprintf(msg, sizeof(msg), "syntax error: %s", err_msg());
		fail(ps, ep, ep + 1, msg);
		return NULL;
	}
	ps->i = end;
	return n;
}

static void stmts_free(struct bt_stmt *s)
{
	while (s) {
		struct bt_stmt *next = s->next;

		expr_free(s->lhs);
		expr_free(s->rhs);
		stmts_free(s->body);
		stmts_free(s->els);
		free(s);
		s = next;
	}
}

static int block(struct ps *ps, struct bt_stmt **out);

static bool at(struct ps *ps, char c)
{
	skip(ps, false);
	return ps->s[ps->i] == c;
}

static int expect(struct ps *ps, char c)
{
	char msg[64];

	if (at(ps, c)) {
		ps->i++;
		return 0;
	}
	if (!ps->s[ps->i])
		snprintf(msg, sizeof(msg), "syntax error, unexpected end of file, expecting %c", c);
	else
		snprintf(msg, sizeof(msg), "syntax error, unexpected %c, expecting %c", ps->s[ps->i], c);
	return fail(ps, ps->i, ps->i + 1, msg);
}

/* Compound assignment operator at i: its OP_*, and its length. */
static int assign_op(const char *s, int *len)
{
	static const struct { const char *t; int op; } ops[] = {
		{ "<<=", OP_SHL_ASSIGN }, { ">>=", OP_SHR_ASSIGN }, { "++", OP_INC }, { "--", OP_DEC },
		{ "+=", OP_ADD_ASSIGN }, { "-=", OP_SUB_ASSIGN }, { "*=", OP_MUL_ASSIGN }, { "/=", OP_DIV_ASSIGN },
		{ "%=", OP_MOD_ASSIGN }, { "&=", OP_AND_ASSIGN }, { "|=", OP_OR_ASSIGN }, { "^=", OP_XOR_ASSIGN },
	};

	for (size_t k = 0; k < ARRAY_SIZE(ops); k++)
		if (!strncmp(s, ops[k].t, strlen(ops[k].t))) {
			*len = (int)strlen(ops[k].t);
			return ops[k].op;
		}
	if (s[0] == '=' && s[1] != '=') {
		*len = 1;
		return OP_ASSIGN;
	}
	return 0;
}

static int stmt(struct ps *ps, struct bt_stmt **out)
{
	struct bt_stmt *st = xcalloc(1, sizeof(*st));
	int len, op;

	*out = st;
	skip(ps, false);
	st->pos = ps->i;
	if (word_at(ps, "if")) {
		st->kind = BS_IF;
		ps->i += 2;
		if (expect(ps, '(') < 0)
			return -EINVAL;
		skip(ps, false);
		if (!(st->lhs = expr(ps, 0)) || expect(ps, ')') < 0 || block(ps, &st->body) < 0)
			return -EINVAL;
		skip(ps, false);
		if (word_at(ps, "else")) {
			ps->i += 4;
			skip(ps, false);
			if (word_at(ps, "if")) {
				if (++ps->depth > 100)
					return fail(ps, ps->i, ps->i + 2, "if/else chain nests too deeply");
				return stmt(ps, &st->els);
			}
			return block(ps, &st->els);
		}
		return 0;
	}
	if (word_at(ps, "unroll")) {
		char *end;
		long n;

		int at = ps->i;

		st->kind = BS_UNROLL;
		ps->i += 6;
		if (expect(ps, '(') < 0)
			return -EINVAL;
		skip(ps, false);
		if (ps->s[ps->i] == '$') /* unroll($1): its count once the parameters are known: -N */
			ps->i++;
		n = strtol(ps->s + ps->i, &end, 10);
		if (end == ps->s + ps->i)
			return fail(ps, ps->i, ps->i + 1, "unroll() takes a number or $N");
		if (ps->s[ps->i - 1] != '$' && (n < 1 || n > 100)) { /* 0.17 marks unroll(N) */
			const char *close = strchr(end, ')');

			return fail(ps, at, close ? (int)(close - ps->s) + 1 : (int)(end - ps->s),
				    n < 1 ? "unroll minimum value is 1" : "unroll maximum value is 100");
		}
		st->op = ps->s[ps->i - 1] == '$' ? (int)-n : (int)n;
		ps->i = (int)(end - ps->s);
		if (expect(ps, ')') < 0)
			return -EINVAL;
		return block(ps, &st->body);
	}
	if (word_at(ps, "while")) { /* bounded loops: the verifier proves the bound (5.3+) */
		st->kind = BS_WHILE;
		ps->i += 5;
		if (expect(ps, '(') < 0)
			return -EINVAL;
		skip(ps, false);
		if (!(st->lhs = expr(ps, 0)) || expect(ps, ')') < 0)
			return -EINVAL;
		return block(ps, &st->body);
	}
	if (word_at(ps, "for"))
		return fail(ps, ps->i, ps->i + (int)strcspn(ps->s + ps->i, " ("), "loops are not supported yet");
	st->kind = BS_EXPR;
	op = assign_op(ps->s + ps->i, &len);
	if (op == OP_INC || op == OP_DEC) { /* ++@x */
		st->op_pos = ps->i;
		ps->i += len;
		st->kind = BS_ASSIGN;
		st->op = op;
		skip(ps, false);
		return (st->lhs = expr(ps, 0)) ? 0 : -EINVAL;
	}
	if (!(st->lhs = expr(ps, 0)))
		return -EINVAL;
	if (st->lhs->kind == N_UNARY && st->lhs->num && (st->lhs->op == OP_INC || st->lhs->op == OP_DEC)) {
		struct node *u = st->lhs; /* @x++; as a statement */

		st->kind = BS_ASSIGN;
		st->op = u->op;
		st->op_pos = u->a->end;
		st->lhs = u->a;
		u->a = NULL;
		expr_free(u);
		return 0;
	}
	if (st->lhs->kind == N_COND) { /* c ? f() : g(); is if (c) f() else g() */
		struct node *q = st->lhs;

		st->kind = BS_IF;
		st->lhs = q->a;
		st->body = xcalloc(1, sizeof(*st->body));
		st->els = xcalloc(1, sizeof(*st->els));
		st->body->lhs = q->b;
		st->els->lhs = q->c;
		st->body->pos = q->b->pos;
		st->els->pos = q->c->pos;
		q->a = q->b = q->c = NULL;
		expr_free(q);
		return 0;
	}
	skip(ps, false);
	op = assign_op(ps->s + ps->i, &len);
	if (!op)
		return 0;
	st->kind = BS_ASSIGN;
	st->op = op;
	st->op_pos = ps->i;
	ps->i += len;
	if (op == OP_INC || op == OP_DEC)
		return 0;
	skip(ps, false);
	return (st->rhs = expr(ps, 0)) ? 0 : -EINVAL;
}

/* '{' statements separated by ';' '}' */
static int block(struct ps *ps, struct bt_stmt **out)
{
	struct bt_stmt **tail = out;

	if (++ps->depth > 100)
		return fail(ps, ps->i, ps->i + 1, "blocks nest too deeply");
	if (expect(ps, '{') < 0)
		return -EINVAL;
	for (;;) {
		bool needs_semi;

		while (at(ps, ';'))
			ps->i++;
		if (at(ps, '}')) {
			ps->i++;
			ps->depth--;
			return 0;
		}
		if (!ps->s[ps->i])
			return fail(ps, ps->i, ps->i + 1, "syntax error, unexpected end of file, expecting }");
		if (stmt(ps, tail) < 0)
			return -EINVAL;
		needs_semi = (*tail)->kind != BS_IF && (*tail)->kind != BS_UNROLL && (*tail)->kind != BS_WHILE;
		while (*tail)
			tail = &(*tail)->next;
		if (needs_semi && !at(ps, ';') && !at(ps, '}')) {
			char msg[80];

			snprintf(msg, sizeof(msg), "syntax error, unexpected %.20s", ps->s[ps->i] ? "token" : "end of file");
			return fail(ps, ps->i, ps->i + 1, msg);
		}
	}
}

static int probe(struct ps *ps, struct bt_probe *pr)
{
	for (;;) {
		int start = ps->i, i = ps->i;
		struct bt_attach *a;

		while (ps->s[i] && !isspace((unsigned char)ps->s[i]) && ps->s[i] != ',' && ps->s[i] != '{')
			i++;
		/* 0.17's lexer ends an attach point at '?' (its wildcard is '*'
		 * alone): the '?' is then the ternary operator's token */
		if (memchr(ps->s + start, '?', (size_t)(i - start))) {
			int q = (int)((const char *)memchr(ps->s + start, '?', (size_t)(i - start)) - ps->s);

			return fail(ps, bt_loc_begin(ps->s, q), q + 1, "syntax error, unexpected ?, expecting {");
		}
		if (i == start)
			return fail(ps, start, start + 1, "syntax error, expecting a probe");
		pr->ap = xrealloc(pr->ap, (size_t)(pr->nap + 1) * sizeof(*pr->ap));
		a = &pr->ap[pr->nap++];
		a->pos = start;
		a->end = i;
		a->text = xmalloc((size_t)(i - start) + 1);
		memcpy(a->text, ps->s + start, (size_t)(i - start));
		a->text[i - start] = 0;
		ps->i = i;
		skip(ps, true);
		if (ps->s[ps->i] != ',')
			break;
		ps->i++;
		skip(ps, true);
	}
	if (ps->s[ps->i] == '/') {
		ps->i++;
		if (!(pr->pred = expr(ps, EXPR_PRED)) || expect(ps, '/') < 0)
			return -EINVAL;
	}
	if (!ps->s[ps->i] || !at(ps, '{'))
		return fail(ps, pr->ap[pr->nap - 1].pos, ps->i, "syntax error, unexpected end of file, expected {");
	return block(ps, &pr->body);
}

int bt_parse(const char *text, struct bt_prog *p)
{
	struct ps ps = { .s = text, .p = p };

	memset(p, 0, sizeof(*p));
	p->text = text;
	p->errpos = -1;
	p->strlen = 64;
	for (;;) {
		skip(&ps, true);
		if (!text[ps.i])
			break;
		p->p = xrealloc(p->p, (size_t)(p->np + 1) * sizeof(*p->p));
		memset(&p->p[p->np], 0, sizeof(*p->p));
		ps.depth = 0;
		if (probe(&ps, &p->p[p->np++]) < 0)
			return -EINVAL;
	}
	if (!p->np)
		return fail(&ps, 0, 1, "No probes to attach");
	return 0;
}

void bt_prog_free(struct bt_prog *p)
{
	for (int i = 0; i < p->np; i++) {
		for (int k = 0; k < p->p[i].nap; k++)
			free(p->p[i].ap[k].text);
		free(p->p[i].ap);
		expr_free(p->p[i].pred);
		stmts_free(p->p[i].body);
	}
	free(p->p);
	for (int i = 0; i < p->nmaps; i++)
		free(p->maps[i].name);
	free(p->maps);
	for (int i = 0; i < p->nacts; i++) {
		free(p->acts[i].fmt);
		free(p->acts[i].args);
		free(p->acts[i].off);
	}
	free(p->acts);
	for (int i = 0; i < p->nvars; i++)
		free(p->vars[i].name);
	free(p->vars);
	for (int i = 0; i < p->ntfmts; i++)
		free(p->tfmts[i]);
	free(p->tfmts);
	for (int i = 0; i < p->ndefs; i++)
		free(p->def_names[i]);
	free(p->def_names);
	free(p->def_vals);
	if (p->ntypes) { /* its types leave the lookups with it */
		ctype_set_local(NULL, NULL, 0);
		probe_set_btf_overlay(NULL);
	}
	for (int i = 0; i < p->ntypes; i++)
		free(p->tnames[i]);
	free(p->tnames);
	free(p->tids);
	free(p->decls);
	free(p->cpp);
	bt_shapes_free(p);
	memset(p, 0, sizeof(*p));
}

void bt_report(const char *file, const char *text, int pos, int end, const char *msg)
{
	bt_report_kind(stderr, file, text, pos, end, "ERROR", msg);
}

int bt_loc_begin(const char *text, int pos)
{
	while (pos > 0 && !isspace((unsigned char)text[pos - 1]))
		pos--;
	return pos;
}

int bt_col_skew(const char *t, int ls, int pos)
{
	int k = 0;
	const char *c = t + ls, *e = t + pos, *nl = strchr(c, '\n');

	if (nl && nl < e)
		e = nl;
	while ((c = strstr(c, "struct")) && c < e) {
		c += 6 + strcspn(c + 6, "*){");
		if (*c == '{') /* a definition (no casts in it): past its first '}' */
			c += strcspn(c, "}");
		else
			k += c < e;
		c += !!*c;
	}
	return k;
}

void bt_report_kind(FILE *f, const char *file, const char *text, int pos, int end, const char *kind, const char *msg)
{
	int line = 1, col, ls = 0, le, len = (int)strlen(text);
	char shown[512];

	if (pos < 0 || pos > len)
		pos = len;
	pos = bt_loc_begin(text, pos);
	if (end <= pos)
		end = pos + 1;
	for (int i = 0; i < pos; i++)
		if (text[i] == '\n') {
			line++;
			ls = i + 1;
		}
	col = pos - ls + 1;
	le = ls;
	while (text[le] && text[le] != '\n')
		le++;
	if (end > le + 1)
		end = le + 1;
	fprintf(f, "%s:%d:%d-%d: %s: %s\n", file, line, col + bt_col_skew(text, ls, pos),
		col + (end - pos) + bt_col_skew(text, ls, end), kind, msg);
	snprintf(shown, sizeof(shown), "%.*s", le - ls > 400 ? 400 : le - ls, text + ls);
	for (char *c = shown; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t')
			*c = '?';
	fprintf(f, "%s\n", shown);
	for (int i = ls - bt_col_skew(text, ls, pos); i < pos && i - ls < 400; i++)
		fputc(i >= ls && text[i] == '\t' ? '\t' : ' ', f);
	for (int i = pos - bt_col_skew(text, pos, end); i < end && i - pos < 400; i++)
		fputc('~', f);
	fputc('\n', f);
}
