/* trace -A's event counts (tools/trace/trace_agg.c): distinct texts
 * counted, most frequent first, and a run that collected nothing sorts
 * and frees nothing (qsort(NULL, 0) is undefined: UBSan stops here). */
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "tools/trace/trace_agg.h"
#include "util.h"

int main(void)
{
	struct trace_agg a = { 0 };

	trace_agg_sort(&a); /* trace -A -M 5 with no event */
	T_OK(a.n == 0 && !a.rows, "nothing collected: sorting an empty set is a no-op");
	trace_agg_free(&a);

	trace_agg_add(&a, xstrdup("b"));
	trace_agg_add(&a, xstrdup("a"));
	trace_agg_add(&a, xstrdup("b"));
	trace_agg_add(&a, xstrdup("c"));
	trace_agg_add(&a, xstrdup("b"));
	trace_agg_add(&a, xstrdup("a"));
	T_OK(a.n == 3, "three distinct texts: %zu rows", a.n);
	trace_agg_sort(&a);
	T_OK(a.n == 3 && !strcmp(a.rows[0].text, "b") && a.rows[0].count == 3 && !strcmp(a.rows[1].text, "a") &&
		     a.rows[1].count == 2 && !strcmp(a.rows[2].text, "c") && a.rows[2].count == 1,
	     "most frequent first: b 3, a 2, c 1");
	trace_agg_free(&a);
	T_OK(a.n == 0 && !a.rows, "freed and empty again");

	a.rows = NULL;
	trace_agg_add(&a, xstrdup("only"));
	trace_agg_sort(&a);
	T_OK(a.n == 1 && a.rows[0].count == 1, "one row sorts to itself");
	trace_agg_free(&a);
	T_EXIT();
}
