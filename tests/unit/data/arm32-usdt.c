/* USDT probes built for 32-bit ARM: tests/fuzz/corpus/elf/arm32-usdt.elf, whose
 * notes tests/unit/test_arch.c reads.  Built with Debian's cross gcc 12 and
 * systemtap's sys/sdt.h (any copy: the header is the same on every arch):
 *   arm-linux-gnueabihf-gcc -nostdlib -static -O2 -marm -I DIR_WITH_SYS_SDT_H \
 *     -Wl,--build-id=none -o arm32-usdt.elf arm32-usdt.c && arm-linux-gnueabihf-strip --strip-debug arm32-usdt.elf */
#include <sys/sdt.h>

__attribute__((noinline)) void cbx_regs(int a, unsigned b, long long c)
{
	STAP_PROBE3(cbx, regs, a, b, c);
}

__attribute__((noinline)) void cbx_small(signed char a, short b)
{
	STAP_PROBE3(cbx, small, a, b, 5);
}

__attribute__((noinline, optimize("O0"))) void cbx_frame(int a, int b)
{
	volatile int x = a + b;

	STAP_PROBE2(cbx, frame, x, b);
}

__attribute__((noinline, target("thumb"))) void cbx_thumb(int a, int *p)
{
	STAP_PROBE2(cbx, thumb, a, p[1]);
}

void _start(void)
{
	int v[2] = { 1, 2 };

	cbx_regs(1, 2, 3);
	cbx_small(-1, -2);
	cbx_frame(3, 4);
	cbx_thumb(5, v);
	for (;;)
		;
}
