/* Shared user-side pieces of the memory tools. */
#include "memtool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"

long long mem_vmstat(const char *key)
{
	FILE *f = fopen("/proc/vmstat", "re");
	char line[256];
	size_t n = strlen(key);
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

int mem_numa_nodes(void)
{
	char buf[256];
	bool mask[1024];
	int n = 0;

	if (read_line("/sys/devices/system/node/online", buf, sizeof(buf)) < 0) {
		err_clear();
		return 1;
	}
	if (cpus_parse(buf, mask, 1024) < 0)
		return 1;
	for (int i = 0; i < 1024; i++)
		n += mask[i];
	return n ? n : 1;
}

int mem_zones(struct mem_zone *z, int max)
{
	FILE *f = fopen("/proc/zoneinfo", "re");
	char line[256], name[16];
	int n = 0, node, last_node = -1, idx = 0;
	unsigned long long pfn;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (str_scan(line, "Node %d, zone %15s", &node, name) == 2) {
			if (n >= max)
				break;
			idx = node == last_node ? idx + 1 : 0;
			last_node = node;
			z[n] = (struct mem_zone){ .node = node, .idx = idx };
			snprintf(z[n].name, sizeof(z[n].name), "%s", name);
			n++;
		} else if (n && str_scan(line, " pages free %llu", &pfn) == 1) {
			z[n - 1].free = pfn;
		} else if (n && str_scan(line, " min %llu", &pfn) == 1) {
			z[n - 1].min = pfn;
		} else if (n && str_scan(line, " low %llu", &pfn) == 1) {
			z[n - 1].low = pfn;
		} else if (n && str_scan(line, " high %llu", &pfn) == 1) {
			z[n - 1].high = pfn;
		} else if (n && str_scan(line, " start_pfn: %llu", &pfn) == 1) {
			z[n - 1].start_pfn = pfn;
			z[n - 1].populated = true;
		}
	}
	fclose(f);
	return n;
}

const char *mem_zone_name(const struct mem_zone *z, int n, int node, int idx, char *buf, size_t size)
{
	for (int i = 0; i < n; i++)
		if (z[i].node == node && z[i].idx == idx) {
			size_t k = (size_t)snprintf(buf, size, "ZONE_%s", z[i].name);

			for (size_t j = 5; j < k && j < size; j++)
				buf[j] = (char)toupper((unsigned char)buf[j]);
			return buf;
		}
	snprintf(buf, size, "%d", idx);
	return buf;
}
