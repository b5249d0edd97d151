/* One-line error messages shared by every layer.
 *
 * Functions that can fail return a negative errno and record a readable
 * message with err_set(); callers add context with err_prefix() on the way
 * up, and the tool finally prints err_msg() once.  This keeps elf/, btf/,
 * bpf/ and loader/ free of printing while still giving the user "what
 * failed, why, what to do" in one line. */
#ifndef COREBOX_ERR_H
#define COREBOX_ERR_H

#include <stdarg.h>

/* Record a message (printf format) and return -errnum (errnum > 0). */
int err_set(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every formatted piece is escaped for the terminal (names in messages
 * come from untrusted files): control bytes, newlines included, and
 * malformed UTF-8 become \xNN.  err_set_lines keeps newlines (a verifier
 * log tail), escaping the rest. */
int err_set_lines(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like err_set, but appends ": strerror(errnum)" (and, out of file
 * descriptors, the limit and how to raise it). */
int err_sys(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepend "context: " to the current message; returns -errnum unchanged. */
int err_prefix(int neg_errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last recorded message ("" when none). */
const char *err_msg(void);
void err_clear(void);

#endif
