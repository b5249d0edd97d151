/* func() receives a struct of a heap string 09 08 07 06 and arrays of
 * several widths: char 5 4 3 2, u8 1..4, int 5..8, u16 9..12, u64 13..16. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
struct Foo { char *a; char b[4]; uint8_t c[4]; int d[4]; uint16_t e[4]; uint64_t f[4]; };
__attribute__((noinline, used)) void func(struct Foo *foo) { __asm__ volatile("" : : "r"(foo) : "memory"); }
int main(void)
{
	struct Foo foo = { malloc(5), { 5, 4, 3, 2 }, { 1, 2, 3, 4 }, { 5, 6, 7, 8 },
			   { 9, 10, 11, 12 }, { 13, 14, 15, 16 } };
	if (!foo.a)
		return 1;
	memcpy(foo.a, "\x09\x08\x07\x06", 5);
	func(&foo);
	free(foo.a);
	return 0;
}
