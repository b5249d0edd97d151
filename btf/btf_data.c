/* Values as libbpf's typed data dump prints them (see btf_data.h). */
#include "btf_data.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "btf.h"
#include "util.h"

#define MAX_NEST 64 /* kernel types nest ~10 deep; crafted BTF may not end */
#define DECL_MAX 32 /* links in one declarator chain (int *(*)[4]...) */

struct dd {
	FILE *f;
	const struct btf *btf;
	const uint8_t *d;
	size_t n;
	int indent, depth;
	bool in_array, char_array, cut;
	unsigned long budget; /* steps left: crafted nesting of arrays could take n^depth */
};

static bool is_mod(int k)
{
	return k == BTF_KIND_CONST || k == BTF_KIND_VOLATILE || k == BTF_KIND_RESTRICT || k == BTF_KIND_TYPE_TAG;
}

static void pr_name(FILE *f, const struct btf *btf, uint32_t off)
{
	const char *s = btf_str(btf, off);

	fputs_escaped(s ? s : "", "", f);
}

/* ---- the cast: libbpf's declarator emitter, qualifiers stripped ---- */

static void emit_decl(FILE *f, const struct btf *btf, uint32_t id, const char *fname, int lvl);

static void emit_name(FILE *f, const char *fname, bool last_ptr)
{
	if (*fname && !last_ptr)
		fputc(' ', f);
	fputs_escaped(fname, "", f);
}

/* ids[0..*cnt): the chain from the outermost declarator (last) inwards */
static void emit_chain(FILE *f, const struct btf *btf, const uint32_t *ids, int *cnt, const char *fname, int lvl)
{
	bool last_ptr = true;

	while (*cnt) {
		uint32_t id = ids[--*cnt];
		const struct btf_type *t = btf_type_by_id(btf, id), *next;
		int k;

		if (!id) {
			fputs("void", f);
			last_ptr = false;
			continue;
		}
		switch ((k = btf_kind(t))) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_TYPEDEF:
			pr_name(f, btf, t->name_off);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			fputs(k == BTF_KIND_STRUCT ? "struct" : "union", f);
			if (t->name_off)
				fputc(' ', f);
			pr_name(f, btf, t->name_off);
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			fputs("enum ", f);
			pr_name(f, btf, t->name_off);
			break;
		case BTF_KIND_FWD:
			fputs(btf_kflag(t) ? "union " : "struct ", f);
			pr_name(f, btf, t->name_off);
			break;
		case BTF_KIND_PTR:
			fputs(last_ptr ? "*" : " *", f);
			break;
		case BTF_KIND_ARRAY:
			if (!*cnt) {
				emit_name(f, fname, last_ptr);
			} else {
				/* int (*)[4], but int[2][3] */
				bool multi = (next = btf_type_by_id(btf, ids[*cnt - 1])) && btf_kind(next) == BTF_KIND_ARRAY;

				if (*fname && !last_ptr)
					fputc(' ', f);
				fputs(multi ? "" : "(", f);
				emit_chain(f, btf, ids, cnt, fname, lvl);
				fputs(multi ? "" : ")", f);
			}
			fprintf(f, "[%u]", btf_array_info(t)->nelems);
			return;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *p = btf_params(t);
			uint32_t n = btf_vlen(t);

			if (*cnt) {
				fputs(" (", f);
				emit_chain(f, btf, ids, cnt, fname, lvl);
				fputc(')', f);
			} else {
				emit_name(f, fname, last_ptr);
			}
			fputc('(', f);
			for (uint32_t i = 0; i < n && !(n == 1 && !p->type); i++, p++) {
				if (i)
					fputs(", ", f);
				if (i == n - 1 && !p->type) {
					fputs("...", f);
					break;
				}
				emit_decl(f, btf, p->type, btf_str(btf, p->name_off) ?: "", lvl + 1);
			}
			fputc(')', f);
			return;
		}
		default:
			return;
		}
		last_ptr = k == BTF_KIND_PTR;
	}
	emit_name(f, fname, last_ptr);
}

static void emit_decl(FILE *f, const struct btf *btf, uint32_t id, const char *fname, int lvl)
{
	uint32_t ids[DECL_MAX];
	int cnt = 0;

	if (lvl > 8)
		return;
	for (int steps = 0; steps < 2 * DECL_MAX; steps++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		int k = t ? btf_kind(t) : 0;

		if (id && !t)
			break;
		if (!is_mod(k)) {
			if (cnt == DECL_MAX)
				break;
			ids[cnt++] = id;
		}
		if (!id)
			break;
		if (k == BTF_KIND_PTR || k == BTF_KIND_FUNC_PROTO || is_mod(k))
			id = t->type;
		else if (k == BTF_KIND_ARRAY)
			id = btf_array_info(t)->type;
		else
			break;
	}
	emit_chain(f, btf, ids, &cnt, fname, lvl);
}

void btf_dump_cast(FILE *f, const struct btf *btf, uint32_t id)
{
	emit_decl(f, btf, id, "", 0);
}

/* ---- the value ---- */

static bool have(const struct dd *dd, uint64_t off, uint64_t len)
{
	return off <= dd->n && len <= dd->n - off;
}

/* Little-endian unsigned of size bytes (<= 8) at off. */
static uint64_t get_le(const struct dd *dd, uint64_t off, uint32_t size)
{
	uint64_t v = 0;

	while (size--)
		v = v << 8 | dd->d[off + size];
	return v;
}

static int size_of(const struct dd *dd, uint32_t id)
{
	int64_t s = btf_type_size(dd->btf, id);

	return s < 0 || s >= INT_MAX ? -EINVAL : (int)s;
}

static const struct btf_type *skip(const struct dd *dd, uint32_t id)
{
	const struct btf_type *t;

	btf_resolve(dd->btf, id, &t);
	return t;
}

/* 1: the bytes are out of range (counted as non-zero) */
static int bitfield(const struct dd *dd, const struct btf_type *t, uint64_t off, int bits, int bit_sz, uint64_t *v)
{
	int nr = bit_sz + bits;

	if (t->size > 8 || nr > 64 || bit_sz > 64)
		return -EINVAL;
	if (!have(dd, off, t->size))
		return 1;
	*v = get_le(dd, off, t->size) << (64 - nr) >> (64 - bit_sz);
	return 0;
}

/* An enum's value of its size and signedness (kind_flag). */
static int64_t enum_cast(const struct btf_type *t, uint64_t v)
{
	bool s = btf_kflag(t);

	switch (t->size) {
	case 1: return s ? (int8_t)v : (int64_t)(uint8_t)v;
	case 2: return s ? (int16_t)v : (int64_t)(uint16_t)v;
	case 4: return s ? (int32_t)v : (int64_t)(uint32_t)v;
	default: return (int64_t)v;
	}
}

static int enum_value(const struct dd *dd, const struct btf_type *t, uint64_t off, int64_t *v)
{
	if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
		return -EINVAL;
	if (!have(dd, off, t->size))
		return 1;
	/* libbpf reads a misaligned enum with a shift by 64 (undefined; its
	 * build gives 0): an enum bitfield not on its alignment is zero */
	*v = off % (t->size < 8 ? t->size : 8) ? 0 : enum_cast(t, get_le(dd, off, t->size));
	return 0;
}

/* Is the value zero (-ENODATA: left out), 0 shown, < 0 error.  libbpf's
 * rules: everything at the top and every element of a non-char array is
 * shown; a struct is zero when its first member is. */
static int zero(struct dd *dd, uint32_t id, uint64_t off, int bits, int bit_sz, int lvl)
{
	const struct btf_type *t = skip(dd, id);
	uint64_t v;
	int64_t ev;
	int err, nr;

	if (!dd->depth || (dd->in_array && !dd->char_array) || !t)
		return 0;
	if (lvl > MAX_NEST || !dd->budget--)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (bit_sz) {
			if ((err = bitfield(dd, t, off, bits, bit_sz, &v)))
				return err < 0 ? err : 0;
			return v ? 0 : -ENODATA;
		}
		/* fallthrough */
	case BTF_KIND_FLOAT:
	case BTF_KIND_PTR:
		nr = btf_kind(t) == BTF_KIND_PTR ? 8 : (int)t->size;
		if (nr < 1 || nr > 16)
			return -EINVAL;
		if (!have(dd, off, nr))
			return 0;
		for (int i = 0; i < nr; i++)
			if (dd->d[off + i])
				return 0;
		return -ENODATA;
	case BTF_KIND_ARRAY: {
		uint32_t eid = btf_array_info(t)->type, n = btf_array_info(t)->nelems;
		const struct btf_type *et = skip(dd, eid);
		int esz = size_of(dd, eid);
		bool ischar = et && btf_kind(et) == BTF_KIND_INT && esz == 1;

		if (esz <= 0)
			return 0;
		for (uint64_t i = 0; i < n; i++) {
			uint64_t eoff = off + i * esz;

			if (!have(dd, eoff, 1))
				return 0;
			if (!i && ischar && !dd->d[eoff])
				return -ENODATA;
			if ((err = zero(dd, eid, eoff, bits, 0, lvl + 1)) != -ENODATA)
				return err;
		}
		return -ENODATA;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		uint32_t bo;

		if (!btf_vlen(t))
			return -ENODATA;
		bo = btf_member_bit_offset(t, m);
		return zero(dd, m->type, off + bo / 8, bo % 8, btf_member_bitfield_size(t, m), lvl + 1);
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if ((err = enum_value(dd, t, off, &ev)))
			return err < 0 ? err : 0;
		return ev ? 0 : -ENODATA;
	default:
		return 0;
	}
}

/* A value's end: libbpf's delimiter and newline, inside a struct/array */
static void end(struct dd *dd)
{
	if (dd->depth)
		fputs(",\n", dd->f);
}

static void pfx(struct dd *dd)
{
	fprintf(dd->f, "%*s", dd->indent + dd->depth, "");
}

static int int_data(struct dd *dd, const struct btf_type *t, uint64_t off)
{
	bool s = btf_int_encoding(t) & BTF_INT_SIGNED;
	uint64_t v, hi;

	switch (t->size) {
	case 16:
		v = get_le(dd, off, 8);
		hi = get_le(dd, off + 8, 8);
		if (hi)
			fprintf(dd->f, "0x%llx%016llx", (unsigned long long)hi, (unsigned long long)v);
		else
			fprintf(dd->f, "0x%llx", (unsigned long long)v);
		break;
	case 8:
		v = get_le(dd, off, 8);
		fprintf(dd->f, s ? "%lld" : "%llu", (long long)v);
		break;
	case 4:
	case 2:
	case 1:
		v = get_le(dd, off, t->size);
		/* once a char array was seen, libbpf shows every printable byte as a char */
		if (t->size == 1 && dd->char_array && v >= ' ' && v < 0x7f)
			fprintf(dd->f, "'%c'", (int)v);
		else if (s)
			fprintf(dd->f, "%lld", (long long)(t->size == 4 ? (int32_t)v : t->size == 2 ? (int16_t)v : (int8_t)v));
		else
			fprintf(dd->f, "%llu", (unsigned long long)v);
		break;
	default:
		return -EINVAL;
	}
	end(dd);
	return 0;
}

/* (16-byte long doubles, which libbpf prints with %Lf, are -EINVAL: the
 * kernel has none, and their layout differs between architectures) */
static int float_data(struct dd *dd, const struct btf_type *t, uint64_t off)
{
	union { float f; double d; unsigned char b[8]; } u;

	if (t->size != 4 && t->size != 8)
		return -EINVAL;
	memcpy(u.b, dd->d + off, t->size);
	fprintf(dd->f, "%f", t->size == 4 ? (double)u.f : u.d);
	end(dd);
	return 0;
}

static int enum_data(struct dd *dd, const struct btf_type *t, int64_t v)
{
	bool s = btf_kflag(t);
	uint32_t n = btf_vlen(t);

	if (btf_kind(t) == BTF_KIND_ENUM) {
		const struct btf_enum *e = btf_enums(t);

		for (uint32_t i = 0; i < n; i++, e++)
			if (v == (int64_t)e->val) /* __s32: an unsigned one above INT_MAX never matches (as libbpf) */
				goto named;
		/* libbpf's format is `s ? "%d" : "%u" "%s%s"`: the delimiter
		 * and newline are concatenated to the unsigned one only */
		fprintf(dd->f, s ? "%d" : "%u", (int)v);
		if (!s)
			end(dd);
		return 0;
named:
		pr_name(dd->f, dd->btf, e->name_off);
	} else {
		const struct btf_enum64 *e = btf_enums64(t);

		for (uint32_t i = 0; i < n; i++, e++)
			if ((uint64_t)v == ((uint64_t)e->val_hi32 << 32 | e->val_lo32)) {
				pr_name(dd->f, dd->btf, e->name_off);
				end(dd);
				return 0;
			}
		fprintf(dd->f, s ? "%lldLL" : "%lluULL", (long long)v);
		if (s)
			return 0; /* as above */
	}
	end(dd);
	return 0;
}

static int dump(struct dd *dd, const char *fname, uint32_t id, uint64_t off, int bits, int bit_sz, int lvl);

static int array_data(struct dd *dd, const struct btf_type *t, uint64_t off, int lvl)
{
	uint32_t eid = btf_array_info(t)->type, n = btf_array_info(t)->nelems;
	const struct btf_type *et = skip(dd, eid);
	int esz = size_of(dd, eid);
	bool was = dd->in_array;

	if (esz <= 0 || !et)
		return -EINVAL;
	if (btf_kind(et) == BTF_KIND_INT && esz == 1)
		dd->char_array = true; /* never reset: libbpf's */
	dd->depth++;
	fputs("[\n", dd->f);
	dd->in_array = true;
	/* an element's error leaves it out and the next is tried (libbpf);
	 * past the end, all would be: stop there */
	for (uint64_t i = 0; i < n; i++) {
		if (off + i * esz >= dd->n) {
			dd->cut = true;
			break;
		}
		dump(dd, NULL, eid, off + i * esz, 0, 0, lvl + 1);
	}
	dd->in_array = was;
	dd->depth--;
	pfx(dd);
	fputc(']', dd->f);
	end(dd);
	return 0;
}

static int struct_data(struct dd *dd, const struct btf_type *t, uint64_t off, int lvl)
{
	const struct btf_member *m = btf_members(t);
	int err;

	dd->depth++;
	fputs("{\n", dd->f);
	for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bo = btf_member_bit_offset(t, m);

		err = dump(dd, btf_str(dd->btf, m->name_off), m->type, off + bo / 8, bo % 8,
			   btf_member_bitfield_size(t, m), lvl + 1);
		if (err < 0)
			return err;
	}
	dd->depth--;
	pfx(dd);
	fputc('}', dd->f);
	end(dd);
	return 0;
}

static int dump(struct dd *dd, const char *fname, uint32_t id, uint64_t off, int bits, int bit_sz, int lvl)
{
	const struct btf_type *t = skip(dd, id), *raw = btf_type_by_id(dd->btf, id);
	int size = size_of(dd, id), k, err = 0;
	uint64_t v;

	if (size < 0 || !t || lvl > MAX_NEST || !dd->budget--)
		return -EINVAL;
	k = btf_kind(t);
	/* only base values are checked against the end: a struct or array
	 * shows what part of it there is */
	if ((k == BTF_KIND_INT || k == BTF_KIND_FLOAT || k == BTF_KIND_PTR || k == BTF_KIND_ENUM ||
	     k == BTF_KIND_ENUM64) && !have(dd, off, size)) {
		dd->cut = true;
		return -E2BIG;
	}
	if ((err = zero(dd, id, off, bits, bit_sz, lvl)))
		return err == -ENODATA ? size : err;
	pfx(dd);
	if (fname && *fname) {
		fputc('.', dd->f);
		fputs_escaped(fname, "", dd->f);
		fputs(" = ", dd->f);
	}
	if (!dd->in_array && btf_kind(raw) != BTF_KIND_VAR && btf_kind(raw) != BTF_KIND_DATASEC) {
		fputc('(', dd->f);
		btf_dump_cast(dd->f, dd->btf, id);
		fputc(')', dd->f);
	}
	switch (k) {
	case BTF_KIND_INT:
		if (!bit_sz) {
			err = int_data(dd, t, off);
		} else if (!(err = bitfield(dd, t, off, bits, bit_sz, &v))) {
			fprintf(dd->f, "0x%llx", (unsigned long long)v);
			end(dd);
		}
		break;
	case BTF_KIND_FLOAT:
		err = float_data(dd, t, off);
		break;
	case BTF_KIND_PTR:
		v = get_le(dd, off, 8);
		fprintf(dd->f, v ? "0x%llx" : "(nil)", (unsigned long long)v); /* glibc's %p */
		end(dd);
		break;
	case BTF_KIND_ARRAY:
		err = array_data(dd, t, off, lvl);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		err = struct_data(dd, t, off, lvl);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (bit_sz) {
			if (!(err = bitfield(dd, t, off, bits, bit_sz, &v)))
				err = enum_data(dd, t, enum_cast(t, v));
		} else {
			int64_t ev = 0;

			if (!(err = enum_value(dd, t, off, &ev)))
				err = enum_data(dd, t, ev);
		}
		break;
	default: /* no value (VAR and DATASEC are not shown either) */
		fprintf(dd->f, "<unsupported kind:%d>", k);
		err = -ENOTSUP;
	}
	return err < 0 ? err : err > 0 ? -E2BIG : size;
}

int btf_dump_data(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size, int indent)
{
	struct dd dd = { .f = f, .btf = btf, .d = data, .n = size, .indent = indent, .budget = 1ul << 20 };
	int ret;

	if (!btf_type_by_id(btf, id))
		return -ENOENT;
	ret = dump(&dd, NULL, id, 0, 0, 0, 0);
	return ret >= 0 && dd.cut ? -E2BIG : ret;
}
