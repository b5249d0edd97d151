/* BTF: parse kernel and program BTF, look types up, dump as C.
 *
 * A struct btf is a view over a raw BTF blob (header, types, strings).
 * Kernel BTF (5.5 MB) is borrowed, never copied: the caller maps it and
 * btf_new() only builds a u32 offset-per-type index.  The name index used
 * by btf_find() is built lazily on first use.  Program BTF is small and
 * is parsed from a private copy so the loader can fix DATASEC sizes and
 * VAR offsets in place (btf_type_mut). */
#ifndef COREBOX_BTF_H
#define COREBOX_BTF_H

#include <linux/btf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds newer than the UAPI header on older build machines.  ENUM64 is an
 * enum constant (not a macro) in linux/btf.h, so #ifndef cannot see it:
 * the header version (6.0 added it) tells instead. */
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 0, 0)
#define BTF_KIND_ENUM64 19
struct btf_enum64 {
	uint32_t name_off;
	uint32_t val_lo32;
	uint32_t val_hi32;
};
#endif

struct btf;

/* Parse a blob.  The header, every type's length and every name offset
 * are checked here; type ids stored inside types are not (accessors
 * return NULL for bad ones).  copy = 0: borrow data (must outlive the btf); copy = 1:
 * take a private writable copy.  base: for split BTF (modules), the base
 * (vmlinux) whose ids and strings come first; NULL otherwise.
 * Returns NULL with err_msg() set on malformed input. */
struct btf *btf_new(const void *data, size_t size, int copy, const struct btf *base);
/* btf_new(data, size, 0, base) for BTF the running kernel made and
 * verified itself (/sys/kernel/btf/...: vmlinux at boot, each module at
 * load): the name offsets inside members, enumerators and parameters are
 * not checked again, a third of the parse of vmlinux's 127k types and of
 * a tool's start.  The header, type lengths and type names still are. */
struct btf *btf_new_kernel(const void *data, size_t size, const struct btf *base);
/* Names a caller will look up, known before the BTF is opened: types
 * (looked up only as kinds other than FUNC, see btf_find_prepare_types)
 * and funcs (any kind, see btf_find_prepare). */
struct btf_wanted {
	const char *const *types;
	size_t nr_types;
	const char *const *funcs;
	size_t nr_funcs;
};
/* btf_new_kernel that also finds the wanted names during its one pass
 * over the types (the same result as btf_find_prepare_wanted after it,
 * without a second pass over vmlinux's 127k types: ~1 ms of a tool's
 * start).  want may be NULL. */
struct btf *btf_new_kernel_prepared(const void *data, size_t size, const struct btf *base,
				    const struct btf_wanted *want);
void btf_free(struct btf *btf);

/* Number of type ids including void (valid ids: 1 .. btf_nr_types()-1;
 * for split BTF ids start after the base's). */
uint32_t btf_nr_types(const struct btf *btf);
/* Type by id; NULL for id 0 (void) and out-of-range ids. */
const struct btf_type *btf_type_by_id(const struct btf *btf, uint32_t id);
struct btf_type *btf_type_mut(struct btf *btf, uint32_t id); /* copy=1 only */
/* String at offset; NULL when out of range. */
const char *btf_str(const struct btf *btf, uint32_t off);
/* Name of a type ("" for anonymous or bad offset). */
const char *btf_name(const struct btf *btf, const struct btf_type *t);

/* Raw blob (for BPF_BTF_LOAD) and its size. */
const void *btf_raw(const struct btf *btf, size_t *size);

static inline int btf_kind(const struct btf_type *t) { return (t->info >> 24) & 0x7f; }
static inline uint32_t btf_vlen(const struct btf_type *t) { return t->info & 0xffffff; }
static inline bool btf_kflag(const struct btf_type *t) { return t->info >> 31; }
static inline struct btf_member *btf_members(const struct btf_type *t) { return (struct btf_member *)(t + 1); }
static inline struct btf_param *btf_params(const struct btf_type *t) { return (struct btf_param *)(t + 1); }
static inline struct btf_enum *btf_enums(const struct btf_type *t) { return (struct btf_enum *)(t + 1); }
static inline struct btf_enum64 *btf_enums64(const struct btf_type *t) { return (struct btf_enum64 *)(t + 1); }
static inline struct btf_array *btf_array_info(const struct btf_type *t) { return (struct btf_array *)(t + 1); }
static inline struct btf_var *btf_var_info(const struct btf_type *t) { return (struct btf_var *)(t + 1); }
static inline struct btf_var_secinfo *btf_secinfos(const struct btf_type *t) { return (struct btf_var_secinfo *)(t + 1); }
static inline uint32_t btf_int_encoding(const struct btf_type *t) { return (*(const uint32_t *)(t + 1) >> 24) & 0x0f; }
static inline uint32_t btf_int_offset(const struct btf_type *t) { return (*(const uint32_t *)(t + 1) >> 16) & 0xff; }
static inline uint32_t btf_int_bits(const struct btf_type *t) { return *(const uint32_t *)(t + 1) & 0xff; }
/* Member bit offset / bitfield size honour kind_flag. */
static inline uint32_t btf_member_bit_offset(const struct btf_type *t, const struct btf_member *m)
{ return btf_kflag(t) ? m->offset & 0xffffff : m->offset; }
static inline uint32_t btf_member_bitfield_size(const struct btf_type *t, const struct btf_member *m)
{ return btf_kflag(t) ? m->offset >> 24 : 0; }

/* Find a type by name and kind (kind < 0: any kind).  Returns its id or
 * -ENOENT.  The first call builds a name hash index (lazily, once). */
int32_t btf_find(const struct btf *btf, const char *name, int kind);
/* Call fn for every type id whose name equals name (any kind); stops when
 * fn returns non-zero and returns that value. */
int btf_for_each_named(const struct btf *btf, const char *name,
		       int (*fn)(uint32_t id, void *ctx), void *ctx);
/* The same without FUNC types: the names btf_find_prepare_types prepared
 * are answered from its result. */
int btf_for_each_type_named(const struct btf *btf, const char *name,
			    int (*fn)(uint32_t id, void *ctx), void *ctx);

/* Look up many names in one pass over the types, without building the
 * full name index (which costs several milliseconds on kernel BTF).  Later
 * btf_find/btf_for_each_named calls for these names are answered from the
 * result; other names still build the index on demand.  A no-op once the
 * index exists. */
void btf_find_prepare(const struct btf *btf, const char *const *names, size_t n);
/* btf_find_prepare for names that will be looked up only as types other
 * than FUNC (btf_find with such a kind, btf_for_each_type_named): the pass
 * skips reading the FUNC types' names, 56k of the kernel's 71k named
 * types (vmlinux 6.18: 1.04-1.19 -> 0.85-1.14 ms).  Lookups of these names that may want a FUNC (btf_find with
 * kind FUNC or < 0, btf_for_each_named) still scan or index. */
void btf_find_prepare_types(const struct btf *btf, const char *const *names, size_t n);
/* Both of the above in one pass, for a BTF already open (want may be NULL). */
void btf_find_prepare_wanted(const struct btf *btf, const struct btf_wanted *want);

/* Skip volatile/const/restrict/type_tag (not typedefs); returns the
 * resolved id (and type via *res when non-NULL).  A chain longer than 32
 * links (a cycle in crafted BTF) or a bad id gives 0 and *res = NULL. */
uint32_t btf_skip_mods(const struct btf *btf, uint32_t id, const struct btf_type **res);
/* Same, but also skips typedefs (btf_skip_mods keeps typedefs). */
uint32_t btf_resolve(const struct btf *btf, uint32_t id, const struct btf_type **res);
/* Byte size of a type (through typedefs/modifiers, arrays multiplied),
 * or a negative errno for sizeless kinds (func, void, fwd...). */
int64_t btf_type_size(const struct btf *btf, uint32_t id);

/* .BTF.ext: func_info, line_info and CO-RE relocation records, grouped
 * per ELF section name.  Record sizes are taken from the file (they may be
 * larger than the fields we read). */
struct btf_ext_sec {
	const char *sec_name;   /* ELF section these records belong to */
	const void *recs;       /* first record */
	uint32_t nr;            /* number of records */
	uint32_t rec_size;
};
struct btf_ext {
	struct btf_ext_sec *func, *line, *core;
	uint32_t nr_func, nr_line, nr_core;
	uint32_t func_rec_size, line_rec_size, core_rec_size;
};
/* Parse .BTF.ext; strings resolve through btf (the object's .BTF). */
int btf_ext_parse(struct btf_ext *ext, const void *data, size_t size, const struct btf *btf);
void btf_ext_free(struct btf_ext *ext);

/* ---- Writing BTF (btf_write.c) ----
 *
 * btfw: a new BTF built type by type.  Ids are 1, 2, ... in the order
 * added; the caller puts final ids and btfw_str() offsets into each record
 * (header + kind trailer) before adding it.  Strings are deduplicated. */
struct btfw;
struct btfw *btfw_new(void);
void btfw_free(struct btfw *w);
uint32_t btfw_str(struct btfw *w, const char *s);  /* NULL or "" -> 0 */
uint32_t btfw_add(struct btfw *w, const struct btf_type *t, const void *trailer, size_t len);
/* The blob (24-byte header, types, strings), malloc'd; NULL with
 * err_msg() when a section outgrew 32 bits. */
void *btfw_finish(struct btfw *w, size_t *size);

/* btf_min: a minimal BTF holding parts of src (which must outlive it):
 * kept types keep their name, size, kind and flags; structs and unions
 * keep only the members marked (at their original bit offsets, bitfield
 * sizes unchanged), enums only the enumerators marked, unless the type is
 * kept "full" (all members, recursively, but not through pointers);
 * everything a kept part refers to (typedef/modifier/pointer/array/
 * func_proto chains, member types) is kept too, shallowly: a struct
 * reached only through a pointer stays a struct of the same size with no
 * members.  Errors: negative errno with err_msg() (bad ids). */
struct btf_min;
struct core_visit;
struct btf_min *btf_min_new(const struct btf *src);
void btf_min_free(struct btf_min *m);
int btf_min_type(struct btf_min *m, uint32_t id, bool full);
int btf_min_member(struct btf_min *m, uint32_t struct_id, uint32_t idx);
int btf_min_enumval(struct btf_min *m, uint32_t enum_id, uint32_t idx);
/* Keep, besides, what btf_dump_c() defines even behind a pointer (named
 * enums whole, anonymous structs and unions, array elements complete), so
 * that btf_dump_c(result, only) prints what btf_dump_c(src, only) does for
 * the types kept full: a small pinned input for a trimmed vmlinux.h. */
void btf_min_for_dump(struct btf_min *m);
/* A core_visit_fn (relo_core.h; arg = the btf_min): keeps what one CO-RE
 * relocation used in src.  Visits of other BTFs (modules) are ignored. */
void btf_min_core_visit(void *arg, const struct core_visit *v);
/* Close over references, renumber densely in source id order, write.
 * Returns the malloc'd blob (NULL on error); *nr_types = types written. */
void *btf_min_write(struct btf_min *m, size_t *size, uint32_t *nr_types);

/* Write BTF as a compilable C header.  only: NULL-terminated list of type
 * names to emit (with everything they depend on), or NULL for all.  An
 * entry may name the kind ("struct foo", "union", "enum", "typedef");
 * empty entries and entries starting with '#' are skipped; an unknown name
 * fails with -ENOENT before anything is written.  Types reached only
 * through pointers are forward-declared, not defined.  Two different
 * types with one name: the higher id gets "___2" (stable across subsets). */
#include <stdio.h>
int btf_dump_c(const struct btf *btf, FILE *out, const char *const *only);

#endif
