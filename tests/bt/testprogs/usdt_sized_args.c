/* Arguments of different sizes: test:probe1 a 32-bit 0xdeadbeef,
 * test:probe2 a 32-bit 1 (a reader of 8 bytes would see the neighbour),
 * test:probe3 a 64-bit all-ones. Busy loop. */
#include <stdint.h>
#include <sys/sdt.h>

int main(void)
{
	uint32_t a = 0xdeadbeef, b = 1;
	uint64_t c = UINT64_MAX;

	for (;;) {
		DTRACE_PROBE1(test, probe1, a);
		DTRACE_PROBE1(test, probe2, b);
		DTRACE_PROBE1(test, probe3, c);
	}
}
