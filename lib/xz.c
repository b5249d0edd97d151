/* xz / LZMA2 / LZMA decoder: see xz.h.
 *
 * The whole output is one buffer, so it is also the LZMA dictionary:
 * a match copies from earlier output (never from before the last
 * dictionary reset).  The range decoder reads only inside the current
 * LZMA2 chunk; running past it sets an error and yields zeros. */
#include "xz.h"
#include "err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NSTATES 12
#define POS_MAX 16   /* pb <= 4 */
#define LIT_CODERS 16 /* lc + lp <= 4 in LZMA2 */

struct len_coder {
	uint16_t choice, choice2, low[POS_MAX][8], mid[POS_MAX][8], high[256];
};

struct model { /* every probability starts at 1024 (one half) */
	uint16_t is_match[NSTATES][POS_MAX], is_rep[NSTATES], is_rep_g0[NSTATES], is_rep_g1[NSTATES],
		is_rep_g2[NSTATES], is_rep0_long[NSTATES][POS_MAX];
	uint16_t dist_slot[4][64], dist_special[115], dist_align[16];
	struct len_coder match_len, rep_len;
	uint16_t literal[LIT_CODERS][0x300];
};

struct xz {
	const uint8_t *in;
	size_t pos, end;       /* range decoder input: in[pos..end) */
	uint32_t range, code;
	int err;
	uint8_t *out;
	size_t len, cap, max, dict; /* dict: output offset of the last dictionary reset */
	unsigned lc, lp, pb, state;
	uint32_t rep[4];
	int have_props, have_state;
	struct model m;
};

static int bad(const char *why)
{
	return err_set(EBADMSG, "corrupt xz data: %s", why);
}

static uint8_t next_byte(struct xz *x)
{
	if (x->pos >= x->end) {
		x->err = 1;
		return 0;
	}
	return x->in[x->pos++];
}

static void normalize(struct xz *x)
{
	if (x->range < (1u << 24)) {
		x->range <<= 8;
		x->code = x->code << 8 | next_byte(x);
	}
}

/* Inline where most bits are decoded (the literal loops: 8 a byte),
 * called elsewhere. */
static inline __attribute__((always_inline)) unsigned bit_inline(struct xz *x, uint16_t *p)
{
	uint32_t bound = (x->range >> 11) * *p;
	unsigned b;

	if (x->code < bound) {
		x->range = bound;
		*p += (2048 - *p) >> 5;
		b = 0;
	} else {
		x->range -= bound;
		x->code -= bound;
		*p -= *p >> 5;
		b = 1;
	}
	if (x->range < (1u << 24)) {
		x->range <<= 8;
		x->code = x->code << 8 | next_byte(x);
	}
	return b;
}

static unsigned bit(struct xz *x, uint16_t *p)
{
	return bit_inline(x, p);
}

static unsigned tree(struct xz *x, uint16_t *p, int n)
{
	unsigned m = 1;

	for (int i = 0; i < n; i++)
		m = m << 1 | bit(x, &p[m]);
	return m - (1u << n);
}

static unsigned tree_rev(struct xz *x, uint16_t *p, int n)
{
	unsigned m = 1, sym = 0;

	for (int i = 0; i < n; i++) {
		unsigned b = bit(x, &p[m]);

		m = m << 1 | b;
		sym |= b << i;
	}
	return sym;
}

static unsigned length(struct xz *x, struct len_coder *l, unsigned ps)
{
	if (!bit(x, &l->choice))
		return tree(x, l->low[ps], 3);
	if (!bit(x, &l->choice2))
		return 8 + tree(x, l->mid[ps], 3);
	return 16 + tree(x, l->high, 8);
}

static uint32_t distance(struct xz *x, unsigned len)
{
	unsigned slot = tree(x, x->m.dist_slot[len < 3 ? len : 3], 6), n;
	uint32_t d;

	if (slot < 4)
		return slot;
	n = (slot >> 1) - 1;
	d = (2u | (slot & 1)) << n;
	if (slot < 14)
		return d + tree_rev(x, x->m.dist_special + d - slot, (int)n);
	for (unsigned i = 0, t = 0; i < n - 4; i++) { /* direct bits */
		x->range >>= 1;
		t = x->code >= x->range;
		if (t)
			x->code -= x->range;
		d += t << (n - 1 - i);
		normalize(x);
	}
	return d + tree_rev(x, x->m.dist_align, 4);
}

static int grow(struct xz *x, size_t need)
{
	if (need <= x->cap)
		return 0;
	if (need > x->max)
		return err_set(EFBIG, "xz data expands to more than %zu bytes", x->max);
	size_t cap = x->cap ? x->cap : 65536;

	while (cap < need)
		cap *= 2;
	if (cap > x->max)
		cap = x->max;
	uint8_t *o = realloc(x->out, cap);

	if (!o)
		return err_set(ENOMEM, "out of memory decompressing xz data");
	x->out = o;
	x->cap = cap;
	return 0;
}

static void reset_state(struct xz *x)
{
	uint16_t *p = (uint16_t *)&x->m;

	for (size_t i = 0; i < sizeof(x->m) / 2; i++)
		p[i] = 1024;
	x->state = 0;
	memset(x->rep, 0, sizeof(x->rep));
	x->have_state = 1;
}

/* One LZMA chunk: in[pos..end) decodes to exactly usize more bytes. */
static int lzma_chunk(struct xz *x, size_t usize)
{
	size_t stop = x->len + usize;
	int r = grow(x, stop);

	if (r)
		return r;
	x->range = 0xffffffff;
	x->code = 0;
	if (next_byte(x) != 0)
		return bad("range coder does not start with 0");
	for (int i = 0; i < 4; i++)
		x->code = x->code << 8 | next_byte(x);
	while (x->len < stop && !x->err) {
		size_t pos = x->len - x->dict;
		unsigned ps = (unsigned)pos & ((1u << x->pb) - 1), s = x->state, len;

		if (!bit(x, &x->m.is_match[s][ps])) {
			uint8_t prev = pos ? x->out[x->len - 1] : 0;
			uint16_t *p = x->m.literal[(((unsigned)pos & ((1u << x->lp) - 1)) << x->lc) + (prev >> (8 - x->lc))];
			unsigned sym = 1;

			if (s >= 7) { /* after a match: the byte at rep0 guides */
				if (x->rep[0] >= pos)
					return bad("distance before the dictionary");
				unsigned mb = x->out[x->len - x->rep[0] - 1];

				while (sym < 0x100) {
					unsigned b = mb >> 7 & 1, got;

					mb <<= 1;
					got = bit_inline(x, &p[((1 + b) << 8) + sym]);
					sym = sym << 1 | got;
					if (got != b)
						break;
				}
			}
			while (sym < 0x100)
				sym = sym << 1 | bit_inline(x, &p[sym]);
			x->out[x->len++] = (uint8_t)sym;
			x->state = s < 4 ? 0 : s < 10 ? s - 3 : s - 6;
			continue;
		}
		if (!bit(x, &x->m.is_rep[s])) {
			len = length(x, &x->m.match_len, ps);
			x->state = s < 7 ? 7 : 10;
			x->rep[3] = x->rep[2];
			x->rep[2] = x->rep[1];
			x->rep[1] = x->rep[0];
			x->rep[0] = distance(x, len);
		} else {
			if (!bit(x, &x->m.is_rep_g0[s])) {
				if (!bit(x, &x->m.is_rep0_long[s][ps])) { /* one byte at rep0 */
					if (x->rep[0] >= pos)
						return bad("distance before the dictionary");
					x->out[x->len] = x->out[x->len - x->rep[0] - 1];
					x->len++;
					x->state = s < 7 ? 9 : 11;
					continue;
				}
			} else {
				uint32_t d;

				if (!bit(x, &x->m.is_rep_g1[s])) {
					d = x->rep[1];
				} else {
					if (!bit(x, &x->m.is_rep_g2[s])) {
						d = x->rep[2];
					} else {
						d = x->rep[3];
						x->rep[3] = x->rep[2];
					}
					x->rep[2] = x->rep[1];
				}
				x->rep[1] = x->rep[0];
				x->rep[0] = d;
			}
			len = length(x, &x->m.rep_len, ps);
			x->state = s < 7 ? 8 : 11;
		}
		len += 2;
		if (x->rep[0] >= pos) /* also the end marker, 0xffffffff: not in LZMA2 */
			return bad("distance before the dictionary");
		if (len > stop - x->len)
			return bad("match past the chunk's end");
		for (size_t from = x->len - x->rep[0] - 1; len--;) /* may overlap: bytewise */
			x->out[x->len++] = x->out[from++];
	}
	if (x->err)
		return bad("LZMA chunk ends early");
	return 0;
}

/* LZMA2: chunks until the 0 control byte; in[pos..lim). */
static int lzma2(struct xz *x, size_t *pos, size_t lim)
{
	const uint8_t *in = x->in;

	for (;;) {
		unsigned c;
		size_t usize, csize;

		if (*pos >= lim)
			return bad("LZMA2 data truncated");
		c = in[(*pos)++];
		if (c == 0)
			return 0;
		if (c == 1 || c == 2) { /* stored */
			if (lim - *pos < 2)
				return bad("LZMA2 data truncated");
			usize = ((size_t)in[*pos] << 8 | in[*pos + 1]) + 1;
			*pos += 2;
			if (c == 1)
				x->dict = x->len;
			else if (!x->have_props && !x->len)
				return bad("LZMA2 starts without a dictionary reset");
			if (lim - *pos < usize)
				return bad("LZMA2 stored chunk truncated");
			int r = grow(x, x->len + usize);

			if (r)
				return r;
			memcpy(x->out + x->len, in + *pos, usize);
			x->len += usize;
			*pos += usize;
			continue;
		}
		if (c < 0x80)
			return bad("bad LZMA2 control byte");
		if (lim - *pos < 4)
			return bad("LZMA2 data truncated");
		usize = ((size_t)(c & 0x1f) << 16 | (size_t)in[*pos] << 8 | in[*pos + 1]) + 1;
		csize = ((size_t)in[*pos + 2] << 8 | in[*pos + 3]) + 1;
		*pos += 4;
		unsigned reset = c >> 5 & 3;

		if (reset == 3)
			x->dict = x->len;
		if (reset >= 2) {
			unsigned p;

			if (*pos >= lim)
				return bad("LZMA2 data truncated");
			p = in[(*pos)++];
			if (p >= 9 * 5 * 5)
				return bad("bad LZMA properties");
			x->lc = p % 9;
			x->lp = p / 9 % 5;
			x->pb = p / 45;
			if (x->lc + x->lp > 4)
				return bad("LZMA2 lc + lp above 4");
			x->have_props = 1;
		}
		if (!x->have_props)
			return bad("LZMA chunk without properties");
		if (reset >= 1)
			reset_state(x);
		else if (!x->have_state)
			return bad("LZMA chunk without a state reset");
		if (lim - *pos < csize)
			return bad("LZMA2 chunk truncated");
		x->pos = *pos;
		x->end = *pos + csize;
		x->err = 0;
		int r = lzma_chunk(x, usize);

		if (r)
			return r;
		*pos += csize;
	}
}

/* xz variable-length integer */
static int varint(const uint8_t *in, size_t *pos, size_t lim, uint64_t *v)
{
	*v = 0;
	for (int i = 0; i < 9; i++) {
		if (*pos >= lim)
			return -1;
		uint8_t b = in[(*pos)++];

		*v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return b || !i ? 0 : -1;
	}
	return -1;
}

static int decode(struct xz *x, const uint8_t *in, size_t n)
{
	static const uint8_t check_size[16] = { 0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64 };
	size_t pos = 12, csz;

	if (n < 24 || memcmp(in, "\xfd" "7zXZ", 6))
		return bad("no xz stream header");
	if (in[6] || in[7] > 15)
		return bad("unknown stream flags");
	csz = check_size[in[7]];
	x->in = in;
	for (;;) { /* blocks, until the index */
		size_t start = pos, hsize, hend;
		uint64_t v, id, psize;

		if (pos >= n)
			return bad("truncated before the index");
		if (in[pos] == 0)
			return 0; /* the index: every block is decoded */
		hsize = ((size_t)in[pos] + 1) * 4;
		if (n - pos < hsize)
			return bad("block header truncated");
		hend = pos + hsize - 4; /* the header's CRC-32 follows */
		uint8_t flags = in[pos + 1];

		pos += 2;
		if (flags & 0x3c)
			return bad("reserved block flags set");
		if ((flags & 3) != 0)
			return err_set(ENOTSUP, "xz data uses a filter chain (BCJ, delta): only LZMA2 alone is read");
		if ((flags & 0x40) && varint(in, &pos, hend, &v))
			return bad("bad compressed size");
		if ((flags & 0x80) && varint(in, &pos, hend, &v))
			return bad("bad uncompressed size");
		if (varint(in, &pos, hend, &id) || varint(in, &pos, hend, &psize))
			return bad("bad filter flags");
		if (id != 0x21)
			return err_set(ENOTSUP, "xz filter 0x%llx: only LZMA2 is read", (unsigned long long)id);
		if (psize != 1 || pos >= hend || in[pos++] > 40)
			return bad("bad LZMA2 properties");
		pos = hend + 4;
		x->have_props = x->have_state = 0;
		int r = lzma2(x, &pos, n);

		if (r)
			return r;
		while ((pos - start) & 3) /* block padding */
			if (pos >= n || in[pos++])
				return bad("bad block padding");
		if (n - pos < csz)
			return bad("check truncated");
		pos += csz;
	}
}

int xz_decode(const void *in, size_t in_len, uint8_t **out, size_t *out_len, size_t max_out)
{
	struct xz *x = calloc(1, sizeof(*x));
	int r;

	*out = NULL;
	*out_len = 0;
	if (!x)
		return err_set(ENOMEM, "out of memory decompressing xz data");
	x->max = max_out;
	r = decode(x, in, in_len);
	if (r)
		free(x->out);
	else {
		*out = x->out ? x->out : malloc(1);
		*out_len = x->len;
		if (!*out)
			r = err_set(ENOMEM, "out of memory decompressing xz data");
	}
	free(x);
	return r;
}

int lzma2_unpack(const void *in, size_t in_len, const void *dict, size_t dict_len, size_t size, uint8_t **out)
{
	struct xz *x = calloc(1, sizeof(*x));
	size_t pos = 0;
	int r;

	*out = NULL;
	if (!x || !(x->out = malloc(dict_len + size + 1))) {
		free(x);
		return err_set(ENOMEM, "out of memory decompressing LZMA2 data");
	}
	/* The dictionary goes in front of the output, as if decoded already
	 * (x->dict stays 0: no reset before it); the output moves down at the
	 * end.  One byte more room than max, for the NUL. */
	x->max = dict_len + size;
	x->cap = x->max + 1;
	if (dict_len)
		memcpy(x->out, dict, dict_len);
	x->len = dict_len;
	x->in = in;
	r = lzma2(x, &pos, in_len);
	if (!r && x->len != dict_len + size)
		r = bad("LZMA2 data of another length than its header says");
	if (r)
		free(x->out);
	else {
		memmove(x->out, x->out + dict_len, size);
		*out = x->out;
	}
	free(x);
	return r;
}
