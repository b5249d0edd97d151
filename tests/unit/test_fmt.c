/* lib/fmt.c, the printf formatter of the static binary, against the C
 * library's snprintf: with glibc (the host build) every conversion spec
 * the code base writes, with edge values, and millions of seeded
 * pseudo-random specs (flags, width, precision, also *, every length)
 * and values (integers of every size, doubles of every exponent,
 * subnormals, +-0, inf, nan, decimal rounding ties), output and return
 * value byte for byte, also truncated.  The fixed table of expected
 * strings (glibc's) runs everywhere: under musl (the cross build) libc's
 * snprintf IS lib/fmt.c, so only the table checks it there, and it also
 * checks that snprintf/fprintf reach it through musl's vsnprintf and
 * FILE paths. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lib/fmt.h"
#include "t.h"

/* every conversion spec in tools/ lib/ elf/ btf/ bpf/ loader/ (grep) */
static const char *const code_specs[] = {
	"% f", "% o", "% s", "% u", "%#llx", "%#lx", "%*d", "%*llu", "%*s", "%+d",
	"%-*llu", "%-*s", "%-.2f", "%-10.10s", "%-10.3f", "%-10.6f", "%-10lld", "%-10llu", "%-10s", "%-10u",
	"%-11.6f", "%-11s", "%-11u", "%-12.12s", "%-12s", "%-13s", "%-14.14s", "%-14.9f", "%-14llu", "%-14s",
	"%-15.*s", "%-15s", "%-16d", "%-16llx", "%-16s", "%-17.17s", "%-17s", "%-18.9f", "%-18s", "%-20d",
	"%-20s", "%-21s", "%-22s", "%-24s", "%-25s", "%-26s", "%-2d", "%-2lld", "%-2s", "%-30s",
	"%-32s", "%-36s", "%-3d", "%-3lld", "%-3s", "%-3u", "%-48s", "%-4d", "%-4lld", "%-4s",
	"%-4u", "%-51s", "%-5d", "%-5lld", "%-5llu", "%-5s", "%-6.2f", "%-6d", "%-6lld", "%-6llu",
	"%-6s", "%-6u", "%-7.2f", "%-7d", "%-7lld", "%-7llu", "%-7s", "%-7u", "%-8.3f", "%-8.8s",
	"%-8lld", "%-8llu", "%-8s", "%-8u", "%-9.3f", "%-9.6f", "%-9lld", "%-9s", "%.*s", "%.0f",
	"%.100s", "%.130s", "%.14s", "%.15g", "%.15s", "%.16s", "%.17g", "%.1f", "%.20s", "%.23s",
	"%.2f", "%.2s", "%.32s", "%.3f", "%.40s", "%.60s", "%.64s", "%.6f", "%.8s", "%0.2f",
	"%016llx", "%02X", "%02d", "%02ld", "%02x", "%03d", "%03ld", "%03llu", "%04o", "%04x",
	"%06d", "%06ld", "%08o", "%10.3f", "%1023s", "%10lld", "%10llu", "%10s", "%11llu", "%11s",
	"%11u", "%12llu", "%12s", "%14llu", "%15s", "%16.3f", "%16.3lf", "%16lld", "%16llx", "%16s",
	"%18llu", "%18s", "%1s", "%255s", "%2d", "%31s", "%32s", "%34s", "%36s", "%37s",
	"%38s", "%3d", "%3s", "%3u", "%4d", "%4s", "%4zu", "%511s", "%5ld", "%5lld",
	"%5llu", "%5s", "%5u", "%6.2f", "%6.3f", "%63s", "%6lld", "%6llu", "%6s", "%6u",
	"%7.2f", "%7.3f", "%7lld", "%7s", "%8.2f", "%8.3f", "%8d", "%8lld", "%8llu", "%8s",
	"%8u", "%9.2f", "%9.3f", "%9llu", "%9s", "%c", "%d", "%e", "%f", "%g",
	"%ld", "%lld", "%llo", "%llu", "%llx", "%lu", "%p", "%s",
	"%u", "%x", "%zu",
};

/* glibc's output, checked on every libc */
static const struct {
	const char *fmt;
	double v;
	const char *want;
} fixed[] = {
	{ "%.2f", 0.125, "0.12" },
	{ "%.2f", 0.375, "0.38" },
	{ "%.0f", 0.5, "0" },
	{ "%.0f", 1.5, "2" },
	{ "%.0f", 2.5, "2" },
	{ "%.1f", 0.05, "0.1" }, /* 0.05 is 0.05000000000000000277 */
	{ "%.1f", 0.25, "0.2" },
	{ "%.1f", 0.35, "0.3" }, /* 0.34999999999999997780 */
	{ "%.2f", 1.005, "1.00" },
	{ "%.2f", 2.675, "2.67" },
	{ "%.3f", 1.0005, "1.000" },
	{ "%f", 0.0, "0.000000" },
	{ "%f", -0.0, "-0.000000" },
	{ "%.2f", -0.001, "-0.00" },
	{ "%e", 0.0, "0.000000e+00" },
	{ "%g", 0.0, "0" },
	{ "%#g", 0.0, "0.00000" },
	{ "%g", -0.0, "-0" },
	{ "%.17g", 0.1, "0.10000000000000001" },
	{ "%.20f", 0.1, "0.10000000000000000555" },
	{ "%.17g", 1.0 / 3, "0.33333333333333331" },
	{ "%g", 100000.0, "100000" },
	{ "%g", 1000000.0, "1e+06" },
	{ "%g", 999999.5, "1e+06" },
	{ "%g", 0.0001, "0.0001" },
	{ "%g", 0.00001, "1e-05" },
	{ "%g", 0.000099999995, "0.0001" },
	{ "%.3g", 9.9951, "10" },
	{ "%#.3g", 9.9951, "10.0" },
	{ "%.0e", 9.5, "1e+01" },
	{ "%.0e", 8.5, "8e+00" },
	{ "%#.0e", 3.0, "3.e+00" },
	{ "%#.0f", 3.0, "3." },
	{ "%e", 5e-324, "4.940656e-324" },
	{ "%.15e", 2.2250738585072014e-308, "2.225073858507201e-308" },
	{ "%g", DBL_MAX, "1.79769e+308" },
	{ "%.0f", 1e22, "10000000000000000000000" },
	{ "%.0f", 1e23, "99999999999999991611392" },
	{ "%f", 9007199254740993.0, "9007199254740992.000000" },
	{ "%.1f", 0.95, "0.9" },
	{ "%.2e", 1234.5, "1.23e+03" },
	{ "%E", 12345.678, "1.234568E+04" },
	{ "%G", 1e-10, "1E-10" },
	{ "%10.3f", -3.14159, "    -3.142" },
	{ "%-10.3f|", 3.14159, "3.142     |" },
	{ "%010.3f", -3.14159, "-00003.142" },
	{ "%+.1f", 2.0, "+2.0" },
	{ "% .1f", 2.0, " 2.0" },
	{ "%f", INFINITY, "inf" },
	{ "%F", -INFINITY, "-INF" },
	{ "%010f", INFINITY, "       inf" },
	{ "%+e", INFINITY, "+inf" },
	{ "%f", NAN, "nan" },
	{ "%G", NAN, "NAN" },
	{ "%-6f|", NAN, "nan   |" },
	{ "%.2f", 99.995, "100.00" }, /* 99.99500000000000454 */
	{ "%.2f", 99.985, "99.98" }, /* 99.98499999999999943 */
	{ "%.2f", 99.9951, "100.00" },
	{ "%5.1f", 99.96, "100.0" },
	{ "%.1f", 0.0625, "0.1" },
	{ "%.3f", 0.0625, "0.062" },
	{ "%.300f", 1e-300, NULL }, /* compared only with glibc */
};

static int mismatches, glibc_hash_g;

static void same(const char *what, const char *fmt, const char *want, int wantn, const char *got, int gotn)
{
	if (strcmp(want, got) || wantn != gotn) {
		if (++mismatches <= 20)
			printf("# %s: \"%s\": libc \"%s\" (%d), fmt \"%s\" (%d)\n", what, fmt, want, wantn, got, gotn);
	}
}

/* The kinds of argument a conversion takes. */
enum kind { K_INT, K_LONG, K_LLONG, K_SIZE, K_IMAX, K_PTRDIFF, K_DOUBLE, K_STR, K_PTR };

struct arg {
	enum kind k;
	long long i;
	double d;
	const char *s;
};

/* fmt with stars leading int arguments (0, 1 or 2) and a, by libc and by
 * lib/fmt.c, whole and into buffers of n bytes; a mismatch is reported
 * as what. */
static void compare(const char *what, const char *fmt, int nstar, const int *star, const struct arg *a, size_t n)
{
	char want[2048], got[2048];
	int wn = 0, gn = 0;
	size_t size = sizeof(want);

#define BOTH(...)                                                                 \
	do {                                                                      \
		wn = snprintf(want, size, fmt, __VA_ARGS__);                      \
		gn = fmt_snprintf(got, size, fmt, __VA_ARGS__);                   \
	} while (0)
#define BY_KIND(...)                                                              \
	do {                                                                      \
		switch (a->k) {                                                   \
		case K_INT: BOTH(__VA_ARGS__ (int)a->i); break;                   \
		case K_LONG: BOTH(__VA_ARGS__ (long)a->i); break;                 \
		case K_LLONG: BOTH(__VA_ARGS__ a->i); break;                      \
		case K_SIZE: BOTH(__VA_ARGS__ (size_t)a->i); break;               \
		case K_IMAX: BOTH(__VA_ARGS__ (intmax_t)a->i); break;             \
		case K_PTRDIFF: BOTH(__VA_ARGS__ (ptrdiff_t)a->i); break;         \
		case K_DOUBLE: BOTH(__VA_ARGS__ a->d); break;                     \
		case K_STR: BOTH(__VA_ARGS__ a->s); break;                        \
		case K_PTR: BOTH(__VA_ARGS__ (void *)(uintptr_t)a->i); break;     \
		}                                                                 \
	} while (0)
#define FORMAT()                                                                  \
	do {                                                                      \
		memset(want, 'W', sizeof(want));                                  \
		memset(got, 'G', sizeof(got));                                    \
		if (nstar == 0)                                                   \
			BY_KIND();                                                \
		else if (nstar == 1)                                              \
			BY_KIND(star[0], );                                       \
		else                                                              \
			BY_KIND(star[0], star[1], );                              \
	} while (0)
	FORMAT();
	/* glibc's %#g drops the zeros of a mantissa that rounding carried to
	 * 1 (999999.5: "1.e+06", not "1.00000e+06"); no caller writes %#g */
	if (strchr(fmt, '#') && strpbrk(fmt, "gG") && strcmp(want, got) && (strstr(want, ".e") || strstr(want, ".E"))) {
		glibc_hash_g++;
		return;
	}
	if (n < sizeof(want)) {
		size = n;
		FORMAT();
	}
	if (n && (memchr(want, 0, n) == NULL || memchr(got, 0, n) == NULL))
		same(what, fmt, "(unterminated)", wn, "", gn);
	else
		same(what, fmt, n ? want : "", wn, n ? got : "", gn);
	if (n < sizeof(got) && got[n] != 'G')
		same(what, fmt, "(no overrun)", wn, "(overrun)", gn);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static enum kind kind_of(const char *spec, int *nstar)
{
	size_t l = strlen(spec);
	char c = spec[l - 1];
	const char *p;

	*nstar = 0;
	for (p = spec; *p; p++)
		*nstar += *p == '*';
	if (strchr("fFeEgG", c))
		return K_DOUBLE;
	if (c == 's')
		return K_STR;
	if (c == 'p')
		return K_PTR;
	if (c == 'c')
		return K_INT;
	if (l >= 3 && spec[l - 2] == 'l' && spec[l - 3] == 'l')
		return K_LLONG;
	switch (spec[l - 2]) {
	case 'l': return K_LONG;
	case 'z': return K_SIZE;
	case 'j': return K_IMAX;
	case 't': return K_PTRDIFF;
	}
	return K_INT;
}

/* a double of any exponent, a "nice" decimal, a tie, or a special */
static double rnd_double(void)
{
	uint64_t r = rnd(), b;
	double d;

	switch (r % 8) {
	case 0: /* any bits: every exponent, subnormals, inf, nan */
		b = rnd();
		memcpy(&d, &b, sizeof(d));
		return d;
	case 1: /* a tie at some decimal place: k / 2^j */
		return ldexp((double)(int64_t)(rnd() % 200001) - 100000, -(int)(rnd() % 12));
	case 2: { /* short decimals as tools print them */
		static const double p10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };

		return (double)(int64_t)(rnd() % 2000000001) / p10[rnd() % 7] - 1000;
	}
	case 3: {
		static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, DBL_MAX, DBL_TRUE_MIN,
					     -DBL_TRUE_MIN, 1.0, 0.5, 9.5, 0.95, 99.5, 999999.5, 1e15, 1e16, 1e17, 0.1 };

		return sp[rnd() % (sizeof(sp) / sizeof(sp[0]))];
	}
	default: /* a moderate magnitude */
		return ldexp((double)(rnd() >> 11) / 9007199254740992.0, (int)(rnd() % 80) - 40) *
		       (r & 8 ? -1 : 1);
	}
}

static long long rnd_int(void)
{
	uint64_t r = rnd();

	switch (r % 4) {
	case 0: return (long long)rnd();
	case 1: return (long long)(rnd() % 1000) - 500;
	case 2: return (long long)(rnd() >> (rnd() % 64));
	default: return (long long)(int)rnd();
	}
}

static void random_spec(char *spec, int *nstar, int *star, struct arg *a)
{
	static const char *const lens[] = { "", "", "hh", "h", "l", "ll", "z", "j", "t" };
	static const char convs[] = "diuoxXcspfFeEgGfffggeddxs";
	char c = convs[rnd() % (sizeof(convs) - 1)];
	const char *len = "";
	int n = 0;

	*nstar = 0;
	spec[n++] = '%';
	for (const char *f = "-+ #0"; *f; f++)
		if (rnd() % 4 == 0)
			spec[n++] = *f;
	switch (rnd() % 4) {
	case 0: break;
	case 1: n += sprintf(spec + n, "%d", (int)(rnd() % 12)); break;
	case 2: n += sprintf(spec + n, "%d", (int)(rnd() % 40)); break;
	default: spec[n++] = '*', star[(*nstar)++] = (int)(rnd() % 61) - 30; break;
	}
	if (rnd() % 2) {
		spec[n++] = '.';
		switch (rnd() % 4) {
		case 0: break;
		case 1: n += sprintf(spec + n, "%d", (int)(rnd() % 8)); break;
		case 2: n += sprintf(spec + n, "%d", (int)(rnd() % (strchr("fFeEgG", c) ? 60 : 25))); break;
		default: spec[n++] = '*', star[(*nstar)++] = (int)(rnd() % 40) - 10; break;
		}
	}
	if (strchr("diuoxX", c))
		len = lens[rnd() % 9];
	else if (strchr("fFeEgG", c) && rnd() % 4 == 0)
		len = "l";
	n += sprintf(spec + n, "%s%c", len, c);
	spec[n] = 0;
	a->k = kind_of(spec, &n);
	a->i = rnd_int();
	a->d = rnd_double();
	a->s = (const char *[]){ "", "a", "hello", "a longer string of text", "tab\there" }[rnd() % 5];
}

int main(void)
{
	char buf[512], spec[64], fmt2[128];
	int star[2], nstar, n;
	struct arg a;
	FILE *tmp;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (!fixed[i].want)
			continue;
		n = fmt_snprintf(buf, sizeof(buf), fixed[i].fmt, fixed[i].v);
		T_OK(!strcmp(buf, fixed[i].want) && n == (int)strlen(fixed[i].want), "fmt \"%s\" of %.17g: \"%s\" (want \"%s\")",
		     fixed[i].fmt, fixed[i].v, buf, fixed[i].want);
	}
	n = fmt_snprintf(buf, sizeof(buf), "%d %5s|%-5d|%05d|%x|%#o|%c|%%|%3$s", 1, "ab", 3, -4, 255, 8, 'z');
	T_OK(n == -1 && !buf[0] && errno == EINVAL, "positional argument refused, nothing written");
	n = fmt_snprintf(buf, sizeof(buf), "%d %5s|%-5d|%05d|%x|%#o|%c|%%|%.3s|%lld|%hhd|%zu", 1, "ab", 3, -4, 255, 8,
			 'z', "abcdef", -9223372036854775807LL - 1, 300, (size_t)-1);
	T_OK(!strcmp(buf, sizeof(size_t) == 8 ? "1    ab|3    |-0004|ff|010|z|%|abc|-9223372036854775808|44|18446744073709551615"
					  : "1    ab|3    |-0004|ff|010|z|%|abc|-9223372036854775808|44|4294967295"),
	     "integers and strings: \"%s\"", buf);
	n = fmt_snprintf(buf, sizeof(buf), "%ld|%lx|%td|%zd|%jd|%hd|%hhu", -5L, -1L, (ptrdiff_t)-7, (ssize_t)-8,
			 (intmax_t)-9, 40000, -1);
	T_OK(!strcmp(buf, sizeof(long) == 8 ? "-5|ffffffffffffffff|-7|-8|-9|-25536|255" : "-5|ffffffff|-7|-8|-9|-25536|255"),
	     "lengths: \"%s\"", buf);
	n = fmt_snprintf(buf, 6, "%s-%d", "truncated", 42);
	T_OK(n == 12 && !strcmp(buf, "trunc"), "truncated to the buffer, full length returned (%d \"%s\")", n, buf);
	n = fmt_snprintf(NULL, 0, "%.3f", 2.0);
	T_OK(n == 5, "size query with n == 0: %d", n);
	errno = ENOENT;
	fmt_snprintf(buf, sizeof(buf), "%m");
	T_OK(!strcmp(buf, strerror(ENOENT)), "%%m: \"%s\"", buf);

	/* snprintf and a FILE reach the formatter (under musl: lib/fmt.c's
	 * vfprintf behind libc's vsnprintf and fprintf) */
	n = snprintf(buf, sizeof(buf), "%.2f|%8.3e|%g", 0.125, 1234.5, 1e-5);
	T_OK(n == 20 && !strcmp(buf, "0.12|1.234e+03|1e-05"), "snprintf: \"%s\" (%d)", buf, n);
	tmp = tmpfile();
	if (tmp) {
		char big[4000];

		for (int i = 0; i < 300; i++)
			fprintf(tmp, "%d:%.1f%s", i, i / 4.0, i % 50 == 49 ? "\n" : " ");
		n = fprintf(tmp, "%s", "end");
		rewind(tmp);
		size_t got = fread(big, 1, sizeof(big) - 1, tmp);
		big[got] = 0;
		T_OK(n == 3 && !strncmp(big, "0:0.0 1:0.2 2:0.5 3:0.8 4:1.0 5:1.2", 35) && strstr(big, "299:74.8\nend"),
		     "fprintf into a FILE: %zu bytes", got);
		fclose(tmp);
	} else {
		T_OK(0, "tmpfile: %s", strerror(errno));
	}

#ifdef __GLIBC__
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		a = (struct arg){ .k = K_DOUBLE, .d = fixed[i].v };
		compare("table", fixed[i].fmt, 0, star, &a, 2048);
	}
	T_OK(!mismatches, "the fixed table matches glibc (%d mismatches)", mismatches);

	/* the code base's specs, alone and in a line, with edge values */
	{
		static const long long ints[] = { 0, 1, -1, 42, -42, 255, 65535, 2147483647, -2147483648LL, 4294967295LL,
						  9223372036854775807LL, -9223372036854775807LL - 1, 1000000, 123456789 };
		static const double dbls[] = { 0.0, -0.0, 0.125, 0.5, 1.5, 2.5, 0.005, 0.015, 99.995, 1e-7, 123.456,
					       1e21, 1e300, 5e-324, INFINITY, -INFINITY, NAN, 3.14159265358979,
					       1234567.891, 0.000123, 99.5, 1e-4 };
		static const char *strs[] = { "", "x", "execsnoop", "a somewhat longer command name here" };
		int checked = 0;

		mismatches = 0;
		for (size_t i = 0; i < sizeof(code_specs) / sizeof(code_specs[0]); i++) {
			enum kind k = kind_of(code_specs[i], &nstar);
			int stars[] = { 8, -8, 0, 3, 30 };

			for (int s = 0; s < 5; s++) {
				star[0] = stars[s];
				star[1] = stars[(s + 1) % 5];
				snprintf(fmt2, sizeof(fmt2), "[%s] %%d\n", code_specs[i]);
				a.k = k;
				for (size_t j = 0; k == K_DOUBLE && j < sizeof(dbls) / sizeof(dbls[0]); j++) {
					a.d = dbls[j];
					compare("code", code_specs[i], nstar, star, &a, 2048);
					compare("code, truncated", code_specs[i], nstar, star, &a, 4);
					checked += 2;
				}
				for (size_t j = 0; k == K_STR && j < sizeof(strs) / sizeof(strs[0]); j++) {
					a.s = strs[j];
					compare("code", code_specs[i], nstar, star, &a, 2048);
					checked++;
				}
				for (size_t j = 0; k != K_DOUBLE && k != K_STR && j < sizeof(ints) / sizeof(ints[0]); j++) {
					a.i = ints[j];
					compare("code", code_specs[i], nstar, star, &a, 2048);
					compare("code, truncated", code_specs[i], nstar, star, &a, 3);
					checked += 2;
				}
				if (!nstar)
					break;
			}
		}
		T_OK(!mismatches && checked > 3000, "%zu code base specs, %d cases: same as glibc (%d mismatches)",
		     sizeof(code_specs) / sizeof(code_specs[0]), checked, mismatches);
	}

	/* seeded random specs and values */
	{
		int count = getenv("FMT_RANDOM") ? atoi(getenv("FMT_RANDOM")) : 2000000;

		mismatches = 0;
		for (int i = 0; i < count; i++) {
			random_spec(spec, &nstar, star, &a);
			compare("random", spec, nstar, star, &a, i % 16 ? 2048 : rnd() % 12);
		}
		T_OK(!mismatches, "%d random specs and values: same as glibc (%d mismatches; %d glibc %%#g carries not compared)",
		     count, mismatches, glibc_hash_g);
	}

	/* every double class under %.17g, %e and %.3f */
	{
		static const char *const f3[] = { "%.17g", "%.6e", "%.3f" };

		mismatches = 0;
		for (int i = 0; i < 300000; i++) {
			uint64_t b = rnd();

			memcpy(&a.d, &b, sizeof(a.d));
			a.k = K_DOUBLE;
			if (i & 1) /* the exponent range where %f is short */
				a.d = ldexp(frexp(a.d, &n), (int)(rnd() % 200) - 100);
			compare("double", f3[i % 3], 0, star, &a, 2048);
		}
		T_OK(!mismatches, "300000 random doubles under %%.17g, %%.6e, %%.3f: same as glibc (%d mismatches)",
		     mismatches);
	}
#else
	T_SKIP("comparison with glibc's snprintf", "this libc is not glibc: its snprintf is lib/fmt.c itself");
#endif
	T_EXIT();
}
