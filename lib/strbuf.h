/* A growable NUL-terminated string (folded stacks, JSON lines, the
 * Prometheus file).  A zeroed struct is an empty buffer; s may be NULL
 * until the first add or reset. */
#ifndef COREBOX_STRBUF_H
#define COREBOX_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;               /* NUL-terminated, "" after strbuf_reset */
	size_t len, cap;
};

void strbuf_reset(struct strbuf *b);
void strbuf_add(struct strbuf *b, const char *s);
void strbuf_addn(struct strbuf *b, const char *s, size_t n);
void strbuf_addc(struct strbuf *b, char c);
void strbuf_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *b);

/* Length (2..4) of the valid UTF-8 sequence at s (at most n bytes; no
 * overlongs or surrogates; C1 controls count as valid: JSON takes them),
 * or 0. */
size_t utf8_len(const unsigned char *s, size_t n);

/* Text from files or the kernel made safe for a terminal, as
 * str_escape(..., "\n\t") (lib/util.h) does: printable text (UTF-8
 * included), newlines and tabs unchanged, anything else as \xHH, so
 * escaping twice changes nothing. */
void strbuf_add_safe(struct strbuf *b, const char *s);
/* s escaped by str_escape's rule, the characters in keep (NULL: none)
 * passing raw: a column of untrusted text on one line (keep NULL). */
void strbuf_add_escaped(struct strbuf *b, const char *s, const char *keep);

#endif
