/* Internal layout of struct btf, shared by the files in btf/ only.
 * Users see struct btf as opaque (btf.h). */
#ifndef COREBOX_BTF_INT_H
#define COREBOX_BTF_INT_H

#include "btf.h"

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

/* Total string bytes visible through this btf (base's + own). */
static inline uint32_t btf_strs_end(const struct btf *btf)
{
	return btf->start_str + btf->strs_len;
}

#endif
