/* str_scan (lib/scan.c) against the C library's sscanf (glibc natively,
 * musl in the cross tests): the same count and the same values for every
 * format corebox uses, on the lines they read and on short, empty,
 * overlong and malformed ones. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/scan.h"
#include "t.h"

static const char *const inputs[] = {
	"",
	" ",
	"7fff0000-7fff1000 r-xp 00001000 08:01 1234 /usr/lib/x.so",
	"7fff0000-7fff1000 r-xp 00001000 08:01 1234   ",
	"ffffffffffffffff-0 rwxpxx 0 0:0 0",
	"8 0 1048576 sda",
	"259 1 12345678901 nvme0n1p1_with_a_name_longer_than_sixty_three_characters_to_be_cut_here",
	"8:16",
	"8:16x",
	"8:",
	":16",
	"-1:-2",
	"0.52 0.58 0.59 1/1049 91234",
	"12.34 5.6 7.89",
	"none /sys/fs/cgroup cgroup2 rw,nosuid 0 0",
	"tracefs /sys/kernel/tracing tracefs rw 0 0",
	"Buffers:          123456 kB",
	"Cached: 99 kB",
	"Cached:",
	"Page block order: 9",
	"Page block order:",
	"Node 0, zone      DMA32",
	"Node 1, zone   Normal_zone_name_too_long",
	"Node x, zone Normal",
	"  pages free     1234",
	"        min      45",
	"  start_pfn:           4096",
	"0xffffffff81000000",
	"ffffffff81000000",
	"6.12.48-1-amd64",
	"6.1",
	"6",
	"x.1.2",
	": lost 12 events (340 so far)",
	": lost 12 events",
	": lost x events",
	"cpu-cycles 3 1234 1235 100000 a_comm",
	"123456",
	"-42",
	"+42 ",
	"99999999999999999999999",
	"4294967296",
	"%x",
};

#define CMP(fmt, ...)                                                                              \
	do {                                                                                       \
		int a = sscanf(in, fmt, __VA_ARGS__);                                               \
		memcpy(&want, &got, sizeof(got));                                                  \
		memset(&got, 0x5a, sizeof(got));                                                   \
		int b = str_scan(in, fmt, __VA_ARGS__);                                             \
		if (a != b || memcmp(&want, &got, sizeof(got))) {                                  \
			T_OK(0, "'%s' with \"%s\": sscanf %d, str_scan %d", in, fmt, a, b);        \
			bad++;                                                                     \
		}                                                                                  \
		memset(&got, 0x5a, sizeof(got));                                                   \
	} while (0)

struct vals {
	unsigned long long ull[6];
	unsigned long ul[6];
	uint64_t u64[2];
	unsigned u[6];
	int d[3];
	char c;
	int n;
	char s1[8], s2[64], s3[256], s4[512], s5[1024], s6[16];
};

int main(void)
{
	struct vals got, want;
	int bad = 0;

	memset(&got, 0x5a, sizeof(got));
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		const char *in = inputs[i];

		CMP("%*s %7s", got.s1);
		CMP("0x%" SCNx64, &got.u64[0]);
		CMP("%lu.%lu %lu.%lu %lu.%lu", &got.ul[0], &got.ul[1], &got.ul[2], &got.ul[3], &got.ul[4], &got.ul[5]);
		CMP("%255s %511s %63s", got.s3, got.s4, got.s2);
		CMP("Buffers: %llu kB", &got.ull[0]);
		CMP("Cached: %llu kB", &got.ull[0]);
		CMP("%u %u %llu %63s", &got.u[0], &got.u[1], &got.ull[0], got.s2);
		CMP("%u:%u%c", &got.u[0], &got.u[1], &got.c);
		CMP("%llx-%llx %7s %llx %x:%x %llu %n", &got.ull[0], &got.ull[1], got.s1, &got.ull[2], &got.u[0],
		    &got.u[1], &got.ull[3], &got.n);
		CMP("Page block order: %d", &got.d[0]);
		CMP("Node %d, zone %15s%n", &got.d[0], got.s6, &got.n);
		CMP("Node %d, zone %15s", &got.d[0], got.s6);
		CMP(" pages free %llu", &got.ull[0]);
		CMP(" min %llu", &got.ull[0]);
		CMP(" start_pfn: %llu", &got.ull[0]);
		CMP("%7s %u %u %u %llu %63s", got.s1, &got.u[0], &got.u[1], &got.u[2], &got.ull[0], got.s2);
		CMP("%*s %1023s %63s", got.s5, got.s2);
		CMP("%u.%u.%u", &got.u[0], &got.u[1], &got.u[2]);
		CMP(": lost %llu events (%llu so far)", &got.ull[0], &got.ull[1]);
		CMP(": lost %llu events", &got.ull[0]);
		CMP("%llu", &got.ull[0]);
		CMP("%u", &got.u[0]);
		CMP("%d", &got.d[0]);
	}
	/* where the C libraries differ, musl's answer (corebox's libc) */
	T_OK(str_scan("0x", "%llx", &got.ull[0]) == 0 && str_scan("0xg", "%x", &got.u[0]) == 0 &&
		     str_scan(" -0x!", "%x", &got.u[0]) == 0,
	     "\"0x\" without a hex digit is no number for %%x, as musl's sscanf");
	T_OK(str_scan("0x1f", "%x", &got.u[0]) == 1 && got.u[0] == 0x1f, "0x1f for %%x is 31");
	T_OK(!bad, "str_scan agrees with sscanf on %zu lines and 23 formats", sizeof(inputs) / sizeof(inputs[0]));
	T_EXIT();
}
