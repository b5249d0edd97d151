/* bpftrace 0.17 counts a function's arguments before anything else about
 * the call, and refuses a text positional parameter outside str($N): the
 * same words here, for every node of a probe, before the semantic pass
 * looks at what the arguments are. */
#include "bt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"

/* name, fewest, most arguments; exact: 0.17 words the count as "requires
 * N" rather than "at least N" / "up to N" (its check_nargs, not varargs).
 * The map functions, print/clear/zero, delete (delete(@m, key) is taken,
 * as today's bpftrace spells it) and the probe-bound ones (reg, uaddr,
 * signal...) check other things first and keep their own words. */
static const struct {
	char name[12];
	unsigned char min, max, exact;
} fns[] = {
	{ "exit", 0, 0, 1 },	 { "time", 0, 1, 0 },	  { "str", 1, 2, 0 },	      { "ntop", 1, 2, 0 },
	{ "buf", 1, 2, 0 },	 { "join", 1, 2, 0 },	  { "kstack", 0, 2, 0 },      { "ustack", 0, 2, 0 },
	{ "cgroup_path", 1, 2, 0 }, { "strftime", 2, 2, 0 }, { "printf", 1, 128, 0 }, { "system", 1, 128, 0 },
	{ "cat", 1, 128, 0 },	 { "kaddr", 1, 1, 1 },	  { "ksym", 1, 1, 1 },	      { "usym", 1, 1, 1 },
	{ "pton", 1, 1, 1 },	 { "cgroupid", 1, 1, 1 }, { "sizeof", 1, 1, 1 },      { "strerror", 1, 1, 1 },
	{ "macaddr", 1, 1, 1 },	 { "bswap", 1, 1, 1 },	  { "kptr", 1, 1, 1 },
	{ "uptr", 1, 1, 1 },	 { "strncmp", 3, 3, 1 },  { "strcontains", 2, 2, 1 },
};

static const char *count_word(int n)
{
	static char num[12];

	if (n == 1)
		return "one argument";
	snprintf(num, sizeof(num), "%d", n);
	return num;
}

/* in_str: inside str()'s arguments, where 0.17 takes a text $N (its
 * func_ is the nearest call's name: str($1 + 1) is pointer arithmetic on
 * the text, a call inside starts over) */
static int nargs_node(struct bt_prog *p, const struct node *n, bool in_str)
{
	for (; n; n = n->next) {
		if (n->kind == N_CALL && n->str && !n->cast_text) { /* not sizeof(TYPE) */
			int k = 0;

			for (const struct node *x = n->a; x; x = x->next)
				k++;
			for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
				const char *how = NULL;
				int lim = 0;

				if (strcmp(fns[i].name, n->str) || (k >= fns[i].min && k <= fns[i].max))
					continue;
				if (fns[i].exact)
					how = fns[i].max ? "requires" : "requires no arguments", lim = fns[i].max;
				else if (k < fns[i].min)
					how = "requires at least", lim = fns[i].min;
				else
					how = fns[i].max ? "takes up to" : "requires no arguments", lim = fns[i].max;
				if (p->errpos < 0) {
					p->errpos = n->pos;
					p->errend = n->end > n->pos ? n->end : n->pos + 1;
					if (!lim)
						err_set(EINVAL, "%s() %s (%d provided)", n->str, how, k);
					else
						err_set(EINVAL, "%s() %s %s%s (%d provided)", n->str, how, count_word(lim),
							lim == 1 ? "" : " arguments", k);
				}
				return -EINVAL;
			}
		}
		if (n->kind == N_IDENT && n->str && n->str[0] == '$' && n->str[1] >= '1' && n->str[1] <= '9') {
			int k = atoi(n->str + 1);
			const char *v = k >= 1 && k <= p->nparams ? p->params[k - 1] : "0"; /* ($99999999999: atoi wraps) */
			char *end;

			strtoll(v, &end, 0);
			if ((!*v || *end) && !in_str && p->errpos < 0) { /* text, outside str($N) */
				p->errpos = n->pos;
				p->errend = n->end > n->pos ? n->end : n->pos + 1;
				err_set(EINVAL, "%s used numerically but given \"%.60s\". Try using str(%s).", n->str, v, n->str);
			}
			if ((!*v || *end) && !in_str)
				return -EINVAL;
		}
		if (n->kind == N_CALL && n->str)
			in_str = !strcmp(n->str, "str");
		if (nargs_node(p, n->a, in_str) < 0 || nargs_node(p, n->b, in_str) < 0 || nargs_node(p, n->c, in_str) < 0)
			return -EINVAL;
	}
	return 0;
}

static int nargs_stmts(struct bt_prog *p, const struct bt_stmt *s)
{
	for (; s; s = s->next)
		if (nargs_node(p, s->lhs, false) < 0 || nargs_node(p, s->rhs, false) < 0 || nargs_stmts(p, s->body) < 0 ||
		    nargs_stmts(p, s->els) < 0)
			return -EINVAL;
	return 0;
}

int bt_check_nargs(struct bt_prog *p, int pi)
{
	return nargs_node(p, p->p[pi].pred, false) < 0 ? -EINVAL : nargs_stmts(p, p->p[pi].body);
}
