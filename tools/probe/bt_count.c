/* bpftrace -v's "node count": the nodes of the tree bpftrace 0.17's parser
 * would have built for the program, counted from corebox's tree.  The
 * two differ in shape: 0.17 reads a->f as (*a).f (two nodes), makes
 * -1 one Integer, visits the map of "@x += 1" twice (its Binop holds
 * the same Map node), keeps a statement "c ? f() : g()" a Ternary
 * (corebox makes it an if) and wraps every expression statement in a
 * node of its own; sizeof(TYPE) is two. */
#include "bt.h"

#include <ctype.h>
#include <string.h>

/* -1 written as a literal (0.17's lexer makes it one Integer) */
static bool neg_literal(const char *text, const struct node *n)
{
	if (n->kind != N_UNARY || n->op != '-' || n->a->kind != N_NUM)
		return false;
	for (int i = n->pos + 1; i < n->a->pos; i++)
		if (!isspace((unsigned char)text[i]))
			return false;
	return true;
}

/* n and the nodes after it in its list (arguments, keys, tuple elements) */
static int count_expr(const char *text, const struct node *n)
{
	int c = 0;

	for (; n; n = n->next) {
		c += 1 + count_expr(text, n->a) + count_expr(text, n->b) + count_expr(text, n->c);
		if ((n->kind == N_CALL && n->cast_text) || (n->kind == N_MEMBER && n->op == '>'))
			c++; /* sizeof(TYPE): the Sizeof and its type; a->f: (*a).f */
		else if ((n->kind == N_INDEX && n->a->kind == N_IDENT && n->a->str[0] == '@') || neg_literal(text, n))
			c--; /* @m[k]: one Map node with its keys; -1 */
	}
	return c;
}

static bool word_is(const char *text, int pos, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(text + pos, w, n) && !isalnum((unsigned char)text[pos + n]) && text[pos + n] != '_';
}

static int count_stmts(const char *text, const struct bt_stmt *s)
{
	int c = 0;

	for (; s; s = s->next)
		switch (s->kind) {
		case BS_EXPR: /* (0.17's return, break and continue are a Jump alone: corebox takes none yet) */
			c += 1 + count_expr(text, s->lhs);
			break;
		case BS_ASSIGN:
			if (s->op == OP_INC || s->op == OP_DEC) /* a statement holding a Unop */
				c += 2 + count_expr(text, s->lhs);
			else if (s->op == OP_ASSIGN)
				c += 1 + count_expr(text, s->lhs) + count_expr(text, s->rhs);
			else /* x op= e: x = x op e, x one node visited twice */
				c += 2 + 2 * count_expr(text, s->lhs) + count_expr(text, s->rhs);
			break;
		case BS_IF:
			if (!word_is(text, s->pos, "if")) /* a ternary statement */
				c += 2 + count_expr(text, s->lhs) + count_expr(text, s->body->lhs) +
				     count_expr(text, s->els->lhs);
			else
				c += 1 + count_expr(text, s->lhs) + count_stmts(text, s->body) + count_stmts(text, s->els);
			break;
		case BS_UNROLL: /* its count is a node */
			c += 2 + count_stmts(text, s->body);
			break;
		case BS_WHILE:
			c += 1 + count_expr(text, s->lhs) + count_stmts(text, s->body);
			break;
		}
	return c;
}

int bt_node_count(const struct bt_prog *p)
{
	int c = 1;

	for (int i = 0; i < p->np; i++) {
		const struct bt_probe *pr = &p->p[i];

		c += 1 + pr->nap + (pr->pred ? 1 + count_expr(p->text, pr->pred) : 0) + count_stmts(p->text, pr->body);
	}
	return c;
}
