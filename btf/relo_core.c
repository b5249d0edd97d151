/* CO-RE relocation engine (see relo_core.h and loader-anchors.md §1.8).
 *
 * One relocation = (local root type, access string, kind).  We
 *   1. parse the access string against the local BTF into a "spec": the raw
 *      index list plus the high-level accessors (named members and array
 *      indices; anonymous struct/union members are only in the raw list),
 *      and the local bit offset;
 *   2. find target candidates: types whose essential name (name without the
 *      last "___flavor") equals the local one, with a CO-RE compatible kind
 *      (an anonymous local enum, for enumerator kinds only: the target's
 *      anonymous enums sharing an enumerator name with it);
 *   3. match the local spec against every candidate (members by name,
 *      descending into anonymous members; arrays by bounds; leaf types must be
 *      field-compatible), compute the value for each match, and insist that
 *      all matches agree (else "ambiguous relocation");
 *   4. with no match, existence kinds and TYPE_SIZE/TYPE_ID_TARGET give 0 and
 *      everything else poisons the instruction.
 *
 * The local BTF and the records come from an untrusted object file: every id,
 * index, string and multiplication is checked, recursion is depth-limited and
 * the total work per relocation is bounded (ctx->steps). */
#include "relo_core.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

#define SPEC_MAX 64          /* access string depth (as libbpf) */
#define COMPAT_DEPTH 32      /* types_are_compat / types_match recursion */
#define MOD_DEPTH 32         /* typedef/modifier chains */
#define STEP_BUDGET 1000000  /* recursive matching steps per relocation */
#define POISON 1             /* internal: "poison this instruction" */

/* One high-level access step: a named member (name != NULL; type_id is the
 * enclosing struct/union, idx the member index) or an array/root index
 * (name == NULL; type_id is the element type, idx the element index). */
struct acc {
	uint32_t type_id;
	uint32_t idx;
	const char *name;
};

struct spec {
	const struct btf *btf;
	uint32_t root_id;     /* relocation root type as written */
	struct acc acc[SPEC_MAX];
	int len;
	uint32_t raw[SPEC_MAX];
	int raw_len;
	uint64_t bit_off;     /* from the start of the root */
};

struct cands {
	uint32_t *ids;
	const struct btf **btfs;     /* per candidate: the BTF it lives in */
	uint32_t len;
	bool searched;
	bool anon_enum;              /* found by enumerator names: never pruned */
};

struct core_ctx {
	const struct btf *local;
	const struct btf *target;    /* current candidate's BTF (main or a module) */
	const struct btf *main;      /* the target given to core_ctx_new */
	core_more_fn more;           /* module BTFs (split on main), or NULL */
	void *more_arg;
	core_visit_fn visit;         /* minimal-BTF recording, or NULL */
	void *visit_arg;
	uint32_t nr_local;
	struct cands *cands;         /* [nr_local], per local root type */
	uint32_t *flavored;          /* target ids whose name has a ___flavor */
	uint32_t nr_flavored;
	bool flavored_done;
	uint32_t local_ptr_sz, targ_ptr_sz;
	long steps;                  /* work budget left for the current relo */
};

static const struct btf_type void_type;

static bool is_composite(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION;
}

static bool is_any_enum(const struct btf_type *t)
{
	return btf_kind(t) == BTF_KIND_ENUM || btf_kind(t) == BTF_KIND_ENUM64;
}

static bool kind_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (is_any_enum(a) && is_any_enum(b));
}

static bool is_field_kind(uint32_t k) { return k <= CORE_FIELD_RSHIFT_U64; }
static bool is_enumval_kind(uint32_t k) { return k == CORE_ENUMVAL_EXISTS || k == CORE_ENUMVAL_VALUE; }
static bool is_type_kind(uint32_t k)
{
	return (k >= CORE_TYPE_ID_LOCAL && k <= CORE_TYPE_SIZE) || k == CORE_TYPE_MATCHES;
}

static const char *const kind_names[] = {
	"field byte offset", "field byte size", "field exists", "field signed",
	"field lshift u64", "field rshift u64", "local type id", "target type id",
	"type exists", "type size", "enumval exists", "enumval value", "type matches",
};

static const char *kind_name(uint32_t k)
{
	return k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "unknown kind";
}

static const char *btf_kind_name(const struct btf_type *t)
{
	static const char *const n[] = {
		"void", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef",
		"volatile", "const", "restrict", "func", "func_proto", "var", "datasec",
		"float", "decl_tag", "type_tag", "enum64",
	};
	unsigned k = btf_kind(t);

	if (k == BTF_KIND_FWD)
		return btf_kflag(t) ? "union" : "struct";
	return k < sizeof(n) / sizeof(n[0]) ? n[k] : "kind?";
}

/* Type by id with id 0 as the void type (never NULL for a valid id). */
static const struct btf_type *type_at(const struct btf *btf, uint32_t id)
{
	return id ? btf_type_by_id(btf, id) : &void_type;
}

/* Skip typedefs and modifiers; NULL on a bad id or an overlong chain. */
static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = type_at(btf, id);
	int i;

	for (i = 0; t && i < MOD_DEPTH; i++) {
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			t = type_at(btf, id);
			continue;
		}
		if (res_id)
			*res_id = id;
		return t;
	}
	return NULL;
}

/* Name at offset, "" for offset 0, NULL when the offset is bad. */
static const char *str_at(const struct btf *btf, uint32_t off)
{
	return off ? btf_str(btf, off) : "";
}

/* "X___Y" where X and Y are not underscores. */
static bool is_flavor_sep(const char *s)
{
	return s[0] != '_' && s[1] == '_' && s[2] == '_' && s[3] == '_' && s[4] != '_' && s[4];
}

/* Length of NAME without its last ___flavor suffix. */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name);
	size_t i;

	for (i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (is_flavor_sep(name + i))
			return i + 1;
	return n;
}

static bool essential_eq(const char *a, const char *b)
{
	size_t la = essential_len(a), lb = essential_len(b);

	return la == lb && memcmp(a, b, la) == 0;
}

/* Pointer size of a BTF: the size of its "long" (4 on 32-bit kernels). */
static uint32_t guess_ptr_size(const struct btf *btf)
{
	static const char *const names[] = { "long", "long int", "unsigned long", "long unsigned int" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int32_t id = btf_find(btf, names[i], BTF_KIND_INT);
		const struct btf_type *t = id > 0 ? btf_type_by_id(btf, id) : NULL;

		if (t && (t->size == 4 || t->size == 8))
			return t->size;
	}
	return 8;
}

/* Byte size of a type, through typedefs/modifiers, arrays multiplied;
 * negative errno for sizeless types or overflow. */
static int64_t type_size(const struct btf *btf, uint32_t id, uint32_t ptr_sz)
{
	uint64_t mul = 1, sz;
	int depth;

	for (depth = 0; depth < MOD_DEPTH * 2; depth++) {
		const struct btf_type *t = skip_mods(btf, id, &id);

		if (!t)
			return -EINVAL;
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FLOAT:
		case BTF_KIND_DATASEC:
			sz = t->size;
			break;
		case BTF_KIND_PTR:
			sz = ptr_sz;
			break;
		case BTF_KIND_ARRAY:
			if (__builtin_mul_overflow(mul, (uint64_t)btf_array_info(t)->nelems, &mul) ||
			    mul > INT64_MAX)
				return -E2BIG;
			id = btf_array_info(t)->type;
			continue;
		default:
			return -EINVAL;
		}
		if (__builtin_mul_overflow(mul, sz, &sz) || sz > INT64_MAX)
			return -E2BIG;
		return (int64_t)sz;
	}
	return -ELOOP;
}

static uint32_t ptr_sz_of(const struct core_ctx *ctx, const struct btf *btf)
{
	return btf == ctx->target && btf != ctx->local ? ctx->targ_ptr_sz : ctx->local_ptr_sz;
}

/* bit_off += idx * size * 8, with overflow checks. */
static int add_elem_bits(uint64_t *bit_off, uint64_t idx, int64_t size)
{
	uint64_t bits;

	if (size < 0)
		return (int)size;
	if (__builtin_mul_overflow(idx, (uint64_t)size, &bits) ||
	    __builtin_mul_overflow(bits, 8, &bits) ||
	    __builtin_add_overflow(*bit_off, bits, bit_off) || *bit_off > (uint64_t)UINT32_MAX * 8)
		return -E2BIG;
	return 0;
}

/* A zero-length array that is the last member of the struct holding it. */
static bool is_flex_array(const struct btf *btf, const struct acc *prev, const struct btf_array *a)
{
	const struct btf_type *t;

	if (!prev->name || a->nelems > 0)
		return false;
	t = btf_type_by_id(btf, prev->type_id);
	return t && prev->idx + 1 == btf_vlen(t);
}

/* ---- access string parsing ------------------------------------------ */

/* Parse "0:1:2" into raw indices.  Strict: digits separated by single ':'. */
static int parse_access(const char *s, uint32_t *raw, int *raw_len, const char **why)
{
	*raw_len = 0;
	if (!s) {
		*why = "access string offset out of range";
		return -EINVAL;
	}
	if (!*s) {
		*why = "empty access string";
		return -EINVAL;
	}
	for (;;) {
		uint64_t v = 0;

		if (*s < '0' || *s > '9') {
			*why = "malformed access string";
			return -EINVAL;
		}
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (uint64_t)(*s++ - '0');
			if (v > INT32_MAX) {
				*why = "access index too large";
				return -EINVAL;
			}
		}
		if (*raw_len == SPEC_MAX) {
			*why = "access string too deep";
			return -E2BIG;
		}
		raw[(*raw_len)++] = (uint32_t)v;
		if (!*s)
			return 0;
		if (*s++ != ':') {
			*why = "malformed access string";
			return -EINVAL;
		}
	}
}

/* Build the local spec of RELO.  On error returns a negative errno and a
 * static reason in *why (no err_set: core_describe reuses parts of this). */
static int parse_spec(const struct btf *btf, uint32_t ptr_sz, const struct core_relo *relo,
		      struct spec *sp, const char **why)
{
	const struct btf_type *t;
	uint32_t id;
	int i, err;

	sp->len = sp->raw_len = 0;
	sp->bit_off = 0;
	sp->btf = btf;
	sp->root_id = relo->type_id;

	err = parse_access(str_at(btf, relo->access_str_off), sp->raw, &sp->raw_len, why);
	if (err)
		return err;

	if (is_type_kind(relo->kind)) {
		if (sp->raw_len != 1 || sp->raw[0] != 0) {
			*why = "type relocation needs access string \"0\"";
			return -EINVAL;
		}
		return 0;
	}

	t = skip_mods(btf, relo->type_id, &id);
	if (!t || !id) {
		*why = "bad root type";
		return -EINVAL;
	}
	sp->acc[0] = (struct acc){ .type_id = id, .idx = sp->raw[0] };
	sp->len = 1;

	if (is_enumval_kind(relo->kind)) {
		const char *name;

		if (!is_any_enum(t)) {
			*why = "enum value relocation on a non-enum type";
			return -EINVAL;
		}
		if (sp->raw_len != 1 || sp->raw[0] >= btf_vlen(t)) {
			*why = "enumerator index out of range";
			return -EINVAL;
		}
		name = btf_str(btf, btf_kind(t) == BTF_KIND_ENUM ? btf_enums(t)[sp->raw[0]].name_off
							      : btf_enums64(t)[sp->raw[0]].name_off);
		if (!name || !*name) {
			*why = "enumerator without a name";
			return -EINVAL;
		}
		sp->acc[0].name = name;
		return 0;
	}

	if (!is_field_kind(relo->kind)) {
		*why = "unknown relocation kind";
		return -EINVAL;
	}

	err = add_elem_bits(&sp->bit_off, sp->raw[0], type_size(btf, id, ptr_sz));
	if (err) {
		*why = "root type has no size";
		return err;
	}

	for (i = 1; i < sp->raw_len; i++) {
		uint32_t idx = sp->raw[i];

		t = skip_mods(btf, id, &id);
		if (!t) {
			*why = "bad type in access path";
			return -EINVAL;
		}
		if (is_composite(t)) {
			const struct btf_member *m;

			if (idx >= btf_vlen(t)) {
				*why = "member index out of range";
				return -EINVAL;
			}
			m = btf_members(t) + idx;
			sp->bit_off += btf_member_bit_offset(t, m);
			if (m->name_off) {
				const char *name = btf_str(btf, m->name_off);

				if (!name || !*name) {
					*why = "member with a bad name";
					return -EINVAL;
				}
				sp->acc[sp->len++] = (struct acc){ .type_id = id, .idx = idx, .name = name };
			}
			id = m->type;
		} else if (btf_kind(t) == BTF_KIND_ARRAY) {
			const struct btf_array *a = btf_array_info(t);
			bool flex = is_flex_array(btf, &sp->acc[sp->len - 1], a);

			if (!skip_mods(btf, a->type, &id)) {
				*why = "bad array element type";
				return -EINVAL;
			}
			if (!flex && idx >= a->nelems) {
				*why = "array index out of range";
				return -EINVAL;
			}
			sp->acc[sp->len++] = (struct acc){ .type_id = id, .idx = idx };
			err = add_elem_bits(&sp->bit_off, idx, type_size(btf, id, ptr_sz));
			if (err) {
				*why = "array element has no size";
				return err;
			}
		} else {
			*why = "access path steps into a type that is neither struct, union nor array";
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- type compatibility ---------------------------------------------- */

static bool step(struct core_ctx *ctx)
{
	return --ctx->steps >= 0;
}

/* Field compatibility: any struct/union pair, same-named FWDs and enums (or
 * anonymous enums), any pointers, ints of any size and sign (but not the
 * legacy bit-offset ints), floats, arrays by element type. */
static int fields_compat(struct core_ctx *ctx, uint32_t lid, uint32_t tid)
{
	const struct btf *lb = ctx->local, *tb = ctx->target;
	int depth;

	for (depth = 0; depth < COMPAT_DEPTH; depth++) {
		const struct btf_type *lt = skip_mods(lb, lid, &lid);
		const struct btf_type *tt = skip_mods(tb, tid, &tid);
		const char *ln, *tn;

		if (!lt || !tt)
			return -EINVAL;
		if (is_composite(lt) && is_composite(tt))
			return 1;
		if (!kind_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			ln = str_at(lb, lt->name_off);
			tn = str_at(tb, tt->name_off);
			if (!ln || !tn)
				return 0;
			return !*ln || !*tn || essential_eq(ln, tn);
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array_info(lt)->type;
			tid = btf_array_info(tt)->type;
			continue;
		default:
			return 0;
		}
	}
	return -ELOOP;
}

/* Type compatibility for TYPE_EXISTS/SIZE/ID_TARGET: same kind (enum and
 * enum64 mix), ints of any size, pointers and arrays by target type, function
 * prototypes by arity and recursively compatible argument/return types. */
static int types_compat(struct core_ctx *ctx, uint32_t lid, uint32_t tid, int level)
{
	const struct btf *lb = ctx->local, *tb = ctx->target;
	const struct btf_type *lt, *tt;
	int depth;

	lt = type_at(lb, lid);
	tt = type_at(tb, tid);
	if (!lt || !tt)
		return -EINVAL;
	if (!kind_compat(lt, tt))
		return 0;

	for (depth = 0; depth < COMPAT_DEPTH; depth++) {
		if (!step(ctx))
			return -ELOOP;
		lt = skip_mods(lb, lid, &lid);
		tt = skip_mods(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!kind_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			return 1;
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array_info(lt)->type;
			tid = btf_array_info(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			uint32_t i, n = btf_vlen(lt);

			if (n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				uint32_t a, b;
				int r;

				if (level <= 0)
					return -ELOOP;
				if (!skip_mods(lb, lp[i].type, &a) || !skip_mods(tb, tp[i].type, &b))
					return -EINVAL;
				r = types_compat(ctx, a, b, level - 1);
				if (r <= 0)
					return r;
			}
			lid = lt->type;
			tid = tt->type;
			continue;
		}
		default:
			return 0;
		}
	}
	return -ELOOP;
}

/* Names match for TYPE_MATCHES: both anonymous, or equal essential names. */
static bool names_match(const struct core_ctx *ctx, uint32_t loff, uint32_t toff)
{
	const char *ln = str_at(ctx->local, loff), *tn = str_at(ctx->target, toff);

	if (!ln || !tn)
		return false;
	if (!*tn)
		return !*ln;
	return essential_eq(ln, tn);
}

static uint32_t enum_name_off(const struct btf_type *t, uint32_t i)
{
	return btf_kind(t) == BTF_KIND_ENUM ? btf_enums(t)[i].name_off : btf_enums64(t)[i].name_off;
}

/* Same size, every local enumerator has a namesake in the target. */
static int enums_match(struct core_ctx *ctx, const struct btf_type *lt, const struct btf_type *tt)
{
	uint32_t i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);

	if (lt->size != tt->size || ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		for (j = 0; j < tn; j++) {
			if (!step(ctx))
				return -ELOOP;
			if (names_match(ctx, enum_name_off(lt, i), enum_name_off(tt, j)))
				break;
		}
		if (j == tn)
			return 0;
	}
	return 1;
}

static int types_match(struct core_ctx *ctx, uint32_t lid, uint32_t tid, bool behind_ptr, int level);

/* Every local member has a same-named, matching member in the target. */
static int composites_match(struct core_ctx *ctx, const struct btf_type *lt,
			    const struct btf_type *tt, bool behind_ptr, int level)
{
	const struct btf_member *lm = btf_members(lt), *tm = btf_members(tt);
	uint32_t i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);

	if (ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		bool matched = false;

		for (j = 0; j < tn && !matched; j++) {
			int r;

			if (!names_match(ctx, lm[i].name_off, tm[j].name_off))
				continue;
			r = types_match(ctx, lm[i].type, tm[j].type, behind_ptr, level - 1);
			if (r < 0)
				return r;
			matched = r > 0;
		}
		if (!matched)
			return 0;
	}
	return 1;
}

/* TYPE_MATCHES: modifiers/typedefs ignored, kinds must agree (enum/enum64
 * mix; behind a pointer a struct/union also matches a FWD of that flavour),
 * ints by size and signedness, arrays by length and element, pointers and
 * function prototypes recursively, composites member by member (by name;
 * only kinds once behind a pointer), enums by enumerator names and size. */
static int types_match(struct core_ctx *ctx, uint32_t lid, uint32_t tid, bool behind_ptr, int level)
{
	const struct btf_type *lt, *tt;
	int depth, lk, tk;

	if (level <= 0)
		return -ELOOP;
	for (depth = 0; depth < COMPAT_DEPTH; depth++) {
		if (!step(ctx))
			return -ELOOP;
		lt = skip_mods(ctx->local, lid, &lid);
		tt = skip_mods(ctx->target, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!names_match(ctx, lt->name_off, tt->name_off))
			return 0;
		lk = btf_kind(lt);
		tk = btf_kind(tt);
		switch (lk) {
		case BTF_KIND_UNKN:
			return tk == lk;
		case BTF_KIND_FWD:
			if (tk == lk)
				return btf_kflag(lt) == btf_kflag(tt);
			if (!behind_ptr)
				return 0;
			return (tk == BTF_KIND_STRUCT && !btf_kflag(lt)) ||
			       (tk == BTF_KIND_UNION && btf_kflag(lt));
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return is_any_enum(tt) ? enums_match(ctx, lt, tt) : 0;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			if (behind_ptr) {
				if (tk == lk)
					return 1;
				return tk == BTF_KIND_FWD && (lk == BTF_KIND_UNION) == btf_kflag(tt);
			}
			return tk == lk ? composites_match(ctx, lt, tt, behind_ptr, level) : 0;
		case BTF_KIND_INT:
			return tk == lk && lt->size == tt->size &&
			       (btf_int_encoding(lt) & BTF_INT_SIGNED) == (btf_int_encoding(tt) & BTF_INT_SIGNED);
		case BTF_KIND_PTR:
			if (tk != lk)
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			if (tk != lk || btf_array_info(lt)->nelems != btf_array_info(tt)->nelems)
				return 0;
			lid = btf_array_info(lt)->type;
			tid = btf_array_info(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			uint32_t i, n = btf_vlen(lt);

			if (tk != lk || n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				int r = types_match(ctx, lp[i].type, tp[i].type, behind_ptr, level - 1);

				if (r <= 0)
					return r;
			}
			lid = lt->type;
			tid = tt->type;
			continue;
		}
		default:
			return 0;
		}
	}
	return -ELOOP;
}

/* ---- matching a local spec against one candidate ---------------------- */

/* Find the target member named like local accessor LA inside target type
 * TID, descending into anonymous members; extends the target spec. */
static int match_member(struct core_ctx *ctx, const struct acc *la, uint32_t tid,
			struct spec *ts, uint32_t *next_tid)
{
	const struct btf_type *lt, *tt;
	const struct btf_member *lm, *m;
	uint32_t i, n;

	if (!step(ctx))
		return -ELOOP;
	tt = skip_mods(ctx->target, tid, &tid);
	if (!tt)
		return -EINVAL;
	if (!is_composite(tt))
		return 0;
	lt = btf_type_by_id(ctx->local, la->type_id);
	lm = btf_members(lt) + la->idx;

	n = btf_vlen(tt);
	m = btf_members(tt);
	for (i = 0; i < n; i++, m++) {
		uint32_t bits = btf_member_bit_offset(tt, m);
		const char *name = str_at(ctx->target, m->name_off);
		int r;

		if (!name)
			continue;
		if (ts->raw_len == SPEC_MAX)
			return -E2BIG;
		ts->bit_off += bits;
		ts->raw[ts->raw_len++] = i;
		if (!*name) {
			r = match_member(ctx, la, m->type, ts, next_tid);
			if (r)
				return r;
		} else if (strcmp(name, la->name) == 0) {
			ts->acc[ts->len++] = (struct acc){ .type_id = tid, .idx = i, .name = name };
			*next_tid = m->type;
			r = fields_compat(ctx, lm->type, m->type);
			if (r <= 0)
				ts->len--;
			return r;
		}
		ts->bit_off -= bits;
		ts->raw_len--;
	}
	return 0;
}

/* 1: the candidate matches (ts filled), 0: it doesn't, <0: error. */
static int spec_match(struct core_ctx *ctx, uint32_t kind, const struct spec *ls, uint32_t tid,
		      struct spec *ts)
{
	const struct btf_type *tt;
	int i;

	ts->len = ts->raw_len = 0;
	ts->bit_off = 0;
	ts->btf = ctx->target;
	ts->root_id = tid;

	if (is_type_kind(kind)) {
		if (kind == CORE_TYPE_MATCHES)
			return types_match(ctx, ls->root_id, tid, false, COMPAT_DEPTH);
		return types_compat(ctx, ls->root_id, tid, COMPAT_DEPTH);
	}

	if (is_enumval_kind(kind)) {
		tt = skip_mods(ctx->target, tid, &tid);
		if (!tt || !is_any_enum(tt))
			return 0;
		for (uint32_t j = 0; j < btf_vlen(tt); j++) {
			const char *name = str_at(ctx->target, enum_name_off(tt, j));

			if (name && essential_eq(name, ls->acc[0].name)) {
				ts->acc[0] = (struct acc){ .type_id = tid, .idx = j, .name = name };
				ts->len = 1;
				ts->raw[0] = j;
				ts->raw_len = 1;
				return 1;
			}
		}
		return 0;
	}

	for (i = 0; i < ls->len; i++) {
		const struct acc *la = &ls->acc[i];
		int r;

		tt = skip_mods(ctx->target, tid, &tid);
		if (!tt)
			return -EINVAL;
		if (la->name) {
			r = match_member(ctx, la, tid, ts, &tid);
			if (r <= 0)
				return r;
			continue;
		}
		/* Index: on the root it indexes the root pointer; deeper down
		 * the target must be an array with room for it. */
		if (i > 0) {
			const struct btf_array *a;

			if (btf_kind(tt) != BTF_KIND_ARRAY)
				return 0;
			a = btf_array_info(tt);
			if (!is_flex_array(ctx->target, &ts->acc[ts->len - 1], a) && la->idx >= a->nelems)
				return 0;
			if (!skip_mods(ctx->target, a->type, &tid))
				return -EINVAL;
		}
		if (ts->raw_len == SPEC_MAX)
			return -E2BIG;
		ts->acc[ts->len++] = (struct acc){ .type_id = tid, .idx = la->idx };
		ts->raw[ts->raw_len++] = la->idx;
		r = add_elem_bits(&ts->bit_off, la->idx, type_size(ctx->target, tid, ctx->targ_ptr_sz));
		if (r)
			return r;
	}
	return 1;
}

/* ---- computing values -------------------------------------------------- */

struct field_val {
	uint64_t val;
	uint32_t mem_sz;    /* size a load/store of the field uses (0: n/a) */
	uint32_t mem_type;  /* type id that size belongs to */
	bool validate;
};

/* Innermost element of (possibly nested) arrays: its id and size. */
static int elem_size(const struct btf *btf, uint32_t id, uint32_t ptr_sz, uint32_t *elem_id)
{
	const struct btf_type *t = skip_mods(btf, id, &id);
	int64_t sz;
	int i;

	for (i = 0; t && btf_kind(t) == BTF_KIND_ARRAY && i < MOD_DEPTH; i++)
		t = skip_mods(btf, btf_array_info(t)->type, &id);
	if (!t || btf_kind(t) == BTF_KIND_ARRAY)
		return -EINVAL;
	sz = type_size(btf, id, ptr_sz);
	if (sz < 0 || sz > UINT32_MAX)
		return -EINVAL;
	*elem_id = id;
	return (int)sz;
}

/* Field-based value for one side; sp == NULL means "no match". */
static int calc_field(const struct core_ctx *ctx, uint32_t kind, const struct spec *sp,
		      struct field_val *fv, const char **why)
{
	uint32_t ptr_sz, bit_sz, byte_sz, fid;
	const struct acc *a;
	const struct btf_type *t, *mt;
	const struct btf_member *m;
	uint64_t bit_off, byte_off;
	int64_t sz;
	bool bitfield;

	memset(fv, 0, sizeof(*fv));
	fv->validate = true;
	if (kind == CORE_FIELD_EXISTS) {
		fv->val = sp != NULL;
		return 0;
	}
	if (!sp)
		return POISON;
	ptr_sz = ptr_sz_of(ctx, sp->btf);
	a = &sp->acc[sp->len - 1];

	if (!a->name) { /* array element or root index */
		int esz;

		if (kind == CORE_FIELD_BYTE_OFFSET) {
			fv->val = sp->bit_off / 8;
			esz = elem_size(sp->btf, a->type_id, ptr_sz, &fv->mem_type);
			if (esz < 0) {
				*why = "array element has no size";
				return esz;
			}
			fv->mem_sz = (uint32_t)esz;
		} else if (kind == CORE_FIELD_BYTE_SIZE) {
			sz = type_size(sp->btf, a->type_id, ptr_sz);
			if (sz < 0) {
				*why = "array element has no size";
				return (int)sz;
			}
			fv->val = (uint64_t)sz;
		} else {
			/* signed/shifts of a scalar element (clang emits these
			 * for arr[i]; libbpf refuses them): a whole-element
			 * "bitfield" as for plain members. */
			const struct btf_type *et = skip_mods(sp->btf, a->type_id, NULL);

			sz = type_size(sp->btf, a->type_id, ptr_sz);
			if (!et || sz <= 0 || sz > 8) {
				*why = "relocation kind needs a scalar array element";
				return -EINVAL;
			}
			if (kind == CORE_FIELD_SIGNED)
				fv->val = (is_any_enum(et) && btf_kflag(et)) ||
					  (btf_kind(et) == BTF_KIND_INT && (btf_int_encoding(et) & BTF_INT_SIGNED));
			else
				fv->val = 64 - (uint64_t)sz * 8;
		}
		return 0;
	}

	t = btf_type_by_id(sp->btf, a->type_id);
	m = btf_members(t) + a->idx;
	mt = skip_mods(sp->btf, m->type, &fid);
	if (!mt) {
		*why = "bad member type";
		return -EINVAL;
	}
	bit_off = sp->bit_off;
	bit_sz = btf_member_bitfield_size(t, m);
	bitfield = bit_sz > 0;
	if (bitfield) {
		/* Smallest naturally aligned window, starting at the member
		 * type's size, that holds the whole bitfield. */
		byte_sz = mt->size;
		if (byte_sz != 1 && byte_sz != 2 && byte_sz != 4 && byte_sz != 8) {
			*why = "bitfield of a type whose size is not 1, 2, 4 or 8";
			return -EINVAL;
		}
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8) {
				*why = "bitfield cannot be read with one 64-bit load";
				return -E2BIG;
			}
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		sz = type_size(sp->btf, fid, ptr_sz);
		if (sz < 0 || sz > UINT32_MAX) {
			*why = "field has no size";
			return -EINVAL;
		}
		byte_sz = (uint32_t)sz;
		byte_off = bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	/* Bitfield offset/size/lshift are ours to choose, so the compiler may
	 * have picked differently: don't check those against the insn. */
	fv->validate = !bitfield;

	switch (kind) {
	case CORE_FIELD_BYTE_OFFSET:
		fv->val = byte_off;
		if (!bitfield) {
			int esz = elem_size(sp->btf, fid, ptr_sz, &fv->mem_type);

			if (esz < 0) {
				*why = "field has no size";
				return esz;
			}
			fv->mem_sz = (uint32_t)esz;
		}
		break;
	case CORE_FIELD_BYTE_SIZE:
		fv->val = byte_sz;
		break;
	case CORE_FIELD_SIGNED:
		fv->val = (is_any_enum(mt) && btf_kflag(mt)) ||
			  (btf_kind(mt) == BTF_KIND_INT && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		fv->validate = true;
		break;
	case CORE_FIELD_LSHIFT_U64:
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		fv->val = 64 - (bit_off + bit_sz - byte_off * 8);
#else
		fv->val = (8 - byte_sz) * 8 + (bit_off - byte_off * 8);
#endif
		break;
	case CORE_FIELD_RSHIFT_U64:
		fv->val = 64 - bit_sz;
		fv->validate = true;
		break;
	}
	return 0;
}

static bool is_signed_int(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);

	return t && btf_kind(t) == BTF_KIND_INT && (btf_int_encoding(t) & BTF_INT_SIGNED);
}

/* Type-based value for one side; sp == NULL means "no match". */
static int calc_type(const struct core_ctx *ctx, uint32_t kind, const struct spec *sp,
		     uint64_t *val, const char **why)
{
	int64_t sz;

	*val = 0;
	if (!sp)
		return 0;
	switch (kind) {
	case CORE_TYPE_ID_TARGET:
		*val = sp->root_id;
		break;
	case CORE_TYPE_EXISTS:
	case CORE_TYPE_MATCHES:
		*val = 1;
		break;
	case CORE_TYPE_SIZE:
		sz = type_size(sp->btf, sp->root_id, ptr_sz_of(ctx, sp->btf));
		if (sz < 0) {
			*why = "type has no size";
			return (int)sz;
		}
		*val = (uint64_t)sz;
		break;
	}
	return 0;
}

/* Enumerator value: ENUM values are s32 (sign-extended, as libbpf does),
 * ENUM64 values are 64-bit. */
static int calc_enumval(uint32_t kind, const struct spec *sp, uint64_t *val)
{
	const struct btf_type *t;

	if (kind == CORE_ENUMVAL_EXISTS) {
		*val = sp != NULL;
		return 0;
	}
	if (!sp)
		return POISON;
	t = btf_type_by_id(sp->btf, sp->acc[0].type_id);
	if (btf_kind(t) == BTF_KIND_ENUM) {
		*val = (uint64_t)(int64_t)(int32_t)btf_enums(t)[sp->acc[0].idx].val;
	} else {
		const struct btf_enum64 *e = btf_enums64(t) + sp->acc[0].idx;

		*val = (uint64_t)e->val_hi32 << 32 | e->val_lo32;
	}
	return 0;
}

/* Local and target values for one candidate (ts == NULL: none matched). */
static int calc_relo(const struct core_ctx *ctx, const struct core_relo *relo,
		     const struct spec *ls, const struct spec *ts, struct core_res *res,
		     const char **why)
{
	uint32_t kind = relo->kind;
	int err = 0;

	memset(res, 0, sizeof(*res));
	res->validate = true;

	if (is_field_kind(kind)) {
		struct field_val o, n;

		err = calc_field(ctx, kind, ls, &o, why);
		if (err == POISON)
			err = -EINVAL; /* the local side always resolves */
		if (err)
			return err;
		res->orig_val = o.val;
		res->orig_sz = o.mem_sz;
		res->validate = o.validate;
		res->orig_type_signed = o.mem_sz && is_signed_int(ctx->local, o.mem_type);
		err = calc_field(ctx, kind, ts, &n, why);
		if (err < 0)
			return err;
		if (err == POISON) {
			res->poison = true;
			return 0;
		}
		res->new_val = n.val;
		res->new_sz = n.mem_sz;
		res->new_type_signed = n.mem_sz && is_signed_int(ctx->target, n.mem_type);
		if (o.mem_sz != n.mem_sz) {
			/* A load/store may change size only when the value
			 * zero-extends: pointers (32-bit kernels) and unsigned
			 * ints.  Checked by core_patch_insn for LDX/ST/STX. */
			const struct btf_type *ot = type_at(ctx->local, o.mem_type);
			const struct btf_type *nt = type_at(ctx->target, n.mem_type);
			bool ptrs = ot && nt && btf_kind(ot) == BTF_KIND_PTR && btf_kind(nt) == BTF_KIND_PTR;
			bool uints = ot && nt && btf_kind(ot) == BTF_KIND_INT && btf_kind(nt) == BTF_KIND_INT &&
				     !(btf_int_encoding(ot) & BTF_INT_SIGNED) &&
				     !(btf_int_encoding(nt) & BTF_INT_SIGNED);

			res->fail_memsz_adjust = !ptrs && !uints;
		}
		return 0;
	}
	if (is_type_kind(kind)) {
		err = calc_type(ctx, kind, ls, &res->orig_val, why);
		if (!err)
			err = calc_type(ctx, kind, ts, &res->new_val, why);
		/* Type ids may be renumbered by linking: never validate them. */
		if (kind == CORE_TYPE_ID_TARGET)
			res->validate = false;
		return err;
	}
	err = calc_enumval(kind, ls, &res->orig_val);
	if (err == POISON)
		return -EINVAL;
	err = calc_enumval(kind, ts, &res->new_val);
	if (err == POISON) {
		res->poison = true;
		res->new_val = 0;
		err = 0;
	}
	return err;
}

/* ---- candidates ------------------------------------------------------- */

struct cand_search {
	struct core_ctx *ctx;
	const struct btf_type *local_t;
	const char *ess;       /* essential name (flavored search only) */
	size_t ess_len;
	struct cands *out;
};

static int cand_push(struct cands *c, uint32_t id, const struct btf *btf)
{
	if ((c->len & (c->len - 1)) == 0) { /* grow at powers of two */
		size_t cap = c->len ? (size_t)c->len * 2 : 1;
		uint32_t *n = realloc(c->ids, cap * sizeof(*n));
		const struct btf **b;

		if (!n)
			return -ENOMEM;
		c->ids = n;
		b = realloc(c->btfs, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		c->btfs = b;
	}
	c->btfs[c->len] = btf;
	c->ids[c->len++] = id;
	return 0;
}

static int cand_exact(uint32_t id, void *arg)
{
	struct cand_search *cs = arg;
	const struct btf_type *t = btf_type_by_id(cs->ctx->main, id);

	if (!t || !kind_compat(t, cs->local_t))
		return 0;
	return cand_push(cs->out, id, cs->ctx->main);
}

/* Module candidates (libbpf's rule: only when the main target has none at
 * all): every own type of each module whose essential name equals the
 * local one and whose kind is compatible.  Module BTFs are small, so a
 * linear scan per module is fine (and happens once per local type). */
static int module_cands(struct core_ctx *ctx, struct cand_search *cs)
{
	uint32_t base_end = btf_nr_types(ctx->main);
	const struct btf *mod;
	uint32_t m;
	int err;

	for (m = 0; ctx->more && (mod = ctx->more(ctx->more_arg, m)); m++) {
		uint32_t id, n = btf_nr_types(mod);

		for (id = base_end; id < n; id++) {
			const struct btf_type *t = btf_type_by_id(mod, id);
			const char *tn;

			if (!t || !t->name_off || !kind_compat(t, cs->local_t))
				continue;
			tn = btf_name(mod, t);
			if (essential_len(tn) != cs->ess_len || memcmp(tn, cs->ess, cs->ess_len))
				continue;
			if ((err = cand_push(cs->out, id, mod)) < 0)
				return err;
		}
	}
	return 0;
}

/* Target types whose own names carry a ___flavor (rare in kernel BTF): one
 * linear pass per context, done only when an exact-name lookup found
 * nothing. */
static int collect_flavored(struct core_ctx *ctx)
{
	struct cands c = { 0 };
	uint32_t id, n = btf_nr_types(ctx->target);

	if (ctx->flavored_done)
		return 0;
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf_type_by_id(ctx->target, id);
		const char *name;
		size_t len;

		if (!t || !t->name_off)
			continue;
		name = btf_name(ctx->target, t);
		if (!strstr(name, "___"))
			continue;
		len = strlen(name);
		if (essential_len(name) == len)
			continue;
		if (cand_push(&c, id, NULL) < 0) {
			free(c.ids);
			free(c.btfs);
			return -ENOMEM;
		}
	}
	free(c.btfs);
	ctx->flavored = c.ids;
	ctx->nr_flavored = c.len;
	ctx->flavored_done = true;
	return 0;
}

/* Anonymous local enums.  A kernel enum without a name (INET_FLAGS_* since
 * 6.6, many others) leaves a program nothing to search by: libbpf and the
 * kernel reject the relocation (empty local name, -EINVAL), so tools had
 * to hard-code the values.  Here an anonymous local ENUM/ENUM64 under an
 * enumerator relocation takes as candidates the target's anonymous
 * enums (either kind) that declare one of its enumerators (essential
 * names): enumerators share C's ordinary namespace, so one identifies
 * its enum as well as a type name would, and candidates that disagree
 * fail the usual ambiguity check.  Named target enums stay out, as in
 * TYPE_MATCHES, where anonymous matches only anonymous. */
static bool is_anon_enumval(const struct btf *btf, const struct btf_type *t, uint32_t kind)
{
	return is_enumval_kind(kind) && is_any_enum(t) && !*btf_name(btf, t);
}

/* The local enum's enumerators by essential name, sorted: a target
 * enumerator is then a binary search, so neither a huge local enum (the
 * object is untrusted) nor vmlinux's many enumerators make the pass
 * quadratic. */
struct ess_name {
	const char *s;
	size_t len;
};

static int ess_cmp(const void *pa, const void *pb)
{
	const struct ess_name *a = pa, *b = pb;
	int r = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);

	return r ? r : (a->len > b->len) - (a->len < b->len);
}

/* Does anonymous enum T of BTF declare one of the N sorted names? */
static bool shares_enumerator(const struct btf *btf, const struct btf_type *t, const struct ess_name *names,
			      size_t n)
{
	for (uint32_t j = 0; j < btf_vlen(t); j++) {
		struct ess_name k = { str_at(btf, enum_name_off(t, j)), 0 };

		if (!k.s || !*k.s)
			continue;
		k.len = essential_len(k.s);
		if (bsearch(&k, names, n, sizeof(*names), ess_cmp))
			return true;
	}
	return false;
}

/* One linear pass over BTF's own types (from FIRST); names are read only
 * for anonymous enums' enumerators, so a vmlinux pass stays cheap. */
static int anon_enum_scan(const struct btf *btf, uint32_t first, const struct ess_name *names, size_t n,
			  struct cands *c)
{
	uint32_t id, nr = btf_nr_types(btf);
	int err;

	for (id = first; id < nr; id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (!t || t->name_off || !is_any_enum(t) || !shares_enumerator(btf, t, names, n))
			continue;
		if ((err = cand_push(c, id, btf)) < 0)
			return err;
	}
	return 0;
}

/* Modules only when vmlinux has none, as for named types. */
static int anon_enum_cands(struct core_ctx *ctx, const struct btf_type *lt, struct cands *c)
{
	struct ess_name *names = malloc((btf_vlen(lt) + 1) * sizeof(*names));
	const struct btf *mod;
	size_t n = 0;
	int err;

	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < btf_vlen(lt); i++) {
		const char *ln = str_at(ctx->local, enum_name_off(lt, i));

		if (ln && *ln)
			names[n++] = (struct ess_name){ ln, essential_len(ln) };
	}
	qsort(names, n, sizeof(*names), ess_cmp);
	err = anon_enum_scan(ctx->main, 1, names, n, c);
	for (uint32_t m = 0; !err && c->len == 0 && ctx->more && (mod = ctx->more(ctx->more_arg, m)); m++)
		err = anon_enum_scan(mod, btf_nr_types(ctx->main), names, n, c);
	free(names);
	c->anon_enum = true;
	return err;
}

static int find_cands(struct core_ctx *ctx, uint32_t local_id, struct cands **out)
{
	struct cands *c = &ctx->cands[local_id];
	struct cand_search cs = { .ctx = ctx, .out = c };
	const char *name;
	char *ess;
	int err;
	uint32_t i;
	bool none;

	*out = c;
	if (c->searched)
		return 0;
	cs.local_t = btf_type_by_id(ctx->local, local_id);
	name = btf_name(ctx->local, cs.local_t);
	if (!*name) { /* the caller lets only anonymous enums through */
		err = anon_enum_cands(ctx, cs.local_t, c);
		goto out;
	}
	cs.ess_len = essential_len(name);
	ess = strndup(name, cs.ess_len);
	if (!ess)
		return -ENOMEM;
	cs.ess = ess;

	/* candidates have the local kind: FUNCs only for a FUNC (never in
	 * practice), so the loader prepares these names without FUNCs */
	err = btf_kind(cs.local_t) == BTF_KIND_FUNC ? btf_for_each_named(ctx->main, ess, cand_exact, &cs)
						    : btf_for_each_type_named(ctx->main, ess, cand_exact, &cs);
	none = !err && c->len == 0;
	if (none)
		err = collect_flavored(ctx);
	for (i = 0; none && !err && i < ctx->nr_flavored; i++) {
		/* no exact-name type: fall back to flavored target names */
		uint32_t id = ctx->flavored[i];
		const struct btf_type *t = btf_type_by_id(ctx->main, id);
		const char *tn = btf_name(ctx->main, t);

		if (kind_compat(t, cs.local_t) && essential_len(tn) == cs.ess_len &&
		    memcmp(tn, ess, cs.ess_len) == 0)
			err = cand_push(c, id, ctx->main);
	}
	if (!err && c->len == 0)
		err = module_cands(ctx, &cs);
	free(ess);
out:
	if (err) {
		free(c->ids);
		free(c->btfs);
		c->ids = NULL;
		c->btfs = NULL;
		c->len = 0;
		return err < 0 ? err : -EINVAL;
	}
	c->searched = true;
	return 0;
}

/* ---- public API ------------------------------------------------------- */

struct core_ctx *core_ctx_new(const struct btf *local, const struct btf *target)
{
	struct core_ctx *ctx;

	if (!local || !target) {
		err_set(EINVAL, "CO-RE: missing local or target BTF");
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		err_set(ENOMEM, "CO-RE: out of memory");
		return NULL;
	}
	ctx->local = local;
	ctx->target = ctx->main = target;
	ctx->nr_local = btf_nr_types(local);
	ctx->local_ptr_sz = guess_ptr_size(local);
	ctx->targ_ptr_sz = guess_ptr_size(target);
	ctx->cands = calloc(ctx->nr_local ? ctx->nr_local : 1, sizeof(*ctx->cands));
	if (!ctx->cands) {
		free(ctx);
		err_set(ENOMEM, "CO-RE: out of memory");
		return NULL;
	}
	return ctx;
}

void core_ctx_free(struct core_ctx *ctx)
{
	uint32_t i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nr_local; i++) {
		free(ctx->cands[i].ids);
		free(ctx->cands[i].btfs);
	}
	free(ctx->cands);
	free(ctx->flavored);
	free(ctx);
}

static int relo_err(const struct core_ctx *ctx, const struct core_relo *relo, int err,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int relo_err(const struct core_ctx *ctx, const struct core_relo *relo, int err,
		    const char *fmt, ...)
{
	char desc[256], why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	core_describe(ctx->local, relo, desc, sizeof(desc));
	return err_set(err < 0 ? -err : err, "CO-RE %s at insn #%u: %s", desc, relo->insn_off / 8, why);
}

static int calc_one(struct core_ctx *ctx, const struct core_relo *relo, struct core_res *res)
{
	struct spec ls, cs;
	uint64_t first_bits = 0;
	struct core_res cr;
	const struct btf_type *lt;
	struct cands *cands;
	const char *why = "";
	uint32_t i, j, first = 0;
	int err;

	if (!ctx || !relo || !res)
		return err_set(EINVAL, "CO-RE: missing argument");
	memset(res, 0, sizeof(*res));
	ctx->steps = STEP_BUDGET;

	if (relo->kind > CORE_TYPE_MATCHES)
		return relo_err(ctx, relo, -EINVAL, "unknown relocation kind %u", relo->kind);
	lt = relo->type_id < ctx->nr_local ? btf_type_by_id(ctx->local, relo->type_id) : NULL;
	if (!lt)
		return relo_err(ctx, relo, -EINVAL, "type id %u out of range (local BTF has %u types)",
				relo->type_id, ctx->nr_local);

	err = parse_spec(ctx->local, ctx->local_ptr_sz, relo, &ls, &why);
	if (err)
		return relo_err(ctx, relo, err, "%s", why);

	if (relo->kind == CORE_TYPE_ID_LOCAL) {
		/* No target involved; linking may renumber: don't validate. */
		res->orig_val = res->new_val = relo->type_id;
		return 0;
	}
	if (!*btf_name(ctx->local, lt) && !is_anon_enumval(ctx->local, lt, relo->kind))
		return relo_err(ctx, relo, -EOPNOTSUPP, "anonymous types cannot be relocated");

	err = find_cands(ctx, relo->type_id, &cands);
	if (err)
		return relo_err(ctx, relo, err, "candidate search failed");

	for (i = 0, j = 0; i < cands->len; i++) {
		ctx->target = cands->btfs[i]; /* vmlinux, or the module it came from */
		err = spec_match(ctx, relo->kind, &ls, cands->ids[i], &cs);
		if (err == -ELOOP)
			return relo_err(ctx, relo, err, "types too deep or complex to compare (target [%u])",
					cands->ids[i]);
		if (err < 0)
			return relo_err(ctx, relo, err, "malformed BTF while matching target [%u]",
					cands->ids[i]);
		if (err == 0)
			continue;
		err = calc_relo(ctx, relo, &ls, &cs, &cr, &why);
		if (err)
			return relo_err(ctx, relo, err, "%s", why);
		if (j == 0) {
			*res = cr;
			first_bits = cs.bit_off;
			first = cands->ids[i];
		} else if (cs.bit_off != first_bits) {
			return relo_err(ctx, relo, -EINVAL,
					"ambiguous relocation: target [%u] puts the field at bit %llu, [%u] at bit %llu",
					first, (unsigned long long)first_bits, cands->ids[i],
					(unsigned long long)cs.bit_off);
		} else if (cr.poison != res->poison || cr.new_val != res->new_val) {
			return relo_err(ctx, relo, -EINVAL,
					"ambiguous relocation: target [%u] gives %s %llu, [%u] gives %s %llu",
					first, res->poison ? "poison" : "value",
					(unsigned long long)res->new_val, cands->ids[i],
					cr.poison ? "poison" : "value", (unsigned long long)cr.new_val);
		}
		if (ctx->visit) {
			struct core_visit v = {
				.btf = ctx->target, .kind = relo->kind, .root_id = cands->ids[i],
				.raw = cs.raw, .raw_len = cs.raw_len,
			};

			ctx->visit(ctx->visit_arg, &v);
		}
		if (!cands->anon_enum) {
			cands->btfs[j] = cands->btfs[i];
			cands->ids[j] = cands->ids[i];
		}
		j++;
	}
	ctx->target = ctx->main;
	/* Keep only the candidates that matched, as libbpf does: later
	 * relocations of the same type then agree with this one. */
	if (j > 0) {
		/* an anonymous enum's next relocation may name an enumerator
		 * of another of its candidates */
		if (!cands->anon_enum)
			cands->len = j;
		return 0;
	}
	err = calc_relo(ctx, relo, &ls, NULL, res, &why);
	if (err)
		return relo_err(ctx, relo, err, "%s", why);
	return 0;
}

int core_calc(struct core_ctx *ctx, const struct core_relo *relo, struct core_res *res)
{
	int err;

	if (!ctx || !relo || !res)
		return err_set(EINVAL, "CO-RE: missing argument");
	err = calc_one(ctx, relo, res);
	ctx->target = ctx->main; /* also after an error inside the candidate loop */
	return err;
}

void core_ctx_set_more(struct core_ctx *ctx, core_more_fn fn, void *arg)
{
	ctx->more = fn;
	ctx->more_arg = arg;
}

void core_ctx_set_visit(struct core_ctx *ctx, core_visit_fn fn, void *arg)
{
	ctx->visit = fn;
	ctx->visit_arg = arg;
}

/* ---- instruction patching ------------------------------------------- */

static bool is_ld_imm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static void poison_insn(struct bpf_insn *insn)
{
	insn->code = BPF_JMP | BPF_CALL;
	insn->dst_reg = 0;
	insn->src_reg = 0;
	insn->off = 0;
	insn->imm = CORE_POISON_HELPER; /* "invalid func unknown#195896080" if reached */
}

static int size_bytes(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_DW: return 8;
	case BPF_W: return 4;
	case BPF_H: return 2;
	default: return 1;
	}
}

static int bytes_to_size(uint32_t n)
{
	switch (n) {
	case 8: return BPF_DW;
	case 4: return BPF_W;
	case 2: return BPF_H;
	case 1: return BPF_B;
	default: return -1;
	}
}

/* A 32-bit immediate holds VAL if it is VAL sign- or zero-extended. */
static bool imm32_is(int32_t imm, uint64_t val)
{
	return (uint64_t)(int64_t)imm == val || (uint64_t)(uint32_t)imm == val;
}

static bool fits_imm32(uint64_t val)
{
	return val <= UINT32_MAX || (int64_t)val >= INT32_MIN;
}

int core_patch_insn(struct bpf_insn *insns, size_t cnt, size_t idx,
		    const struct core_relo *relo, const struct core_res *res)
{
	const char *kn = kind_name(relo ? relo->kind : ~0u);
	struct bpf_insn *insn;

	if (!insns || !relo || !res)
		return err_set(EINVAL, "CO-RE patch: missing argument");
	if (idx >= cnt)
		return err_set(EINVAL, "CO-RE %s: instruction #%zu is beyond the %zu instructions of the section",
			       kn, idx, cnt);
	insn = &insns[idx];
	if (is_ld_imm64(insn) && idx + 1 >= cnt)
		return err_set(EINVAL, "CO-RE %s: ld_imm64 at insn #%zu is cut off by the section end", kn, idx);

	if (res->poison)
		goto poison;

	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_K)
			return err_set(EINVAL, "CO-RE %s: insn #%zu is a register ALU op, not an immediate one",
				       kn, idx);
		if (res->validate && !imm32_is(insn->imm, res->orig_val))
			return err_set(EINVAL, "CO-RE %s: insn #%zu holds %d, expected %llu (wrong relocation target?)",
				       kn, idx, insn->imm, (unsigned long long)res->orig_val);
		if (!fits_imm32(res->new_val))
			return err_set(ERANGE, "CO-RE %s: insn #%zu: value %llu does not fit a 32-bit immediate",
				       kn, idx, (unsigned long long)res->new_val);
		insn->imm = (int32_t)(uint32_t)res->new_val;
		return 0;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		if (res->validate && (int64_t)insn->off != (int64_t)res->orig_val)
			return err_set(EINVAL, "CO-RE %s: insn #%zu has offset %d, expected %llu (wrong relocation target?)",
				       kn, idx, insn->off, (unsigned long long)res->orig_val);
		if (res->new_val > SHRT_MAX)
			return err_set(ERANGE, "CO-RE %s: insn #%zu: offset %llu does not fit 16 bits",
				       kn, idx, (unsigned long long)res->new_val);
		if (res->fail_memsz_adjust)
			goto poison; /* size changed and the value would not survive it */
		if (res->new_sz != res->orig_sz) {
			int nsz = bytes_to_size(res->new_sz);

			if (size_bytes(insn->code) != (int)res->orig_sz)
				return err_set(EINVAL, "CO-RE %s: insn #%zu accesses %d bytes, the field has %u",
					       kn, idx, size_bytes(insn->code), res->orig_sz);
			if (nsz < 0)
				return err_set(EINVAL, "CO-RE %s: insn #%zu: target field size %u cannot be loaded",
					       kn, idx, res->new_sz);
			insn->code = (uint8_t)(BPF_MODE(insn->code) | nsz | BPF_CLASS(insn->code));
		}
		insn->off = (int16_t)res->new_val;
		return 0;
	case BPF_LD: {
		uint64_t imm;

		if (!is_ld_imm64(insn) || insn[0].src_reg || insn[0].off || insn[1].code ||
		    insn[1].dst_reg || insn[1].src_reg || insn[1].off)
			return err_set(EINVAL, "CO-RE %s: insn #%zu is not a plain ld_imm64", kn, idx);
		imm = (uint32_t)insn[0].imm | (uint64_t)(uint32_t)insn[1].imm << 32;
		/* A negative 32-bit enumerator may sit zero-extended. */
		if (res->validate && imm != res->orig_val &&
		    !((int64_t)res->orig_val >= INT32_MIN && (int64_t)res->orig_val < 0 &&
		      imm == (uint32_t)res->orig_val))
			return err_set(EINVAL, "CO-RE %s: ld_imm64 at insn #%zu holds %llu, expected %llu (wrong relocation target?)",
				       kn, idx, (unsigned long long)imm, (unsigned long long)res->orig_val);
		insn[0].imm = (int32_t)(uint32_t)res->new_val;
		insn[1].imm = (int32_t)(uint32_t)(res->new_val >> 32);
		return 0;
	}
	default:
		return err_set(EINVAL, "CO-RE %s: cannot relocate insn #%zu (opcode 0x%02x)", kn, idx, insn->code);
	}

poison:
	/* Both slots of an ld_imm64: a lone second slot would be "unknown
	 * opcode 00"; two calls are each valid when dead. */
	if (is_ld_imm64(insn))
		poison_insn(insn + 1);
	poison_insn(insn);
	return 0;
}

/* ---- description ------------------------------------------------------ */

void core_describe(const struct btf *local, const struct core_relo *relo, char *buf, size_t size)
{
	const struct btf_type *t;
	const char *access, *name;
	size_t n = 0;
	uint32_t raw[SPEC_MAX], id;
	int raw_len = 0, i;
	const char *why;

#define PUT(...)                                                              \
	do {                                                                  \
		if (n < size) {                                               \
			int r_ = snprintf(buf + n, size - n, __VA_ARGS__);    \
			n = r_ < 0 ? size : n + (size_t)r_;                   \
		}                                                             \
	} while (0)

	if (!buf || !size)
		return;
	buf[0] = 0;
	if (!local || !relo)
		return;
	t = btf_type_by_id(local, relo->type_id);
	access = str_at(local, relo->access_str_off);
	if (!t) {
		PUT("[%u] <bad type id> (%s) %s", relo->type_id, access ? access : "?", kind_name(relo->kind));
		return;
	}
	name = btf_name(local, t);
	PUT("%s %s", btf_kind_name(t), *name ? name : "<anon>");

	if (parse_access(access, raw, &raw_len, &why) == 0 && !is_type_kind(relo->kind)) {
		t = skip_mods(local, relo->type_id, &id);
		if (t && is_enumval_kind(relo->kind) && is_any_enum(t) && raw[0] < btf_vlen(t)) {
			const char *en = str_at(local, enum_name_off(t, raw[0]));

			PUT("::%s", en ? en : "?");
		} else if (t && is_field_kind(relo->kind)) {
			bool first = true;

			if (raw[0])
				PUT("[%u]", raw[0]);
			for (i = 1; t && i < raw_len; i++) {
				if (is_composite(t) && raw[i] < btf_vlen(t)) {
					const struct btf_member *m = btf_members(t) + raw[i];
					const char *mn = str_at(local, m->name_off);

					if (mn && *mn) {
						PUT("%s%s", first ? "::" : ".", mn);
						first = false;
					}
					t = skip_mods(local, m->type, &id);
				} else if (btf_kind(t) == BTF_KIND_ARRAY) {
					PUT("[%u]", raw[i]);
					t = skip_mods(local, btf_array_info(t)->type, &id);
				} else {
					break;
				}
			}
		}
	}
	PUT(" (%s) %s", access ? access : "<bad access string>", kind_name(relo->kind));
#undef PUT
}
