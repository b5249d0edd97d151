/* The external fragmentation index from /proc/buddyinfo (fragindex.h). */
#include "fragindex.h"
#include "lib/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int buddyinfo_parse(const char *text, struct buddy_zone *z, int max)
{
	const char *line = text;
	int n = 0;

	while (line && *line && n < max) {
		const char *end = strchr(line, '\n');
		struct buddy_zone *b = &z[n];
		char name[16];
		int used = 0;
		const char *p;

		if (str_scan(line, "Node %d, zone %15s%n", &b->node, name, &used) != 2 || used <= 0) {
			if (*line != '\n')
				return -1;
			line = end ? end + 1 : NULL;
			continue;
		}
		snprintf(b->zone, sizeof(b->zone), "%s", name);
		b->norders = 0;
		for (p = line + used; (!end || p < end) && b->norders < FRAG_MAX_ORDERS;) {
			char *q;
			unsigned long long v;

			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || *p == '\n')
				break;
			v = strtoull(p, &q, 10);
			if (q == p)
				return -1;
			b->nr_free[b->norders++] = v;
			p = q;
		}
		if (!b->norders)
			return -1;
		n++;
		line = end ? end + 1 : NULL;
	}
	return n;
}

int frag_index(const struct buddy_zone *z, int order)
{
	unsigned long long total = 0, pages = 0, suitable = 0, requested;

	if (order < 0 || order >= z->norders || order >= 63)
		return 0;
	requested = 1ULL << order;
	for (int k = 0; k < z->norders; k++) {
		total += z->nr_free[k];
		pages += z->nr_free[k] << k;
		if (k >= order)
			suitable += z->nr_free[k] << (k - order);
	}
	if (!total)
		return 0;
	if (suitable)
		return -1000;
	return 1000 - (int)((1000 + pages * 1000 / requested) / total);
}

char *frag_index_str(int index, char *buf, size_t size)
{
	snprintf(buf, size, "%2d.%03d", index / 1000, index % 1000);
	return buf;
}
