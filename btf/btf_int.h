/* Internal layout of struct btf, shared by the files in btf/ only.
 * Users see struct btf as opaque (btf.h). */
#ifndef COREBOX_BTF_INT_H
#define COREBOX_BTF_INT_H

#include "btf.h"

#include <string.h>

struct btf {
	const uint8_t *data;   /* whole blob (header first) */
	size_t size;
	uint8_t *owned;        /* private copy (== data) or NULL when borrowed */
	bool writable;         /* copy=1: btf_type_mut allowed */
	bool kernel_verified;  /* btf_new_kernel: trailer names not checked */

	const uint8_t *types;  /* type section */
	uint32_t types_len;
	const char *strs;      /* string section (last byte is NUL) */
	uint32_t strs_len;

	uint32_t *offs;        /* byte offset in types of own type i (id start_id + i) */
	uint32_t nr;           /* number of own types */
	uint32_t start_id;     /* first own id: 1, or the base's nr_types for split BTF */
	uint32_t start_str;    /* first own string offset: 0, or the base's total */
	const struct btf *base;

	/* Lazily built name index (btf_find.c): open addressing over own type
	 * ids, 0 = empty slot.  Built on first lookup; the btf is otherwise
	 * read-only, hence the cast in btf_find.c. */
	uint32_t *names;
	uint32_t names_cap;    /* power of two, or 0 when not built */

	/* Names looked up in advance by btf_find_prepare(): for each, the ids
	 * carrying it, so those lookups need no full index (start-up time). */
	struct btf_prepared *prep;
	uint32_t nr_prep;
	uint32_t nr_scans;     /* unprepared lookups answered by a scan so far */
};

struct btf_prepared {
	char *name;
	uint32_t *ids;
	uint32_t nr;
	bool no_funcs;         /* btf_find_prepare_types: FUNC ids not collected */
};

/* A pass that finds the names given to btf_find_prepare*() (btf_find.c):
 * btf_find_prepare_wanted runs it over an open BTF, btf_new_kernel_prepared
 * during the parse's own pass over the types (btf.c). */
struct prep_pass {
	uint32_t first;        /* this pass's first entry in btf->prep */
	uint32_t n;            /* its entries; 0: nothing to find */
	uint32_t *pfx;         /* each name's first 4 bytes (prefix4) */
	uint8_t *bits;         /* prep_slot bits of all names */
	uint8_t *fbits;        /* the filter for FUNC types: bits, or NULL when no
				* name is wanted as a FUNC (their names unread) */
};

#define PREP_BITS 16

/* The first (up to) 4 bytes of a NUL-terminated name, zero padded: a
 * cheap filter before comparing whole names.  It runs for each of
 * vmlinux's ~100k named types at a tool's start: one load and a mask
 * where 4 bytes are there, not a loop. */
static inline uint32_t prefix4(const char *s, const char *end)
{
	uint32_t v = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 4) {
		uint32_t zero;

		memcpy(&v, s, 4);
		/* lowest set bit: the first NUL (higher ones may be false) */
		zero = (v - 0x01010101u) & ~v & 0x80808080u;
		if (zero)
			v &= (uint32_t)((1ull << (__builtin_ctz(zero) & ~7u)) - 1);
		return v;
	}
#endif
	for (int i = 0; i < 4 && s + i < end && s[i]; i++)
		v |= (uint32_t)(uint8_t)s[i] << (8 * i);
	return v;
}

static inline uint32_t prep_slot(uint32_t p)
{
	return (p * 2654435761u) >> (32 - PREP_BITS);
}

void prep_begin(struct btf *btf, struct prep_pass *pp, const struct btf_wanted *want);
void prep_match(struct btf *btf, struct prep_pass *pp, uint32_t k, const char *s, uint32_t pf, bool func);
void prep_end(struct prep_pass *pp);

/* Own type k (id start_id + k), its name offset already checked.  FUNC
 * types are matched only against names wanted as FUNCs, without reading
 * their names when there are none (56k of vmlinux's 71k named types, each
 * a likely cache miss into 2.3 MB of strings).  Inline: the filter runs
 * for every type, the match for a few. */
static inline void prep_visit(struct btf *btf, struct prep_pass *pp, uint32_t k, const struct btf_type *t)
{
	bool func = btf_kind(t) == BTF_KIND_FUNC;
	const uint8_t *bits = func ? pp->fbits : pp->bits;
	const char *s;
	uint32_t pf, sl;

	if (!t->name_off || t->name_off < btf->start_str || !bits)
		return;
	s = btf->strs + (t->name_off - btf->start_str);
	pf = prefix4(s, btf->strs + btf->strs_len);
	sl = prep_slot(pf);
	if (bits[sl >> 3] & (1u << (sl & 7)))
		prep_match(btf, pp, k, s, pf, func);
}

/* Total string bytes visible through this btf (base's + own). */
static inline uint32_t btf_strs_end(const struct btf *btf)
{
	return btf->start_str + btf->strs_len;
}

#endif
