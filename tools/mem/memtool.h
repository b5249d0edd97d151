/* What the memory tools' user sides share: small readers of /proc files
 * (an event tool starts with tool_run_events, tools/common/common.h). */
#ifndef COREBOX_MEM_MEMTOOL_H
#define COREBOX_MEM_MEMTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h" /* ev_comm */

/* A counter of /proc/vmstat ("nr_free_pages"), or -1. */
long long mem_vmstat(const char *key);
/* Number of online NUMA nodes (/sys/devices/system/node/online), 1 when
 * the file is missing (a kernel without NUMA). */
int mem_numa_nodes(void);
/* The zones of /proc/zoneinfo, in the kernel's order: per node, idx is
 * the zone's index in its node (enum zone_type), start_pfn its first page
 * frame (populated zones only).  Returns how many (at most max), or -1. */
struct mem_zone {
	int node, idx;
	char name[16];             /* "DMA", "DMA32", "Normal", "Movable"... */
	unsigned long long start_pfn;
	unsigned long long free, min, low, high; /* pages; min/low/high with the boost */
	bool populated;
};
int mem_zones(struct mem_zone *z, int max);
/* "ZONE_NORMAL" (bcc's compactsnoop names) for node/idx, else the index. */
const char *mem_zone_name(const struct mem_zone *z, int n, int node, int idx, char *buf, size_t size);


#endif
