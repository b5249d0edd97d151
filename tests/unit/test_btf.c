/* btf/: blobs built here with a tiny builder (every kind the parser knows),
 * lookups and sizes, split BTF, corrupted and truncated variants (errors
 * with a message, never a crash under ASan/UBSan), .BTF.ext, the C dumper
 * (expected text; compiled with static asserts when clang is present),
 * and the live kernel BTF (parse time, task_struct, a full dump that
 * clang -target bpf must compile with every size and offset checked). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf/btf.h"
#include "err.h"
#include "loader/kbtf.h"
#include "t.h"
#include "util.h"

/* ---- builder ---- */

struct bld {
	uint8_t types[16384];
	uint32_t tlen;
	char strs[8192];
	uint32_t slen;
	uint32_t next_id; /* id the next type gets */
	uint32_t str_base; /* split BTF: the base's string bytes */
};

static void b_init(struct bld *b, uint32_t first_id, uint32_t str_base)
{
	memset(b, 0, sizeof(*b));
	b->next_id = first_id;
	b->str_base = str_base;
	if (!str_base)
		b->slen = 1; /* offset 0: "" */
}

static uint32_t b_str(struct bld *b, const char *s)
{
	uint32_t off = b->slen;

	if (!s || !*s)
		return 0;
	memcpy(b->strs + b->slen, s, strlen(s) + 1);
	b->slen += (uint32_t)strlen(s) + 1;
	return b->str_base + off;
}

static void b_u32(struct bld *b, uint32_t v)
{
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

static uint32_t b_type(struct bld *b, const char *name, int kind, uint32_t vlen, int kflag, uint32_t size_type)
{
	b_u32(b, b_str(b, name));
	b_u32(b, (uint32_t)kind << 24 | vlen | (uint32_t)kflag << 31);
	b_u32(b, size_type);
	return b->next_id++;
}

static uint32_t b_int(struct bld *b, const char *name, uint32_t size, uint32_t enc)
{
	uint32_t id = b_type(b, name, BTF_KIND_INT, 0, 0, size);

	b_u32(b, enc << 24 | size * 8);
	return id;
}

static uint32_t b_ref(struct bld *b, int kind, const char *name, uint32_t target)
{
	return b_type(b, name, kind, 0, 0, target);
}

static uint32_t b_array(struct bld *b, uint32_t elem, uint32_t idx, uint32_t n)
{
	uint32_t id = b_type(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);

	b_u32(b, elem);
	b_u32(b, idx);
	b_u32(b, n);
	return id;
}

/* A member: bit offset, and bitfield size (struct needs kflag). */
static void b_member(struct bld *b, const char *name, uint32_t type, uint32_t bit_off, uint32_t bits)
{
	b_u32(b, b_str(b, name));
	b_u32(b, type);
	b_u32(b, bits << 24 | bit_off);
}

static void b_enumval(struct bld *b, const char *name, int32_t v)
{
	b_u32(b, b_str(b, name));
	b_u32(b, (uint32_t)v);
}

static void b_enum64val(struct bld *b, const char *name, uint64_t v)
{
	b_u32(b, b_str(b, name));
	b_u32(b, (uint32_t)v);
	b_u32(b, (uint32_t)(v >> 32));
}

static void b_param(struct bld *b, const char *name, uint32_t type)
{
	b_u32(b, b_str(b, name));
	b_u32(b, type);
}

/* The blob: header, types, strings. */
static uint8_t *b_blob(struct bld *b, size_t *size)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h) };
	uint8_t *p;

	h.type_off = 0;
	h.type_len = b->tlen;
	h.str_off = b->tlen;
	h.str_len = b->slen;
	*size = sizeof(h) + b->tlen + b->slen;
	p = malloc(*size);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), b->types, b->tlen);
	memcpy(p + sizeof(h) + b->tlen, b->strs, b->slen);
	return p;
}

/* ---- a sample program-like BTF with every kind ---- */

struct ids {
	uint32_t u8, i32, u32, u64, chr, ptr_chr, s, bf, e, e64, td, arr, arr2, proto, fptr, fn, var, sec,
		fwd, cst, packed, pad, anon_holder, dup1, dup2, self, senum;
};

static uint8_t *sample(size_t *size, struct ids *x)
{
	static struct bld b;

	b_init(&b, 1, 0);
	x->u8 = b_int(&b, "unsigned char", 1, 0);                         /* 1 */
	x->i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);                     /* 2 */
	x->u32 = b_int(&b, "unsigned int", 4, 0);                         /* 3 */
	x->u64 = b_int(&b, "long long unsigned int", 8, 0);               /* 4 */
	x->chr = b_int(&b, "char", 1, BTF_INT_CHAR);                      /* 5 */
	x->ptr_chr = b_ref(&b, BTF_KIND_PTR, NULL, x->chr);               /* 6 */
	/* struct s { int a; char *p; unsigned long long q; } */
	x->s = b_type(&b, "s", BTF_KIND_STRUCT, 3, 0, 24);
	b_member(&b, "a", x->i32, 0, 0);
	b_member(&b, "p", x->ptr_chr, 64, 0);
	b_member(&b, "q", x->u64, 128, 0);
	/* struct bf { unsigned int x: 3; unsigned int y: 5; int z; } (kflag) */
	x->bf = b_type(&b, "bf", BTF_KIND_STRUCT, 3, 1, 8);
	b_member(&b, "x", x->u32, 0, 3);
	b_member(&b, "y", x->u32, 3, 5);
	b_member(&b, "z", x->i32, 32, 0);
	x->e = b_type(&b, "e", BTF_KIND_ENUM, 2, 0, 4);
	b_enumval(&b, "E_A", 0);
	b_enumval(&b, "E_B", 7);
	x->e64 = b_type(&b, "big", BTF_KIND_ENUM64, 2, 0, 8);
	b_enum64val(&b, "BIG_ONE", 1);
	b_enum64val(&b, "BIG_HUGE", 0xffffffff00000000ull);
	x->td = b_ref(&b, BTF_KIND_TYPEDEF, "s_t", x->s);
	x->arr = b_array(&b, x->chr, x->u32, 8);                          /* char [8] */
	x->arr2 = b_array(&b, x->arr, x->u32, 4);                         /* char [4][8] */
	x->proto = b_type(&b, NULL, BTF_KIND_FUNC_PROTO, 2, 0, x->i32);   /* int (int, char *) */
	b_param(&b, "a", x->i32);
	b_param(&b, "b", x->ptr_chr);
	x->fptr = b_ref(&b, BTF_KIND_PTR, NULL, x->proto);
	x->fn = b_type(&b, "prog", BTF_KIND_FUNC, 0, 0, x->proto);
	x->var = b_type(&b, "counter", BTF_KIND_VAR, 0, 0, x->u64);
	b_u32(&b, 1);
	x->sec = b_type(&b, ".bss", BTF_KIND_DATASEC, 1, 0, 8);
	b_u32(&b, x->var);
	b_u32(&b, 0);
	b_u32(&b, 8);
	x->fwd = b_type(&b, "later", BTF_KIND_FWD, 0, 0, 0);
	x->cst = b_ref(&b, BTF_KIND_CONST, NULL, x->td);
	/* struct pk { char c; int i; } __packed (size 5) */
	x->packed = b_type(&b, "pk", BTF_KIND_STRUCT, 2, 0, 5);
	b_member(&b, "c", x->chr, 0, 0);
	b_member(&b, "i", x->i32, 8, 0);
	/* struct pad { char c; <7 bytes>; char d __aligned(8); } size 16:
	 * needs explicit padding; holds the fn pointer, the 2-D array, the
	 * anonymous union and the enum64 */
	x->anon_holder = b_type(&b, NULL, BTF_KIND_UNION, 2, 0, 4);
	b_member(&b, "ua", x->i32, 0, 0);
	b_member(&b, "ub", x->u8, 0, 0);
	x->pad = b_type(&b, "pad", BTF_KIND_STRUCT, 7, 0, 96);
	b_member(&b, "c", x->chr, 0, 0);
	b_member(&b, "d", x->chr, 64, 0);
	b_member(&b, "fn", x->fptr, 128, 0);
	b_member(&b, "name", x->arr2, 192, 0);
	b_member(&b, NULL, x->anon_holder, 448, 0);
	b_member(&b, "big", x->e64, 512, 0);
	b_member(&b, "cs", x->cst, 576, 0);
	/* two different structs named "dup" */
	x->dup1 = b_type(&b, "dup", BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "one", x->i32, 0, 0);
	x->dup2 = b_type(&b, "dup", BTF_KIND_STRUCT, 1, 0, 8);
	b_member(&b, "two", x->u64, 0, 0);
	/* struct self { struct self *next; struct later *l; } */
	x->self = b_type(&b, "self", BTF_KIND_STRUCT, 2, 0, 16);
	b_member(&b, "next", b.next_id, 0, 0); /* the PTRs defined right below */
	b_member(&b, "l", b.next_id + 1, 64, 0);
	b_ref(&b, BTF_KIND_PTR, NULL, x->self);
	b_ref(&b, BTF_KIND_PTR, NULL, x->fwd);
	/* signed 1-byte enum */
	x->senum = b_type(&b, "small", BTF_KIND_ENUM, 2, 1, 1);
	b_enumval(&b, "SM_NEG", -3);
	b_enumval(&b, "SM_POS", 3);
	return b_blob(&b, size);
}

/* ---- tests ---- */

static void test_parse(void)
{
	struct ids x;
	size_t n;
	uint8_t *blob = sample(&n, &x);
	struct btf *btf = btf_new(blob, n, 0, NULL);
	const struct btf_type *t;
	const struct btf_member *m;
	size_t raw_size;

	T_OK(btf != NULL, "parse sample BTF (%s)", btf ? "ok" : err_msg());
	if (!btf) {
		free(blob);
		return;
	}
	T_OK(btf_nr_types(btf) == x.senum + 1, "type count %u", btf_nr_types(btf));
	T_OK(btf_type_by_id(btf, 0) == NULL && btf_type_by_id(btf, btf_nr_types(btf)) == NULL,
	     "void and out-of-range ids give NULL");
	t = btf_type_by_id(btf, x.s);
	T_OK(t && btf_kind(t) == BTF_KIND_STRUCT && !strcmp(btf_name(btf, t), "s") && btf_vlen(t) == 3,
	     "struct s by id");
	T_OK(btf_find(btf, "s", BTF_KIND_STRUCT) == (int32_t)x.s, "btf_find struct s");
	T_OK(btf_find(btf, "s", BTF_KIND_UNION) == -ENOENT, "btf_find wrong kind is -ENOENT");
	T_OK(btf_find(btf, "s_t", -1) == (int32_t)x.td, "btf_find any kind");
	T_OK(btf_find(btf, "nope", -1) == -ENOENT, "btf_find missing name");
	T_OK(btf_find(btf, "dup", BTF_KIND_STRUCT) == (int32_t)x.dup1, "btf_find returns the lowest id");
	T_OK(btf_find(btf, "prog", BTF_KIND_FUNC) == (int32_t)x.fn, "btf_find FUNC");
	T_OK(btf_type_size(btf, x.s) == 24 && btf_type_size(btf, x.td) == 24 && btf_type_size(btf, x.cst) == 24,
	     "size of struct, typedef, const");
	T_OK(btf_type_size(btf, x.ptr_chr) == 8 && btf_type_size(btf, x.arr2) == 32,
	     "size of pointer (8) and char[4][8] (32)");
	T_OK(btf_type_size(btf, x.e) == 4 && btf_type_size(btf, x.e64) == 8 && btf_type_size(btf, x.var) == 8 &&
	     btf_type_size(btf, x.sec) == 8, "size of enum, enum64, var, datasec");
	T_OK(btf_type_size(btf, x.proto) < 0 && btf_type_size(btf, 0) < 0 && btf_type_size(btf, x.fwd) < 0 &&
	     btf_type_size(btf, 9999) < 0, "sizeless kinds and bad ids give an error");
	T_OK(btf_skip_mods(btf, x.cst, &t) == x.td && t && btf_kind(t) == BTF_KIND_TYPEDEF,
	     "btf_skip_mods keeps typedefs");
	T_OK(btf_resolve(btf, x.cst, &t) == x.s && t && btf_kind(t) == BTF_KIND_STRUCT,
	     "btf_resolve skips typedefs");
	t = btf_type_by_id(btf, x.bf);
	m = btf_members(t);
	T_OK(btf_member_bit_offset(t, &m[1]) == 3 && btf_member_bitfield_size(t, &m[1]) == 5 &&
	     btf_member_bitfield_size(t, &m[2]) == 0, "bitfield offset/size with kind_flag");
	t = btf_type_by_id(btf, x.e64);
	T_OK(btf_enums64(t)[1].val_hi32 == 0xffffffff && !strcmp(btf_str(btf, btf_enums64(t)[1].name_off), "BIG_HUGE"),
	     "enum64 values");
	T_OK(btf_str(btf, 100000) == NULL && !strcmp(btf_str(btf, 0), ""), "btf_str bounds");
	T_OK(btf_raw(btf, &raw_size) == blob && raw_size == n, "btf_raw returns the borrowed blob");
	T_OK(btf_type_mut(btf, x.s) == NULL, "borrowed BTF is read-only");
	btf_free(btf);

	{
		uint8_t *odd = malloc(n + 1);

		memcpy(odd + 1, blob, n);
		btf = btf_new(odd + 1, n, 0, NULL);
		T_OK(btf && btf_find(btf, "s", BTF_KIND_STRUCT) == (int32_t)x.s && btf_type_size(btf, x.s) == 24,
		     "blob at an odd address is parsed (from a private copy)");
		btf_free(btf);
		free(odd);
	}

	btf = btf_new(blob, n, 1, NULL);
	T_OK(btf && btf_type_mut(btf, x.sec) && btf_raw(btf, NULL) != blob, "copy=1 gives a writable private copy");
	if (btf) {
		btf_type_mut(btf, x.sec)->size = 64;
		T_OK(btf_type_size(btf, x.sec) == 64 && btf_type_by_id(btf, x.sec)->size == 64,
		     "btf_type_mut edits the copy");
	}
	btf_free(btf);
	free(blob);
}

static int count_cb(uint32_t id, void *ctx)
{
	(void)id;
	++*(int *)ctx;
	return 0;
}

/* btf_find_prepare_types does not read FUNC names: lookups that may want
 * a FUNC of a name it prepared must still find it. */
static void test_prepare_types(void)
{
	static const char *const names[] = { "both" };
	struct bld b;
	uint32_t i32, st, fn;
	size_t n;
	uint8_t *blob;
	struct btf *btf;
	int cnt = 0;

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	fn = b_type(&b, "both", BTF_KIND_FUNC, 0, 0, b_type(&b, NULL, BTF_KIND_FUNC_PROTO, 0, 0, i32));
	st = b_type(&b, "both", BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "x", i32, 0, 0);
	blob = b_blob(&b, &n);
	btf = btf_new(blob, n, 0, NULL);
	T_OK(btf != NULL, "parse a FUNC and a STRUCT of one name");
	if (!btf) {
		free(blob);
		return;
	}
	btf_find_prepare_types(btf, names, 1);
	T_OK(btf_find(btf, "both", BTF_KIND_STRUCT) == (int32_t)st, "prepared without FUNCs: the STRUCT");
	T_OK(btf_find(btf, "both", BTF_KIND_FUNC) == (int32_t)fn, "prepared without FUNCs: the FUNC still found");
	T_OK(btf_find(btf, "both", -1) == (int32_t)fn, "prepared without FUNCs: any kind gives the lowest id");
	btf_for_each_type_named(btf, "both", count_cb, &cnt);
	T_OK(cnt == 1, "btf_for_each_type_named skips the FUNC (%d)", cnt);
	cnt = 0;
	btf_for_each_named(btf, "both", count_cb, &cnt);
	T_OK(cnt == 2, "btf_for_each_named visits both (%d)", cnt);
	btf_free(btf);
	free(blob);
}

/* btf_new_kernel_prepared finds the wanted names during the parse: its
 * answers come from that pass alone (a name it missed would be "not
 * found", never scanned for), so they must equal the types' own ids. */
static void test_prepared_parse(void)
{
	static const char *const types[] = { "both", "int", "absent" };
	static const char *const funcs[] = { "both", "f" };
	const struct btf_wanted want = { types, 3, funcs, 2 };
	struct bld b;
	uint32_t i32, proto, st, fn, f;
	size_t n;
	uint8_t *blob;
	struct btf *btf;
	int cnt = 0;

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	proto = b_type(&b, NULL, BTF_KIND_FUNC_PROTO, 0, 0, i32);
	fn = b_type(&b, "both", BTF_KIND_FUNC, 0, 0, proto);
	st = b_type(&b, "both", BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "x", i32, 0, 0);
	f = b_type(&b, "f", BTF_KIND_FUNC, 0, 0, proto);
	blob = b_blob(&b, &n);
	btf = btf_new_kernel_prepared(blob, n, NULL, &want);
	T_OK(btf != NULL, "btf_new_kernel_prepared parses: %s", btf ? "" : err_msg());
	if (!btf) {
		free(blob);
		return;
	}
	T_OK(btf_find(btf, "int", BTF_KIND_INT) == (int32_t)i32, "prepared in the parse: int");
	T_OK(btf_find(btf, "both", BTF_KIND_STRUCT) == (int32_t)st, "prepared in the parse: the STRUCT");
	T_OK(btf_find(btf, "both", BTF_KIND_FUNC) == (int32_t)fn, "prepared in the parse: the FUNC of a name wanted as both");
	T_OK(btf_find(btf, "f", BTF_KIND_FUNC) == (int32_t)f, "prepared in the parse: a FUNC");
	T_OK(btf_find(btf, "absent", -1) == -ENOENT, "prepared in the parse: a name not there");
	btf_for_each_type_named(btf, "both", count_cb, &cnt);
	T_OK(cnt == 1, "btf_for_each_type_named skips the FUNC (%d)", cnt);
	cnt = 0;
	btf_for_each_named(btf, "both", count_cb, &cnt);
	T_OK(cnt == 2, "btf_for_each_named visits both (%d)", cnt);
	btf_free(btf);
	free(blob);
}

/* Names the prepared pass must tell apart by more than their first 8
 * bytes (prefix8): 16 shared bytes (trace_event_raw_*), exactly 8 or 16
 * bytes, a prefix or an extension of a wanted name, and a wanted name
 * that is the last string of the section (read byte by byte there). */
static void test_prepared_names(void)
{
	static const char *const types[] = { "long int", "abcdefghijklmnop", "trace_event_raw_sys_enter", "int" };
	static const char *const names[] = { "long int", "long in", "long int2", "abcdefghijklmnop", "abcdefgh",
					      "abcdefghijklmnopq", "trace_event_raw_sys_exit", "trace_event_raw_sys_ente",
					      "trace_event_raw_sys_enterx", "in", "int", "trace_event_raw_sys_enter" };
	const struct btf_wanted want = { types, 4, NULL, 0 };
	uint32_t ids[12];
	struct bld b;
	size_t n;
	uint8_t *blob;
	struct btf *btf;

	b_init(&b, 1, 0);
	for (size_t i = 0; i < 12; i++)
		ids[i] = b_type(&b, names[i], BTF_KIND_TYPEDEF, 0, 0, 1);
	blob = b_blob(&b, &n);
	btf = btf_new_kernel_prepared(blob, n, NULL, &want);
	T_OK(btf != NULL, "prepared names: parses (%s)", btf ? "" : err_msg());
	for (size_t i = 0; btf && i < 4; i++) {
		int cnt = 0;
		size_t j = 0;

		while (strcmp(names[j], types[i]))
			j++;
		btf_for_each_type_named(btf, types[i], count_cb, &cnt);
		T_OK(btf_find(btf, types[i], BTF_KIND_TYPEDEF) == (int32_t)ids[j] && cnt == 1,
		     "prepared names: \"%s\" is [%u] only (%d found)", types[i], ids[j], cnt);
	}
	btf_free(btf);
	free(blob);
}

/* Kernel BTF keeps every 16th type's offset only: btf_type_by_id steps
 * from there, then indexes every type once stepping has cost enough.
 * Both must give what the full index of btf_new gives, for own ids of a
 * base and of split BTF. */
static void test_sparse_index(void)
{
	struct bld b;
	uint8_t *bb, *sb;
	size_t bn, sn;
	struct btf *full, *sparse, *sfull, *ssparse;
	uint32_t nr, bad = 0;

	b_init(&b, 1, 0);
	b_int(&b, "int", 4, BTF_INT_SIGNED);
	for (uint32_t i = 0; i < 200; i++) { /* kinds of every trailer length */
		if (i % 3 == 0) {
			b_type(&b, "s", BTF_KIND_STRUCT, i % 5, 0, 8);
			for (uint32_t m = 0; m < i % 5; m++)
				b_member(&b, "m", 1, m * 8, 0);
		} else if (i % 3 == 1) {
			b_ref(&b, BTF_KIND_PTR, NULL, 1);
		} else {
			b_type(&b, "e", BTF_KIND_ENUM, i % 4, 0, 4);
			for (uint32_t m = 0; m < i % 4; m++)
				b_enumval(&b, "V", (int32_t)m);
		}
	}
	bb = b_blob(&b, &bn);
	full = btf_new(bb, bn, 0, NULL);
	sparse = btf_new_kernel(bb, bn, NULL);
	T_OK(full && sparse && btf_nr_types(full) == btf_nr_types(sparse), "sparse index: both parse (%u types)",
	     full ? btf_nr_types(full) : 0);
	if (!full || !sparse)
		goto out;
	nr = btf_nr_types(full);
	/* a few ids first (stepping), then all of them (indexed by then) */
	for (uint32_t id = nr + 2; id-- > 0;)
		bad += btf_type_by_id(sparse, id) != btf_type_by_id(full, id);
	for (uint32_t id = 0; id < nr + 2; id++)
		bad += btf_type_by_id(sparse, id) != btf_type_by_id(full, id);
	T_OK(bad == 0, "sparse index: every id gives the type the full index gives (%u differ)", bad);

	b_init(&b, nr, b.slen);
	for (uint32_t i = 0; i < 40; i++) {
		b_type(&b, "mod", BTF_KIND_STRUCT, i % 2, 0, 4);
		if (i % 2)
			b_member(&b, "x", 1, 0, 0);
	}
	sb = b_blob(&b, &sn);
	sfull = btf_new(sb, sn, 0, full);
	ssparse = btf_new_kernel(sb, sn, sparse);
	bad = 0;
	for (uint32_t id = 0; sfull && ssparse && id < btf_nr_types(sfull) + 2; id++)
		bad += btf_type_by_id(ssparse, id) != btf_type_by_id(sfull, id);
	T_OK(sfull && ssparse && bad == 0, "sparse index: split BTF ids too (%u differ)", bad);
	btf_free(ssparse);
	btf_free(sfull);
	free(sb);
out:
	btf_free(sparse);
	btf_free(full);
	free(bb);
}

static void test_split(void)
{
	struct bld b;
	struct btf *base, *split;
	uint8_t *bb, *sb;
	size_t bn, sn;
	uint32_t s_id, p_id;
	int n = 0;
	const struct btf_type *t;

	b_init(&b, 1, 0);
	b_int(&b, "int", 4, BTF_INT_SIGNED);                  /* 1 */
	b_type(&b, "task", BTF_KIND_STRUCT, 1, 0, 4);         /* 2 */
	b_member(&b, "pid", 1, 0, 0);
	bb = b_blob(&b, &bn);
	base = btf_new(bb, bn, 0, NULL);
	T_OK(base != NULL, "split: base parses");
	if (!base)
		return;
	b_init(&b, 3, b.slen); /* split strings start after the base's */
	s_id = b_type(&b, "mod_s", BTF_KIND_STRUCT, 2, 0, 16);
	b_member(&b, "t", 2, 0, 0);
	b_member(&b, "p", 4, 64, 0);
	p_id = b_ref(&b, BTF_KIND_PTR, NULL, s_id);
	b_type(&b, "task", BTF_KIND_FWD, 0, 0, 0);
	sb = b_blob(&b, &sn);
	split = btf_new(sb, sn, 0, base);
	T_OK(split != NULL, "split: module BTF parses over its base (%s)", split ? "" : err_msg());
	if (split) {
		t = btf_type_by_id(split, s_id);
		T_OK(s_id == 3 && btf_nr_types(split) == 6 && t && !strcmp(btf_name(split, t), "mod_s"),
		     "split: ids continue after the base, names map into own strings");
		T_OK(btf_type_by_id(split, 2) == btf_type_by_id(base, 2), "split: base ids resolve in the base");
		T_OK(btf_find(split, "int", BTF_KIND_INT) == 1 && btf_find(split, "mod_s", -1) == (int32_t)s_id,
		     "split: btf_find sees base and own types");
		btf_for_each_named(split, "task", count_cb, &n);
		T_OK(n == 2, "split: btf_for_each_named visits base and own (%d)", n);
		T_OK(btf_type_size(split, s_id) == 16 && btf_type_size(split, p_id) == 8, "split: sizes");
		T_OK(!strcmp(btf_str(split, btf_members(t)[0].name_off), "t"), "split: member names");
	}
	btf_free(split);
	btf_free(base);
	free(sb);
	free(bb);
}

/* Expect btf_new to fail with a message containing `want`. */
static void expect_bad(const char *what, const void *blob, size_t n, const char *want)
{
	struct btf *btf;
	void *copy = malloc(n ? n : 1);

	memcpy(copy, blob, n); /* exact size: ASan catches over-reads */
	err_clear();
	btf = btf_new(copy, n, 0, NULL);
	T_OK(!btf && strstr(err_msg(), want), "reject %s: %s", what, err_msg());
	btf_free(btf);
	free(copy);
}

static void test_corrupt(void)
{
	struct ids x;
	struct btf_header *h;
	struct bld b;
	size_t n, i;
	uint8_t *blob = sample(&n, &x), *bad = malloc(n + 64);
	int survived = 0;

#define FRESH() (memcpy(bad, blob, n), h = (struct btf_header *)bad)
	FRESH();
	h->magic = 0x1234;
	expect_bad("bad magic", bad, n, "magic");
	FRESH();
	h->magic = 0x9FEB;
	expect_bad("foreign byte order", bad, n, "byte order");
	FRESH();
	h->version = 2;
	expect_bad("version 2", bad, n, "version");
	FRESH();
	h->hdr_len = 20;
	expect_bad("hdr_len < 24", bad, n, "header length");
	FRESH();
	h->type_len += 4;
	expect_bad("type section beyond the blob", bad, n, "overlap");
	FRESH();
	h->str_len += 1;
	expect_bad("string section beyond the blob", bad, n, "outside");
	FRESH();
	h->type_off = 0x7ffffff0;
	expect_bad("huge type_off", bad, n, "outside");
	FRESH();
	h->type_off = 2;
	expect_bad("unaligned type section", bad, n, "aligned");
	FRESH();
	bad[n - 1] = 'x';
	expect_bad("strings not NUL-terminated", bad, n, "NUL-terminated");
	FRESH();
	bad[sizeof(*h) + h->str_off] = 'x';
	expect_bad("strings not starting with NUL", bad, n, "empty string");
	FRESH();
	expect_bad("truncated header", bad, 10, "too small");
	/* type 1's name offset far out */
	FRESH();
	((uint32_t *)(bad + sizeof(*h)))[0] = 0x10000;
	expect_bad("type name_off out of range", bad, n, "name offset");
	/* struct s (type 7, after five 16-byte INTs and a 12-byte PTR) member name */
	FRESH();
	((uint32_t *)(bad + sizeof(*h) + 5 * 16 + 12 + 12))[0] = 0x10000;
	expect_bad("member name_off out of range", bad, n, "member/value 0");
	{ /* the kernel's own BTF is not checked again there (it did that);
	   * the accessor still answers NULL rather than read outside */
		struct btf *kb = btf_new_kernel(bad, n, NULL);
		const struct btf_type *t = kb ? btf_type_by_id(kb, 7) : NULL;

		T_OK(t && btf_kind(t) == BTF_KIND_STRUCT && !btf_str(kb, btf_members(t)[0].name_off),
		     "btf_new_kernel: member name offsets unchecked, btf_str says NULL (%s)", kb ? "parsed" : err_msg());
		btf_free(kb);
	}
	FRESH();
	((uint32_t *)(bad + sizeof(*h)))[0] = 0x10000;
	{
		struct btf *kb = btf_new_kernel(bad, n, NULL);

		T_OK(!kb && strstr(err_msg(), "name offset"), "btf_new_kernel still rejects a type name out of range: %s",
		     err_msg());
		btf_free(kb);
	}
	FRESH();
	((uint32_t *)(bad + sizeof(*h) + 5 * 16 + 12))[1] = BTF_KIND_STRUCT << 24 | 0xffffff;
	expect_bad("vlen running past the end", bad, n, "runs past");
	FRESH();
	((uint32_t *)(bad + sizeof(*h)))[1] = 25u << 24;
	expect_bad("unknown kind", bad, n, "type [1] has unknown kind 25");
	FRESH();
	((uint32_t *)(bad + sizeof(*h)))[1] = 0;
	expect_bad("kind 0 (UNKN)", bad, n, "unknown kind 0");
	FRESH();
	h->type_len -= 4; /* last type cut short; strings move with it */
	h->str_off -= 4;
	memmove(bad + sizeof(*h) + h->str_off, bad + sizeof(*h) + h->str_off + 4, h->str_len);
	expect_bad("last type truncated", bad, n - 4, "runs past");

	/* Every prefix of the blob: an error or a valid parse, never a crash. */
	for (i = 0; i < n; i++) {
		void *c = malloc(i ? i : 1);
		struct btf *btf;

		memcpy(c, blob, i);
		btf = btf_new(c, i, 0, NULL);
		survived += !btf;
		btf_free(btf);
		free(c);
	}
	T_OK(survived == (int)n, "all %zu truncations rejected", n);

	/* Random byte flips: parse, look up, size and dump whatever parses. */
	srand(1);
	survived = 0;
	for (i = 0; i < 3000; i++) {
		struct btf *btf;
		int k, flips = 1 + rand() % 4;
		char *out = NULL;
		size_t outn = 0;
		FILE *f;

		FRESH();
		for (k = 0; k < flips; k++)
			bad[sizeof(*h) + (size_t)rand() % (n - sizeof(*h))] ^= (uint8_t)(1u << (rand() % 8));
		btf = btf_new(bad, n, 0, NULL);
		if (!btf)
			continue;
		survived++;
		for (k = 1; k < (int)btf_nr_types(btf); k++)
			btf_type_size(btf, (uint32_t)k);
		btf_find(btf, "s", -1);
		f = open_memstream(&out, &outn);
		btf_dump_c(btf, f, NULL);
		fclose(f);
		free(out);
		btf_free(btf);
	}
	T_OK(1, "3000 byte-flipped blobs: %d parsed and were sized and dumped without a crash", survived);
#undef FRESH

	/* typedef cycle and array size overflow: parse fine, fail on use */
	b_init(&b, 1, 0);
	b_int(&b, "int", 4, BTF_INT_SIGNED);       /* 1 */
	b_ref(&b, BTF_KIND_TYPEDEF, "a", 3);       /* 2 -> 3 */
	b_ref(&b, BTF_KIND_TYPEDEF, "b", 2);       /* 3 -> 2 */
	b_array(&b, 1, 1, 0x40000000);             /* 4: int[2^30] */
	b_array(&b, 4, 1, 0x40000000);             /* 5: int[2^30][2^30] */
	b_array(&b, 5, 1, 0x40000000);             /* 6: overflows int64 */
	b_ref(&b, BTF_KIND_CONST, NULL, 7);        /* 7: const of itself */
	free(blob);
	blob = b_blob(&b, &n);
	{
		struct btf *btf = btf_new(blob, n, 0, NULL);
		const struct btf_type *t;
		char *out = NULL;
		size_t outn = 0;
		FILE *f;
		int r;

		T_OK(btf != NULL, "cyclic BTF parses (cycles are found on use)");
		if (btf) {
			T_OK(btf_type_size(btf, 2) == -ELOOP, "typedef cycle: size is -ELOOP (%s)", err_msg());
			T_OK(btf_resolve(btf, 2, &t) == 0 && !t, "typedef cycle: btf_resolve gives up");
			T_OK(btf_skip_mods(btf, 7, &t) == 0 && !t, "const cycle: btf_skip_mods gives up");
			T_OK(btf_type_size(btf, 5) == 4ll << 60, "int[2^30][2^30] is 2^62 bytes");
			T_OK(btf_type_size(btf, 6) == -E2BIG, "array size overflow: -E2BIG (%s)", err_msg());
			f = open_memstream(&out, &outn);
			r = btf_dump_c(btf, f, NULL);
			fclose(f);
			T_OK(r == -ELOOP, "dump of a typedef cycle fails: %s", err_msg());
			free(out);
		}
		btf_free(btf);
	}
	free(blob);
	free(bad);
}

/* ---- .BTF.ext ---- */

static void put32(uint8_t *p, size_t *off, uint32_t v)
{
	memcpy(p + *off, &v, 4);
	*off += 4;
}

static void test_ext(void)
{
	struct ids x;
	size_t n, len = 0, func_at, line_at, core_at;
	uint8_t *blob = sample(&n, &x);
	struct btf *btf = btf_new(blob, n, 0, NULL);
	uint32_t sec = 0, i;
	uint8_t ext[512], bad[512];
	struct btf_ext e;
	int r;

	if (!btf)
		return;
	/* ".bss" is a string of the sample BTF */
	sec = btf_type_by_id(btf, x.sec)->name_off;
	memset(ext, 0, sizeof(ext));
	len = 32;
	func_at = len;                       /* func_info: rec 8, one block of 2 */
	put32(ext, &len, 8);
	put32(ext, &len, sec);
	put32(ext, &len, 2);
	for (i = 0; i < 4; i++)
		put32(ext, &len, i);
	line_at = len;                       /* line_info: rec 16, two blocks */
	put32(ext, &len, 16);
	put32(ext, &len, sec);
	put32(ext, &len, 1);
	len += 16;
	put32(ext, &len, sec);
	put32(ext, &len, 2);
	len += 32;
	core_at = len;                       /* core_relo: rec 20 (bigger than we read) */
	put32(ext, &len, 20);
	put32(ext, &len, sec);
	put32(ext, &len, 1);
	len += 20;
	{
		struct { uint16_t magic; uint8_t version, flags; uint32_t hdr_len, fo, fl, lo, ll, co, cl; } h = {
			BTF_MAGIC, 1, 0, 32, (uint32_t)(func_at - 32), (uint32_t)(line_at - func_at),
			(uint32_t)(line_at - 32), (uint32_t)(core_at - line_at), (uint32_t)(core_at - 32),
			(uint32_t)(len - core_at) };
		memcpy(ext, &h, sizeof(h));
	}
	r = btf_ext_parse(&e, ext, len, btf);
	T_OK(r == 0, "parse .BTF.ext (%s)", r ? err_msg() : "ok");
	if (!r) {
		T_OK(e.nr_func == 1 && e.func[0].nr == 2 && e.func_rec_size == 8 && !strcmp(e.func[0].sec_name, ".bss") &&
		     e.func[0].recs == ext + func_at + 12, "func_info: one block, 2 records of 8 bytes");
		T_OK(e.nr_line == 2 && e.line[1].nr == 2 && e.line_rec_size == 16, "line_info: two blocks");
		T_OK(e.nr_core == 1 && e.core_rec_size == 20 && e.core[0].rec_size == 20,
		     "core_relo: record size from the file (20)");
		btf_ext_free(&e);
	}
	/* hdr_len 24 (no core_relo fields): offsets count from byte 24 */
	memcpy(bad, ext, len);
	((uint32_t *)bad)[1] = 24;
	((uint32_t *)bad)[2] += 8;
	((uint32_t *)bad)[4] += 8;
	r = btf_ext_parse(&e, bad, len, btf);
	T_OK(r == 0 && e.nr_core == 0 && e.nr_func == 1 && e.nr_line == 2, "hdr_len 24: func/line only (%s)",
	     r ? err_msg() : "ok");
	btf_ext_free(&e);

#define EXT_BAD(what, edit, want)                                                       \
	do {                                                                            \
		memcpy(bad, ext, len);                                                  \
		edit;                                                                   \
		r = btf_ext_parse(&e, bad, len, btf);                                   \
		T_OK(r < 0 && strstr(err_msg(), want), ".BTF.ext %s: %s", what, err_msg()); \
		btf_ext_free(&e);                                                       \
	} while (0)
	EXT_BAD("bad magic", bad[0] = 0, "magic");
	EXT_BAD("hdr_len 16", ((uint32_t *)bad)[1] = 16, "header length");
	EXT_BAD("hdr_len beyond the data", ((uint32_t *)bad)[1] = 4096, "header length");
	EXT_BAD("func rec_size 4", ((uint32_t *)(bad + func_at))[0] = 4, "record size");
	EXT_BAD("line rec_size 12", ((uint32_t *)(bad + line_at))[0] = 12, "record size");
	EXT_BAD("core rec_size 8", ((uint32_t *)(bad + core_at))[0] = 8, "record size");
	EXT_BAD("block past the end", ((uint32_t *)(bad + line_at))[2] = 1000, "run past");
	EXT_BAD("block with no records", ((uint32_t *)(bad + func_at))[2] = 0, "no records");
	EXT_BAD("bad section name", ((uint32_t *)(bad + core_at))[1] = 99999, "section name");
	EXT_BAD("subsection outside", ((uint32_t *)bad)[7] = 4096, "outside");
	EXT_BAD("truncated block header", ((uint32_t *)bad)[3] += 4, "truncated");
#undef EXT_BAD
	for (i = 0; i < len; i++) { /* every truncation */
		uint8_t *c = malloc(i ? i : 1);

		memcpy(c, ext, i);
		if (btf_ext_parse(&e, c, i, btf) == 0)
			btf_ext_free(&e);
		free(c);
	}
	T_OK(1, ".BTF.ext: %zu truncations without a crash", len);
	btf_free(btf);
	free(blob);
}

/* ---- the C dumper ---- */

static char *dump_str(const struct btf *btf, const char *const *only, int *ret)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	*ret = btf_dump_c(btf, f, only);
	fclose(f);
	return out;
}

static bool have_clang(void)
{
	return system("clang --version >/dev/null 2>&1") == 0;
}

/* Write header + static asserts for every uniquely named struct/union's
 * size and member offsets; compile with clang -target bpf. */
static int compile_with_asserts(const struct btf *btf, const char *header, const char *tag)
{
	char hpath[] = "/tmp/corebox_btf_XXXXXX", cpath[64], cmd[256];
	int fd = mkstemp(hpath), r;
	FILE *f;
	uint32_t id, i;

	if (fd < 0)
		return -1;
	if (write(fd, header, strlen(header)) != (ssize_t)strlen(header)) {
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(cpath, sizeof(cpath), "%s.c", hpath);
	f = fopen(cpath, "w");
	if (!f)
		return -1;
	fprintf(f, "#include \"%s\"\n#define A(x) _Static_assert(x, #x);\n", hpath);
	for (id = 1; id < btf_nr_types(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		const char *kw = btf_kind(t) == BTF_KIND_UNION ? "union" : "struct";
		int same = 0;

		if ((btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) || !t->name_off)
			continue;
		btf_for_each_named(btf, btf_name(btf, t), count_cb, &same);
		if (same != 1)
			continue; /* renamed ___2 or shadowed by a FWD/typedef */
		fprintf(f, "A(sizeof(%s %s) == %u)\n", kw, btf_name(btf, t), t->size);
		for (i = 0; i < btf_vlen(t); i++) {
			const struct btf_member *m = &btf_members(t)[i];

			if (m->name_off && !btf_member_bitfield_size(t, m))
				fprintf(f, "A(__builtin_offsetof(%s %s, %s) == %u)\n", kw, btf_name(btf, t),
					btf_str(btf, m->name_off), btf_member_bit_offset(t, m) / 8);
		}
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "clang -target bpf -O2 -g -Wall -Werror -c %s -o /dev/null 2>&1 | head -20", cpath);
	f = popen(cmd, "r");
	r = 0;
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			printf("    %s: %s", tag, line);
			r = 1;
		}
		pclose(f);
	}
	unlink(cpath);
	unlink(hpath);
	return r;
}

static void test_dump(void)
{
	struct ids x;
	size_t n;
	uint8_t *blob = sample(&n, &x);
	struct btf *btf = btf_new(blob, n, 0, NULL);
	static const char *const want[] = {
		"#ifndef __VMLINUX_H__",
		"#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)",
		"struct s {\n\tint a;\n\tchar *p;\n\tlong long unsigned int q;\n};",
		"\tunsigned int x: 3;\n\tunsigned int y: 5;\n\tint z;\n",
		"enum e {\n\tE_A = 0,\n\tE_B = 7,\n};",
		"enum big {\n\tBIG_ONE = 1ULL,\n\tBIG_HUGE = 18446744069414584320ULL",
		"typedef struct s s_t;",
		"struct pk {\n\tchar c;\n\tint i;\n} __attribute__((packed));",
		"\tchar c;\n\tlong: 56;\n\tchar d;\n",
		"\tint (*fn)(int, char *);\n",
		"\tchar name[4][8];\n",
		"\tunion {\n\t\tint ua;\n\t\tunsigned char ub;\n\t};\n",
		"\tconst s_t cs;\n",
		"struct dup {\n\tint one;\n};",
		"struct dup___2 {\n\tlong long unsigned int two;\n};",
		"struct later;\n",
		"struct self {\n\tstruct self *next;\n\tstruct later *l;\n};",
		"SM_NEG = -3,",
		"} __attribute__((mode(byte)));",
		"#endif /* __VMLINUX_H__ */",
	};
	static const char *const only[] = { "self", NULL };
	static const char *const missing[] = { "s", "no_such_type", NULL };
	char *out;
	size_t i;
	int r;

	if (!btf)
		return;
	out = dump_str(btf, NULL, &r);
	T_OK(r == 0, "dump sample BTF (%s)", r ? err_msg() : "ok");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		T_OK(strstr(out, want[i]) != NULL, "dump contains \"%.50s\"", want[i]);
	T_OK(strstr(out, "typedef struct s s_t;") < strstr(out, "const s_t cs;"),
	     "typedef emitted before its use");
	T_OK(!strstr(out, "prog") && !strstr(out, "counter") && !strstr(out, ".bss"),
	     "functions, variables and sections are not dumped");
	if (have_clang())
		T_OK(compile_with_asserts(btf, out, "sample") == 0, "sample dump compiles, sizes and offsets match");
	else
		T_SKIP("sample dump compile check", "no clang");
	free(out);

	out = dump_str(btf, only, &r);
	T_OK(r == 0 && strstr(out, "struct self {") && strstr(out, "struct later;") && !strstr(out, "struct s {"),
	     "--types self: just self and a declaration of later");
	free(out);
	out = dump_str(btf, missing, &r);
	T_OK(r == -ENOENT && strstr(err_msg(), "no_such_type") && out && !*out,
	     "unknown type name: error before any output (%s)", err_msg());
	free(out);
	btf_free(btf);
	free(blob);
}

/* Names and ids from an untrusted file: a name that is not a C
 * identifier (a newline and an #include in a struct name) and a type id
 * past the last type are errors before anything is written, and the
 * message itself carries no raw control byte. */
static bool no_controls(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static void dump_expect_error(struct bld *b, const char *what, const char *want)
{
	size_t n;
	uint8_t *blob = b_blob(b, &n);
	struct btf *btf = btf_new(blob, n, 0, NULL);
	char *out;
	int r = 0;

	if (!btf) {
		T_OK(0, "%s: parses (%s)", what, err_msg());
		free(blob);
		return;
	}
	out = dump_str(btf, NULL, &r);
	T_OK(r == -EINVAL && out && !*out && strstr(err_msg(), want) && no_controls(err_msg()),
	     "%s: dump fails before any output: %s", what, err_msg());
	free(out);
	btf_free(btf);
	free(blob);
}

static void test_dump_untrusted(void)
{
	static const char inject[] = "x\n#include \"/etc/passwd\"\n";
	struct bld b;
	uint32_t i32, s;
	int bad = 0, total = 0;

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	b_type(&b, inject, BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "a", i32, 0, 0);
	dump_expect_error(&b, "struct name with a newline and #include", "is not a C identifier");

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	b_type(&b, "s", BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "a\x1b[2J", i32, 0, 0);
	dump_expect_error(&b, "member name with a terminal escape", "'a\\x1b[2J' is not a C identifier");

	b_init(&b, 1, 0);
	b_type(&b, "e", BTF_KIND_ENUM, 1, 0, 4);
	b_enumval(&b, "A B", 1);
	dump_expect_error(&b, "enumerator with a space", "enumerator 0 'A B'");

	b_init(&b, 1, 0);
	b_int(&b, "int", 4, BTF_INT_SIGNED);
	b_ref(&b, BTF_KIND_TYPEDEF, "__u16", 320);
	dump_expect_error(&b, "typedef of type id 320 (of 2)", "refers to type [320]");

	b_init(&b, 1, 0);
	b_ref(&b, BTF_KIND_TYPEDEF, "t", 0);
	b_ref(&b, BTF_KIND_TYPEDEF, "", 1);
	dump_expect_error(&b, "typedef without a name", "name '' is not a C identifier");

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	b_array(&b, i32, 99, 4);
	dump_expect_error(&b, "array index type out of range", "refers to type [99]");

	b_init(&b, 1, 0);
	i32 = b_int(&b, "int", 4, BTF_INT_SIGNED);
	s = b_type(&b, "s", BTF_KIND_STRUCT, 1, 0, 4);
	b_member(&b, "a", 0, 0, 0);
	(void)s;
	dump_expect_error(&b, "struct member of type void", "member 0 is void");

	/* every type id of the sample blob pointed past the end, one at a
	 * time: each dump must fail (none may print it as void) */
	{
		struct ids x;
		size_t n;
		uint8_t *blob = sample(&n, &x);
		const struct btf_header *h = (const void *)blob;
		struct btf *ref = btf_new(blob, n, 0, NULL);

		for (uint32_t id = 1; ref && id < btf_nr_types(ref); id++) {
			const struct btf_type *t = btf_type_by_id(ref, id);
			size_t off = (size_t)((const uint8_t *)t - blob);
			int k = btf_kind(t);
			size_t field;
			uint8_t *m;
			struct btf *btf;
			char *out;
			int r;

			if (k == BTF_KIND_PTR || k == BTF_KIND_TYPEDEF || k == BTF_KIND_CONST || k == BTF_KIND_VOLATILE ||
			    k == BTF_KIND_RESTRICT || k == BTF_KIND_TYPE_TAG || k == BTF_KIND_FUNC || k == BTF_KIND_VAR)
				field = off + 8;
			else if (k == BTF_KIND_ARRAY)
				field = off + 12;
			else if ((k == BTF_KIND_STRUCT || k == BTF_KIND_UNION) && btf_vlen(t))
				field = off + 12 + 4;
			else
				continue;
			m = malloc(n);
			memcpy(m, blob, n);
			{
				uint32_t v = btf_nr_types(ref) + 300;

				memcpy(m + field, &v, 4);
			}
			total++;
			btf = btf_new(m, n, 0, NULL);
			out = btf ? dump_str(btf, NULL, &r) : NULL;
			if (btf && r == -EINVAL && out && !*out)
				bad++;
			else
				printf("    type [%u] kind %d with an out-of-range id: dump returned %d\n", id, k, btf ? r : 1);
			free(out);
			btf_free(btf);
			free(m);
		}
		(void)h;
		T_OK(total > 10 && bad == total, "out-of-range type ids: %d of %d dumps fail (none prints void)", bad,
		     total);
		btf_free(ref);
		free(blob);
	}
}

/* ---- live kernel ---- */

/* The kernel's own BTF parsed as the tools do (sparse index, names found
 * in the parse) against btf_new's full index and name index. */
static void kernel_sparse_prepared(const struct kbtf *k, const struct btf *strict)
{
	static const char *const types[] = { "task_struct", "trace_event_raw_sys_enter", "long int", "int",
					     "unsigned long", "list_head" };
	static const char *const funcs[] = { "vfs_read", "bpf_iter_task" };
	const struct btf_wanted want = { types, 6, funcs, 2 };
	struct btf *btf = btf_new_kernel_prepared(k->map, k->map_size, NULL, &want);
	uint32_t nr = btf_nr_types(strict), bad = 0, step = 2654435761u % nr;

	T_OK(btf != NULL, "kernel BTF parsed prepared (%s)", btf ? "" : err_msg());
	if (!btf)
		return;
	for (uint32_t i = 0, id = 1; i < 3000; i++, id = (id + step) % nr) /* scattered: stepping */
		bad += btf_type_by_id(btf, id) != btf_type_by_id(strict, id);
	for (uint32_t id = 0; id <= nr; id++) /* all: indexed by then */
		bad += btf_type_by_id(btf, id) != btf_type_by_id(strict, id);
	T_OK(bad == 0, "kernel BTF: every id of the sparse index is the full index's type (%u differ)", bad);
	for (size_t i = 0; i < 8; i++) {
		const char *name = i < 6 ? types[i] : funcs[i - 6];
		int kind = i < 6 ? (i == 2 || i == 3 || i == 4 ? BTF_KIND_INT : BTF_KIND_STRUCT) : BTF_KIND_FUNC;
		int a = 0, c = 0;

		btf_for_each_named(btf, name, count_cb, &a);
		btf_for_each_named(strict, name, count_cb, &c);
		T_OK(btf_find(btf, name, kind) == btf_find(strict, name, kind) && a == c,
		     "kernel BTF: prepared %s is [%d] as indexed (%d/%d named)", name, btf_find(btf, name, kind), a, c);
	}
	btf_free(btf);
}

static void test_kernel(void)
{
	struct kbtf k;
	uint64_t t0, t1, t2, t3;
	int32_t id;
	int r;
	char *out;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		T_SKIP("kernel BTF", "no /sys/kernel/btf/vmlinux");
		return;
	}
	t0 = now_ns();
	r = kbtf_open(&k, NULL);
	t1 = now_ns();
	T_OK(r == 0, "kbtf_open default (%s): %.2f ms", r ? err_msg() : k.path, (t1 - t0) / 1e6);
	if (r)
		return;
	T_OK(btf_nr_types(k.btf) > 1000, "kernel BTF has %u types", btf_nr_types(k.btf));
	{ /* kbtf took it as kernel-verified: every check finds it sound too */
		struct btf *strict = btf_new(k.map, k.map_size, 0, NULL);

		T_OK(strict && btf_nr_types(strict) == btf_nr_types(k.btf),
		     "kernel BTF passes btf_new's member name checks as well (%u types)",
		     strict ? btf_nr_types(strict) : 0);
		if (strict)
			kernel_sparse_prepared(&k, strict);
		btf_free(strict);
	}
	t2 = now_ns();
	id = btf_find(k.btf, "task_struct", BTF_KIND_STRUCT);
	t3 = now_ns();
	T_OK(id > 0 && btf_type_size(k.btf, (uint32_t)id) > 1000,
	     "task_struct is [%d], %lld bytes (first lookup with index build: %.2f ms)", id,
	     (long long)btf_type_size(k.btf, (uint32_t)id), (t3 - t2) / 1e6);
	t0 = now_ns();
	out = dump_str(k.btf, NULL, &r);
	t1 = now_ns();
	T_OK(r == 0 && strlen(out) > 1000000, "full kernel dump: %zu bytes in %.0f ms", strlen(out), (t1 - t0) / 1e6);
	if (have_clang())
		T_OK(compile_with_asserts(k.btf, out, "vmlinux") == 0,
		     "full kernel dump compiles with clang -target bpf, every size and offset matches");
	free(out);
	kbtf_close(&k);

	r = kbtf_open(&k, "/etc/passwd");
	T_OK(r < 0 && strstr(err_msg(), "/etc/passwd") && strstr(err_msg(), "not BTF"),
	     "bad --btf file: %s", err_msg());
	r = kbtf_open(&k, "/proc/self/exe");
	T_OK(r < 0 && strstr(err_msg(), "/proc/self/exe") && strstr(err_msg(), ".BTF"),
	     "ELF --btf file without .BTF: %s", err_msg());
	r = kbtf_open(&k, "/nonexistent/btf");
	T_OK(r == -ENOENT && strstr(err_msg(), "/nonexistent/btf"), "missing --btf file: %s", err_msg());
}

int main(void)
{
	test_parse();
	test_split();
	test_prepare_types();
	test_prepared_parse();
	test_prepared_names();
	test_sparse_index();
	test_corrupt();
	test_ext();
	test_dump();
	test_dump_untrusted();
	test_kernel();
	T_EXIT();
}
