/* A small BPF instruction emitter for programs generated at run time
 * (trace, funccount, ...): no compiler, no headers.
 *
 * The emitter appends instructions to a growable buffer, resolves jumps to
 * labels when finished, and records every ld_imm64 that refers to a map
 * (by the caller's map index) so the loader can patch in the map's fd.
 * Errors are sticky: the first one is kept (with err_set) and reported by
 * emit_finish(), so code generators need not check every call. */
#ifndef COREBOX_BPF_INSN_H
#define COREBOX_BPF_INSN_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

/* One ld_imm64 instruction (at insns[insn], two slots) referring to map
 * number `map` of the program's object; off != 0 or value = 1 means the
 * address of the map's value at offset off (BPF_PSEUDO_MAP_VALUE). */
struct emit_mapref {
	size_t insn;
	int map;
	int value;
	int32_t off;
};

struct emit {
	struct bpf_insn *insns;
	size_t cnt, cap;
	int *labels;           /* instruction index, -1 until placed */
	size_t nr_labels;
	struct { size_t insn; int label; } *fix;
	size_t nr_fix;
	struct emit_mapref *maps;
	size_t nr_maps;
	int err;               /* first error (negative errno), 0 if none */
};

static inline struct bpf_insn bpf_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };

	return i;
}

void emit_init(struct emit *e);
void emit_free(struct emit *e);
void emit_insn(struct emit *e, struct bpf_insn i);

/* ALU: op is BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
 * BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_NEG, BPF_MOV. */
void emit_alu(struct emit *e, int op, int dst, int src);        /* 64-bit, register */
void emit_alui(struct emit *e, int op, int dst, int32_t imm);   /* 64-bit, immediate */
void emit_alu32(struct emit *e, int op, int dst, int src);
void emit_alu32i(struct emit *e, int op, int dst, int32_t imm);
static inline void emit_mov(struct emit *e, int dst, int src) { emit_alu(e, BPF_MOV, dst, src); }
static inline void emit_movi(struct emit *e, int dst, int32_t imm) { emit_alui(e, BPF_MOV, dst, imm); }
/* dst = 64-bit constant (one mov when it fits in 32 bits signed). */
void emit_ld64(struct emit *e, int dst, uint64_t v);
/* dst = map (fd patched by the loader); dst = &map value[off]. */
void emit_ldmap(struct emit *e, int dst, int map);
void emit_ldmap_value(struct emit *e, int dst, int map, int32_t off);

/* Memory: size in bytes (1, 2, 4, 8). */
void emit_ldx(struct emit *e, int size, int dst, int src, int16_t off);   /* dst = *(src + off) */
void emit_stx(struct emit *e, int size, int dst, int16_t off, int src);   /* *(dst + off) = src */
void emit_st(struct emit *e, int size, int dst, int16_t off, int32_t imm);
void emit_xadd(struct emit *e, int size, int dst, int16_t off, int src);  /* lock *(dst + off) += src
									     (32-bit ARM, 8 bytes: plain, R3..R5 clobbered) */

void emit_call(struct emit *e, int32_t helper);
/* R0 = bpf_map_update_elem(map, fp + key_off, fp + val_off, flags): key
 * and value on the stack, as every generated program keeps them. */
void emit_map_update(struct emit *e, int map, int32_t key_off, int32_t val_off, int32_t flags);
void emit_exit(struct emit *e);

/* Labels: create, then place anywhere (before or after the jumps). */
int emit_label(struct emit *e);
void emit_place(struct emit *e, int label);
/* Jumps: op is BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
 * BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET (64-bit compares). */
void emit_jmp(struct emit *e, int op, int dst, int src, int label);
void emit_jmpi(struct emit *e, int op, int dst, int32_t imm, int label);
void emit_ja(struct emit *e, int label);

/* Resolve jumps.  0, or the first error (negative errno, message set):
 * an unplaced label, a jump too far, an instruction count past the
 * kernel's limit. */
int emit_finish(struct emit *e);

#endif
