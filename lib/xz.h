/* xz decoder (the .xz container with the LZMA2 filter), libc only.
 *
 * Small rather than fast: enough to read MiniDebugInfo, the xz-compressed
 * ELF symbol table that Fedora and CentOS keep in .gnu_debugdata.  Input is
 * untrusted: every size, distance and header is checked; corrupt data
 * gives an error, never a crash; memory is bounded by max_out plus ~30 KB
 * of model.  Integrity checks (CRC-32, CRC-64, SHA-256) are skipped over,
 * not verified: the caller parses what comes out. */
#ifndef COREBOX_XZ_H
#define COREBOX_XZ_H

#include <stddef.h>
#include <stdint.h>

/* Decompress the first xz stream of in[0..in_len).  On success returns 0
 * and a malloc'd buffer in *out of *out_len bytes.  Errors (message set
 * via err_set, *out = NULL): -EBADMSG corrupt or truncated data, -ENOTSUP
 * a filter other than LZMA2 alone (BCJ, delta), -EFBIG output larger than
 * max_out bytes, -ENOMEM. */
int xz_decode(const void *in, size_t in_len, uint8_t **out, size_t *out_len, size_t max_out);

/* Raw LZMA2 data in[0..in_len) (no xz container: chunks up to the end
 * byte, as liblzma's raw encoder writes them) of exactly size bytes,
 * coded against the preset dictionary dict[0..dict_len) (liblzma's
 * preset_dict: matches may reach back into it; dict_len 0: none).  On
 * success returns 0 and a malloc'd buffer of size + 1 bytes in *out (the
 * last one free for a NUL); errors as xz_decode, *out = NULL. */
int lzma2_unpack(const void *in, size_t in_len, const void *dict, size_t dict_len, size_t size, uint8_t **out);

#endif
