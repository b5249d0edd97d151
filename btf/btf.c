/* BTF blob parsing and per-id access.
 *
 * btf_new() validates the header and walks the type section once,
 * recording each type's byte offset (the u32 index that makes
 * btf_type_by_id O(1); every 16th type's for the kernel's BTF, see
 * index_types) and checking that every type's trailer and every
 * name offset lies inside the blob.  After that pass every accessor can
 * trust lengths; only type ids stored inside types (member types, pointer
 * targets) may still be out of range, which btf_type_by_id reports as NULL.
 * Nothing else is built up front: kernel BTF has ~127k types and the
 * tools start in milliseconds.  btf_new_kernel() skips the trailer name
 * check for the kernel's own /sys/kernel/btf files, which it verified
 * itself: 1.9 -> 1.1 ms for vmlinux.  btf_new_kernel_prepared() also
 * finds the names a loader will look up in that same pass, while each
 * type header is in cache (a second pass over vmlinux cost ~1 ms). */
#include "btf_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

#define BTF_MAGIC_SWAPPED 0x9FEB
#define BTF_MIN_HDR_LEN 24u
#define BTF_MAX_ID 0x7fffffffu /* ids are returned as int32_t by btf_find */

/* Check the name offsets held in a type's trailer (members, enumerators,
 * parameters), so that btf_str() on them never fails later. */
static __attribute__((noinline)) int check_trailer_names(const struct btf *btf, uint32_t id, const struct btf_type *t)
{
	uint32_t end = btf_strs_end(btf), vlen = btf_vlen(t), stride, i;
	const uint8_t *p = (const uint8_t *)(t + 1);

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		stride = sizeof(struct btf_member);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		stride = 8;
		break;
	case BTF_KIND_ENUM64:
		stride = sizeof(struct btf_enum64);
		break;
	default:
		return 0;
	}
	/* name_off is the first u32 of every one of these records */
	for (i = 0; i < vlen; i++, p += stride)
		if (*(const uint32_t *)p >= end)
			return err_set(EINVAL, "BTF type [%u]: member/value %u has name offset %u beyond the strings (%u bytes)",
				       id, i, *(const uint32_t *)p, end);
	return 0;
}

/* Why the walk stopped at the type at pos (id): the error for it. */
static int bad_type(const struct btf *btf, uint32_t id, uint32_t pos)
{
	const struct btf_type *t = (const struct btf_type *)(btf->types + pos);
	uint32_t left = btf->types_len - pos;
	int64_t tl;

	if (left < sizeof(struct btf_type))
		return err_set(EINVAL, "BTF type [%u] truncated: %u bytes left in the type section", id, left);
	if (id >= BTF_MAX_ID)
		return err_set(E2BIG, "BTF has too many types");
	tl = trailer_len((uint32_t)btf_kind(t), btf_vlen(t));
	if (tl < 0)
		return err_set(EINVAL, "BTF type [%u] has unknown kind %d", id, btf_kind(t));
	if ((uint64_t)tl > left - sizeof(struct btf_type))
		return err_set(EINVAL, "BTF type [%u] (kind %d, vlen %u) runs past the end of the type section",
			       id, btf_kind(t), btf_vlen(t));
	return err_set(EINVAL, "BTF type [%u] has name offset %u beyond the strings (%u bytes)", id, t->name_off,
		       btf_strs_end(btf));
}

/* The one pass over the type section; it also finds the names of pp, when
 * given, in the types it indexes (still in cache).  Each type's start
 * depends on the previous one's length: the walk is a chain of dependent
 * loads, ~0.8 ms over vmlinux's 127k types at best; the checks branch
 * out of the loop (to bad_type) so that nothing else competes with that
 * chain for registers.  Kernel BTF records every 16th type's offset
 * only (btf_type_by_id steps from there): 32 KiB instead of 512 KiB
 * written, and that much less peak RSS. */
static __attribute__((noinline, optimize("O2"))) int index_types(struct btf *btf, struct prep_pass *pp)
{
	const uint8_t *types = btf->types;
	const uint32_t len = btf->types_len, end = btf_strs_end(btf), max_nr = BTF_MAX_ID - btf->start_id;
	const uint32_t shift = btf->kernel_verified ? BTF_SPARSE_SHIFT : 0, mask = (1u << shift) - 1;
	const bool prep = pp && pp->n;
	uint32_t pos = 0, nr = 0, *offs;

	/* every type takes 12 bytes or more: room for all, never grown */
	btf->offs_shift = shift;
	offs = btf->offs = xmalloc((((size_t)len / sizeof(struct btf_type) >> shift) + 1) * sizeof(*offs));
	while (pos < len) {
		const struct btf_type *t = (const struct btf_type *)(types + pos);
		uint64_t next;

		if (len - pos < sizeof(struct btf_type) || nr >= max_nr || (uint32_t)btf_kind(t) - 1 >= BTF_KIND_ENUM64)
			return bad_type(btf, btf->start_id + nr, pos);
		next = pos + sizeof(struct btf_type) + (uint64_t)trailer_len((uint32_t)btf_kind(t), btf_vlen(t));
		if (next > len || t->name_off >= end)
			return bad_type(btf, btf->start_id + nr, pos);
		if (!shift && check_trailer_names(btf, btf->start_id + nr, t)) /* not the kernel's */
			return -EINVAL;
		if (prep)
			prep_visit(btf, pp, nr, t);
		if (!(nr & mask))
			offs[nr >> shift] = pos;
		nr++;
		pos = (uint32_t)next;
	}
	btf->nr = nr;
	return 0;
}

/* Header and section bounds; sets types/strs. */
static int parse_header(struct btf *btf)
{
	struct btf_header hv, *h = &hv; /* copied: the blob may sit at an odd address */
	uint64_t types_at, strs_at;

	if (btf->size < BTF_MIN_HDR_LEN)
		return err_set(EINVAL, "BTF too small (%zu bytes, header needs %u)", btf->size, BTF_MIN_HDR_LEN);
	memcpy(&hv, btf->data, sizeof(hv));
	if (h->magic == BTF_MAGIC_SWAPPED)
		return err_set(ENOTSUP, "BTF has foreign byte order (not supported)");
	if (h->magic != BTF_MAGIC)
		return err_set(EINVAL, "not BTF (magic 0x%04x, expected 0x%04x)", h->magic, BTF_MAGIC);
	if (h->version != BTF_VERSION)
		return err_set(ENOTSUP, "unsupported BTF version %u", h->version);
	if (h->hdr_len < BTF_MIN_HDR_LEN || h->hdr_len > btf->size)
		return err_set(EINVAL, "bad BTF header length %u (blob is %zu bytes)", h->hdr_len, btf->size);
	/* Newer headers append fields (e.g. the 2026 layout section) after
	 * the 24 bytes we know; types and strings are still found by their
	 * offsets, so the tail is ignored. */

	types_at = (uint64_t)h->hdr_len + h->type_off;
	strs_at = (uint64_t)h->hdr_len + h->str_off;
	/* Types are read as u32s: their offset in the blob must be aligned
	 * (an odd blob address is fixed by copying, see btf_new). */
	if (types_at & 3)
		return err_set(EINVAL, "BTF type section (header %u + offset %u) is not 4-byte aligned",
			       h->hdr_len, h->type_off);
	if (types_at + h->type_len > btf->size)
		return err_set(EINVAL, "BTF type section (offset %u, %u bytes) lies outside the blob (%zu bytes)",
			       h->type_off, h->type_len, btf->size - h->hdr_len);
	if (strs_at + h->str_len > btf->size)
		return err_set(EINVAL, "BTF string section (offset %u, %u bytes) lies outside the blob (%zu bytes)",
			       h->str_off, h->str_len, btf->size - h->hdr_len);
	if (h->type_len && h->str_len && types_at < strs_at + h->str_len && strs_at < types_at + h->type_len)
		return err_set(EINVAL, "BTF type and string sections overlap");
	btf->types = btf->data + types_at;
	btf->types_len = h->type_len;
	btf->strs = (const char *)btf->data + strs_at;
	btf->strs_len = h->str_len;

	/* Strings: a base BTF's start with the empty string (offset 0 is
	 * "no name"); split BTF may have none at all.  The last byte must be
	 * NUL so that every in-range offset yields a terminated string. */
	if (!btf->base && (!h->str_len || btf->strs[0]))
		return err_set(EINVAL, "BTF string section does not start with an empty string");
	if (h->str_len && btf->strs[h->str_len - 1])
		return err_set(EINVAL, "BTF string section is not NUL-terminated");
	if ((uint64_t)btf->start_str + h->str_len > UINT32_MAX)
		return err_set(E2BIG, "BTF strings too large");
	return 0;
}

static struct btf *parse(const void *data, size_t size, int copy, const struct btf *base, bool kernel_verified,
			 const struct btf_wanted *want)
{
	struct prep_pass pp = { 0 };
	struct btf *btf;

	if (!data || size > UINT32_MAX) {
		err_set(EINVAL, data ? "BTF blob too large (%zu bytes)" : "no BTF data", size);
		return NULL;
	}
	btf = xcalloc(1, sizeof(*btf));
	btf->base = base;
	btf->kernel_verified = kernel_verified;
	btf->start_id = base ? btf_nr_types(base) : 1;
	btf->start_str = base ? btf_strs_end(base) : 0;
	btf->data = data;
	btf->size = size;
	if (copy) {
		btf->owned = xmalloc(size ? size : 1);
		memcpy(btf->owned, data, size);
		btf->data = btf->owned;
		btf->writable = true;
	}
	if (parse_header(btf))
		goto fail;
	/* Borrowed data at an odd address (e.g. a .BTF section in a file we
	 * read into memory) cannot be accessed as u32s: take a copy rather
	 * than fail. */
	if (((uintptr_t)btf->types & 3) && !btf->owned) {
		btf->owned = xmalloc(size);
		memcpy(btf->owned, data, size);
		btf->data = btf->owned;
		if (parse_header(btf))
			goto fail;
	}
	prep_begin(btf, &pp, want);
	if (index_types(btf, &pp))
		goto fail;
	prep_end(&pp);
	return btf;
fail:
	prep_end(&pp);
	btf_free(btf);
	return NULL;
}

struct btf *btf_new(const void *data, size_t size, int copy, const struct btf *base)
{
	return parse(data, size, copy, base, false, NULL);
}

struct btf *btf_new_kernel(const void *data, size_t size, const struct btf *base)
{
	return parse(data, size, 0, base, true, NULL);
}

struct btf *btf_new_kernel_prepared(const void *data, size_t size, const struct btf *base,
				    const struct btf_wanted *want)
{
	return parse(data, size, 0, base, true, want);
}

void btf_free(struct btf *btf)
{
	if (!btf)
		return;
	free(btf->offs);
	free(btf->names);
	for (uint32_t i = 0; i < btf->nr_prep; i++) {
		free(btf->prep[i].name);
		free(btf->prep[i].ids);
	}
	free(btf->prep);
	free(btf->owned);
	free(btf);
}

uint32_t btf_nr_types(const struct btf *btf)
{
	return btf->start_id + btf->nr;
}

/* Every type's offset, once stepping from the sparse index has cost a
 * quarter of a walk: a tool that looks up a few types (CO-RE) never
 * pays for it, one that visits them all (btf dump) does once. */
static void index_all(struct btf *btf)
{
	const struct btf_type *t = (const struct btf_type *)btf->types;
	uint32_t *offs = xmalloc(((size_t)btf->nr + 1) * sizeof(*offs));

	for (uint32_t k = 0; k < btf->nr; k++, t = btf_next_type(t))
		offs[k] = (uint32_t)((const uint8_t *)t - btf->types);
	free(btf->offs);
	btf->offs = offs;
	btf->offs_shift = 0;
}

const struct btf_type *btf_type_by_id(const struct btf *cbtf, uint32_t id)
{
	struct btf *btf = (struct btf *)cbtf; /* the index is a cache */
	const struct btf_type *t;
	uint32_t n;

	if (id < btf->start_id)
		return btf->base ? btf_type_by_id(btf->base, id) : NULL;
	id -= btf->start_id;
	if (id >= btf->nr)
		return NULL;
	t = (const struct btf_type *)(btf->types + btf->offs[id >> btf->offs_shift]);
	if (!btf->offs_shift)
		return t;
	n = id & ((1u << btf->offs_shift) - 1);
	if ((btf->steps += n) > btf->nr / 4)
		index_all(btf);
	while (n--)
		t = btf_next_type(t);
	return t;
}

struct btf_type *btf_type_mut(struct btf *btf, uint32_t id)
{
	/* Only own types of a private copy; base types stay read-only. */
	if (!btf->writable || id < btf->start_id)
		return NULL;
	return (struct btf_type *)btf_type_by_id(btf, id);
}

const char *btf_str(const struct btf *btf, uint32_t off)
{
	if (off < btf->start_str)
		return btf->base ? btf_str(btf->base, off) : NULL;
	off -= btf->start_str;
	if (off >= btf->strs_len)
		return NULL;
	return btf->strs + off;
}

const char *btf_name(const struct btf *btf, const struct btf_type *t)
{
	const char *s = t ? btf_str(btf, t->name_off) : NULL;

	return s ? s : "";
}

const void *btf_raw(const struct btf *btf, size_t *size)
{
	if (size)
		*size = btf->size;
	return btf->data;
}
