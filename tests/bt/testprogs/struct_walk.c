/* clear(c, 10) gets an array of ten { uint32 a = i; uint64 b = 100 }
 * (sum of a: 45, of b: 1000) and zeroes it. */
#include <stdint.h>
#include <stdlib.h>

struct C { uint32_t a; uint64_t b; };

__attribute__((noinline, used)) void clear(struct C *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i].a = 0, c[i].b = 0;
}

int main(void)
{
	size_t n = 10;
	struct C *c = malloc(n * sizeof(*c));

	if (!c)
		return 1;
	for (size_t i = 0; i < n; i++)
		c[i].a = (uint32_t)i, c[i].b = 100;
	clear(c, n);
	free(c);
	return 0;
}
