/* Following type references: modifiers, typedefs, sizes.
 *
 * BTF is a graph read from files, so every walk here is bounded: a
 * typedef or const chain longer than BTF_MAX_DEPTH is treated as a loop
 * (real chains are a handful of links; a crafted blob can make cycles). */
#include "btf_int.h"

#include <errno.h>

#include "err.h"

#define BTF_MAX_DEPTH 32

static bool is_mod(int kind)
{
	return kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

/* Shared walker: skip modifiers, and typedefs too when skip_typedef.
 * Returns the final id (0 for void, a loop, or a bad id; *res NULL then). */
static uint32_t skip(const struct btf *btf, uint32_t id, const struct btf_type **res, bool skip_typedef)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth < BTF_MAX_DEPTH; depth++) {
		int k = btf_kind(t);

		if (!is_mod(k) && !(skip_typedef && k == BTF_KIND_TYPEDEF))
			break;
		id = t->type;
		t = btf_type_by_id(btf, id);
	}
	if (depth == BTF_MAX_DEPTH)
		t = NULL;
	if (res)
		*res = t;
	return t ? id : 0;
}

uint32_t btf_skip_mods(const struct btf *btf, uint32_t id, const struct btf_type **res)
{
	return skip(btf, id, res, false);
}

uint32_t btf_resolve(const struct btf *btf, uint32_t id, const struct btf_type **res)
{
	return skip(btf, id, res, true);
}

int64_t btf_type_size(const struct btf *btf, uint32_t id)
{
	uint64_t mult = 1; /* product of the array dimensions seen so far */
	int depth;

	for (depth = 0; depth < BTF_MAX_DEPTH; depth++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		uint64_t size;

		if (!t)
			return err_set(EINVAL, id ? "BTF type [%u] does not exist" : "void has no size", id);
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FLOAT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_DATASEC:
			size = t->size;
			break;
		case BTF_KIND_PTR:
			size = 8; /* BPF and every 64-bit kernel */
			break;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_VAR:
			id = t->type;
			continue;
		case BTF_KIND_ARRAY: {
			uint32_t n = btf_array_info(t)->nelems;

			if (n && mult > (uint64_t)INT64_MAX / n)
				return err_set(E2BIG, "BTF array [%u] size overflows", id);
			mult *= n;
			id = btf_array_info(t)->type;
			continue;
		}
		default:
			return err_set(EINVAL, "BTF type [%u] (kind %d) has no size", id, btf_kind(t));
		}
		if (size && mult > (uint64_t)INT64_MAX / size)
			return err_set(E2BIG, "BTF array of type [%u] size overflows", id);
		return (int64_t)(size * mult);
	}
	return err_set(ELOOP, "BTF type chain too deep or looping at type [%u]", id);
}
