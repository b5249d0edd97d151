/* The top-style tools (biotop, filetop, slabratetop, tcptop), as
 * libbpf-tools lays them out: every interval (default 1 s), COUNT times
 * or until Ctrl-C, a screen clear (not with -C), "HH:MM:SS loadavg: ..."
 * (the /proc/loadavg line as it is), the header, the rows sorted and an
 * empty line.  Each interval reads and clears the counts, a BPF hash map.
 * The clear is the terminal sequence itself where libbpf-tools runs
 * clear(1) (which fails, and ends the tool, without TERM).  One helper so
 * that the options, the screen and the reading of the counts are the same
 * in every such tool. */
#ifndef COREBOX_TOOLS_TOP_H
#define COREBOX_TOOLS_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interval.h"

/* One count of the map: its key and its value (in top's buffers).  The
 * tools' qsort comparators take two of these. */
struct top_row {
	void *key, *val;
};

struct top {
	/* the tool's: the -s names (sort is the index), the rows a map holds
	 * (and what -r is cut to) */
	const char *const *sorts;
	int nsorts;
	long max;
	/* the options */
	int noclear; /* -C */
	int sort;    /* -s */
	long rows;   /* -r, default 20 */
	struct interval iv;
	int npos;
	/* the counts of one interval (top_alloc) */
	size_t key_size, val_size;
	char *keys, *vals;
	struct top_row *order;
	bool batch;
};

/* -s NAMES (an array), MAX rows, the default -s index */
#define TOP_INIT(names, max_rows, default_sort)                                                       \
	{ .sorts = names, .nsorts = (int)(sizeof(names) / sizeof(names[0])), .max = max_rows,          \
	  .sort = default_sort, .rows = 20, .iv = { .seconds = 1, .times = INTERVAL_FOREVER, .rows = true } }

struct tool_help;
struct out_table;

/* -C, -s, -r and the positional [interval] [count]: 0 when key was one
 * of them, 1 otherwise (the option callbacks' "not mine"). */
int top_opt(struct top *t, const struct tool_help *h, int key, const char *arg);

/* The buffers for MAX rows of KEY_SIZE and VAL_SIZE bytes: 0, or -1 after
 * "TOOL: out of memory". */
int top_alloc(struct top *t, const char *tool, size_t key_size, size_t val_size);
void top_free(struct top *t);

/* A report's start: the clear (not with -C), with summary the loadavg
 * line, and table's header (NULL: none, the tool prints it). */
void top_begin(const struct top *t, bool summary, const struct out_table *table);

/* Read and clear the map FD into t->order, sorted by cmp: the number of
 * rows, or -1 after "TOOL: WHAT: ERROR". */
long top_read(struct top *t, int fd, const char *tool, const char *what, int (*cmp)(const void *, const void *));

/* For comparators: larger first, as 64-bit values (where libbpf-tools 0.26
 * subtracts them into an int: wrong order past 2 GiB). */
static inline int top_larger_first(uint64_t x, uint64_t y)
{
	return x > y ? -1 : x < y;
}

#endif
