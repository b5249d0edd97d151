/* Name lookups: btf_find() and btf_for_each_named().
 *
 * The index is an open-addressing hash table of type ids (0 = empty),
 * keyed by the type's name, built on the first lookup.  It costs about
 * 8 bytes per named type and is never built by tools that only need ids.
 * Linear probing without deletion keeps same-name ids in insertion order,
 * so lookups visit them lowest id first (like a linear scan would). */
#include "btf_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static void build_index(struct btf *btf)
{
	uint32_t named = 0, cap = 16, i;

	for (i = 0; i < btf->nr; i++)
		if (((const struct btf_type *)(btf->types + btf->offs[i]))->name_off)
			named++;
	while (cap < named * 2u)
		cap <<= 1;
	btf->names = xcalloc(cap, sizeof(*btf->names));
	for (i = 0; i < btf->nr; i++) {
		const struct btf_type *t = (const struct btf_type *)(btf->types + btf->offs[i]);
		uint32_t slot;

		if (!t->name_off)
			continue;
		slot = name_hash(btf_name(btf, t)) & (cap - 1);
		while (btf->names[slot])
			slot = (slot + 1) & (cap - 1);
		btf->names[slot] = btf->start_id + i;
	}
	btf->names_cap = cap;
}

/* Own types only (the base is searched by the callers first). */
static int each_own(const struct btf *cbtf, const char *name, int (*fn)(uint32_t, void *), void *ctx)
{
	struct btf *btf = (struct btf *)cbtf; /* the lazily built index is a cache */
	uint32_t slot, id;
	int r;

	if (!btf->names_cap)
		build_index(btf);
	slot = name_hash(name) & (btf->names_cap - 1);
	while ((id = btf->names[slot])) {
		if (!strcmp(btf_name(btf, btf_type_by_id(btf, id)), name) && (r = fn(id, ctx)))
			return r;
		slot = (slot + 1) & (btf->names_cap - 1);
	}
	return 0;
}

int btf_for_each_named(const struct btf *btf, const char *name,
		       int (*fn)(uint32_t id, void *ctx), void *ctx)
{
	int r;

	if (!name || !*name)
		return 0;
	if (btf->base && (r = btf_for_each_named(btf->base, name, fn, ctx)))
		return r;
	return each_own(btf, name, fn, ctx);
}

struct find_ctx {
	const struct btf *btf;
	int kind;
	uint32_t id;
};

static int match_kind(uint32_t id, void *ctx)
{
	struct find_ctx *f = ctx;

	if (f->kind >= 0 && btf_kind(btf_type_by_id(f->btf, id)) != f->kind)
		return 0;
	f->id = id;
	return 1;
}

int32_t btf_find(const struct btf *btf, const char *name, int kind)
{
	struct find_ctx f = { btf, kind, 0 };

	if (btf_for_each_named(btf, name, match_kind, &f))
		return (int32_t)f.id;
	return -ENOENT;
}
