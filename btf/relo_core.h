/* CO-RE: compute and apply one BPF CO-RE relocation.
 *
 * Pure algorithm over two BTFs (the program's "local" BTF and a "target"
 * kernel BTF) and one instruction: no syscalls, no ELF.  The loader calls
 * core_calc() for each .BTF.ext CO-RE record and core_patch_insn() to
 * rewrite the instruction.  Semantics follow the kernel's/libbpf's rules
 * (see shared/research/loader-anchors.md §1.8): candidates by essential
 * name (___flavor stripped), ambiguity check, poisoning of unresolvable
 * relocations with a call to helper 0xbad2310.  One extension: enumerator
 * relocations on an anonymous local enum (libbpf rejects any anonymous
 * root) resolve against the target's anonymous enums that declare the
 * enumerator, for kernel enums without a name such as INET_FLAGS_*. */
#ifndef COREBOX_RELO_CORE_H
#define COREBOX_RELO_CORE_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf.h"

/* Relocation kinds (enum bpf_core_relo_kind in newer UAPI headers). */
enum core_kind {
	CORE_FIELD_BYTE_OFFSET = 0,
	CORE_FIELD_BYTE_SIZE = 1,
	CORE_FIELD_EXISTS = 2,
	CORE_FIELD_SIGNED = 3,
	CORE_FIELD_LSHIFT_U64 = 4,
	CORE_FIELD_RSHIFT_U64 = 5,
	CORE_TYPE_ID_LOCAL = 6,
	CORE_TYPE_ID_TARGET = 7,
	CORE_TYPE_EXISTS = 8,
	CORE_TYPE_SIZE = 9,
	CORE_ENUMVAL_EXISTS = 10,
	CORE_ENUMVAL_VALUE = 11,
	CORE_TYPE_MATCHES = 12,
};

/* One .BTF.ext CO-RE record (16 bytes in the file). */
struct core_relo {
	uint32_t insn_off;       /* byte offset in the section */
	uint32_t type_id;        /* local root type */
	uint32_t access_str_off; /* "0:1:2" in local BTF strings */
	uint32_t kind;           /* enum core_kind */
};

/* Result of resolving one relocation. */
struct core_res {
	uint64_t orig_val;   /* value the compiler put in (local BTF) */
	uint64_t new_val;    /* value for the target */
	uint32_t orig_sz;    /* field sizes, for LDX/ST/STX size adjustment */
	uint32_t new_sz;
	bool poison;         /* unresolvable: instruction becomes a bad call */
	bool validate;       /* check the instruction holds orig_val first */
	bool fail_memsz_adjust; /* size changed in a way that cannot be patched */
	bool orig_type_signed; /* for memsz adjust */
	bool new_type_signed;
};

/* Per (local, target) pair state: candidate lists cached per local type. */
struct core_ctx;
struct core_ctx *core_ctx_new(const struct btf *local, const struct btf *target);
void core_ctx_free(struct core_ctx *ctx);

/* Kernel modules: split BTFs on the target, searched for a local root type
 * that has no candidate at all in the target itself (libbpf's rule); every
 * module is searched and candidates from several modules must agree like
 * any others.  more(arg, i) returns the i-th module BTF, NULL past the
 * end; it is first called only when such a type comes up, so the caller
 * can load modules lazily.  Results then refer to the module's ids. */
typedef const struct btf *(*core_more_fn)(void *arg, uint32_t i);
void core_ctx_set_more(struct core_ctx *ctx, core_more_fn fn, void *arg);

/* What a relocation used in the target (minimal BTF: `corebox btf min`):
 * called from core_calc() once per candidate that matched. */
struct core_visit {
	const struct btf *btf;  /* the BTF root_id belongs to (target or module) */
	uint32_t kind;          /* enum core_kind */
	uint32_t root_id;       /* the candidate: a named type */
	/* Target access path, as for the local access string: raw[0] indexes
	 * the root (pointer arithmetic), each further entry is a member index
	 * (anonymous members included) or an array index, resolved through
	 * typedefs and modifiers.  Enum kinds: raw[0] is the enumerator's
	 * index.  Type kinds: raw_len == 0. */
	const uint32_t *raw;
	int raw_len;
};
typedef void (*core_visit_fn)(void *arg, const struct core_visit *v);
void core_ctx_set_visit(struct core_ctx *ctx, core_visit_fn fn, void *arg);

/* Resolve one record.  Errors (malformed access string, ambiguity) return
 * a negative errno with err_msg() naming the type and access path; a
 * relocation that simply has no match is not an error (res->poison or a
 * 0 value, as the kind dictates). */
int core_calc(struct core_ctx *ctx, const struct core_relo *relo, struct core_res *res);

/* Patch insns[idx] (ld_imm64 takes idx and idx+1, both within cnt).
 * Returns 0 or a negative errno with a message (value mismatch, offset
 * overflow, unsupported instruction). */
int core_patch_insn(struct bpf_insn *insns, size_t cnt, size_t idx,
		    const struct core_relo *relo, const struct core_res *res);

/* Readable description of a relocation, e.g.
 * "struct task_struct::__state (0:1) field byte offset", into buf. */
void core_describe(const struct btf *local, const struct core_relo *relo, char *buf, size_t size);

/* The helper id used to poison instructions. */
#define CORE_POISON_HELPER 0xbad2310

#endif
