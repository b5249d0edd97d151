/* Unsigned big integers of up to 4096 bits, 32-bit limbs, for the few
 * places that need a result exact to the last bit without long double
 * (on arm64 a software binary128, ~5-11 KB of libgcc and libc):
 * str_double's decimal to double, systrace's relative deviation. */
#ifndef COREBOX_BIGNUM_H
#define COREBOX_BIGNUM_H

#include <stdint.h>

#define BIG_LIMBS 128

struct big {
	int n; /* limbs in use; w[n - 1] != 0 (0 has n == 0) */
	uint32_t w[BIG_LIMBS];
};

void big_set(struct big *b, uint64_t v);
void big_muladd(struct big *b, uint32_t m, uint32_t a); /* b = b * m + a */
void big_mul64(struct big *b, uint64_t m);
void big_add(struct big *a, const struct big *b);
void big_sub(struct big *a, const struct big *b); /* a >= b */
void big_shl(struct big *b, int k);
int big_cmp(const struct big *a, const struct big *b);
int big_bits(const struct big *b);

#endif
