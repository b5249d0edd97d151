/* Globs and a small regular-expression engine (see match.h).
 *
 * A regex compiles to instructions (CHAR, ANY, CLASS, SPLIT, JMP, BOL,
 * EOL, MATCH) that a Thompson simulation runs: the set of live
 * instructions advances one character at a time, so no pattern can make
 * a match take more than (name length x instructions) steps. */
#include "match.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "spec.h"

/* ---- globs ---- */

/* A class at p ("[...]", p past the '['): does c belong?  *end gets the
 * character after ']'; NULL when the class is not closed. */
static bool glob_class(const char *p, unsigned char c, const char **end)
{
	bool neg = *p == '!' || *p == '^', in = false;

	if (neg)
		p++;
	for (const char *first = p; *p && (*p != ']' || p == first); p++) {
		unsigned char lo = (unsigned char)*p, hi = lo;

		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = (unsigned char)p[2];
			p += 2;
		}
		if (c >= lo && c <= hi)
			in = true;
	}
	*end = *p == ']' ? p + 1 : NULL;
	return in != neg;
}

bool glob_star_only;

bool glob_match(const char *p, const char *s)
{
	const char *star = NULL, *ss = NULL, *next;

	while (*s) {
		bool in;

		if (*p == '*') {
			star = p++;
			ss = s;
			continue;
		}
		if (*p == '[' && !glob_star_only && (in = glob_class(p + 1, (unsigned char)*s, &next), next)) {
			if (in) {
				p = next;
				s++;
				continue;
			}
		} else if (*p && ((*p == '?' && !glob_star_only) || *p == *s)) { /* an unclosed '[' is itself */
			p++;
			s++;
			continue;
		}
		if (!star)
			return false;
		p = star + 1;
		s = ++ss;
	}
	while (*p == '*')
		p++;
	return !*p;
}

/* ---- regular expressions: compiling ---- */

enum op { CHAR, ANY, CLASS, SPLIT, JMP, BOL, EOL, MATCH };

struct insn {
	uint8_t op;
	uint8_t c;          /* CHAR */
	uint16_t cls;       /* CLASS: index in classes */
	int x, y;           /* SPLIT: both; JMP: x */
};

struct re_prog {
	struct insn *in;
	int n, cap;
	uint8_t (*classes)[32]; /* 256-bit sets */
	int ncls;
};

#define RE_MAX_INSNS 4096

struct comp {
	struct re_prog *p;
	const char *s, *pat;
	int depth;
	const char *err;
};

static int emit(struct comp *c, enum op op)
{
	struct re_prog *p = c->p;

	if (p->n >= RE_MAX_INSNS) {
		c->err = "too long";
		return -1;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->in = xrealloc(p->in, (size_t)p->cap * sizeof(*p->in));
	}
	memset(&p->in[p->n], 0, sizeof(p->in[0]));
	p->in[p->n].op = (uint8_t)op;
	return p->n++;
}

static int new_class(struct comp *c)
{
	struct re_prog *p = c->p;

	p->classes = xrealloc(p->classes, (size_t)(p->ncls + 1) * sizeof(*p->classes));
	memset(p->classes[p->ncls], 0, 32);
	return p->ncls++;
}

static void set_bit(uint8_t *set, unsigned c) { set[c >> 3] |= (uint8_t)(1u << (c & 7)); }

/* \d \w \s (and D W S: their complements) into set; false if e is none. */
static bool shorthand(uint8_t *set, char e)
{
	uint8_t tmp[32] = { 0 };

	switch (e | 0x20) {
	case 'd':
		for (unsigned c = '0'; c <= '9'; c++)
			set_bit(tmp, c);
		break;
	case 'w':
		for (unsigned c = 0; c < 256; c++)
			if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_')
				set_bit(tmp, c);
		break;
	case 's':
		set_bit(tmp, ' ');
		for (unsigned c = '\t'; c <= '\r'; c++)
			set_bit(tmp, c);
		break;
	default:
		return false;
	}
	for (int i = 0; i < 32; i++)
		set[i] |= (e & 0x20) ? tmp[i] : (uint8_t)~tmp[i];
	return true;
}

/* [...]: c->s past the '['. */
static int parse_class(struct comp *c)
{
	int k = new_class(c), at;
	uint8_t *set = c->p->classes[k], neg = 0;
	const char *first;

	if (*c->s == '^') {
		neg = 1;
		c->s++;
	}
	for (first = c->s; *c->s && (*c->s != ']' || c->s == first); c->s++) {
		unsigned lo = (unsigned char)*c->s, hi;

		if (lo == '\\' && c->s[1]) {
			c->s++;
			if (shorthand(set, *c->s))
				continue;
			lo = (unsigned char)*c->s;
		}
		hi = lo;
		if (c->s[1] == '-' && c->s[2] && c->s[2] != ']') {
			if (c->s[2] == '\\' && c->s[3]) /* [a-\]] */
				c->s++;
			hi = (unsigned char)c->s[2];
			c->s += 2;
			if (hi < lo) {
				c->err = "bad range in [...]";
				return -1;
			}
		}
		for (unsigned ch = lo; ch <= hi; ch++)
			set_bit(set, ch);
	}
	if (*c->s != ']') {
		c->err = "missing ]";
		return -1;
	}
	c->s++;
	if (neg)
		for (int i = 0; i < 32; i++)
			set[i] = (uint8_t)~set[i];
	at = emit(c, CLASS);
	if (at >= 0)
		c->p->in[at].cls = (uint16_t)k;
	return at;
}

static int parse_alt(struct comp *c);

/* One atom; returns its first instruction, or -1. */
static int parse_atom(struct comp *c)
{
	char ch = *c->s;
	int at;

	switch (ch) {
	case '(':
		c->s++;
		if (++c->depth > 100) {
			c->err = "too deeply nested";
			return -1;
		}
		at = c->p->n;
		if (parse_alt(c) < 0)
			return -1;
		c->depth--;
		if (*c->s != ')') {
			c->err = "missing )";
			return -1;
		}
		c->s++;
		return at;
	case '[':
		c->s++;
		return parse_class(c);
	case '.':
		c->s++;
		return emit(c, ANY);
	case '^':
		c->s++;
		return emit(c, BOL);
	case '$':
		c->s++;
		return emit(c, EOL);
	case '*': case '+': case '?':
		c->err = "nothing to repeat";
		return -1;
	case '\\':
		if (!c->s[1]) {
			c->err = "trailing \\";
			return -1;
		}
		c->s++;
		if (strchr("dwsDWS", *c->s)) {
			int k = new_class(c);

			shorthand(c->p->classes[k], *c->s++);
			at = emit(c, CLASS);
			if (at >= 0)
				c->p->in[at].cls = (uint16_t)k;
			return at;
		}
		ch = *c->s; /* the escaped character itself */
		/* fall through */
	default:
		c->s++;
		at = emit(c, CHAR);
		if (at >= 0)
			c->p->in[at].c = (uint8_t)ch;
		return at;
	}
}

/* Move instructions [from, n) up by one to make room at `from`; jump
 * targets at or past `from` follow. */
static int insert_at(struct comp *c, int from)
{
	struct re_prog *p = c->p;

	if (emit(c, MATCH) < 0)
		return -1;
	memmove(&p->in[from + 1], &p->in[from], (size_t)(p->n - 1 - from) * sizeof(p->in[0]));
	for (int i = from + 1; i < p->n; i++)
		if (p->in[i].op == SPLIT || p->in[i].op == JMP) {
			if (p->in[i].x >= from)
				p->in[i].x++;
			if (p->in[i].op == SPLIT && p->in[i].y >= from)
				p->in[i].y++;
		}
	memset(&p->in[from], 0, sizeof(p->in[0]));
	return from;
}

/* atom followed by any number of *, + and ? */
static int parse_repeat(struct comp *c)
{
	int start = parse_atom(c);

	while (start >= 0 && (*c->s == '*' || *c->s == '+' || *c->s == '?')) {
		char q = *c->s++;
		int split, end;

		if (*c->s == '?') /* lazy forms match the same names */
			c->s++;
		switch (q) {
		case '*': /* L1: split L2, L3; L2: atom; jmp L1; L3: */
			if (insert_at(c, start) < 0 || (end = emit(c, JMP)) < 0)
				return -1;
			c->p->in[start].op = SPLIT;
			c->p->in[start].x = start + 1;
			c->p->in[start].y = end + 1;
			c->p->in[end].x = start;
			break;
		case '+': /* L1: atom; split L1, L3; L3: */
			if ((split = emit(c, SPLIT)) < 0)
				return -1;
			c->p->in[split].x = start;
			c->p->in[split].y = split + 1;
			break;
		default: /* ?: split L1, L2; L1: atom; L2: */
			if (insert_at(c, start) < 0)
				return -1;
			c->p->in[start].op = SPLIT;
			c->p->in[start].x = start + 1;
			c->p->in[start].y = c->p->n;
			break;
		}
	}
	return start;
}

static int parse_concat(struct comp *c)
{
	int start = c->p->n;

	while (*c->s && *c->s != '|' && *c->s != ')')
		if (parse_repeat(c) < 0)
			return -1;
	return start;
}

/* a|b: L0: split L1, L2; L1: a; jmp L3; L2: b; L3: */
static int parse_alt(struct comp *c)
{
	int start = c->p->n;

	if (parse_concat(c) < 0)
		return -1;
	while (*c->s == '|') {
		int jmp;

		c->s++;
		if (insert_at(c, start) < 0 || (jmp = emit(c, JMP)) < 0)
			return -1;
		c->p->in[start].op = SPLIT;
		c->p->in[start].x = start + 1;
		c->p->in[start].y = jmp + 1;
		if (parse_concat(c) < 0)
			return -1;
		c->p->in[jmp].x = c->p->n;
	}
	return start;
}

static void re_free(struct re_prog *p)
{
	if (p) {
		free(p->in);
		free(p->classes);
		free(p);
	}
}

int match_compile(struct matcher *m, const char *pat, bool regex)
{
	struct comp c = { 0 };

	memset(m, 0, sizeof(*m));
	m->regex = regex;
	m->glob = pat;
	if (!regex)
		return 0;
	c.p = xcalloc(1, sizeof(*c.p));
	c.s = c.pat = pat;
	if (parse_alt(&c) >= 0 && !c.err && *c.s)
		c.err = "unbalanced )";
	if (!c.err)
		emit(&c, MATCH);
	if (c.err) {
		re_free(c.p);
		return err_set(EINVAL, "bad regular expression '%s': %s", pat, c.err);
	}
	m->re = c.p;
	return 0;
}

void match_free(struct matcher *m)
{
	re_free(m->re);
	m->re = NULL;
}

/* ---- regular expressions: running ---- */

struct list {
	int *pc;
	int n;
};

/* Add pc and what it reaches without reading a character (stack: room
 * for 2 * p->n + 1 entries: each instruction is expanded once). */
static void add(const struct re_prog *p, struct list *l, uint32_t *seen, uint32_t gen, int *stack, int pc,
		const char *s, const char *at)
{
	int sp = 0;

	stack[sp++] = pc;
	while (sp) {
		pc = stack[--sp];
		if (pc < 0 || pc >= p->n || seen[pc] == gen)
			continue;
		seen[pc] = gen;
		switch (p->in[pc].op) {
		case JMP:
			stack[sp++] = p->in[pc].x;
			break;
		case SPLIT: /* x first: the preferred branch (order does not change the answer) */
			stack[sp++] = p->in[pc].y;
			stack[sp++] = p->in[pc].x;
			break;
		case BOL:
			if (at == s)
				stack[sp++] = pc + 1;
			break;
		case EOL:
			if (!*at)
				stack[sp++] = pc + 1;
			break;
		default:
			l->pc[l->n++] = pc;
		}
	}
}

bool match(const struct matcher *m, const char *s)
{
	const struct re_prog *p = m->re;
	struct list cur, next;
	uint32_t *seen, gen = 1;
	int *stack;
	bool ok = false;

	if (!m->regex)
		return glob_match(m->glob, s);
	if (!p)
		return false;
	cur.pc = xmalloc((size_t)p->n * sizeof(int));
	next.pc = xmalloc((size_t)p->n * sizeof(int));
	stack = xmalloc((size_t)(2 * p->n + 1) * sizeof(int));
	seen = xcalloc((size_t)p->n, sizeof(*seen));
	cur.n = 0;
	add(p, &cur, seen, gen, stack, 0, s, s);
	for (const char *at = s;; at++) {
		unsigned char c = (unsigned char)*at;

		next.n = 0;
		gen++;
		for (int i = 0; i < cur.n && !ok; i++) {
			const struct insn *in = &p->in[cur.pc[i]];

			switch (in->op) {
			case MATCH:
				ok = true; /* re.match: a match from the start, whatever follows */
				break;
			case CHAR:
				if (c && c == in->c)
					add(p, &next, seen, gen, stack, cur.pc[i] + 1, s, at + 1);
				break;
			case ANY:
				if (c && c != '\n')
					add(p, &next, seen, gen, stack, cur.pc[i] + 1, s, at + 1);
				break;
			case CLASS:
				if (c && (p->classes[in->cls][c >> 3] >> (c & 7) & 1))
					add(p, &next, seen, gen, stack, cur.pc[i] + 1, s, at + 1);
				break;
			}
		}
		if (ok || !c || !next.n)
			break;
		{
			struct list t = cur;

			cur = next;
			next = t;
		}
	}
	free(cur.pc);
	free(next.pc);
	free(stack);
	free(seen);
	return ok;
}
