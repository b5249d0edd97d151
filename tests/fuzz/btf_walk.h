/* Exercise the btf/ readers over every type of a parsed blob, relying on
 * the guarantees btf_new() documents: every type record, including its
 * vlen trailing entries, lies inside the blob, so walking members, params,
 * enums and secinfos must be safe.  A sanitizer report from here is a
 * validation hole in btf_new(), not a harness bug. */
#ifndef COREBOX_TESTS_BTF_WALK_H
#define COREBOX_TESTS_BTF_WALK_H

#include <string.h>

#include "btf/btf.h"

static inline unsigned btf_walk_str(const struct btf *btf, uint32_t off)
{
	const char *s = btf_str(btf, off);

	return s ? (unsigned)strlen(s) : 0;
}

/* Referenced ids (member and param types, etc.) are checked by calling
 * the lookup functions on them: out-of-range ids must be handled there. */
static inline unsigned btf_walk_refs(const struct btf *btf, const struct btf_type *t)
{
	uint32_t vlen = btf_vlen(t);
	unsigned sink = 0;

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint32_t i = 0; i < vlen; i++) {
			const struct btf_member *m = &btf_members(t)[i];

			sink += btf_walk_str(btf, m->name_off) + btf_member_bit_offset(t, m) +
				btf_member_bitfield_size(t, m);
			sink += (unsigned)btf_type_size(btf, m->type);
		}
		break;
	case BTF_KIND_ENUM:
		for (uint32_t i = 0; i < vlen; i++)
			sink += btf_walk_str(btf, btf_enums(t)[i].name_off) + (unsigned)btf_enums(t)[i].val;
		break;
	case BTF_KIND_ENUM64:
		for (uint32_t i = 0; i < vlen; i++)
			sink += btf_walk_str(btf, btf_enums64(t)[i].name_off) + btf_enums64(t)[i].val_hi32;
		break;
	case BTF_KIND_FUNC_PROTO:
		for (uint32_t i = 0; i < vlen; i++)
			sink += btf_walk_str(btf, btf_params(t)[i].name_off) +
				(unsigned)btf_type_size(btf, btf_params(t)[i].type);
		break;
	case BTF_KIND_DATASEC:
		for (uint32_t i = 0; i < vlen; i++)
			sink += btf_secinfos(t)[i].offset + btf_secinfos(t)[i].size +
				(unsigned)btf_type_size(btf, btf_secinfos(t)[i].type);
		break;
	case BTF_KIND_ARRAY:
		sink += (unsigned)btf_type_size(btf, btf_array_info(t)->type) +
			(unsigned)btf_type_size(btf, btf_array_info(t)->index_type);
		break;
	case BTF_KIND_INT:
		sink += btf_int_encoding(t) + btf_int_offset(t) + btf_int_bits(t);
		break;
	case BTF_KIND_VAR:
		sink += btf_var_info(t)->linkage;
		break;
	}
	return sink;
}

static inline int btf_walk_count(uint32_t id, void *ctx)
{
	(*(unsigned *)ctx)++;
	return *(unsigned *)ctx > 64; /* also exercise the early stop */
}

static inline void btf_walk(const struct btf *btf)
{
	volatile unsigned sink = 0;
	uint32_t n = btf_nr_types(btf);
	size_t raw_size;
	const unsigned char *raw = btf_raw(btf, &raw_size);

	for (size_t i = 0; raw && i < raw_size; i += 64)
		sink += raw[i];
	sink += btf_type_by_id(btf, 0) == NULL;
	sink += btf_type_by_id(btf, n) == NULL;
	sink += btf_type_by_id(btf, UINT32_MAX) == NULL;
	sink += btf_walk_str(btf, UINT32_MAX);
	for (uint32_t id = 0; id < n + 2; id++) {
		const struct btf_type *t = btf_type_by_id(btf, id), *res = NULL;
		const char *name;
		unsigned cnt = 0;

		sink += (unsigned)btf_type_size(btf, id);
		sink += btf_resolve(btf, id, &res) + btf_skip_mods(btf, id, &res);
		if (!t)
			continue;
		name = btf_name(btf, t);
		sink += btf_walk_refs(btf, t) + (unsigned)strlen(name);
		/* Name lookups: only for the first few hundred types, the
		 * point is the index and the comparison, not a quadratic walk. */
		if (id < 256 && name[0]) {
			sink += (unsigned)btf_find(btf, name, btf_kind(t));
			sink += (unsigned)btf_find(btf, name, -1);
			btf_for_each_named(btf, name, btf_walk_count, &cnt);
			sink += cnt;
		}
	}
	sink += (unsigned)btf_find(btf, "", -1) + (unsigned)btf_find(btf, "no_such_type_name", -1);
	(void)sink;
}

#endif
