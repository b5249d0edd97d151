/* Writing BTF: a small type-by-type writer (btfw_*) and, on top of it, the
 * minimal-BTF builder (btf_min_*) behind `corebox btf min`.
 *
 * The writer appends types as raw records (the caller has already put new
 * ids and new name offsets in them) and deduplicates strings with an
 * open-addressing hash over the string section.  btf_min keeps a subset of
 * a source BTF: chosen types, the members and enumerators CO-RE actually
 * used, and everything those need for their size and shape; it then
 * renumbers the kept types densely (in source id order, so the output is
 * deterministic) and writes them. */
#include "btf_int.h"
#include "relo_core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

/* ---- writer ----------------------------------------------------------- */

struct btfw {
	uint8_t *types;
	size_t types_len, types_cap;
	char *strs;
	size_t strs_len, strs_cap;
	uint32_t *hash;      /* string offsets + 1 (0 = empty slot) */
	size_t hash_cap;     /* power of two */
	size_t nr_strs;
	uint32_t nr_types;   /* types added (ids 1..nr_types) */
	bool overflow;       /* some section outgrew 32-bit offsets */
};

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

struct btfw *btfw_new(void)
{
	struct btfw *w = xcalloc(1, sizeof(*w));

	w->strs_cap = 256;
	w->strs = xmalloc(w->strs_cap);
	w->strs[0] = 0; /* offset 0: the empty string */
	w->strs_len = 1;
	w->hash_cap = 256;
	w->hash = xcalloc(w->hash_cap, sizeof(*w->hash));
	return w;
}

void btfw_free(struct btfw *w)
{
	if (!w)
		return;
	free(w->types);
	free(w->strs);
	free(w->hash);
	free(w);
}

static void rehash(struct btfw *w)
{
	size_t cap = w->hash_cap * 2;
	uint32_t *h = xcalloc(cap, sizeof(*h));

	for (size_t i = 0; i < w->hash_cap; i++) {
		size_t slot;

		if (!w->hash[i])
			continue;
		slot = str_hash(w->strs + w->hash[i] - 1) & (cap - 1);
		while (h[slot])
			slot = (slot + 1) & (cap - 1);
		h[slot] = w->hash[i];
	}
	free(w->hash);
	w->hash = h;
	w->hash_cap = cap;
}

uint32_t btfw_str(struct btfw *w, const char *s)
{
	size_t len, slot;

	if (!s || !*s)
		return 0;
	slot = str_hash(s) & (w->hash_cap - 1);
	while (w->hash[slot]) {
		if (!strcmp(w->strs + w->hash[slot] - 1, s))
			return w->hash[slot] - 1;
		slot = (slot + 1) & (w->hash_cap - 1);
	}
	len = strlen(s) + 1;
	if (w->strs_len + len >= UINT32_MAX - 1) {
		w->overflow = true;
		return 0;
	}
	if (w->strs_len + len > w->strs_cap) {
		while (w->strs_len + len > w->strs_cap)
			w->strs_cap *= 2;
		w->strs = xrealloc(w->strs, w->strs_cap);
	}
	memcpy(w->strs + w->strs_len, s, len);
	w->hash[slot] = (uint32_t)w->strs_len + 1;
	w->strs_len += len;
	if (++w->nr_strs * 2 > w->hash_cap)
		rehash(w);
	return (uint32_t)(w->strs_len - len);
}

uint32_t btfw_add(struct btfw *w, const struct btf_type *t, const void *trailer, size_t len)
{
	size_t need = sizeof(*t) + len;

	if (w->types_len + need > UINT32_MAX || w->nr_types >= 0x7ffffffe) {
		w->overflow = true;
		return 0;
	}
	if (w->types_len + need > w->types_cap) {
		w->types_cap = w->types_cap ? w->types_cap : 1024;
		while (w->types_len + need > w->types_cap)
			w->types_cap *= 2;
		w->types = xrealloc(w->types, w->types_cap);
	}
	memcpy(w->types + w->types_len, t, sizeof(*t));
	if (len)
		memcpy(w->types + w->types_len + sizeof(*t), trailer, len);
	w->types_len += need;
	return ++w->nr_types;
}

void *btfw_finish(struct btfw *w, size_t *size)
{
	struct btf_header h;
	uint8_t *out;
	size_t total;

	if (w->overflow) {
		err_set(E2BIG, "BTF too large to write");
		return NULL;
	}
	memset(&h, 0, sizeof(h));
	h.magic = BTF_MAGIC;
	h.version = BTF_VERSION;
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = (uint32_t)w->types_len;
	h.str_off = (uint32_t)w->types_len;
	h.str_len = (uint32_t)w->strs_len;
	total = sizeof(h) + w->types_len + w->strs_len;
	out = xmalloc(total);
	memcpy(out, &h, sizeof(h));
	if (w->types_len)
		memcpy(out + sizeof(h), w->types, w->types_len);
	memcpy(out + sizeof(h) + w->types_len, w->strs, w->strs_len);
	*size = total;
	return out;
}

/* ---- minimal BTF -------------------------------------------------------- */

enum { KEEP_NONE, KEEP_SHALLOW, KEEP_FULL };

struct btf_min {
	const struct btf *src;
	uint32_t nr;          /* btf_nr_types(src) */
	uint8_t *keep;        /* [nr] KEEP_* */
	uint8_t **marks;      /* [nr] member/enumerator bitmaps (NULL: none marked) */
	uint32_t *work;       /* ids whose references still need keeping */
	size_t nr_work, cap_work;
	uint32_t foreign;     /* visits of other BTFs (modules): ignored */
	bool for_dump;        /* btf_min_for_dump(): keep what a C header defines */
};

void btf_min_for_dump(struct btf_min *m)
{
	m->for_dump = true;
}

struct btf_min *btf_min_new(const struct btf *src)
{
	struct btf_min *m = xcalloc(1, sizeof(*m));

	m->src = src;
	m->nr = btf_nr_types(src);
	m->keep = xcalloc(m->nr, 1);
	m->marks = xcalloc(m->nr, sizeof(*m->marks));
	return m;
}

void btf_min_free(struct btf_min *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nr; i++)
		free(m->marks[i]);
	free(m->marks);
	free(m->keep);
	free(m->work);
	free(m);
}

static void push(struct btf_min *m, uint32_t id)
{
	if (m->nr_work == m->cap_work) {
		m->cap_work = m->cap_work ? m->cap_work * 2 : 64;
		m->work = xrealloc(m->work, m->cap_work * sizeof(*m->work));
	}
	m->work[m->nr_work++] = id;
}

/* Keep id at least at level `how`; queue it when that is news. */
static int keep(struct btf_min *m, uint32_t id, int how)
{
	if (!id)
		return 0; /* void */
	if (id >= m->nr || !btf_type_by_id(m->src, id))
		return err_set(EINVAL, "BTF type id %u out of range (%u types)", id, m->nr);
	if (m->for_dump && how == KEEP_SHALLOW) {
		/* what btf_dump_c defines even behind a pointer: named enums
		 * (whole), anonymous structs and unions (printed inline) */
		const struct btf_type *t = btf_type_by_id(m->src, id);
		int kind = btf_kind(t);

		if (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64 ||
		    ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) && !t->name_off))
			how = KEEP_FULL;
	}
	if (m->keep[id] >= how)
		return 0;
	m->keep[id] = (uint8_t)how;
	push(m, id);
	return 0;
}

int btf_min_type(struct btf_min *m, uint32_t id, bool full)
{
	return keep(m, id, full ? KEEP_FULL : KEEP_SHALLOW);
}

static int mark(struct btf_min *m, uint32_t id, uint32_t idx, int kind_a, int kind_b)
{
	const struct btf_type *t = id < m->nr ? btf_type_by_id(m->src, id) : NULL;
	uint32_t vlen;
	int err;

	if (!t || (btf_kind(t) != kind_a && btf_kind(t) != kind_b))
		return err_set(EINVAL, "BTF type [%u] is not of the expected kind", id);
	vlen = btf_vlen(t);
	if (idx >= vlen)
		return err_set(EINVAL, "BTF type [%u]: index %u out of range (%u)", id, idx, vlen);
	if ((err = keep(m, id, KEEP_SHALLOW)))
		return err;
	if (!m->marks[id])
		m->marks[id] = xcalloc((vlen + 7) / 8, 1);
	if (m->marks[id][idx / 8] & (1u << (idx % 8)))
		return 0;
	m->marks[id][idx / 8] |= (uint8_t)(1u << (idx % 8));
	if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION)
		return keep(m, btf_members(t)[idx].type, KEEP_SHALLOW);
	return 0;
}

int btf_min_member(struct btf_min *m, uint32_t id, uint32_t idx)
{
	return mark(m, id, idx, BTF_KIND_STRUCT, BTF_KIND_UNION);
}

int btf_min_enumval(struct btf_min *m, uint32_t id, uint32_t idx)
{
	return mark(m, id, idx, BTF_KIND_ENUM, BTF_KIND_ENUM64);
}

static bool marked(const struct btf_min *m, uint32_t id, uint32_t idx)
{
	return m->keep[id] == KEEP_FULL || (m->marks[id] && (m->marks[id][idx / 8] & (1u << (idx % 8))));
}

/* Typedefs, modifiers and type tags (the chain skip_mods follows). */
static bool is_mod(int kind)
{
	return kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

void btf_min_core_visit(void *arg, const struct core_visit *v)
{
	struct btf_min *m = arg;
	uint32_t id = v->root_id;
	int err, i, depth;

	if (v->btf != m->src) {
		m->foreign++;
		return;
	}
	if (v->kind == CORE_TYPE_MATCHES) {
		err = keep(m, id, KEEP_FULL);
		goto out;
	}
	err = keep(m, id, KEEP_SHALLOW);
	if (err || v->raw_len < 1)
		goto out;
	if (v->kind == CORE_ENUMVAL_EXISTS || v->kind == CORE_ENUMVAL_VALUE) {
		const struct btf_type *t = btf_type_by_id(m->src, id);

		for (depth = 0; t && is_mod(btf_kind(t)) && depth < 32; depth++)
			t = btf_type_by_id(m->src, id = t->type);
		err = btf_min_enumval(m, id, v->raw[0]);
		goto out;
	}
	/* field kinds: walk the path, keeping each struct's used member */
	for (i = 1; i < v->raw_len && !err; i++) {
		const struct btf_type *t = btf_type_by_id(m->src, id);

		for (depth = 0; t && is_mod(btf_kind(t)) && depth < 32; depth++)
			t = btf_type_by_id(m->src, id = t->type);
		if (!t)
			break;
		if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) {
			if ((err = btf_min_member(m, id, v->raw[i])))
				break;
			id = btf_members(t)[v->raw[i]].type;
		} else if (btf_kind(t) == BTF_KIND_ARRAY) {
			id = btf_array_info(t)->type;
		} else {
			break;
		}
	}
out:
	if (err)
		err_clear(); /* the engine already checked these ids: not reached */
}

/* Keep what type id needs, given how it is kept itself. */
static int process(struct btf_min *m, uint32_t id)
{
	const struct btf_type *t = btf_type_by_id(m->src, id);
	int how = m->keep[id], err = 0;
	/* fullness stops at pointers: behind one, kinds are what matters */
	int through = how;
	uint32_t i, n;

	if (!t)
		return err_set(EINVAL, "BTF type id %u out of range", id);
	n = btf_vlen(t);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		return keep(m, t->type, KEEP_SHALLOW);
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return keep(m, t->type, through);
	case BTF_KIND_ARRAY:
		/* C needs complete element types, even behind a pointer */
		err = keep(m, btf_array_info(t)->type, m->for_dump ? KEEP_FULL : through);
		return err ? err : keep(m, btf_array_info(t)->index_type, KEEP_SHALLOW);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < n && !err; i++)
			if (marked(m, id, i))
				err = keep(m, btf_members(t)[i].type, through);
		return err;
	case BTF_KIND_FUNC_PROTO:
		err = keep(m, t->type, through);
		for (i = 0; i < n && !err; i++)
			err = keep(m, btf_params(t)[i].type, through);
		return err;
	case BTF_KIND_DATASEC:
		for (i = 0; i < n && !err; i++)
			err = keep(m, btf_secinfos(t)[i].type, through);
		return err;
	default: /* int, float, fwd, enum, enum64: self-contained */
		return 0;
	}
}

static uint32_t remap(const uint32_t *map, uint32_t id)
{
	return id ? map[id] : 0;
}

/* Emit one kept type with new ids and strings, members/enumerators filtered. */
static uint32_t emit(struct btf_min *m, struct btfw *w, uint32_t id, const uint32_t *map)
{
	const struct btf_type *t = btf_type_by_id(m->src, id);
	struct btf_type nt = *t;
	uint32_t n = btf_vlen(t), i, k = 0, r;
	void *buf = NULL;
	size_t len = 0;

	nt.name_off = btfw_str(w, t->name_off ? btf_str(m->src, t->name_off) : NULL);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
		nt.type = remap(map, t->type);
		break;
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		nt.type = remap(map, t->type);
		buf = xmalloc(4);
		memcpy(buf, t + 1, 4);
		len = 4;
		break;
	case BTF_KIND_INT:
		buf = xmalloc(4);
		memcpy(buf, t + 1, 4);
		len = 4;
		break;
	case BTF_KIND_ARRAY: {
		struct btf_array *a = xmalloc(sizeof(*a));

		*a = *btf_array_info(t);
		a->type = remap(map, a->type);
		a->index_type = remap(map, a->index_type);
		buf = a;
		len = sizeof(*a);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *out = xmalloc((size_t)(n ? n : 1) * sizeof(*out));

		for (i = 0; i < n; i++) {
			const struct btf_member *mb = &btf_members(t)[i];

			if (!marked(m, id, i))
				continue;
			out[k].name_off = btfw_str(w, mb->name_off ? btf_str(m->src, mb->name_off) : NULL);
			out[k].type = remap(map, mb->type);
			out[k].offset = mb->offset; /* bit offset (and bitfield size) unchanged */
			k++;
		}
		nt.info = (t->info & ~0xffffffu) | k;
		buf = out;
		len = (size_t)k * sizeof(*out);
		break;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		size_t rec = btf_kind(t) == BTF_KIND_ENUM ? sizeof(struct btf_enum) : sizeof(struct btf_enum64);
		uint8_t *out = xmalloc((size_t)(n ? n : 1) * rec);

		for (i = 0; i < n; i++) {
			const uint8_t *e = (const uint8_t *)(t + 1) + (size_t)i * rec;
			uint32_t off;

			if (!marked(m, id, i))
				continue;
			memcpy(out + k * rec, e, rec);
			memcpy(&off, e, 4);
			off = btfw_str(w, off ? btf_str(m->src, off) : NULL);
			memcpy(out + k * rec, &off, 4);
			k++;
		}
		nt.info = (t->info & ~0xffffffu) | k;
		buf = out;
		len = (size_t)k * rec;
		break;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *out = xmalloc((size_t)(n ? n : 1) * sizeof(*out));

		nt.type = remap(map, t->type);
		for (i = 0; i < n; i++) {
			const struct btf_param *pa = &btf_params(t)[i];

			out[i].name_off = btfw_str(w, pa->name_off ? btf_str(m->src, pa->name_off) : NULL);
			out[i].type = remap(map, pa->type);
		}
		buf = out;
		len = (size_t)n * sizeof(*out);
		break;
	}
	case BTF_KIND_DATASEC: {
		struct btf_var_secinfo *out = xmalloc((size_t)(n ? n : 1) * sizeof(*out));

		for (i = 0; i < n; i++) {
			out[i] = btf_secinfos(t)[i];
			out[i].type = remap(map, out[i].type);
		}
		buf = out;
		len = (size_t)n * sizeof(*out);
		break;
	}
	default: /* fwd, float: no trailer */
		break;
	}
	r = btfw_add(w, &nt, buf, len);
	free(buf);
	return r;
}

void *btf_min_write(struct btf_min *m, size_t *size, uint32_t *nr_types)
{
	struct btfw *w;
	uint32_t *map, next = 1, id;
	void *out;
	int err = 0;

	while (m->nr_work && !err)
		err = process(m, m->work[--m->nr_work]);
	if (err)
		return NULL;
	map = xcalloc(m->nr, sizeof(*map));
	for (id = 1; id < m->nr; id++)
		if (m->keep[id])
			map[id] = next++;
	w = btfw_new();
	for (id = 1; id < m->nr; id++)
		if (m->keep[id] && emit(m, w, id, map) != map[id]) {
			err_set(E2BIG, "BTF too large to write");
			break;
		}
	out = id == m->nr ? btfw_finish(w, size) : NULL;
	if (nr_types)
		*nr_types = next - 1;
	btfw_free(w);
	free(map);
	return out;
}
