/* Small libc-level helpers used by every layer (no BPF knowledge here). */
#ifndef COREBOX_UTIL_H
#define COREBOX_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Read a whole file into a malloc'd, NUL-terminated buffer (at most max
 * bytes; -EFBIG beyond).  Works for /proc and sysfs files whose st_size
 * lies.  Returns 0 or -errno (message set). */
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

/* Monotonic time in nanoseconds. */
uint64_t now_ns(void);

#endif
