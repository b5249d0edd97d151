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

	uint32_t *offs;        /* byte offset in types of own type i (id start_id + i),
				* of every 2^offs_shift-th type only while offs_shift */
	uint32_t offs_shift;   /* 0, or BTF_SPARSE_SHIFT until btf_type_by_id has
				* stepped far enough to index every type */
	uint32_t steps;        /* types stepped over by btf_type_by_id so far */
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

/* Kernel BTF indexes every 16th type only (btf.c: index_types). */
#define BTF_SPARSE_SHIFT 4

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
	uint64_t *pfx;         /* each name's first 8 bytes (prefix8) */
	uint8_t *bits;         /* prep_slot bits of all names */
	uint32_t kinds;        /* bit k: types of kind k can be wanted (all but
				* FUNC when no name is wanted as a FUNC) */
};

#define PREP_BITS 16

/* The first (up to) 8 bytes of a NUL-terminated name, zero padded: a
 * cheap filter before comparing whole names.  It runs for each of
 * vmlinux's ~15k named non-FUNC types at a tool's start: one load and a
 * mask where 8 bytes are there, not a loop.  8, not 4: "task", "trac"
 * and "unsi" begin thousands of kernel type names (trace_event_raw_*),
 * each then compared with every wanted name (~0.6M instructions). */
static inline uint64_t prefix8(const char *s, const char *end)
{
	uint64_t v = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 8) {
		uint64_t zero;

		memcpy(&v, s, 8);
		/* lowest set bit: the first NUL (higher ones may be false) */
		zero = (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
		if (zero)
			v &= (1ull << (__builtin_ctzll(zero) & ~7u)) - 1;
		return v;
	}
#endif
	for (int i = 0; i < 8 && s + i < end && s[i]; i++)
		v |= (uint64_t)(uint8_t)s[i] << (8 * i);
	return v;
}

static inline uint32_t prep_slot(uint64_t p)
{
	return (uint32_t)((p * 0x9e3779b97f4a7c15ull) >> (64 - PREP_BITS));
}

void prep_begin(struct btf *btf, struct prep_pass *pp, const struct btf_wanted *want);
void prep_match(struct btf *btf, struct prep_pass *pp, uint32_t k, const char *s, uint64_t pf, bool func);
void prep_end(struct prep_pass *pp);

/* Own type k (id start_id + k), its name offset already checked.  FUNC
 * types are matched only against names wanted as FUNCs, without reading
 * their names when there are none (56k of vmlinux's 71k named types, each
 * a likely cache miss into 2.3 MB of strings).  Neither that nor a
 * missing name is a branch: FUNC_PROTO, FUNC and the rest alternate with
 * no pattern a predictor learns, so such types read the string at offset
 * 0 instead (in cache) and fail the one rare branch, the filter's.
 * Inline: the filter runs for every type, the match for a few. */
static inline void prep_visit(struct btf *btf, struct prep_pass *pp, uint32_t k, const struct btf_type *t)
{
	uint32_t off = t->name_off - btf->start_str, sl;
	uint32_t want = ((pp->kinds >> (btf_kind(t) & 31)) & 1) & (t->name_off != 0) & (off < btf->strs_len);
	const char *s = btf->strs + (want ? off : 0);
	uint64_t pf = prefix8(s, btf->strs + btf->strs_len);

	sl = prep_slot(pf);
	if ((pp->bits[sl >> 3] >> (sl & 7)) & want)
		prep_match(btf, pp, k, s, pf, btf_kind(t) == BTF_KIND_FUNC);
}

/* Bytes following the 12-byte struct btf_type for this kind, or -1 for a
 * kind we do not know.  A table, not a switch: the kinds change from one
 * type to the next, and the switch's jump table mispredicted on most of
 * vmlinux's 127k types (5-8% of the walk, best of 300 runs). */
static inline __attribute__((always_inline)) int64_t trailer_len(uint32_t kind, uint32_t vlen)
{
	static const uint8_t fixed[BTF_KIND_ENUM64 + 1] = {
		[BTF_KIND_INT] = 4, [BTF_KIND_VAR] = 4, [BTF_KIND_DECL_TAG] = 4,
		[BTF_KIND_ARRAY] = sizeof(struct btf_array),
	};
	static const uint8_t per_vlen[BTF_KIND_ENUM64 + 1] = {
		[BTF_KIND_STRUCT] = sizeof(struct btf_member), [BTF_KIND_UNION] = sizeof(struct btf_member),
		[BTF_KIND_ENUM] = sizeof(struct btf_enum), [BTF_KIND_ENUM64] = sizeof(struct btf_enum64),
		[BTF_KIND_FUNC_PROTO] = sizeof(struct btf_param), [BTF_KIND_DATASEC] = sizeof(struct btf_var_secinfo),
	};

	if (kind - 1 >= BTF_KIND_ENUM64) /* kind 0 (UNKN) or past the last we know */
		return -1;
	return fixed[kind] + (int64_t)vlen * per_vlen[kind];
}

/* The type after t (a type the parse checked). */
static inline const struct btf_type *btf_next_type(const struct btf_type *t)
{
	return (const struct btf_type *)((const uint8_t *)(t + 1) + trailer_len((uint32_t)btf_kind(t), btf_vlen(t)));
}

/* Total string bytes visible through this btf (base's + own). */
static inline uint32_t btf_strs_end(const struct btf *btf)
{
	return btf->start_str + btf->strs_len;
}

#endif
