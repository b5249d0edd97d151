/* BTF to a compilable C header (what `bpftool btf dump ... format c` does).
 *
 * Emission is one depth-first walk.  Before a named struct or union is
 * printed, everything it embeds by value is defined first and everything
 * it reaches only through pointers is forward-declared ("struct foo;").
 * Typedefs cannot be forward-declared, so a typedef is printed as soon as
 * anything mentions it; it only needs its target declared, except when it
 * is used by value.  Anonymous structs, unions and enums are printed
 * inline where they are used.
 *
 * Layout: C would lay members out naturally; BTF records the real offsets.
 * Where they differ we add anonymous bitfields as padding ("long: 64;"),
 * mark a struct __attribute__((packed)) when a member sits below its
 * natural alignment, and force enum sizes with mode(). The result
 * reproduces every offset and size of the BTF (tests compile it with
 * static asserts).
 *
 * Names: C has one tag namespace (struct/union/enum) and one ordinary
 * namespace (typedefs, enumerators).  BTF can hold two different types
 * with the same name; the later ones (by id) get "___2", "___3"... like
 * bpftool, so that names do not depend on which subset is dumped. */
#include "btf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

/* Nesting bound for every recursive walk: real kernel types nest a few
 * dozen levels; a crafted blob must not blow the stack. */
#define DUMP_MAX_DEPTH 256

enum {
	ST_DECLARED = 1,   /* "struct foo;" printed (or implied by a typedef) */
	ST_DEFINED = 2,    /* full definition printed */
	ST_BUSY = 4,       /* definition in progress (cycle detection) */
	ST_REFERENCED = 8, /* some type refers to it (anonymous enums) */
};

enum { TAG_NONE, TAG_STRUCT, TAG_UNION, TAG_ENUM };

/* name -> number of distinct types using it, and which tag kind owns the
 * plain name.  Open addressing; keys point into the BTF strings. */
struct name_ent {
	const char *name;
	uint32_t count;
	uint32_t owner;
};
struct name_map {
	struct name_ent *ents;
	uint32_t cap, used;
};

struct dump {
	const struct btf *btf;
	FILE *out;
	uint32_t n;          /* btf_nr_types */
	uint8_t *state;      /* ST_* per id */
	uint8_t *align;      /* memo: natural alignment + 1 (0 = unknown) */
	uint8_t *packed;     /* memo: 0 unknown, 1 no, 2 yes, 3 computing */
	uint32_t *suffix;    /* per id: 0 = plain name, N = name___N */
	struct name_map tags, idents;
	int depth;
	uint64_t steps;      /* walk() calls: anonymous types are re-walked, so a
	                      * crafted chain could otherwise take exponential time */
	int err;             /* first error (negative errno) */
	char last;           /* last character written, for spacing */
};

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static struct name_ent *name_get(struct name_map *m, const char *name)
{
	uint32_t i;

	if (m->used * 2 >= m->cap) {
		struct name_map big = { xcalloc(m->cap ? m->cap * 2 : 1024, sizeof(struct name_ent)),
					m->cap ? m->cap * 2 : 1024, 0 };

		for (i = 0; i < m->cap; i++)
			if (m->ents[i].name)
				*name_get(&big, m->ents[i].name) = m->ents[i];
		free(m->ents);
		*m = big;
	}
	for (i = str_hash(name) & (m->cap - 1); m->ents[i].name; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->ents[i].name, name))
			return &m->ents[i];
	m->ents[i].name = name;
	m->used++;
	return &m->ents[i];
}

/* Count one step of walking or printing; false once the budget is spent
 * (anonymous types are re-walked and re-printed at each use, so crafted
 * BTF could otherwise take exponential time). */
static bool step(struct dump *d, uint32_t id);

static int fail(struct dump *d, int err)
{
	if (!d->err)
		d->err = err;
	return err;
}

static bool step(struct dump *d, uint32_t id)
{
	if (d->err)
		return false;
	if (++d->steps > 64ull * d->n + 100000) {
		fail(d, err_set(E2BIG, "BTF type graph too complex to dump (type [%u])", id));
		return false;
	}
	return true;
}

/* ---- output with C-like spacing ---- */

static void put(struct dump *d, const char *s)
{
	size_t n = strlen(s);

	if (n) {
		fwrite(s, 1, n, d->out);
		d->last = s[n - 1];
	}
}

/* Does the next word/star need a space after what was last written? */
static void sep(struct dump *d)
{
	if (isalnum((unsigned char)d->last) || d->last == '_' || d->last == '}' || d->last == ')')
		put(d, " ");
}

static void word(struct dump *d, const char *s)
{
	sep(d);
	put(d, s);
}

static void indent(struct dump *d, int lvl)
{
	while (lvl-- > 0)
		put(d, "\t");
}

static void putf(struct dump *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct dump *d, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(d, buf);
}

/* ---- names ---- */

static const struct btf_type *type(struct dump *d, uint32_t id)
{
	return btf_type_by_id(d->btf, id);
}

static const char *name_of(struct dump *d, uint32_t id)
{
	return btf_name(d->btf, type(d, id));
}

/* A type's C name with its dedup suffix. */
static void put_type_name(struct dump *d, uint32_t id)
{
	word(d, name_of(d, id));
	if (d->suffix[id])
		putf(d, "___%u", d->suffix[id]);
}

static int tag_of(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: return TAG_STRUCT;
	case BTF_KIND_UNION: return TAG_UNION;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: return TAG_ENUM;
	case BTF_KIND_FWD: return btf_kflag(t) ? TAG_UNION : TAG_STRUCT;
	default: return TAG_NONE;
	}
}

/* Full definitions and typedefs claim names in id order; forward
 * declarations (FWD, enums without values) then share the plain name
 * when it belongs to the same tag kind, so `struct foo;` and
 * `struct foo {...}` meet. */
static void assign_names(struct dump *d)
{
	uint32_t id;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (id = 1; id < d->n; id++) {
			const struct btf_type *t = type(d, id);
			int k = btf_kind(t), tag = tag_of(t);
			bool fwd = k == BTF_KIND_FWD || (tag == TAG_ENUM && !btf_vlen(t));
			struct name_ent *e;

			if (!t->name_off || (tag == TAG_NONE && k != BTF_KIND_TYPEDEF) || fwd != (pass == 1))
				continue;
			e = name_get(tag == TAG_NONE ? &d->idents : &d->tags, btf_name(d->btf, t));
			if (fwd && e->count && e->owner == (uint32_t)tag)
				continue;
			if (++e->count == 1)
				e->owner = (uint32_t)tag;
			else
				d->suffix[id] = e->count;
		}
	}
}

static void mark_referenced(struct dump *d)
{
	uint32_t id, i;

	for (id = 1; id < d->n; id++) {
		const struct btf_type *t = type(d, id);
		uint32_t ref = 0;

		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_FUNC_PROTO:
			ref = t->type;
			break;
		case BTF_KIND_ARRAY:
			ref = btf_array_info(t)->type;
			break;
		default:
			break;
		}
		if (ref < d->n)
			d->state[ref] |= ST_REFERENCED;
		if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) {
			for (i = 0; i < btf_vlen(t); i++)
				if (btf_members(t)[i].type < d->n)
					d->state[btf_members(t)[i].type] |= ST_REFERENCED;
		} else if (btf_kind(t) == BTF_KIND_FUNC_PROTO) {
			for (i = 0; i < btf_vlen(t); i++)
				if (btf_params(t)[i].type < d->n)
					d->state[btf_params(t)[i].type] |= ST_REFERENCED;
		}
	}
}

/* ---- layout ---- */

/* Bit offset and bitfield width of a member (0 = not a bitfield); old
 * BTF without kind_flag keeps bitfield data in the INT type. */
static void member_bits(struct dump *d, const struct btf_type *t, const struct btf_member *m,
			uint64_t *off, uint32_t *bits)
{
	const struct btf_type *mt;

	*off = btf_member_bit_offset(t, m);
	*bits = btf_member_bitfield_size(t, m);
	if (btf_kflag(t))
		return;
	btf_skip_mods(d->btf, m->type, &mt);
	if (mt && btf_kind(mt) == BTF_KIND_INT && btf_int_bits(mt) != mt->size * 8) {
		*bits = btf_int_bits(mt);
		*off += btf_int_offset(mt);
	}
}

static uint64_t member_size_bits(struct dump *d, uint32_t type_id, uint32_t bits)
{
	int64_t sz;

	if (bits)
		return bits;
	sz = btf_type_size(d->btf, type_id);
	return sz > 0 ? (uint64_t)sz * 8 : 0;
}

static unsigned align_of(struct dump *d, uint32_t id);

static unsigned natural_align(struct dump *d, const struct btf_type *t)
{
	unsigned a = 1, i;

	for (i = 0; i < btf_vlen(t); i++) {
		unsigned ma = align_of(d, btf_members(t)[i].type);

		if (ma > a)
			a = ma;
	}
	return a;
}

/* Must the struct be __attribute__((packed)) to get BTF's offsets? */
static bool is_packed(struct dump *d, uint32_t id)
{
	const struct btf_type *t = type(d, id);
	unsigned na, i;
	bool packed = false;

	if (d->packed[id])
		return d->packed[id] == 2;
	if (d->depth >= DUMP_MAX_DEPTH) {
		fail(d, err_set(ELOOP, "BTF type [%u] nests too deeply", id));
		return false;
	}
	d->packed[id] = 3; /* a by-value cycle ends here (treated as not packed) */
	d->depth++;
	na = natural_align(d, t);
	if (na && t->size % na)
		packed = true;
	for (i = 0; i < btf_vlen(t) && !packed; i++) {
		const struct btf_member *m = &btf_members(t)[i];
		uint64_t off;
		uint32_t bits;

		member_bits(d, t, m, &off, &bits);
		if (bits) {
			/* a bitfield that crosses a unit of its type */
			uint64_t unit = member_size_bits(d, m->type, 0);

			if (unit && (off % unit) + bits > unit)
				packed = true;
		} else if (off % (align_of(d, m->type) * 8u)) {
			packed = true;
		}
	}
	d->depth--;
	d->packed[id] = packed ? 2 : 1;
	return packed;
}

static unsigned align_of(struct dump *d, uint32_t id)
{
	const struct btf_type *t = type(d, id);
	unsigned a = 1;

	if (!t)
		return 1;
	if (d->align[id])
		return d->align[id] - 1u;
	if (d->depth >= DUMP_MAX_DEPTH) {
		fail(d, err_set(ELOOP, "BTF type [%u] nests too deeply", id));
		return 1;
	}
	d->depth++;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		a = t->size >= 16 ? 16 : t->size >= 8 ? 8 : t->size >= 4 ? 4 : t->size >= 2 ? 2 : 1;
		break;
	case BTF_KIND_FLOAT:
		a = t->size >= 8 ? 8 : t->size >= 4 ? 4 : t->size >= 2 ? 2 : 1;
		break;
	case BTF_KIND_PTR:
		a = 8;
		break;
	case BTF_KIND_ARRAY:
		a = align_of(d, btf_array_info(t)->type);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		a = is_packed(d, id) ? 1 : natural_align(d, t);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		a = align_of(d, t->type);
		break;
	default:
		break;
	}
	d->depth--;
	d->align[id] = (uint8_t)(a + 1);
	return a;
}

/* Anonymous bitfields covering bits [from, to): each chunk fits the
 * smallest unit that holds it, so C places it exactly at `from`
 * (unnamed bitfields do not change a struct's alignment). */
static void pad(struct dump *d, uint64_t from, uint64_t to, int lvl)
{
	static const struct { unsigned bits; const char *type; } units[] = {
		{ 8, "char" }, { 16, "short" }, { 32, "int" }, { 64, "long" },
	};

	/* Big holes (only crafted BTF has them: real ones are at most a
	 * cache line) become one array, so the output stays small. */
	if (to - from > 8 * 1024) {
		uint64_t start = (from + 7) / 8 * 8, bytes = (to / 8) - start / 8;

		pad(d, from, start, lvl);
		indent(d, lvl);
		putf(d, "unsigned char __pad_at_%" PRIu64 "[%" PRIu64 "];\n", start / 8, bytes);
		from = start + bytes * 8;
	}
	while (from < to) {
		uint64_t w = 64 - from % 64;
		unsigned u;

		if (w > to - from)
			w = to - from;
		for (u = 0; u < ARRAY_SIZE(units) - 1; u++)
			if (from % units[u].bits + w <= units[u].bits)
				break;
		indent(d, lvl);
		putf(d, "%s: %u;\n", units[u].type, (unsigned)w);
		from += w;
	}
}

/* ---- declarations ---- */

/* Compiler built-ins that BTF records as typedefs (__builtin_va_list)
 * cannot be redefined, and on the BPF target they mean something else
 * than in the kernel: they are printed as what they stand for. */
static bool is_builtin_typedef(struct dump *d, const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_TYPEDEF && !strncmp(btf_name(d->btf, t), "__builtin_", 10);
}

/* Does the element type of an array (id: its target) already carry this
 * qualifier?  C applies an array's qualifiers to its elements. */
static bool elem_has_qualifier(struct dump *d, uint32_t id, int kind)
{
	const struct btf_type *t;
	int n;

	for (n = 0; n < 32 && (t = type(d, id)); n++) {
		int k = btf_kind(t);

		if (k == kind)
			return true;
		if (k == BTF_KIND_ARRAY)
			id = btf_array_info(t)->type;
		else if (k == BTF_KIND_CONST || k == BTF_KIND_VOLATILE || k == BTF_KIND_RESTRICT ||
			 k == BTF_KIND_TYPE_TAG)
			id = t->type;
		else
			break;
	}
	return false;
}

static void print_struct(struct dump *d, uint32_t id, int lvl);
static void print_enum(struct dump *d, uint32_t id, int lvl);
static void print_decl(struct dump *d, uint32_t id, const char *name, int lvl);

static bool valid_int_name(const char *s)
{
	static const char *const words[] = { "signed", "unsigned", "char", "short", "int", "long",
					     "_Bool", "__int128" };
	while (*s) {
		size_t n = strcspn(s, " "), i;

		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (strlen(words[i]) == n && !strncmp(s, words[i], n))
				break;
		if (i == ARRAY_SIZE(words))
			return false;
		s += n;
		s += strspn(s, " ");
	}
	return true;
}

/* INT/FLOAT names come from the compiler ("long unsigned int"); gcc also
 * emits non-C ones ("ssizetype"), which get a C type of the same size. */
static void put_base_name(struct dump *d, const struct btf_type *t)
{
	const char *name = btf_name(d->btf, t);
	bool sgn;

	if (btf_kind(t) == BTF_KIND_FLOAT) {
		word(d, !strcmp(name, "float") || !strcmp(name, "double") || !strcmp(name, "long double")
			? name : t->size == 4 ? "float" : t->size == 16 ? "long double" : "double");
		return;
	}
	if (*name && valid_int_name(name)) {
		word(d, name);
		return;
	}
	sgn = btf_int_encoding(t) & BTF_INT_SIGNED;
	if (btf_int_encoding(t) & BTF_INT_BOOL)
		word(d, "_Bool");
	else
		word(d, t->size == 1 ? (sgn ? "signed char" : "unsigned char")
			: t->size == 2 ? (sgn ? "short" : "unsigned short")
			: t->size == 4 ? (sgn ? "int" : "unsigned int")
			: t->size == 16 ? (sgn ? "__int128" : "unsigned __int128")
			: (sgn ? "long" : "unsigned long"));
}

/* Pointers to arrays and functions need "(*name)". */
static bool needs_parens(struct dump *d, uint32_t target)
{
	const struct btf_type *t;

	btf_skip_mods(d->btf, target, &t);
	return t && (btf_kind(t) == BTF_KIND_ARRAY || btf_kind(t) == BTF_KIND_FUNC_PROTO);
}

static const char *qualifier(int kind)
{
	return kind == BTF_KIND_CONST ? "const" : kind == BTF_KIND_VOLATILE ? "volatile" : "restrict";
}

/* Everything left of the declared name: "const struct foo *(*". */
static void prefix(struct dump *d, uint32_t id, int lvl)
{
	const struct btf_type *t = type(d, id), *target;

	if (!t || !step(d, id)) {
		word(d, "void");
		return;
	}
	if (++d->depth > DUMP_MAX_DEPTH) {
		fail(d, err_set(ELOOP, "BTF type [%u] nests too deeply", id));
		word(d, "void");
		d->depth--;
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		put_base_name(d, t);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (t->name_off) {
			word(d, btf_kind(t) == BTF_KIND_UNION ? "union" : "struct");
			put_type_name(d, id);
		} else {
			print_struct(d, id, lvl);
		}
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (t->name_off) {
			word(d, "enum");
			put_type_name(d, id);
		} else {
			print_enum(d, id, lvl);
		}
		break;
	case BTF_KIND_FWD:
		word(d, btf_kflag(t) ? "union" : "struct");
		put_type_name(d, id);
		break;
	case BTF_KIND_TYPEDEF:
		if (is_builtin_typedef(d, t))
			prefix(d, t->type, lvl);
		else
			put_type_name(d, id);
		break;
	case BTF_KIND_PTR:
		prefix(d, t->type, lvl);
		sep(d);
		put(d, needs_parens(d, t->type) ? "(*" : "*");
		break;
	case BTF_KIND_ARRAY:
		prefix(d, btf_array_info(t)->type, lvl);
		break;
	case BTF_KIND_FUNC_PROTO:
		prefix(d, t->type, lvl);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		btf_skip_mods(d->btf, t->type, &target);
		if (target && btf_kind(target) == BTF_KIND_PTR) {
			/* qualifies the pointer itself: "int *const p" */
			prefix(d, t->type, lvl);
			word(d, qualifier(btf_kind(t)));
		} else if (target && (btf_kind(target) == BTF_KIND_FUNC_PROTO ||
				      (btf_kind(target) == BTF_KIND_ARRAY &&
				       elem_has_qualifier(d, t->type, btf_kind(t))))) {
			/* qualified functions mean nothing; "const const" warns */
			prefix(d, t->type, lvl);
		} else {
			word(d, qualifier(btf_kind(t)));
			prefix(d, t->type, lvl);
		}
		break;
	case BTF_KIND_TYPE_TAG:
		prefix(d, t->type, lvl);
		break;
	default: /* FUNC, VAR, DATASEC, DECL_TAG are not C types */
		fail(d, err_set(EINVAL, "BTF type [%u] (kind %d) used as a C type", id, btf_kind(t)));
		word(d, "void");
		break;
	}
	d->depth--;
}

/* Everything right of the declared name: ")[4](int, char *)". */
static void suffix(struct dump *d, uint32_t id, int lvl)
{
	const struct btf_type *t = type(d, id);
	uint32_t i, n;

	if (!t || !step(d, id))
		return;
	if (++d->depth > DUMP_MAX_DEPTH) {
		d->depth--;
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		if (needs_parens(d, t->type))
			put(d, ")");
		suffix(d, t->type, lvl);
		break;
	case BTF_KIND_ARRAY:
		putf(d, "[%u]", btf_array_info(t)->nelems);
		suffix(d, btf_array_info(t)->type, lvl);
		break;
	case BTF_KIND_FUNC_PROTO:
		n = btf_vlen(t);
		put(d, "(");
		if (!n)
			put(d, "void");
		for (i = 0; i < n; i++) {
			if (i == n - 1 && !btf_params(t)[i].type) {
				/* "..." needs a named parameter before it; alone, use () */
				if (i)
					put(d, ", ...");
				break;
			}
			if (i)
				put(d, ", ");
			print_decl(d, btf_params(t)[i].type, "", lvl);
		}
		put(d, ")");
		suffix(d, t->type, lvl);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		suffix(d, t->type, lvl);
		break;
	case BTF_KIND_TYPEDEF:
		if (is_builtin_typedef(d, t))
			suffix(d, t->type, lvl);
		break;
	default:
		break;
	}
	d->depth--;
}

static void print_decl(struct dump *d, uint32_t id, const char *name, int lvl)
{
	prefix(d, id, lvl);
	if (name && *name)
		word(d, name);
	suffix(d, id, lvl);
}

static void print_struct(struct dump *d, uint32_t id, int lvl)
{
	const struct btf_type *t = type(d, id);
	bool is_union = btf_kind(t) == BTF_KIND_UNION, packed = is_packed(d, id);
	uint64_t cur = 0, natural_end;
	unsigned a;
	uint32_t i;

	word(d, is_union ? "union" : "struct");
	if (t->name_off)
		put_type_name(d, id);
	if (!btf_vlen(t) && !t->size) {
		put(d, " {}");
		return;
	}
	put(d, " {\n");
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = &btf_members(t)[i];
		uint64_t off, end;
		uint32_t bits;

		member_bits(d, t, m, &off, &bits);
		if (!is_union) {
			a = packed ? 1 : align_of(d, m->type);
			/* bitfields go exactly where we are; others round up */
			if (bits ? off > cur : off > (cur + a * 8 - 1) / (a * 8) * (a * 8))
				pad(d, cur, off, lvl + 1);
		}
		indent(d, lvl + 1);
		print_decl(d, m->type, btf_str(d->btf, m->name_off), lvl + 1);
		if (bits)
			putf(d, ": %u", bits);
		put(d, ";\n");
		end = off + member_size_bits(d, m->type, bits);
		if (end > cur || !is_union)
			cur = end;
	}
	/* Tail padding when BTF's size exceeds the natural one (an aligned
	 * attribute in the source, or padding members pahole dropped). */
	a = packed ? 1 : natural_align(d, t);
	natural_end = (cur + a * 8 - 1) / (a * 8) * (a * 8);
	if ((uint64_t)t->size * 8 > natural_end) {
		if (!is_union) {
			pad(d, cur, (uint64_t)t->size * 8, lvl + 1);
		} else {
			/* union members all start at 0: pad in a struct of its own */
			indent(d, lvl + 1);
			put(d, "struct {\n");
			pad(d, 0, (uint64_t)t->size * 8, lvl + 2);
			indent(d, lvl + 1);
			put(d, "};\n");
		}
	}
	indent(d, lvl);
	put(d, "}");
	if (packed)
		put(d, " __attribute__((packed))");
}

static void put_enumerator(struct dump *d, const char *name)
{
	struct name_ent *e = name_get(&d->idents, name);

	word(d, name);
	if (++e->count > 1)
		putf(d, "___%u", e->count);
}

static void print_enum(struct dump *d, uint32_t id, int lvl)
{
	const struct btf_type *t = type(d, id);
	bool sgn = btf_kflag(t), is64 = btf_kind(t) == BTF_KIND_ENUM64;
	uint32_t i, n = btf_vlen(t);

	if (!n && !t->name_off) {
		word(d, "int"); /* an anonymous enum without values: nothing to name */
		return;
	}
	word(d, "enum");
	if (t->name_off)
		put_type_name(d, id);
	if (!n)
		return;
	put(d, " {\n");
	for (i = 0; i < n; i++) {
		indent(d, lvl + 1);
		if (is64) {
			const struct btf_enum64 *e = &btf_enums64(t)[i];
			uint64_t v = (uint64_t)e->val_hi32 << 32 | e->val_lo32;

			put_enumerator(d, btf_str(d->btf, e->name_off));
			if (sgn && (int64_t)v == INT64_MIN)
				put(d, " = (-9223372036854775807LL - 1),\n");
			else if (sgn)
				putf(d, " = %" PRId64 "LL,\n", (int64_t)v);
			else
				putf(d, " = %" PRIu64 "ULL,\n", v);
		} else {
			const struct btf_enum *e = &btf_enums(t)[i];

			put_enumerator(d, btf_str(d->btf, e->name_off));
			if (sgn)
				putf(d, " = %d,\n", (int32_t)e->val);
			else
				putf(d, " = %u,\n", (uint32_t)e->val);
		}
	}
	indent(d, lvl);
	put(d, "}");
	/* C picks an enum's size from its values; BTF's size wins */
	if (t->size == 1)
		put(d, " __attribute__((mode(byte)))");
	else if (t->size == 2)
		put(d, " __attribute__((mode(HI)))");
	else if (t->size == 8)
		put(d, " __attribute__((mode(DI)))");
}

/* ---- checks before anything is written ---- */

static bool c_identifier(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static const char *const kind_names[] = {
	"void", "int", "pointer", "array", "struct", "union", "enum", "forward declaration", "typedef",
	"volatile", "const", "restrict", "function", "function prototype", "variable", "data section",
	"float", "declaration tag", "type tag", "enum64",
};

static const char *kind_name(int k)
{
	return k >= 0 && (size_t)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "type";
}

/* A type id stored in type `id` (what: "member 3", "target"...). */
static int check_ref(struct dump *d, uint32_t id, uint32_t ref, bool void_ok, const char *what)
{
	const struct btf_type *t = type(d, id);

	if (ref >= d->n)
		return err_set(EINVAL, "BTF %s [%u] '%s': %s refers to type [%u], but the last type is [%u]",
			       kind_name(btf_kind(t)), id, btf_name(d->btf, t), what, ref, d->n - 1);
	if (!ref && !void_ok)
		return err_set(EINVAL, "BTF %s [%u] '%s': %s is void", kind_name(btf_kind(t)), id, btf_name(d->btf, t),
			       what);
	return 0;
}

static int check_name(struct dump *d, uint32_t id, const char *name, const char *what)
{
	const struct btf_type *t = type(d, id);

	if (c_identifier(name))
		return 0;
	return err_set(EINVAL, "BTF %s [%u]: %s '%s' is not a C identifier", kind_name(btf_kind(t)), id, what,
		       name ? name : "");
}

/* The header must be C that says what the BTF says: every name printed
 * is an identifier (a name is copied into the output, so a crafted one
 * could otherwise inject preprocessor lines) and every type id points at
 * a type (an out-of-range id would silently print as void). */
static int check_btf(struct dump *d)
{
	char what[48];
	uint32_t id, i;
	int err = 0;

	for (id = 1; id < d->n && !err; id++) {
		const struct btf_type *t = type(d, id);
		int k = btf_kind(t), tag = tag_of(t);

		if ((tag != TAG_NONE || k == BTF_KIND_TYPEDEF) && (t->name_off || k == BTF_KIND_TYPEDEF ||
								     k == BTF_KIND_FWD))
			err = check_name(d, id, btf_name(d->btf, t), "name");
		switch (k) {
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			err = err ? err : check_ref(d, id, t->type, k != BTF_KIND_FUNC, "its target");
			break;
		case BTF_KIND_ARRAY:
			err = err ? err : check_ref(d, id, btf_array_info(t)->type, false, "its element type");
			err = err ? err : check_ref(d, id, btf_array_info(t)->index_type, true, "its index type");
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (i = 0; i < btf_vlen(t) && !err; i++) {
				const struct btf_member *m = &btf_members(t)[i];

				snprintf(what, sizeof(what), "member %u", i);
				err = check_ref(d, id, m->type, false, what);
				if (!err && m->name_off)
					err = check_name(d, id, btf_str(d->btf, m->name_off), what);
			}
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			for (i = 0; i < btf_vlen(t) && !err; i++) {
				snprintf(what, sizeof(what), "enumerator %u", i);
				err = check_name(d, id, btf_str(d->btf, k == BTF_KIND_ENUM ? btf_enums(t)[i].name_off
											 : btf_enums64(t)[i].name_off), what);
			}
			break;
		case BTF_KIND_FUNC_PROTO:
			err = err ? err : check_ref(d, id, t->type, true, "its return type");
			for (i = 0; i < btf_vlen(t) && !err; i++) {
				snprintf(what, sizeof(what), "parameter %u", i);
				/* void only as the last one: "..." */
				err = check_ref(d, id, btf_params(t)[i].type, i == btf_vlen(t) - 1, what);
			}
			break;
		case BTF_KIND_DATASEC:
			for (i = 0; i < btf_vlen(t) && !err; i++) {
				snprintf(what, sizeof(what), "variable %u", i);
				err = check_ref(d, id, btf_secinfos(t)[i].type, false, what);
			}
			break;
		default:
			break;
		}
	}
	return err;
}

/* ---- the walk that orders definitions ---- */

static void walk(struct dump *d, uint32_t id, bool complete, uint32_t cont);

static void declare(struct dump *d, uint32_t id)
{
	const struct btf_type *t = type(d, id);

	if (d->state[id] & (ST_DECLARED | ST_DEFINED))
		return;
	word(d, tag_of(t) == TAG_UNION ? "union" : "struct");
	put_type_name(d, id);
	put(d, ";\n\n");
	d->state[id] |= ST_DECLARED;
}

static void define_enum(struct dump *d, uint32_t id)
{
	if (d->state[id] & ST_DEFINED)
		return;
	print_enum(d, id, 0);
	put(d, ";\n\n");
	d->state[id] |= ST_DEFINED;
}

static void define_struct(struct dump *d, uint32_t id)
{
	const struct btf_type *t = type(d, id);
	uint32_t i;

	if (d->state[id] & ST_DEFINED)
		return;
	if (d->state[id] & ST_BUSY) {
		fail(d, err_set(ELOOP, "BTF struct/union [%u] '%s' contains itself by value", id, name_of(d, id)));
		return;
	}
	d->state[id] |= ST_BUSY;
	for (i = 0; i < btf_vlen(t); i++)
		walk(d, btf_members(t)[i].type, true, id);
	print_struct(d, id, 0);
	put(d, ";\n\n");
	d->state[id] = (uint8_t)((d->state[id] & ~ST_BUSY) | ST_DEFINED | ST_DECLARED);
}

static void emit_typedef(struct dump *d, uint32_t id)
{
	const struct btf_type *t = type(d, id), *target;

	if (d->state[id] & ST_DEFINED)
		return;
	if (d->state[id] & ST_BUSY) {
		fail(d, err_set(ELOOP, "BTF typedef [%u] '%s' refers to itself", id, name_of(d, id)));
		return;
	}
	d->state[id] |= ST_BUSY;
	/* "typedef struct foo foo_t;" declares struct foo by itself */
	target = type(d, t->type);
	if (target && (btf_kind(target) == BTF_KIND_STRUCT || btf_kind(target) == BTF_KIND_UNION ||
		       btf_kind(target) == BTF_KIND_FWD) && target->name_off)
		d->state[t->type] |= ST_DECLARED;
	else
		walk(d, t->type, false, 0);
	word(d, "typedef");
	prefix(d, t->type, 0);
	put_type_name(d, id);
	suffix(d, t->type, 0);
	put(d, ";\n\n");
	d->state[id] = (uint8_t)((d->state[id] & ~ST_BUSY) | ST_DEFINED);
}

/* Make sure what `id` names is printable at this point: complete when
 * used by value (complete), declared otherwise.  cont: the struct being
 * defined (it may refer to itself through pointers). */
static void walk(struct dump *d, uint32_t id, bool complete, uint32_t cont)
{
	const struct btf_type *t = type(d, id);
	uint32_t i;

	if (!t || !step(d, id))
		return;
	if (++d->depth > DUMP_MAX_DEPTH) {
		fail(d, err_set(ELOOP, "BTF type [%u] nests too deeply", id));
		d->depth--;
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		walk(d, t->type, false, cont);
		break;
	case BTF_KIND_ARRAY: /* C needs complete element types, even behind a pointer */
		walk(d, btf_array_info(t)->type, true, cont);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		walk(d, t->type, complete, cont);
		break;
	case BTF_KIND_TYPEDEF:
		if (is_builtin_typedef(d, t)) {
			walk(d, t->type, complete, cont);
			break;
		}
		emit_typedef(d, id);
		if (complete)
			walk(d, t->type, true, cont);
		break;
	case BTF_KIND_FUNC_PROTO:
		walk(d, t->type, false, cont);
		for (i = 0; i < btf_vlen(t); i++)
			walk(d, btf_params(t)[i].type, false, cont);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (!t->name_off) { /* printed inline: its members matter */
			for (i = 0; i < btf_vlen(t); i++)
				walk(d, btf_members(t)[i].type, true, cont);
		} else if (complete) {
			define_struct(d, id);
		} else if (id != cont) {
			declare(d, id);
		}
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (t->name_off)
			define_enum(d, id);
		break;
	case BTF_KIND_FWD:
		declare(d, id);
		break;
	default:
		break;
	}
	d->depth--;
}

/* Top-level emission of one type (full dump or a requested name). */
static void emit_root(struct dump *d, uint32_t id, bool requested)
{
	const struct btf_type *t = type(d, id);

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (t->name_off)
			define_struct(d, id);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* anonymous enums nobody refers to hold constants: keep them */
		if (t->name_off || (!(d->state[id] & ST_REFERENCED) && btf_vlen(t)))
			define_enum(d, id);
		break;
	case BTF_KIND_TYPEDEF:
		if (is_builtin_typedef(d, t))
			break;
		emit_typedef(d, id);
		if (requested) /* asked for by name: make it usable by value */
			walk(d, t->type, true, 0);
		break;
	case BTF_KIND_FWD:
		declare(d, id);
		break;
	default:
		break;
	}
}

/* ---- requested names ---- */

struct root_ctx {
	struct dump *d;
	int kind;    /* -1: any */
	int found;
	bool emit;
};

static int root_cb(uint32_t id, void *ctx)
{
	struct root_ctx *r = ctx;
	const struct btf_type *t = type(r->d, id);
	int k = btf_kind(t);

	if (r->kind >= 0 && k != r->kind && !(r->kind == BTF_KIND_ENUM && k == BTF_KIND_ENUM64))
		return 0;
	if (tag_of(t) == TAG_NONE && k != BTF_KIND_TYPEDEF)
		return 0; /* functions, variables... are not dumped */
	r->found++;
	if (r->emit)
		emit_root(r->d, id, true);
	return 0;
}

/* "struct foo" / "union foo" / "enum foo" / "typedef foo" / "foo". */
static int for_each_root(struct dump *d, const char *spec, bool emit)
{
	static const struct { const char *word; int kind; } kinds[] = {
		{ "struct ", BTF_KIND_STRUCT }, { "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM }, { "typedef ", BTF_KIND_TYPEDEF },
	};
	struct root_ctx r = { d, -1, 0, emit };
	char name[256];
	size_t i, n;

	spec += strspn(spec, " \t\n");
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(spec, kinds[i].word, strlen(kinds[i].word))) {
			r.kind = kinds[i].kind;
			spec += strlen(kinds[i].word);
			spec += strspn(spec, " \t");
		}
	n = strlen(spec);
	while (n && isspace((unsigned char)spec[n - 1]))
		n--;
	if (!n || *spec == '#')
		return 0; /* empty entries (a trailing comma) and comments are fine */
	if (n >= sizeof(name))
		return err_set(EINVAL, "type name too long: '%.40s...'", spec);
	memcpy(name, spec, n);
	name[n] = 0;
	btf_for_each_named(d->btf, name, root_cb, &r);
	if (!r.found)
		return err_set(ENOENT, "type '%s' not found in BTF", name);
	return 0;
}

int btf_dump_c(const struct btf *btf, FILE *out, const char *const *only)
{
	struct dump d = { .btf = btf, .out = out, .n = btf_nr_types(btf) };
	const char *const *p;
	uint32_t id;
	int err = 0;

	/* Check the BTF and every requested name before printing anything. */
	if ((err = check_btf(&d)))
		return err;
	for (p = only; p && *p; p++)
		if ((err = for_each_root(&d, *p, false)))
			return err;
	d.state = xcalloc(d.n, 1);
	d.align = xcalloc(d.n, 1);
	d.packed = xcalloc(d.n, 1);
	d.suffix = xcalloc(d.n, sizeof(*d.suffix));
	assign_names(&d);
	mark_referenced(&d);

	put(&d, "#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n\n"
		"#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n"
		"#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n"
		"#endif\n\n");
	if (only)
		for (p = only; *p; p++)
			for_each_root(&d, *p, true);
	else
		for (id = 1; id < d.n; id++)
			emit_root(&d, id, false);
	put(&d, "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n#pragma clang attribute pop\n#endif\n\n"
		"#endif /* __VMLINUX_H__ */\n");

	if (d.err)
		err = d.err; /* message already set by fail() */
	else if (fflush(out) || ferror(out))
		err = err_sys(errno ? errno : EIO, "cannot write the C header");
	free(d.state);
	free(d.align);
	free(d.packed);
	free(d.suffix);
	free(d.tags.ents);
	free(d.idents.ents);
	return err;
}
