#include "bthist.h"

#include <stdio.h>

/* 2^p as bpftrace labels it: 512, 1K, 2K, ..., 1M, ... */
static void label(char *buf, size_t size, int p)
{
	static const char suffix[] = "KMGTPE";
	int decade = p / 10;

	if (decade > 6)
		decade = 6;
	if (decade)
		snprintf(buf, size, "%llu%c", 1ULL << (p - 10 * decade), suffix[decade - 1]);
	else
		snprintf(buf, size, "%llu", 1ULL << p);
}

void bt_hist_print(const uint64_t *slots, int n)
{
	int first = -1, last = -1;
	uint64_t max = 0;

	for (int i = 0; i < n; i++)
		if (slots[i]) {
			if (first < 0)
				first = i;
			last = i;
			if (slots[i] > max)
				max = slots[i];
		}
	for (int i = first; first >= 0 && i <= last; i++) {
		char head[64], lo[24], hi[24];
		int bar = (int)((float)slots[i] / (float)max * 52); /* bpftrace's float math */

		if (i < 2) {
			snprintf(head, sizeof(head), "[%d]", i);
		} else {
			label(lo, sizeof(lo), i - 1);
			label(hi, sizeof(hi), i);
			snprintf(head, sizeof(head), "[%s, %s)", lo, hi);
		}
		printf("%-16s%8llu |", head, (unsigned long long)slots[i]);
		for (int b = 0; b < 52; b++)
			putchar(b < bar ? '@' : ' ');
		printf("|\n");
	}
	printf("\n");
}

void bt_hist_to_log2(const uint64_t *slots, int n, uint64_t *out)
{
	if (n < 2)
		return;
	out[0] = slots[0] + slots[1];
	for (int j = 1; j < n - 1; j++)
		out[j] = slots[j + 1];
}
