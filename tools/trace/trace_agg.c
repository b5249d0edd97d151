/* trace -A: distinct events and their counts (see trace_agg.h).  A
 * linear search: -A needs -M, which bounds the events, and bcc's trace
 * keeps them the same way. */
#include "trace_agg.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void trace_agg_add(struct trace_agg *a, char *text)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->rows[i].text, text))
			break;
	if (i == a->n) {
		a->rows = xrealloc(a->rows, (a->n + 1) * sizeof(*a->rows));
		a->rows[a->n].text = text;
		a->rows[a->n++].count = 1;
		return;
	}
	a->rows[i].count++;
	free(text);
}

static int by_count_desc(const void *l, const void *r)
{
	const struct trace_agg_row *x = l, *y = r;

	return x->count > y->count ? -1 : x->count < y->count;
}

void trace_agg_sort(struct trace_agg *a)
{
	if (a->n < 2) /* also: no rows, a NULL array, which qsort must not get */
		return;
	qsort(a->rows, a->n, sizeof(*a->rows), by_count_desc);
}

void trace_agg_free(struct trace_agg *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->rows[i].text);
	free(a->rows);
	a->rows = NULL;
	a->n = 0;
}
