/* strtod for the three options that take a fraction (funcslower -m/-u,
 * tcpconnlat's delay, systrace --duration), without libc's strtod: in a
 * static musl binary that is __floatscan with its long double arithmetic,
 * on arm64 software 128-bit float routines (~11 KB there).
 *
 * The syntax is strtod's: leading white space, a sign, decimal digits
 * with an optional point and e[sign]DIGITS exponent, or 0x hex digits
 * with an optional point and p[sign]DIGITS binary exponent; the value is
 * the same double (rounded to nearest, ties to even, at any length and
 * into the subnormal range).  Returns 0 when all of s is such a number
 * and strtod would read it whole without ERANGE; -1 otherwise: trailing
 * bytes, no digits, overflow, underflow to zero or an inexact subnormal,
 * and also "inf" and "nan", which every caller refuses anyway. */
#ifndef COREBOX_STRDOUBLE_H
#define COREBOX_STRDOUBLE_H

int str_double(const char *s, double *out);

#endif
