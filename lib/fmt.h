/* The printf formatter of the whole binary.  In the static musl build
 * lib/fmt.c defines vfprintf itself, so printf, fprintf, snprintf,
 * vsnprintf, dprintf and asprintf (which musl routes through vfprintf)
 * format here and musl's vfprintf.o is never linked: its fmt_fp does
 * its arithmetic in long double, on arm64 software binary128 routines
 * (~14 KB with them).  Floats are converted exactly (big integers) and
 * rounded to nearest, ties to even, as glibc prints them.
 *
 * Conversions: d i u o x X c s p % m, f F e E g G; flags - + space # 0;
 * width and precision, also *; lengths hh h l ll z j t (l alone for the
 * floats).  Not supported (-1, EINVAL, nothing written, as for any
 * invalid conversion): %n, %a/%A, %lc/%ls, long double (%L), positional
 * arguments (%1$d).  No caller uses them.  Where glibc and musl differ
 * this prints glibc's text (the oracles' libc): %p of NULL "(nil)", a
 * NULL %.3s "" (musl: "0", "(nu"); except %#g of a value that rounding
 * carries to a power of 10, which keeps its zeros as C says ("1.00000e+06";
 * glibc drops them: "1.e+06").
 *
 * fmt_vsnprintf is vsnprintf under this formatter on any libc (the unit
 * test compares it with glibc's). */
#ifndef COREBOX_FMT_H
#define COREBOX_FMT_H

#include <stdarg.h>
#include <stddef.h>

int fmt_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int fmt_snprintf(char *s, size_t n, const char *fmt, ...);

#endif
