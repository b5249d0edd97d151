/* gzip (RFC 1952) / DEFLATE (RFC 1951) decoder, libc only.
 *
 * Small rather than fast: enough to read /proc/config.gz on hosts without
 * /boot/config-$(uname -r).  Input is untrusted: every length, distance and
 * code is checked, and corrupt data gives an error, never a crash. */
#ifndef COREBOX_INFLATE_H
#define COREBOX_INFLATE_H

#include <stddef.h>

/* Decompress the gzip data in[0..in_len) (one member, or several
 * concatenated ones; bytes after the last member that do not start a new
 * member are ignored).  On success returns 0 and a malloc'd, NUL-terminated
 * buffer in *out holding *out_len bytes.  Errors (message set via err_set,
 * *out = NULL): -EBADMSG corrupt or truncated data, -EFBIG output larger
 * than max_out bytes, -ENOMEM. */
int gunzip(const void *in, size_t in_len, char **out, size_t *out_len, size_t max_out);

#endif
