/* Small libc-level helpers used by every layer (no BPF knowledge here). */
#ifndef COREBOX_UTIL_H
#define COREBOX_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Open path read-only if it is a regular file.  The open never blocks (a
 * FIFO or a device given where a file is expected would hang a blocking
 * open or read forever): O_NONBLOCK, fstat, then blocking again.  Returns
 * the fd (and *st when not NULL) or -errno with a message naming what the
 * path is instead ("... is a FIFO, not a regular file"). */
int open_regular(const char *path, struct stat *st);
/* "a FIFO", "a directory", "a character device", ... for messages. */
const char *file_kind(mode_t mode);

/* Read a whole regular file into a malloc'd, NUL-terminated buffer (at
 * most max bytes: -EFBIG beyond, refused before reading when its size says
 * so).  Works for /proc and sysfs files whose st_size lies.  FIFOs and
 * devices are refused (open_regular).  Returns 0 or -errno (message set). */
int read_file(const char *path, size_t max, char **buf, size_t *len);
/* Read a small text file (first line) into buf; strips the newline. */
int read_line(const char *path, char *buf, size_t size);
/* Write a string to a file (tracefs control files). */
int write_file(const char *path, const char *s, int append);

/* Allocation that exits with a message on failure (corebox cannot do
 * anything useful without a few KiB of memory). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Keep file descriptors >= 3 (a rescue shell may start us with stdio
 * closed) and close-on-exec.  Returns the (possibly new) fd. */
int fd_good(int fd);

/* Untrusted text (names and strings from files, the traced system, the
 * command line) made safe for a terminal or a log line, by the one rule
 * every escaping place shares (str_escape_piece): every byte that is not
 * printable - C0 controls (newline, tab, ESC included), DEL, bytes that
 * are not well-formed UTF-8, UTF-8 encoded C1 controls - becomes \xNN,
 * and in a string that has such a byte each backslash becomes \\ as well
 * (so the escaped string reads back: every backslash starts an escape);
 * a string of printable text passes byte for byte (as libbpf-tools
 * prints it).  Characters in keep (e.g. "\n") pass as they are.  out is
 * always terminated (truncated to size, never mid-escape).  Returns out. */
char *str_escape(char *out, size_t size, const char *s, const char *keep);
/* The rule itself: the piece (NUL-terminated, at most 4 bytes) the
 * character at p becomes; returns the bytes of p it took.  escaping:
 * str_needs_escape(the whole string, keep). */
size_t str_escape_piece(const unsigned char *p, const char *keep, bool escaping, char piece[5]);
/* Would str_escape escape anything in s (other than backslashes)? */
bool str_needs_escape(const char *s, const char *keep);
/* fputs(str_escape(s, keep)) without a size limit. */
void fputs_escaped(const char *s, const char *keep, FILE *f);
/* Length of the printable character at p (1-4 bytes), or 0 when the byte
 * at p must be escaped (the rule of str_escape). */
size_t str_printable_len(const unsigned char *p);

/* Monotonic time in nanoseconds. */
uint64_t now_ns(void);

#endif
