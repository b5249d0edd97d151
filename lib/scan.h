/* The part of sscanf corebox uses, without libc's vfscanf (in a static
 * musl binary that is vfscanf and its helpers, ~6 KB on arm64).
 *
 * Directives as sscanf's: white space in the format skips any white
 * space (none too); another character must match itself; conversions
 * %d %u %x (with the length modifiers h, hh, l, ll, j, z), %s with an
 * optional width, %c, %n and the assignment-suppressing '*' (%*s, %*d).
 * Integers are strtoull's (leading white space, a sign, %x's optional
 * 0x), stored truncated to the argument's size as sscanf stores them;
 * as musl's sscanf (the C library corebox is built with), "0x" without a
 * hex digit after it is no number for %x (glibc's reads it as 0).
 * Returns the number of conversions assigned, or -1 (EOF) when the input
 * ends before the first one; any other conversion (floats, %[) is a
 * programming error and ends the scan. */
#ifndef COREBOX_SCAN_H
#define COREBOX_SCAN_H

int str_scan(const char *s, const char *fmt, ...) __attribute__((format(scanf, 2, 3)));

#endif
