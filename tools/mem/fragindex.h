/* The kernel's external fragmentation index (mm/vmstat.c, shown in
 * debugfs as extfrag/extfrag_index), computed from /proc/buddyinfo so it
 * works where debugfs is not mounted or not built.
 *
 * For an allocation of order o in a zone with nr_free[k] free blocks of
 * each order k:
 *   blocks_total    = sum nr_free[k]
 *   free_pages      = sum nr_free[k] << k
 *   blocks_suitable = sum over k >= o of nr_free[k] << (k - o)
 *   index = 0      when blocks_total is 0 (no free memory)
 *         = -1000  when blocks_suitable > 0 (the allocation would succeed)
 *         = 1000 - (1000 + free_pages * 1000 / 2^o) / blocks_total
 * (integer divisions), printed as "%2d.%03d" of index / 1000 and
 * index % 1000: near 0, a failure would be for lack of memory; near 1,
 * because of fragmentation. */
#ifndef COREBOX_MEM_FRAGINDEX_H
#define COREBOX_MEM_FRAGINDEX_H

#include <stddef.h>

#define FRAG_MAX_ORDERS 16   /* NR_PAGE_ORDERS is 11 on x86_64, up to 14 elsewhere */
#define FRAG_MAX_ZONES 64

struct buddy_zone {
	int node;
	char zone[16];
	int norders;                              /* columns of the line */
	unsigned long long nr_free[FRAG_MAX_ORDERS];
};

/* Parse /proc/buddyinfo text ("Node 0, zone   Normal  742 39 ...").
 * Returns the zones filled (at most max), or -1 on malformed text. */
int buddyinfo_parse(const char *text, struct buddy_zone *z, int max);
/* The kernel's __fragmentation_index() for order (-1000..1000). */
int frag_index(const struct buddy_zone *z, int order);
/* "%2d.%03d" of an index, as extfrag_index prints it, into buf (>= 16). */
char *frag_index_str(int index, char *buf, size_t size);

#endif
