/* Values printed by BTF type (see btf_print.h). */
#include "btf_print.h"

#include <stdbool.h>
#include <string.h>

#include "btf.h"
#include "util.h"

#define MAX_DEPTH 16

/* JSON instead of the compact text (btf_print_json): set for the length of
 * one public call; the printer is not reentrant across threads anyway. */
static bool as_json;

static void pr(FILE *f, const struct btf *btf, uint32_t id, const uint8_t *d, size_t n, int depth, int top);

void btf_print_hex(FILE *f, const void *data, size_t size)
{
	const uint8_t *d = data;

	if (as_json)
		fputc('"', f);
	for (size_t i = 0; i < size; i++)
		fprintf(f, "%s%02x", i && !(i % 4) ? " " : "", d[i]);
	if (!size && !as_json)
		fputs("(empty)", f);
	if (as_json)
		fputc('"', f);
}

/* What cannot be read: '?' in text, null in JSON. */
static void pr_unknown(FILE *f)
{
	fputs(as_json ? "null" : "?", f);
}

/* %g; JSON has no inf or nan: null */
static void pr_double(FILE *f, double v)
{
	if (as_json && (v != v || v - v != 0))
		fputs("null", f);
	else
		fprintf(f, "%g", v);
}

/* A JSON string of n bytes: quotes, backslashes, control and non-ASCII
 * bytes escaped (\u00XX: the bytes are not known to be UTF-8). */
static void json_bytes(FILE *f, const uint8_t *d, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (d[i] == '"' || d[i] == '\\')
			fprintf(f, "\\%c", d[i]);
		else if (d[i] < ' ' || d[i] >= 0x7f)
			fprintf(f, "\\u%04x", d[i]);
		else
			fputc(d[i], f);
	}
	fputc('"', f);
}

/* A name from the file: escaped text, or a JSON string. */
static void pr_name(FILE *f, const char *s)
{
	if (as_json)
		json_bytes(f, (const uint8_t *)s, strlen(s));
	else
		fputs_escaped(s, "", f);
}

/* nbits (<= 64) bits at bit offset off, little-endian. */
static uint64_t get_bits(const uint8_t *d, uint32_t off, uint32_t nbits)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < nbits; i++, off++)
		if (d[off / 8] >> (off % 8) & 1)
			v |= 1ull << i;
	return v;
}

static int64_t sext(uint64_t v, uint32_t nbits)
{
	return nbits && nbits < 64 && (v >> (nbits - 1) & 1) ? (int64_t)(v | ~0ull << nbits) : (int64_t)v;
}

/* An int (t INT) or enum (t ENUM/ENUM64) of nbits at bit offset off in d[n]. */
static void pr_scalar(FILE *f, const struct btf *btf, const struct btf_type *t, const uint8_t *d, size_t n,
		      uint32_t off, uint32_t nbits)
{
	bool is_signed;
	uint64_t v;

	if (!nbits || nbits > 64 || ((uint64_t)off + nbits + 7) / 8 > n) {
		if (btf_kind(t) == BTF_KIND_INT && t->size == 16 && n >= 16 && !off) {
			fputs(as_json ? "\"0x" : "0x", f); /* __int128: hex */
			for (int i = 15; i >= 0; i--)
				fprintf(f, "%02x", d[i]);
			if (as_json)
				fputc('"', f);
		} else {
			pr_unknown(f);
		}
		return;
	}
	v = get_bits(d, off, nbits);
	if (btf_kind(t) == BTF_KIND_INT) {
		uint32_t enc = btf_int_encoding(t);

		if (enc & BTF_INT_BOOL)
			fputs(v ? "true" : "false", f);
		else if (enc & BTF_INT_SIGNED)
			fprintf(f, "%lld", (long long)sext(v, nbits));
		else
			fprintf(f, "%llu", (unsigned long long)v);
		return;
	}
	is_signed = btf_kflag(t);
	if (is_signed)
		v = (uint64_t)sext(v, nbits);
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		uint64_t ev;
		uint32_t name_off;

		if (btf_kind(t) == BTF_KIND_ENUM) {
			const struct btf_enum *e = &btf_enums(t)[i];

			ev = is_signed ? (uint64_t)(int64_t)e->val : (uint32_t)e->val;
			name_off = e->name_off;
		} else {
			const struct btf_enum64 *e = &btf_enums64(t)[i];

			ev = (uint64_t)e->val_hi32 << 32 | e->val_lo32;
			name_off = e->name_off;
		}
		if (ev == v || (nbits < 64 && !is_signed && (ev & (~0ull >> (64 - nbits))) == v)) {
			const char *s = btf_str(btf, name_off);

			if (s && *s) {
				pr_name(f, s);
				return;
			}
		}
	}
	if (is_signed)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

static void pr_string(FILE *f, const uint8_t *d, size_t n)
{
	size_t len = strnlen((const char *)d, n);
	bool quote = !len;

	if (as_json) {
		json_bytes(f, d, len);
		return;
	}
	for (size_t i = 0; i < len; i++)
		if (d[i] <= ' ' || d[i] >= 0x7f || d[i] == '"' || d[i] == '=' || d[i] == '\\')
			quote = true;
	if (!quote) {
		fwrite(d, 1, len, f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		if (d[i] == '"' || d[i] == '\\')
			fprintf(f, "\\%c", d[i]);
		else if (d[i] < ' ' || d[i] >= 0x7f)
			fprintf(f, "\\x%02x", d[i]);
		else
			fputc(d[i], f);
	}
	fputc('"', f);
}

/* char, signed char, unsigned char (not typedefs such as __u8). */
static bool is_char(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;

	btf_skip_mods(btf, id, &t);
	return t && btf_kind(t) == BTF_KIND_INT && t->size == 1 &&
	       ((btf_int_encoding(t) & BTF_INT_CHAR) || strstr(btf_name(btf, t), "char"));
}

static void pr_array(FILE *f, const struct btf *btf, const struct btf_type *t, const uint8_t *d, size_t n,
		     int depth)
{
	const struct btf_array *a = btf_array_info(t);
	int64_t es = btf_type_size(btf, a->type);
	uint32_t cnt = a->nelems;

	if (es <= 0)
		es = 1, cnt = 0;
	if ((uint64_t)cnt * (uint64_t)es > n)
		cnt = (uint32_t)(n / (uint64_t)es);
	if (is_char(btf, a->type)) {
		pr_string(f, d, cnt);
		return;
	}
	fputc('[', f);
	for (uint32_t i = 0; i < cnt;) {
		uint32_t run = 1;

		while (i + run < cnt && !memcmp(d + i * es, d + (i + run) * es, (size_t)es))
			run++;
		if (i)
			fputc(',', f);
		pr(f, btf, a->type, d + i * es, (size_t)es, depth + 1, 0);
		if (run >= 3 && !as_json) {
			fprintf(f, " x%u", run);
			i += run;
		} else {
			i++;
		}
	}
	fputc(']', f);
}

/* JSON: members of an anonymous struct or union member are the parent's
 * keys (as C names them); *first says whether a comma is due. */
static void pr_members(FILE *f, const struct btf *btf, const struct btf_type *t, const uint8_t *d, size_t n,
		       int depth, bool *first)
{
	const struct btf_member *m = btf_members(t);

	for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bit = btf_member_bit_offset(t, m), bits = btf_member_bitfield_size(t, m);
		const char *name = btf_str(btf, m->name_off);
		const struct btf_type *mt;

		btf_resolve(btf, m->type, &mt);
		if (as_json && (!name || !*name) && mt &&
		    (btf_kind(mt) == BTF_KIND_STRUCT || btf_kind(mt) == BTF_KIND_UNION)) {
			if (bit / 8 <= n && depth < MAX_DEPTH)
				pr_members(f, btf, mt, d + bit / 8, n - bit / 8, depth + 1, first);
			continue;
		}
		if (!*first)
			fputc(as_json ? ',' : ' ', f);
		*first = false;
		if (as_json) {
			pr_name(f, name && *name ? name : "");
			fputc(':', f);
		} else if (name && *name) {
			fputs_escaped(name, "", f);
			fputc('=', f);
		}
		if (mt && (btf_kind(mt) == BTF_KIND_INT || btf_kind(mt) == BTF_KIND_ENUM ||
			   btf_kind(mt) == BTF_KIND_ENUM64) && (bits || bit % 8)) {
			uint32_t off = bit % 8;

			if (!bits)
				bits = btf_kind(mt) == BTF_KIND_INT ? btf_int_bits(mt) : mt->size * 8;
			if (bit / 8 >= n)
				pr_unknown(f);
			else
				pr_scalar(f, btf, mt, d + bit / 8, n - bit / 8, off, bits);
		} else if (bit / 8 > n) {
			pr_unknown(f);
		} else {
			pr(f, btf, m->type, d + bit / 8, n - bit / 8, depth + 1, 0);
		}
	}
}

static void pr_struct(FILE *f, const struct btf *btf, const struct btf_type *t, const uint8_t *d, size_t n,
		      int depth, int top)
{
	bool first = true;

	if (!top || as_json)
		fputc('{', f);
	pr_members(f, btf, t, d, n, depth, &first);
	if (!top || as_json)
		fputc('}', f);
}

static void pr(FILE *f, const struct btf *btf, uint32_t id, const uint8_t *d, size_t n, int depth, int top)
{
	const struct btf_type *t;
	int64_t sz;

	btf_resolve(btf, id, &t);
	sz = t ? btf_type_size(btf, id) : -1;
	if (!t || depth > MAX_DEPTH) {
		pr_unknown(f);
		return;
	}
	if (sz > 0 && (uint64_t)sz < n)
		n = (size_t)sz;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_offset(t) + btf_int_bits(t) > t->size * 8)
			pr_unknown(f);
		else
			pr_scalar(f, btf, t, d, n, btf_int_offset(t), btf_int_bits(t));
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		pr_scalar(f, btf, t, d, n, 0, t->size * 8);
		return;
	case BTF_KIND_PTR: {
		uint64_t v = 0;

		if (n < 8) {
			pr_unknown(f);
			return;
		}
		memcpy(&v, d, 8);
		/* a JSON number would lose an address's low bits: a string */
		fprintf(f, as_json ? "\"0x%llx\"" : "0x%llx", (unsigned long long)v);
		return;
	}
	case BTF_KIND_FLOAT:
		if (t->size == 4 && n >= 4) {
			float v;

			memcpy(&v, d, 4);
			pr_double(f, v);
			return;
		}
		if (t->size == 8 && n >= 8) {
			double v;

			memcpy(&v, d, 8);
			pr_double(f, v);
			return;
		}
		break;
	case BTF_KIND_ARRAY:
		pr_array(f, btf, t, d, n, depth);
		return;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		pr_struct(f, btf, t, d, n, depth, top);
		return;
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *vs = btf_secinfos(t);

		if (as_json)
			fputc('{', f);
		for (uint32_t i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *v = btf_type_by_id(btf, vs->type);

			if (i)
				fputc(as_json ? ',' : ' ', f);
			pr_name(f, v ? btf_name(btf, v) : "?");
			fputc(as_json ? ':' : '=', f);
			if (!v || btf_kind(v) != BTF_KIND_VAR || vs->offset > n || vs->size > n - vs->offset)
				pr_unknown(f);
			else
				pr(f, btf, v->type, d + vs->offset, vs->size, depth + 1, 0);
		}
		if (as_json)
			fputc('}', f);
		return;
	}
	}
	btf_print_hex(f, d, sz > 0 ? n : 0);
}

void btf_print(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size, int top)
{
	if (!btf || !id)
		btf_print_hex(f, data, size);
	else
		pr(f, btf, id, data, size, 0, top);
}

void btf_print_json(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size)
{
	as_json = true;
	btf_print(f, btf, id, data, size, 0);
	as_json = false;
}

void btf_print_datasec(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size,
		       const char *prefix)
{
	const struct btf_type *t = btf ? btf_type_by_id(btf, id) : NULL;
	const struct btf_var_secinfo *vs;

	if (!t || btf_kind(t) != BTF_KIND_DATASEC) {
		fputs(prefix, f);
		btf_print_hex(f, data, size);
		fputc('\n', f);
		return;
	}
	vs = btf_secinfos(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *v = btf_type_by_id(btf, vs->type);

		fputs(prefix, f);
		fputs_escaped(v ? btf_name(btf, v) : "?", "", f);
		fputc('=', f);
		if (!v || btf_kind(v) != BTF_KIND_VAR || vs->offset > size || vs->size > size - vs->offset)
			fputc('?', f);
		else
			pr(f, btf, v->type, (const uint8_t *)data + vs->offset, vs->size, 0, 0);
		fputc('\n', f);
	}
}
