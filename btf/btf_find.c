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
	const struct btf_type *t = (const struct btf_type *)btf->types;

	for (i = 0; i < btf->nr; i++, t = btf_next_type(t))
		if (t->name_off)
			named++;
	while (cap < named * 2u)
		cap <<= 1;
	btf->names = xcalloc(cap, sizeof(*btf->names));
	t = (const struct btf_type *)btf->types;
	for (i = 0; i < btf->nr; i++, t = btf_next_type(t)) {
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

void prep_begin(struct btf *btf, struct prep_pass *pp, const struct btf_wanted *want)
{
	size_t nt = want ? want->nr_types : 0, nf = want ? want->nr_funcs : 0;

	memset(pp, 0, sizeof(*pp));
	if (btf->names_cap || !(nt + nf))
		return;
	if (btf->base)
		btf_find_prepare_wanted(btf->base, want);
	pp->first = btf->nr_prep;
	pp->n = (uint32_t)(nt + nf);
	/* keep earlier preparations; add the new names, types first: a
	 * lookup takes the first entry that can answer it */
	btf->prep = xrealloc(btf->prep, (btf->nr_prep + nt + nf) * sizeof(*btf->prep));
	pp->pfx = xmalloc((nt + nf) * sizeof(*pp->pfx));
	pp->bits = xcalloc(1u << (PREP_BITS - 3), 1);
	/* FUNC types share the filter (8 KiB less at the peak: a tool's
	 * peak RSS is ~1.2 MiB); prep_match skips the type-only names */
	pp->kinds = nf ? ~0u : ~(1u << BTF_KIND_FUNC);
	for (size_t i = 0; i < nt + nf; i++) {
		struct btf_prepared *p = &btf->prep[btf->nr_prep + i];
		const char *name = i < nt ? want->types[i] : want->funcs[i - nt];
		uint32_t sl;

		p->name = xstrdup(name);
		p->ids = NULL;
		p->nr = 0;
		p->no_funcs = i < nt;
		pp->pfx[i] = prefix8(name, name + strlen(name) + 1);
		sl = prep_slot(pp->pfx[i]);
		pp->bits[sl >> 3] |= (uint8_t)(1u << (sl & 7));
	}
	btf->nr_prep += pp->n;
}

/* Is the name at s (in strings ending at end) name, whose first 8 bytes
 * (pf) it shares?  The rest 8 bytes at a time too: the ~1,000
 * trace_event_raw_* types share 16 bytes with a tracepoint's record. */
static bool same_name(const char *name, const char *s, const char *end, uint64_t pf)
{
	const char *name_end = name + strlen(name) + 1;

	/* a chunk without a NUL has a non-zero last byte: more follows */
	for (size_t off = 8; pf >> 56; off += 8)
		if ((pf = prefix8(name + off, name_end)) != prefix8(s + off, end))
			return false;
	return true;
}

void prep_match(struct btf *btf, struct prep_pass *pp, uint32_t k, const char *s, uint64_t pf, bool func)
{
	for (uint32_t i = 0; i < pp->n; i++) {
		struct btf_prepared *p = &btf->prep[pp->first + i];

		if ((func && p->no_funcs) || pp->pfx[i] != pf || !same_name(p->name, s, btf->strs + btf->strs_len, pf))
			continue;
		p->ids = xrealloc(p->ids, (p->nr + 1) * sizeof(*p->ids));
		p->ids[p->nr++] = btf->start_id + k;
	}
}

void prep_end(struct prep_pass *pp)
{
	free(pp->pfx);
	free(pp->bits);
	memset(pp, 0, sizeof(*pp));
}

void btf_find_prepare_wanted(const struct btf *cbtf, const struct btf_wanted *want)
{
	struct btf *btf = (struct btf *)cbtf; /* a cache, like the index */
	const struct btf_type *t = (const struct btf_type *)btf->types;
	struct prep_pass pp;

	prep_begin(btf, &pp, want);
	for (uint32_t k = 0; pp.n && k < btf->nr; k++, t = btf_next_type(t))
		prep_visit(btf, &pp, k, t);
	prep_end(&pp);
}

void btf_find_prepare(const struct btf *btf, const char *const *names, size_t n)
{
	btf_find_prepare_wanted(btf, &(struct btf_wanted){ .funcs = names, .nr_funcs = n });
}

void btf_find_prepare_types(const struct btf *btf, const char *const *names, size_t n)
{
	btf_find_prepare_wanted(btf, &(struct btf_wanted){ .types = names, .nr_types = n });
}

#define SCANS_BEFORE_INDEX 16

/* Own types named name, lowest id first (the index's order too). */
static int scan_own(const struct btf *btf, const char *name, bool no_funcs, int (*fn)(uint32_t, void *), void *ctx)
{
	const struct btf_type *t = (const struct btf_type *)btf->types;
	int r;

	for (uint32_t k = 0; k < btf->nr; k++, t = btf_next_type(t)) {
		if (t->name_off && !(no_funcs && btf_kind(t) == BTF_KIND_FUNC) && !strcmp(btf_name(btf, t), name) &&
		    (r = fn(btf->start_id + k, ctx)))
			return r;
	}
	return 0;
}

/* Own types only (the base is searched by the callers first); FUNC types
 * too unless no_funcs. */
static int each_own(const struct btf *cbtf, const char *name, bool no_funcs, int (*fn)(uint32_t, void *),
		    void *ctx)
{
	struct btf *btf = (struct btf *)cbtf; /* the lazily built index is a cache */
	uint32_t slot, id;
	int r;

	if (!btf->names_cap) {
		for (uint32_t k = 0; k < btf->nr_prep; k++) {
			const struct btf_prepared *p = &btf->prep[k];

			/* an entry prepared without FUNCs cannot answer for them */
			if (strcmp(p->name, name) || (p->no_funcs && !no_funcs))
				continue;
			for (uint32_t j = 0; j < p->nr; j++)
				if (!(no_funcs && btf_kind(btf_type_by_id(btf, p->ids[j])) == BTF_KIND_FUNC) &&
				    (r = fn(p->ids[j], ctx)))
					return r;
			return 0;
		}
		/* A tool asks a few names before its load (is this tracepoint's
		 * tp_btf there? this function?): a scan each costs ~1 ms and no
		 * memory, the index 4 bytes a slot (1 MiB for vmlinux, half a
		 * small tool's peak RSS).  Many lookups (dynamic tracing, btf
		 * dump) get the index. */
		if (btf->nr_scans < SCANS_BEFORE_INDEX) {
			btf->nr_scans++;
			return scan_own(btf, name, no_funcs, fn, ctx);
		}
		build_index(btf);
	}
	slot = name_hash(name) & (btf->names_cap - 1);
	while ((id = btf->names[slot])) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (!(no_funcs && btf_kind(t) == BTF_KIND_FUNC) && !strcmp(btf_name(btf, t), name) && (r = fn(id, ctx)))
			return r;
		slot = (slot + 1) & (btf->names_cap - 1);
	}
	return 0;
}

static int each_named(const struct btf *btf, const char *name, bool no_funcs, int (*fn)(uint32_t id, void *ctx),
		      void *ctx)
{
	int r;

	if (!name || !*name)
		return 0;
	if (btf->base && (r = each_named(btf->base, name, no_funcs, fn, ctx)))
		return r;
	return each_own(btf, name, no_funcs, fn, ctx);
}

int btf_for_each_named(const struct btf *btf, const char *name,
		       int (*fn)(uint32_t id, void *ctx), void *ctx)
{
	return each_named(btf, name, false, fn, ctx);
}

int btf_for_each_type_named(const struct btf *btf, const char *name,
			    int (*fn)(uint32_t id, void *ctx), void *ctx)
{
	return each_named(btf, name, true, fn, ctx);
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

	if (each_named(btf, name, kind >= 0 && kind != BTF_KIND_FUNC, match_kind, &f))
		return (int32_t)f.id;
	return -ENOENT;
}
