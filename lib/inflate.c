/* gzip / DEFLATE decoder (RFC 1951, RFC 1952).
 *
 * Huffman codes are canonical, so a code is fully described by how many
 * codes each bit length has (cnt[]) and the symbols sorted by code (sym[]).
 * Decoding walks the lengths one bit at a time: at length l the codes of
 * that length are the cnt[l] consecutive values starting at "first".
 * Codes of up to FAST_BITS bits (nearly all of them) are first looked up
 * in a table indexed by the next input bits: walking bit by bit made
 * inflating a tool's object most of its start-up (0.5 ms for 25 KB). */
#include "inflate.h"
#include "err.h"
#include "xz.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAST_BITS 9

struct huff {
	uint16_t cnt[16]; /* number of codes of each length (cnt[0]: unused symbols) */
	uint16_t sym[288]; /* symbols in code order */
	/* next FAST_BITS input bits -> length << 9 | symbol, 0: longer code */
	uint16_t fast[1 << FAST_BITS];
};

struct inf {
	const uint8_t *in;
	size_t in_len, pos; /* next input byte */
	uint32_t bits; /* pending input bits, LSB first */
	int nbits; /* always <= 7 after a successful getbits() */
	int eof; /* ran out of input: everything read since is 0 */
	char *out;
	size_t len, cap, max, start; /* start: first byte of this gzip member */
	uint16_t lbase[29], dbase[30];
	uint8_t lext[29], dext[30];
	uint32_t crc[256]; /* CRC-32 of each byte value */
};

static int bad(const char *why)
{
	return err_set(EBADMSG, "corrupt compressed data: %s", why);
}

static uint32_t crc32(const uint32_t *t, const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;

	while (n--)
		c = (c >> 8) ^ t[(c ^ *p++) & 255];
	return ~c;
}

/* Adler-32 (RFC 1950): the packed format's checksum, a few times
 * cheaper than CRC-32 here, where inflating is most of an object's open. */
static uint32_t adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	while (n) {
		size_t k = n < 5552 ? n : 5552; /* the most bytes before b could overflow */

		n -= k;
		while (k--) {
			a += *p++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return b << 16 | a;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The next n (0..16) bits; at end of input sets eof and returns 0. */
static unsigned getbits(struct inf *s, int n)
{
	unsigned v;

	while (s->nbits < n) {
		if (s->pos >= s->in_len) {
			s->eof = 1;
			return 0;
		}
		s->bits |= (uint32_t)s->in[s->pos++] << s->nbits;
		s->nbits += 8;
	}
	v = s->bits & ((1u << n) - 1);
	s->bits >>= n;
	s->nbits -= n;
	return v;
}

/* Make room for n more output bytes (plus the final NUL). */
static int room(struct inf *s, size_t n)
{
	size_t need = s->len + n, cap;
	char *p;

	if (need <= s->cap)
		return 0;
	if (n > s->max - s->len)
		return err_set(EFBIG, "compressed data expands to more than %zu bytes", s->max);
	cap = s->cap * 2 > need ? s->cap * 2 : need;
	if (cap > s->max)
		cap = s->max;
	if (!(p = realloc(s->out, cap + 1)))
		return err_set(ENOMEM, "out of memory decompressing gzip data");
	s->out = p;
	s->cap = cap;
	return 0;
}

/* The lookup table of the codes up to FAST_BITS long.  Codes arrive
 * first bit first, i.e. bit-reversed in the LSB-first input bits: code c
 * of length l fills every index whose low l bits are c reversed. */
static void fill_fast(struct huff *h)
{
	unsigned code = 0, k = 0;

	memset(h->fast, 0, sizeof(h->fast));
	for (unsigned l = 1; l < 16; l++, code <<= 1)
		for (unsigned j = 0; j < h->cnt[l]; j++, k++, code++) {
			unsigned rev = 0;

			if (l > FAST_BITS)
				continue;
			for (unsigned b = 0; b < l; b++)
				rev |= ((code >> b) & 1) << (l - 1 - b);
			for (unsigned x = rev; x < 1u << FAST_BITS; x += 1u << l)
				h->fast[x] = (uint16_t)(l << 9 | h->sym[k]);
		}
}

/* Build a code from n bit lengths.  Over-subscribed lengths are rejected;
 * so are incomplete ones, except a code with at most one symbol (RFC 1951
 * allows a lone distance code) or when incomplete_ok. */
static int build(struct huff *h, const uint8_t *len, int n, int incomplete_ok)
{
	uint16_t off[16];
	int i, left = 1;

	memset(h->cnt, 0, sizeof(h->cnt));
	for (i = 0; i < n; i++)
		h->cnt[len[i]]++;
	off[1] = 0;
	for (i = 1; i < 16; i++) {
		left = (left << 1) - h->cnt[i];
		if (left < 0)
			return bad("over-subscribed Huffman code lengths");
		if (i < 15)
			off[i + 1] = off[i] + h->cnt[i];
	}
	if (left && !incomplete_ok && n - h->cnt[0] > 1)
		return bad("incomplete Huffman code lengths");
	for (i = 0; i < n; i++)
		if (len[i])
			h->sym[off[len[i]]++] = i;
	fill_fast(h);
	return 0;
}

/* The next symbol in code h; -1 for a code h does not have.  The hot
 * loop, so it takes input bits itself rather than through getbits(). */
static int decode(struct inf *s, const struct huff *h)
{
	uint32_t bits = s->bits;
	int nbits = s->nbits, code = 0, first = 0, idx = 0;

	/* nbits <= 7: two more bytes make at least FAST_BITS.  Whole bytes
	 * not used go back to the input, so nbits stays <= 7 (stored blocks
	 * and the gzip trailer are read from s->pos). */
	if (s->in_len - s->pos >= 2) {
		uint32_t more = bits | (uint32_t)s->in[s->pos] << nbits | (uint32_t)s->in[s->pos + 1] << (nbits + 8);
		unsigned e = h->fast[more & ((1u << FAST_BITS) - 1)];

		if (e) {
			int l = (int)(e >> 9), left = nbits + 16 - l;

			s->pos += 2 - (size_t)(left / 8);
			s->nbits = left % 8;
			s->bits = (more >> l) & ((1u << s->nbits) - 1);
			return (int)(e & 511);
		}
	}

	for (int l = 1; l < 16; l++) {
		int c = h->cnt[l];

		if (!nbits) {
			if (s->pos >= s->in_len) {
				s->eof = 1;
				break;
			}
			bits = s->in[s->pos++];
			nbits = 8;
		}
		code |= bits & 1;
		bits >>= 1;
		nbits--;
		if (code - first < c) {
			s->bits = bits;
			s->nbits = nbits;
			return h->sym[idx + code - first];
		}
		idx += c;
		first = (first + c) << 1;
		code <<= 1;
	}
	return -1;
}

/* The next symbol of code h from a 64-bit bit buffer (codes() keeps one:
 * fewer refills than getbits()' one byte at a time); -1 for a code h does
 * not have, -2 when the buffer ends first (truncated input). */
static inline __attribute__((always_inline)) int decode64(const struct huff *h, uint64_t *bbp, int *nbp)
{
	uint64_t bb = *bbp;
	unsigned e = h->fast[bb & ((1u << FAST_BITS) - 1)];
	int l, code = 0, first = 0, idx = 0;

	if (e) {
		l = (int)(e >> 9);
		if (l > *nbp)
			return -2;
		*bbp = bb >> l;
		*nbp -= l;
		return (int)(e & 511);
	}
	for (l = 1; l < 16 && l <= *nbp; l++) {
		int c = h->cnt[l];

		code |= (int)(bb & 1);
		bb >>= 1;
		if (code - first < c) {
			*bbp = bb;
			*nbp -= l;
			return h->sym[idx + code - first];
		}
		idx += c;
		first = (first + c) << 1;
		code <<= 1;
	}
	return l < 16 ? -2 : -1;
}

/* Decode one compressed block's symbols with literal/length code lh and
 * distance code dh, up to the end-of-block symbol.  The hot loop: its
 * input bits are a local 64-bit buffer, refilled once a symbol (a length,
 * a distance and their extra bits take at most 48 bits), and the whole
 * bytes left in it go back to the input at the end. */
static int codes(struct inf *s, const struct huff *lh, const struct huff *dh)
{
	const uint8_t *in = s->in;
	size_t pos = s->pos, in_len = s->in_len;
	uint64_t bb = s->bits;
	int nb = s->nbits, err = 0;

	for (;;) {
		int sym, x;
		size_t n, dist;

		while (nb <= 56 && pos < in_len) {
			bb |= (uint64_t)in[pos++] << nb;
			nb += 8;
		}
		sym = decode64(lh, &bb, &nb);
		if (sym < 256) {
			if (sym < 0) {
				err = bad(sym == -2 ? "truncated" : "invalid literal/length code");
				break;
			}
			if (s->len >= s->cap && (err = room(s, 1)))
				break;
			s->out[s->len++] = (char)sym;
			continue;
		}
		if (sym == 256)
			break;
		sym -= 257;
		if (sym >= 29) {
			err = bad("invalid length symbol");
			break;
		}
		x = s->lext[sym];
		if (nb < x) {
			err = bad("truncated");
			break;
		}
		n = s->lbase[sym] + (size_t)(bb & ((1u << x) - 1));
		bb >>= x;
		nb -= x;
		sym = decode64(dh, &bb, &nb);
		if (sym < 0 || sym >= 30) {
			err = bad(sym == -2 ? "truncated" : "invalid distance code");
			break;
		}
		x = s->dext[sym];
		if (nb < x) {
			err = bad("truncated");
			break;
		}
		dist = s->dbase[sym] + (size_t)(bb & ((1u << x) - 1));
		bb >>= x;
		nb -= x;
		if (dist > s->len - s->start) {
			err = bad("distance too far back");
			break;
		}
		if (n > s->cap - s->len && (err = room(s, n)))
			break;
		{
			char *p = s->out + s->len;
			const char *q = p - dist;

			/* matches are short: 8 bytes a move (not memcpy(), which
			 * -Os makes a slow-starting rep movsb), then byte by byte,
			 * also when source and destination overlap */
			s->len += n;
			for (; n >= 8 && dist >= 8; n -= 8, p += 8, q += 8)
				memcpy(p, q, 8);
			while (n--)
				*p++ = *q++;
		}
	}
	for (; nb >= 8; nb -= 8)
		pos--;
	s->pos = pos;
	s->bits = (uint32_t)(bb & ((1u << nb) - 1));
	s->nbits = nb;
	return err;
}

static int stored(struct inf *s)
{
	const uint8_t *p = s->in + s->pos;
	size_t n;
	int err;

	s->bits = s->nbits = 0; /* skip to a byte boundary */
	if (s->in_len - s->pos < 4)
		return bad("truncated");
	n = p[0] | p[1] << 8;
	if ((size_t)(p[2] | p[3] << 8) != (~n & 0xffff))
		return bad("stored block length check failed");
	s->pos += 4;
	if (s->in_len - s->pos < n)
		return bad("truncated");
	if ((err = room(s, n)))
		return err;
	memcpy(s->out + s->len, p + 4, n);
	s->len += n;
	s->pos += n;
	return 0;
}

static int fixed(struct inf *s, struct huff *lh, struct huff *dh)
{
	uint8_t len[288];
	int i;

	for (i = 0; i < 288; i++)
		len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	build(lh, len, 288, 0);
	memset(len, 5, 30);
	build(dh, len, 30, 1); /* 30 of 32 five-bit codes */
	return codes(s, lh, dh);
}

static int dynamic(struct inf *s, struct huff *lh, struct huff *dh)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	uint8_t len[286 + 30] = { 0 };
	int nlen, ndist, ncode, i, err;

	nlen = getbits(s, 5) + 257;
	ndist = getbits(s, 5) + 1;
	ncode = getbits(s, 4) + 4;
	for (i = 0; i < ncode; i++)
		len[order[i]] = getbits(s, 3);
	if (s->eof)
		return bad("truncated");
	if (nlen > 286 || ndist > 30)
		return bad("too many length or distance codes");
	if ((err = build(lh, len, 19, 0)))
		return err;
	for (i = 0; i < nlen + ndist;) {
		int sym = decode(s, lh), rep, v = 0;

		if (s->eof)
			return bad("truncated");
		if (sym < 0)
			return bad("invalid code length code");
		if (sym < 16) {
			len[i++] = sym;
			continue;
		}
		if (sym == 16) {
			if (!i)
				return bad("repeat with no previous length");
			v = len[i - 1];
			rep = 3 + getbits(s, 2);
		} else if (sym == 17) {
			rep = 3 + getbits(s, 3);
		} else {
			rep = 11 + getbits(s, 7);
		}
		if (rep > nlen + ndist - i)
			return bad("code lengths overflow");
		while (rep--)
			len[i++] = v;
	}
	if (!len[256])
		return bad("no end-of-block code");
	if ((err = build(lh, len, nlen, 0)) || (err = build(dh, len + nlen, ndist, 0)))
		return err;
	return codes(s, lh, dh);
}

/* The DEFLATE blocks from s->pos up to and including the last one; on
 * return the input is at the next byte boundary. */
static int blocks(struct inf *s)
{
	struct huff lh, dh;
	int last, err;

	do {
		int type;

		last = getbits(s, 1);
		type = getbits(s, 2);
		if (s->eof)
			return bad("truncated");
		if (type == 0)
			err = stored(s);
		else if (type == 1)
			err = fixed(s, &lh, &dh);
		else if (type == 2)
			err = dynamic(s, &lh, &dh);
		else
			err = bad("invalid block type");
		if (err)
			return err;
	} while (!last);
	s->bits = s->nbits = 0;
	return 0;
}

/* One gzip member starting at s->pos: header, DEFLATE blocks, trailer. */
static int member(struct inf *s)
{
	const uint8_t *p = s->in + s->pos;
	size_t n = s->in_len - s->pos, i = 10;
	int flg, err;

	if (n < 2 || p[0] != 0x1f || p[1] != 0x8b)
		return bad("bad magic (not gzip data)");
	if (n < 10)
		return bad("truncated");
	flg = p[3];
	if (p[2] != 8 || flg & 0xe0)
		return bad("unknown compression method or flags");
	if (flg & 4) /* FEXTRA */
		i += 2 + (n < 12 ? 0 : p[10] | p[11] << 8);
	if (flg & 8) /* FNAME */
		for (; i < n && p[i++];)
			;
	if (flg & 16) /* FCOMMENT */
		for (; i < n && p[i++];)
			;
	if (flg & 2) { /* FHCRC */
		if (i + 2 > n)
			return bad("truncated");
		if ((crc32(s->crc, p, i) & 0xffff) != (uint32_t)(p[i] | p[i + 1] << 8))
			return bad("header CRC mismatch");
		i += 2;
	}
	if (i >= n) /* also catches a name or comment without its NUL */
		return bad("truncated");
	s->pos += i;
	s->start = s->len;
	if ((err = blocks(s)))
		return err;
	if (s->in_len - s->pos < 8)
		return bad("truncated");
	p = s->in + s->pos;
	if (le32(p) != crc32(s->crc, (uint8_t *)s->out + s->start, s->len - s->start))
		return bad("CRC mismatch");
	if (le32(p + 4) != (uint32_t)(s->len - s->start))
		return bad("length mismatch");
	s->pos += 8;
	return 0;
}

/* The length and distance code bases, and the CRC table (gzip only). */
static void tables(struct inf *s, bool crc)
{
	uint32_t c;
	int i, b;

	for (i = 0; crc && i < 256; i++) {
		c = i;
		for (b = 0; b < 8; b++)
			c = c >> 1 ^ (c & 1 ? 0xedb88320 : 0);
		s->crc[i] = c;
	}
	for (i = 0, b = 3; i < 29; i++) {
		s->lext[i] = i < 8 || i == 28 ? 0 : (i - 4) >> 2;
		s->lbase[i] = i < 28 ? b : 258;
		b += 1 << s->lext[i];
	}
	for (i = 0, b = 1; i < 30; i++) {
		s->dext[i] = i < 4 ? 0 : (i - 2) >> 1;
		s->dbase[i] = b;
		b += 1 << s->dext[i];
	}
}

int gunzip(const void *in, size_t in_len, char **out, size_t *out_len, size_t max_out)
{
	struct inf s = { .in = in, .in_len = in_len, .max = max_out };
	size_t hint = in_len >= 18 ? le32(s.in + in_len - 4) : 0;
	int err;

	tables(&s, true);
	/* Size the buffer from the (untrusted) ISIZE trailer; DEFLATE cannot
	 * expand more than about 1032:1, so a lying trailer costs little. */
	if (hint / 1032 > in_len)
		hint = 0;
	s.cap = hint < max_out ? hint : max_out;
	s.out = malloc(s.cap + 1);
	if (!s.out)
		return err_set(ENOMEM, "out of memory decompressing gzip data");
	do
		err = member(&s);
	while (!err && s.in_len - s.pos >= 2 && s.in[s.pos] == 0x1f && s.in[s.pos + 1] == 0x8b);
	if (err) {
		free(s.out);
		*out = NULL;
		if (out_len)
			*out_len = 0;
		return err;
	}
	s.out[s.len] = 0;
	*out = s.out;
	if (out_len)
		*out_len = s.len;
	return 0;
}

int cbz_unpack(const void *in, size_t in_len, const void *dict, size_t dict_len, char **out, size_t *out_len,
	       size_t max_out)
{
	struct inf s = { .in = in, .in_len = in_len };
	const uint8_t *p = in;
	size_t size;
	int err;

	*out = NULL;
	if (out_len)
		*out_len = 0;
	if (!cbz_is(in, in_len) || in_len < CBZ_HEADER)
		return bad("not corebox packed data");
	if (p[3] & ~(CBZ_DICT | CBZ_LZMA2))
		return bad("unknown packed-data flags");
	if ((p[3] & CBZ_DICT) && !dict_len)
		return err_set(EINVAL, "packed data needs its preset dictionary, and none was given");
	if (!(p[3] & CBZ_DICT))
		dict_len = 0;
	size = le32(p + 4);
	if (size > max_out)
		return err_set(EFBIG, "packed data expands to more than %zu bytes", max_out);
	if (p[3] & CBZ_LZMA2) {
		uint8_t *o;

		if ((err = lzma2_unpack(p + CBZ_HEADER, in_len - CBZ_HEADER, dict, dict_len, size, &o)) < 0)
			return err;
		if (le32(p + 8) != adler32(o, size)) {
			free(o);
			return bad("checksum mismatch");
		}
		o[size] = 0;
		*out = (char *)o;
		if (out_len)
			*out_len = size;
		return 0;
	}
	tables(&s, false);
	/* The dictionary goes in front of the output, so a match may reach
	 * back into it (s.start = 0); the output moves down at the end. */
	s.max = dict_len + size;
	s.cap = s.max;
	s.out = malloc(s.cap + 1);
	if (!s.out)
		return err_set(ENOMEM, "out of memory decompressing packed data");
	if (dict_len)
		memcpy(s.out, dict, dict_len);
	s.len = dict_len;
	s.pos = CBZ_HEADER;
	err = blocks(&s);
	if (!err && s.len != s.max)
		err = bad("length mismatch");
	if (!err && le32(p + 8) != adler32((uint8_t *)s.out + dict_len, size))
		err = bad("checksum mismatch");
	if (err) {
		free(s.out);
		return err;
	}
	if (dict_len)
		memmove(s.out, s.out + dict_len, size);
	s.out[size] = 0;
	*out = s.out;
	if (out_len)
		*out_len = size;
	return 0;
}
