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
 * overlongs or surrogates), or 0. */
size_t utf8_len(const unsigned char *s, size_t n);

/* Text from files or the kernel (names, paths, comms) made safe for a
 * terminal: control bytes other than newline and tab, DEL, C1 controls
 * and bytes that are not valid UTF-8 become \xHH.  Printable text
 * (UTF-8 included) is unchanged, so escaping twice changes nothing. */
void strbuf_add_safe(struct strbuf *b, const char *s);
/* The same into a fixed buffer (truncated, always terminated); returns buf. */
char *str_safe(const char *s, char *buf, size_t size);

#endif
