/* printf's formatting (see fmt.h): one parser, integers in base 8, 10 or
 * 16, and doubles through their exact decimal expansion.  A double is
 * m * 2^e with m < 2^53; for e < 0 that is m * 5^-e / 10^-e, so the big
 * integer m * 5^-e (at most 2,550 bits, for the smallest subnormal) or
 * m << e holds every decimal digit of the value, and rounding a digit
 * string is exact: no long double, no repeated multiplication by 10. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "bignum.h"
#include "fmt.h"

enum { F_MINUS = 1, F_PLUS = 2, F_SPACE = 4, F_HASH = 8, F_ZERO = 16 };
enum { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_J, L_T };

struct spec {
	int flags, width, prec; /* prec < 0: none */
	int len;
	char conv;
};

/* Where the output goes: a FILE through a small buffer (one write for
 * most calls, also on unbuffered stderr), or a string of cap bytes; n
 * counts every byte produced, also past cap. */
struct sink {
	FILE *f;
	char *s;
	size_t cap, n, used;
	int err;
	char buf[256];
};

static void flush(struct sink *k)
{
	if (k->used && fwrite(k->buf, 1, k->used, k->f) != k->used)
		k->err = 1;
	k->used = 0;
}

static void put(struct sink *k, const char *p, size_t len)
{
	if (!k->f) {
		if (k->n < k->cap)
			memcpy(k->s + k->n, p, len < k->cap - k->n ? len : k->cap - k->n);
		k->n += len;
		return;
	}
	k->n += len;
	while (len) {
		size_t c = sizeof(k->buf) - k->used;

		if (c > len)
			c = len;
		memcpy(k->buf + k->used, p, c);
		k->used += c;
		p += c;
		len -= c;
		if (k->used == sizeof(k->buf))
			flush(k);
	}
}

static void pad(struct sink *k, char c, long n)
{
	char run[16];

	memset(run, c, sizeof(run));
	for (; n > 0; n -= (long)sizeof(run))
		put(k, run, n < (long)sizeof(run) ? (size_t)n : sizeof(run));
}

/* Spaces before (or after, with -) a field of len bytes in width. */
static void pad_left(struct sink *k, const struct spec *sp, long len)
{
	if (!(sp->flags & F_MINUS))
		pad(k, ' ', sp->width - len);
}

static void pad_right(struct sink *k, const struct spec *sp, long len)
{
	if (sp->flags & F_MINUS)
		pad(k, ' ', sp->width - len);
}

/* One conversion spec after its '%'; *-width and *-precision are marked
 * INT_MIN for the caller to fetch.  NULL: not a conversion this
 * formatter knows. */
static const char *parse(const char *p, struct spec *sp)
{
	static const char flag_chars[] = "-+ #0";
	const char *c;

	memset(sp, 0, sizeof(*sp));
	sp->prec = -1;
	while (*p && (c = strchr(flag_chars, *p)))
		sp->flags |= 1 << (c - flag_chars), p++;
	if (*p == '*') {
		sp->width = INT_MIN;
		p++;
	} else {
		for (; *p >= '0' && *p <= '9'; p++)
			if ((sp->width = sp->width * 10 + (*p - '0')) > INT_MAX / 10)
				return NULL;
	}
	if (*p == '.') {
		sp->prec = 0;
		if (*++p == '*') {
			sp->prec = INT_MIN;
			p++;
		} else {
			for (; *p >= '0' && *p <= '9'; p++)
				if ((sp->prec = sp->prec * 10 + (*p - '0')) > INT_MAX / 10)
					return NULL;
		}
	}
	switch (*p) {
	case 'h':
		sp->len = *++p == 'h' ? (p++, L_HH) : L_H;
		break;
	case 'l':
		sp->len = *++p == 'l' ? (p++, L_LL) : L_L;
		break;
	case 'z': sp->len = L_Z, p++; break;
	case 'j': sp->len = L_J, p++; break;
	case 't': sp->len = L_T, p++; break;
	}
	sp->conv = *p;
	if (!*p || !strchr("diuoxXcspmfFeEgG", *p))
		return NULL;
	if (sp->len && strchr("cspm", *p))
		return NULL; /* wide characters */
	if (sp->len > L_L && strchr("fFeEgG", *p))
		return NULL;
	return p + 1;
}

static void put_int(struct sink *k, const struct spec *sp, uintmax_t v, int neg)
{
	char digits[24], prefix[3];
	int base = sp->conv == 'o' ? 8 : strchr("xXp", sp->conv) ? 16 : 10;
	const char *xd = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	int nd = 0, np = 0, prec = sp->prec;

	for (uintmax_t t = v; t; t /= base)
		digits[sizeof(digits) - ++nd] = xd[t % base];
	if (prec < 0)
		prec = 1;
	if (sp->conv == 'o' && (sp->flags & F_HASH) && prec <= nd)
		prec = nd + 1; /* the leading 0 */
	if (neg)
		prefix[np++] = '-';
	else if (strchr("dip", sp->conv) && (sp->flags & F_PLUS))
		prefix[np++] = '+';
	else if (strchr("dip", sp->conv) && (sp->flags & F_SPACE))
		prefix[np++] = ' ';
	if (base == 16 && v && (sp->flags & F_HASH || sp->conv == 'p')) {
		prefix[np++] = '0';
		prefix[np++] = sp->conv == 'X' ? 'X' : 'x';
	}
	if (prec < nd)
		prec = nd;
	if ((sp->flags & (F_ZERO | F_MINUS)) == F_ZERO && sp->prec < 0 && sp->width > np + prec)
		prec = sp->width - np;
	pad_left(k, sp, np + prec);
	put(k, prefix, np);
	pad(k, '0', prec - nd);
	put(k, digits + sizeof(digits) - nd, nd);
	pad_right(k, sp, np + prec);
}

static void put_str(struct sink *k, const struct spec *sp, const char *s);

/* glibc's %p: NULL is "(nil)", anything else %#lx (+ and space apply). */
static void put_ptr(struct sink *k, const struct spec *sp, uintptr_t v)
{
	struct spec s = *sp;

	if (v) {
		put_int(k, sp, v, 0);
		return;
	}
	s.prec = -1;
	put_str(k, &s, "(nil)");
}

static void put_str(struct sink *k, const struct spec *sp, const char *s)
{
	size_t n;

	if (!s) /* glibc: "(null)", or nothing if the precision cuts it */
		s = sp->prec < 0 || sp->prec >= 6 ? "(null)" : "";
	n = sp->prec < 0 ? strlen(s) : strnlen(s, (size_t)sp->prec);
	pad_left(k, sp, (long)n);
	put(k, s, n);
	pad_right(k, sp, (long)n);
}

/* ---- doubles ------------------------------------------------------- */

/* The value's decimal digits d[0..n) (no trailing zeros; n == 0 for
 * zero) with value = 0.d[0]d[1]... * 10^dp. */
struct dec {
	int n, dp;
	char d[1240]; /* a 4096-bit integer has at most 1,234 digits */
};

static uint32_t big_div1e9(struct big *b)
{
	uint64_t r = 0;

	for (int i = b->n - 1; i >= 0; i--) {
		r = r << 32 | b->w[i];
		b->w[i] = (uint32_t)(r / 1000000000u);
		r %= 1000000000u;
	}
	while (b->n && !b->w[b->n - 1])
		b->n--;
	return (uint32_t)r;
}

static void decimal(struct dec *x, uint64_t m, int e)
{
	struct big b;
	uint32_t chunk[140];
	int nc = 0;

	x->n = 0;
	x->dp = 1;
	if (!m)
		return;
	for (; !(m & 1); m >>= 1)
		e++;
	big_set(&b, m);
	if (e >= 0)
		big_shl(&b, e);
	for (int k = -e; k > 0; k -= 13) { /* 5^13: the largest power of 5 below 2^32 */
		uint32_t p5 = 1;

		for (int i = 0; i < k && i < 13; i++)
			p5 *= 5;
		big_muladd(&b, p5, 0);
	}
	while (b.n)
		chunk[nc++] = big_div1e9(&b);
	/* the top chunk without its leading zeros, the others 9 digits each */
	for (uint32_t t = chunk[--nc]; t; t /= 10)
		x->n++;
	for (int i = x->n - 1; i >= 0; i--, chunk[nc] /= 10)
		x->d[i] = (char)('0' + chunk[nc] % 10);
	while (nc--) {
		for (int i = 8; i >= 0; i--, chunk[nc] /= 10)
			x->d[x->n + i] = (char)('0' + chunk[nc] % 10);
		x->n += 9;
	}
	x->dp = e < 0 ? x->n + e : x->n;
	while (x->n && x->d[x->n - 1] == '0')
		x->n--;
}

static char digit(const struct dec *x, int i)
{
	return i >= 0 && i < x->n ? x->d[i] : '0';
}

/* Keeps the first keep digits, rounded to nearest, ties to even. */
static void round_to(struct dec *x, int keep)
{
	int up, i;

	if (keep >= x->n)
		return;
	if (keep < 0) {
		x->n = 0;
		return;
	}
	up = x->d[keep] > '5' || (x->d[keep] == '5' && (keep + 1 < x->n || (keep > 0 && (x->d[keep - 1] & 1))));
	x->n = keep;
	if (up) {
		for (i = keep - 1; i >= 0 && x->d[i] == '9'; i--)
			;
		if (i < 0) { /* 99.9 -> 100 */
			x->d[0] = '1';
			x->n = 1;
			x->dp++;
		} else {
			x->d[i]++;
			x->n = i + 1;
		}
	}
	while (x->n && x->d[x->n - 1] == '0')
		x->n--;
}

static void put_digits(struct sink *k, const struct dec *x, int from, int to)
{
	for (int i = from; i < to; i++) {
		char c = digit(x, i);

		put(k, &c, 1);
	}
}

static void put_double(struct sink *k, const struct spec *sp, double v)
{
	struct dec x;
	uint64_t bits;
	char sign = 0, ebuf[8];
	int upper = sp->conv < 'a', conv = sp->conv | 0x20, prec = sp->prec < 0 ? 6 : sp->prec;
	int ex, bexp, frac, ne = 0, point;
	long len;

	memcpy(&bits, &v, sizeof(bits));
	if (bits >> 63)
		sign = '-';
	else if (sp->flags & F_PLUS)
		sign = '+';
	else if (sp->flags & F_SPACE)
		sign = ' ';
	bexp = (int)(bits >> 52 & 0x7ff);
	if (bexp == 0x7ff) {
		const char *t = bits << 12 ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");

		len = 3 + !!sign;
		pad_left(k, sp, len);
		put(k, &sign, !!sign);
		put(k, t, 3);
		pad_right(k, sp, len);
		return;
	}
	decimal(&x, bexp ? (bits & ((1ull << 52) - 1)) | 1ull << 52 : bits & ((1ull << 52) - 1),
		(bexp ? bexp : 1) - 1075);
	if (conv == 'g') {
		if (!prec)
			prec = 1;
		round_to(&x, prec);
		ex = x.n ? x.dp - 1 : 0;
		if (ex >= -4 && ex < prec) {
			conv = 'f';
			prec -= 1 + ex;
		} else {
			conv = 'e';
			prec -= 1;
		}
		if (!(sp->flags & F_HASH)) {
			int have = conv == 'f' ? x.n - x.dp : x.n - 1;

			if (prec > have)
				prec = have > 0 ? have : 0;
		}
	}
	if (conv == 'f')
		round_to(&x, x.dp + prec);
	else
		round_to(&x, prec + 1);
	point = prec || (sp->flags & F_HASH);
	frac = prec;
	if (conv == 'e') {
		ex = x.n ? x.dp - 1 : 0;
		ebuf[ne++] = upper ? 'E' : 'e';
		ebuf[ne++] = ex < 0 ? '-' : '+';
		if (ex < 0)
			ex = -ex;
		if (ex >= 100)
			ebuf[ne++] = (char)('0' + ex / 100);
		ebuf[ne++] = (char)('0' + ex / 10 % 10);
		ebuf[ne++] = (char)('0' + ex % 10);
		len = 1 + point + frac + ne;
	} else {
		len = (x.dp > 0 ? x.dp : 1) + point + frac;
	}
	len += !!sign;
	if ((sp->flags & (F_ZERO | F_MINUS)) != F_ZERO)
		pad_left(k, sp, len);
	put(k, &sign, !!sign);
	if ((sp->flags & (F_ZERO | F_MINUS)) == F_ZERO)
		pad(k, '0', sp->width - len);
	if (conv == 'e') {
		put_digits(k, &x, 0, 1);
		put(k, ".", point);
		put_digits(k, &x, 1, 1 + frac);
		put(k, ebuf, ne);
	} else {
		if (x.dp > 0)
			put_digits(k, &x, 0, x.dp);
		else
			put(k, "0", 1);
		put(k, ".", point);
		put_digits(k, &x, x.dp, x.dp + frac);
	}
	pad_right(k, sp, len);
}

/* ---- the driver ---------------------------------------------------- */

static int format(struct sink *k, const char *fmt, va_list ap)
{
	int saved_errno = errno;
	struct spec sp;
	const char *p;

	/* Like musl: an invalid conversion anywhere writes nothing. */
	for (p = fmt; (p = strchr(p, '%'));)
		if (p[1] == '%')
			p += 2;
		else if (!(p = parse(p + 1, &sp)))
			goto invalid;
	for (p = fmt; *p;) {
		const char *q = strchrnul(p, '%');

		put(k, p, (size_t)(q - p));
		if (!*q)
			break;
		if (q[1] == '%') {
			put(k, "%", 1);
			p = q + 2;
			continue;
		}
		p = parse(q + 1, &sp);
		if (sp.width == INT_MIN) {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				if (sp.width == INT_MIN)
					goto overflow;
				sp.flags |= F_MINUS;
				sp.width = -sp.width;
			}
		}
		if (sp.prec == INT_MIN) {
			sp.prec = va_arg(ap, int);
			if (sp.prec < 0)
				sp.prec = -1;
		}
		switch (sp.conv) {
		case 'd':
		case 'i':
		case 'u':
		case 'o':
		case 'x':
		case 'X': {
			/* fetched unsigned, cut to the type's width, negated when a
			 * signed conversion sees the sign bit */
			uintmax_t v, top;
			int bits = 64;

			switch (sp.len) {
			case L_L: v = va_arg(ap, unsigned long), bits = 8 * sizeof(long); break;
			case L_LL: v = va_arg(ap, unsigned long long); break;
			case L_Z: v = va_arg(ap, size_t), bits = 8 * sizeof(size_t); break;
			case L_J: v = va_arg(ap, uintmax_t); break;
			case L_T: v = (size_t)va_arg(ap, ptrdiff_t), bits = 8 * sizeof(ptrdiff_t); break;
			default: v = va_arg(ap, unsigned), bits = sp.len == L_HH ? 8 : sp.len == L_H ? 16 : 32; break;
			}
			top = (uintmax_t)1 << (bits - 1);
			if (bits < 64)
				v &= (top << 1) - 1;
			if ((sp.conv == 'd' || sp.conv == 'i') && (v & top))
				put_int(k, &sp, (top << 1) - v, 1);
			else
				put_int(k, &sp, v, 0);
			break;
		}
		case 'p':
			put_ptr(k, &sp, (uintptr_t)va_arg(ap, void *));
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			pad_left(k, &sp, 1);
			put(k, &c, 1);
			pad_right(k, &sp, 1);
			break;
		}
		case 's':
			put_str(k, &sp, va_arg(ap, const char *));
			break;
		case 'm':
			put_str(k, &sp, strerror(saved_errno));
			break;
		default:
			put_double(k, &sp, va_arg(ap, double));
			break;
		}
	}
	if (k->n > INT_MAX)
		goto overflow;
	return (int)k->n;
invalid:
	errno = EINVAL;
	return -1;
overflow:
	errno = EOVERFLOW;
	return -1;
}

int fmt_vsnprintf(char *s, size_t n, const char *fmt, va_list ap)
{
	struct sink k = { .s = s, .cap = n ? n - 1 : 0 };
	int r = format(&k, fmt, ap);

	if (n)
		s[k.n < k.cap ? k.n : k.cap] = 0;
	return r;
}

int fmt_snprintf(char *s, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fmt_vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}

#ifndef __GLIBC__
/* musl's printf family (printf, fprintf, vsnprintf with its string FILE,
 * vdprintf, vasprintf) all call vfprintf: this definition, linked before
 * libc.a, keeps musl's vfprintf.o and its long double fmt_fp out. */
int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
	struct sink k = { .f = f };
	int r = format(&k, fmt, ap);

	flush(&k);
	return k.err ? -1 : r;
}
#endif
