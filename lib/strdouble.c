/* Decimal and hex text to the nearest double, exactly: the digits as a
 * big integer D, the value D * 10^e10 * 2^e2 as the quotient A / B of two
 * big integers, 56 bits of it by long division plus a sticky bit for the
 * remainder, then one rounding to nearest even.  Slow (a few thousand
 * limb operations) and small: it parses command-line options. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bignum.h"
#include "strdouble.h"

/* BIG_LIMBS (4096 bits) holds D of at most SIG_MAX decimal digits (2,661
 * bits) over 10^1131 (3,758 bits) shifted by 56, the largest operands. */
#define SIG_MAX 800 /* more significant digits only add a sticky 1 */

static void big_pow10(struct big *b, long k)
{
	for (; k >= 9; k -= 9)
		big_muladd(b, 1000000000, 0);
	while (k-- > 0)
		big_muladd(b, 10, 0);
}

static int digit(int c, int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : 99;
	return d < base ? d : -1;
}

/* D * 10^e10 * 2^e2 (D > 0, its magnitude already known to be within a
 * double's reach give or take 2^60) to the nearest double; -1 on
 * overflow, underflow to 0 or an inexact subnormal (strtod's ERANGE). */
static int to_double(struct big *a, long e10, long e2, double *out)
{
	struct big b, t;
	uint64_t q = 0, bits;
	int shift, drop, exp;
	bool sticky, half;

	big_set(&b, 1);
	if (e10 >= 0)
		big_pow10(a, e10);
	else
		big_pow10(&b, -e10);
	/* 2^55 <= q = A * 2^shift / B < 2^57 */
	shift = 56 - (big_bits(a) - big_bits(&b));
	if (shift >= 0)
		big_shl(a, shift);
	else
		big_shl(&b, -shift);
	for (int i = 56; i >= 0; i--) {
		t = b;
		big_shl(&t, i);
		if (big_cmp(a, &t) >= 0) {
			big_sub(a, &t);
			q |= 1ull << i;
		}
	}
	sticky = a->n != 0;
	/* the value is q * 2^(e2 - shift); its leading bit's exponent: */
	exp = 63 - __builtin_clzll(q) + (int)(e2 - shift);
	if (exp > 1023)
		return -1;
	/* keep 53 bits, fewer below 2^-1022 (subnormal), none below 2^-1075 */
	drop = 64 - __builtin_clzll(q) - 53 + (exp < -1022 ? -1022 - exp : 0);
	if (drop > 58)
		return -1;
	half = (q >> (drop - 1)) & 1;
	sticky |= (q & ((1ull << (drop - 1)) - 1)) != 0;
	bits = q >> drop;
	if (half && (sticky || (bits & 1)))
		bits++;
	if (exp < -1022) {
		if (half || sticky || !bits)
			return -1;
		/* a subnormal's bits are its mantissa; bits == 2^52 is 2^-1022 */
	} else {
		if (bits >> 53) /* rounding carried into a 54th bit */
			bits >>= 1, exp++;
		if (exp > 1023)
			return -1;
		bits = (uint64_t)(exp + 1023) << 52 | (bits & ((1ull << 52) - 1));
	}
	memcpy(out, &bits, sizeof *out);
	return 0;
}

int str_double(const char *s, double *out)
{
	struct big d = { 0 };
	int base = 10, ndig = 0, nsig = 0, dv;
	long scale = 0, ex = 0; /* D * base^scale * (10 or 2)^ex */
	bool neg, point = false, sticky = false, eneg;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		s++;
	neg = *s == '-';
	s += *s == '-' || *s == '+';
	if (s[0] == '0' && (s[1] | 32) == 'x')
		base = 16, s += 2;
	for (;; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if ((dv = digit(*s, base)) < 0)
			break;
		ndig++;
		if (nsig < SIG_MAX && (nsig || dv)) {
			big_muladd(&d, base, dv);
			nsig++;
			scale -= point;
		} else {
			sticky |= dv != 0;
			scale += !point && nsig;
			scale -= point && !nsig;
		}
	}
	if (!ndig)
		return -1; /* also "0x" with no hex digit: strtod stops after the 0 */
	if ((*s | 32) == (base == 16 ? 'p' : 'e')) {
		s++;
		eneg = *s == '-';
		s += *s == '-' || *s == '+';
		if (digit(*s, 10) < 0)
			return -1;
		for (; (dv = digit(*s, 10)) >= 0; s++)
			if (ex < 100000000) /* beyond 1e8 it is inf or 0 anyway; also no overflow of a 32-bit long */
				ex = ex * 10 + dv;
		if (eneg)
			ex = -ex;
	}
	if (*s)
		return -1;
	if (!nsig) {
		*out = neg ? -0.0 : 0.0;
		return 0;
	}
	if (sticky) { /* a 1 past the kept digits: strictly between them */
		big_muladd(&d, base, 1);
		nsig++;
		scale--;
	}
	/* D < base^nsig: the value's order of magnitude bounds the work */
	if (base == 10) {
		long mag = nsig + scale + ex; /* 10^(mag-1) <= value < 10^mag */
		if (mag > 310 || mag < -330)
			return -1;
		if (to_double(&d, scale + ex, 0, out))
			return -1;
	} else {
		long mag = 4 * (nsig + scale) + ex;
		if (mag > 1030 || mag < -1080)
			return -1;
		if (to_double(&d, 0, 4 * scale + ex, out))
			return -1;
	}
	if (neg)
		*out = -*out;
	return 0;
}
