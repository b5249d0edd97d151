/* Schoolbook arithmetic on struct big; callers size their operands
 * below BIG_LIMBS limbs (no check here: every use bounds them first). */
#include <string.h>

#include "bignum.h"

void big_set(struct big *b, uint64_t v)
{
	b->w[0] = (uint32_t)v;
	b->w[1] = (uint32_t)(v >> 32);
	b->n = v >> 32 ? 2 : v ? 1 : 0;
}

void big_muladd(struct big *b, uint32_t m, uint32_t a)
{
	uint64_t c = a;

	for (int i = 0; i < b->n; i++) {
		c += (uint64_t)b->w[i] * m;
		b->w[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c)
		b->w[b->n++] = (uint32_t)c;
	while (b->n && !b->w[b->n - 1]) /* m == 0 */
		b->n--;
}

void big_mul64(struct big *b, uint64_t m)
{
	struct big h = *b;

	big_muladd(b, (uint32_t)m, 0);
	big_muladd(&h, (uint32_t)(m >> 32), 0);
	big_shl(&h, 32);
	big_add(b, &h);
}

void big_add(struct big *a, const struct big *b)
{
	uint64_t c = 0;
	int n = a->n > b->n ? a->n : b->n;

	for (int i = 0; i < n; i++) {
		c += (uint64_t)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0);
		a->w[i] = (uint32_t)c;
		c >>= 32;
	}
	a->n = n;
	if (c)
		a->w[a->n++] = (uint32_t)c;
}

void big_sub(struct big *a, const struct big *b)
{
	int64_t c = 0;

	for (int i = 0; i < a->n; i++) {
		c += (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0);
		a->w[i] = (uint32_t)c;
		c >>= 32;
	}
	while (a->n && !a->w[a->n - 1])
		a->n--;
}

void big_shl(struct big *b, int k)
{
	int q = k / 32, r = k % 32;

	if (!b->n)
		return;
	b->w[b->n] = 0;
	for (int i = b->n; i >= 0; i--)
		b->w[i + q] = (b->w[i] << r) | (r && i ? b->w[i - 1] >> (32 - r) : 0);
	memset(b->w, 0, q * sizeof b->w[0]);
	b->n += q + 1;
	while (b->n && !b->w[b->n - 1])
		b->n--;
}

int big_cmp(const struct big *a, const struct big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

int big_bits(const struct big *b)
{
	return b->n ? 32 * b->n - __builtin_clz(b->w[b->n - 1]) : 0;
}
