#include "top.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/err.h"

int top_opt(struct top *t, const struct tool_help *h, int key, const char *arg)
{
	switch (key) {
	case 'C': t->noclear = 1; break;
	case 's':
		for (t->sort = 0; t->sort < t->nsorts && strcmp(arg, t->sorts[t->sort]); t->sort++)
			;
		if (t->sort == t->nsorts)
			opt_usage_error(h, "invalid sort method: %s", arg);
		break;
	case 'r':
		t->rows = (long)opt_num(h, "rows", arg, 1, 0x7fffffff);
		if (t->rows > t->max)
			t->rows = t->max;
		break;
	case 0: interval_arg(h, &t->iv, &t->npos, arg); break;
	default: return 1;
	}
	return 0;
}

int top_alloc(struct top *t, const char *tool, size_t key_size, size_t val_size)
{
	t->key_size = key_size;
	t->val_size = val_size;
	t->batch = true;
	t->keys = calloc((size_t)t->max, key_size);
	t->vals = calloc((size_t)t->max, val_size);
	t->order = calloc((size_t)t->max, sizeof(*t->order));
	if (t->keys && t->vals && t->order)
		return 0;
	top_free(t);
	tool_err(tool, "out of memory");
	return -1;
}

void top_free(struct top *t)
{
	free(t->keys);
	free(t->vals);
	free(t->order);
	t->keys = t->vals = NULL;
	t->order = NULL;
}

void top_begin(const struct top *t, bool summary, const struct out_table *table)
{
	if (!t->noclear)
		out_text("\033[H\033[2J");
	if (summary)
		interval_loadavg_line();
	if (table)
		out_header(table);
}

long top_read(struct top *t, int fd, const char *tool, const char *what, int (*cmp)(const void *, const void *))
{
	long n = tool_map_drain(fd, t->key_size, t->val_size, t->keys, t->vals, (uint32_t)t->max, &t->batch);

	if (n < 0) {
		tool_err(tool, "%s: %s", what, err_msg());
		return -1;
	}
	for (long i = 0; i < n; i++)
		t->order[i] = (struct top_row){ t->keys + i * t->key_size, t->vals + i * t->val_size };
	qsort(t->order, (size_t)n, sizeof(t->order[0]), cmp);
	return n;
}
