/* bcc-style log2 histogram text (see hist.h). */
#include "hist.h"

#include <stdio.h>

void bcc_print_log2_hist(const uint64_t *vals, int n, const char *unit)
{
	int idx_max = -1, width;
	uint64_t val_max = 0;

	for (int i = 0; i < n; i++) {
		if (vals[i])
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (idx_max <= 0)
		return;
	if (idx_max <= 32) {
		printf("     %-19s : count     distribution\n", unit);
		width = 40;
	} else {
		printf("               %-29s : count     distribution\n", unit);
		width = 20;
	}
	for (int i = 1; i <= idx_max; i++) {
		unsigned long long low = (1ull << i) >> 1, high = i >= 64 ? ~0ull : (1ull << i) - 1;
		int stars = (int)((long double)width * (long double)vals[i] / (long double)val_max);

		if (low == high)
			low--;
		if (stars > width)
			stars = width;
		printf(idx_max <= 32 ? "%10llu -> %-10llu : %-8llu |" : "%20llu -> %-20llu : %-8llu |", low, high,
		       (unsigned long long)vals[i]);
		for (int k = 0; k < width; k++)
			putchar(k < stars ? '*' : ' ');
		printf("|\n");
	}
}
