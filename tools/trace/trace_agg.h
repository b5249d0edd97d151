/* trace -A: count each distinct event (its text line, or its JSON
 * fields) and report them most frequent first, when tracing ends. */
#ifndef COREBOX_TRACE_TRACE_AGG_H
#define COREBOX_TRACE_TRACE_AGG_H

#include <stddef.h>

struct trace_agg {
	struct trace_agg_row {
		char *text; /* malloc'd, owned */
		long count;
	} *rows;
	size_t n;
};

/* Count one event; takes text (malloc'd): kept for a new row, else freed. */
void trace_agg_add(struct trace_agg *a, char *text);
/* Most frequent first; rows with equal counts keep no particular order. */
void trace_agg_sort(struct trace_agg *a);
void trace_agg_free(struct trace_agg *a);

#endif
