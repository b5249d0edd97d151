/* gzip (RFC 1952) / DEFLATE (RFC 1951) decoder, libc only.
 *
 * Small rather than fast: enough to read /proc/config.gz on hosts without
 * /boot/config-$(uname -r).  Input is untrusted: every length, distance and
 * code is checked, and corrupt data gives an error, never a crash. */
#ifndef COREBOX_INFLATE_H
#define COREBOX_INFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Decompress the gzip data in[0..in_len) (one member, or several
 * concatenated ones; bytes after the last member that do not start a new
 * member are ignored).  On success returns 0 and a malloc'd, NUL-terminated
 * buffer in *out holding *out_len bytes.  Errors (message set via err_set,
 * *out = NULL): -EBADMSG corrupt or truncated data, -EFBIG output larger
 * than max_out bytes, -ENOMEM. */
int gunzip(const void *in, size_t in_len, char **out, size_t *out_len, size_t max_out);

/* corebox's packed format (tools/bpfpack.py writes it): the bytes "cbz",
 * a flags byte (CBZ_DICT: coded against a preset dictionary; CBZ_LZMA2:
 * the data is raw LZMA2 (lib/xz.h), else raw DEFLATE), the unpacked size
 * and its Adler-32 (u32 little-endian each), then the data.  The embedded
 * BPF objects share one dictionary, so each is stored without the bytes
 * they all have in common, and still unpacked alone. */
#define CBZ_HEADER 12
#define CBZ_DICT 1
#define CBZ_LZMA2 4

static inline bool cbz_is(const void *in, size_t len)
{
	return len >= 3 && !memcmp(in, "cbz", 3);
}

/* Unpack packed data in[0..in_len) with the dictionary dict[0..dict_len)
 * (the dictionary's own bytes, not packed; ignored when the data was not
 * deflated against one).  Returns like gunzip(); also -EINVAL when the
 * data needs a dictionary and dict_len is 0. */
int cbz_unpack(const void *in, size_t in_len, const void *dict, size_t dict_len, char **out, size_t *out_len,
	       size_t max_out);

#endif
