/* extfrag's fragmentation index (tools/mem/fragindex.c) against the
 * kernel's own output: the /proc/buddyinfo and extfrag_index recorded in
 * seed 000 (a talk's "External memory fragmentation" slide), and edge
 * cases of the parser. */
#include <string.h>

#include "t.h"
#include "tools/mem/fragindex.c"

static const char *recorded_buddyinfo =
	"Node 0, zone      DMA      1      0      1      0      2      1      1      0      1      1      1 \n"
	"Node 0, zone    DMA32   1363   1772    266     58     81     78     44     41     35     11      6 \n"
	"Node 0, zone   Normal  19782     56      0      0      0      0      0      0      0      0      0 \n";

/* /sys/kernel/debug/extfrag/extfrag_index on the same machine */
static const char *recorded_normal =
	"-1.000 -1.000  0.750  0.875  0.938  0.969  0.985  0.993  0.997  0.998  0.999";

int main(void)
{
	struct buddy_zone z[8];
	char line[256] = "", buf[32];
	int n = buddyinfo_parse(recorded_buddyinfo, z, 8);

	T_OK(n == 3, "three zones parsed (%d)", n);
	T_OK(n == 3 && z[2].norders == 11 && z[2].nr_free[0] == 19782 && z[2].nr_free[1] == 56 &&
	     !strcmp(z[2].zone, "Normal") && z[2].node == 0, "Normal zone: 11 orders, 19782 and 56 free blocks");
	for (int o = 0; n == 3 && o < z[2].norders; o++) {
		size_t len = strlen(line);

		snprintf(line + len, sizeof(line) - len, "%s%s", o ? " " : "",
			 frag_index_str(frag_index(&z[2], o), buf, sizeof(buf)));
	}
	T_OK(!strcmp(line, recorded_normal), "Normal zone index equals the kernel's: '%s'", line);
	T_OK(n == 3 && frag_index(&z[0], 10) == -1000 && frag_index(&z[1], 3) == -1000,
	     "zones with free blocks of the order: -1.000");
	{
		struct buddy_zone e = { .norders = 11 };

		T_OK(frag_index(&e, 3) == 0, "no free memory at all: 0");
		T_OK(frag_index(&z[2], 11) == 0 && frag_index(&z[2], -1) == 0, "orders outside the zone's: 0");
	}
	T_OK(!strcmp(frag_index_str(-1000, buf, sizeof(buf)), "-1.000") &&
	     !strcmp(frag_index_str(750, buf, sizeof(buf)), " 0.750") &&
	     !strcmp(frag_index_str(1000, buf, sizeof(buf)), " 1.000"), "the kernel's %%2d.%%03d format");
	T_OK(buddyinfo_parse("garbage\n", z, 8) < 0, "malformed text refused");
	T_OK(buddyinfo_parse("Node 0, zone Normal 1 x 3\n", z, 8) < 0, "a bad count refused");
	T_OK(buddyinfo_parse("", z, 8) == 0, "empty text: no zones");
	T_OK(buddyinfo_parse(recorded_buddyinfo, z, 2) == 2, "at most max zones");
	{
		static char big[4096];

		snprintf(big, sizeof(big), "Node 1, zone Normal");
		for (int i = 0; i < 40; i++)
			strcat(big, " 1");
		n = buddyinfo_parse(big, z, 8);
		T_OK(n == 1 && z[0].norders == FRAG_MAX_ORDERS && z[0].node == 1,
		     "more orders than FRAG_MAX_ORDERS: kept within bounds");
	}
	T_EXIT();
}
