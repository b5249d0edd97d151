/* BPF instruction emitter (see insn.h). */
#include "insn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

#define MAX_INSNS 1000000 /* BPF_COMPLEXITY_LIMIT_INSNS */

void emit_init(struct emit *e)
{
	memset(e, 0, sizeof(*e));
}

void emit_free(struct emit *e)
{
	free(e->insns);
	free(e->labels);
	free(e->fix);
	free(e->maps);
	memset(e, 0, sizeof(*e));
}

static void fail(struct emit *e, int err)
{
	if (!e->err)
		e->err = err;
}

void emit_insn(struct emit *e, struct bpf_insn i)
{
	if (e->cnt >= MAX_INSNS) {
		fail(e, err_set(E2BIG, "generated program exceeds %d instructions", MAX_INSNS));
		return;
	}
	if (e->cnt == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 64;
		e->insns = xrealloc(e->insns, e->cap * sizeof(*e->insns));
	}
	e->insns[e->cnt++] = i;
}

static int reg_ok(struct emit *e, int r)
{
	if (r < 0 || r > R10) {
		fail(e, err_set(EINVAL, "emitter: bad register %d", r));
		return 0;
	}
	return 1;
}

void emit_alu(struct emit *e, int op, int dst, int src)
{
	if (reg_ok(e, dst) && reg_ok(e, src))
		emit_insn(e, bpf_insn(BPF_ALU64 | op | BPF_X, (uint8_t)dst, (uint8_t)src, 0, 0));
}

void emit_alui(struct emit *e, int op, int dst, int32_t imm)
{
	if (reg_ok(e, dst))
		emit_insn(e, bpf_insn(BPF_ALU64 | op | BPF_K, (uint8_t)dst, 0, 0, imm));
}

void emit_alu32(struct emit *e, int op, int dst, int src)
{
	if (reg_ok(e, dst) && reg_ok(e, src))
		emit_insn(e, bpf_insn(BPF_ALU | op | BPF_X, (uint8_t)dst, (uint8_t)src, 0, 0));
}

void emit_alu32i(struct emit *e, int op, int dst, int32_t imm)
{
	if (reg_ok(e, dst))
		emit_insn(e, bpf_insn(BPF_ALU | op | BPF_K, (uint8_t)dst, 0, 0, imm));
}

void emit_ld64(struct emit *e, int dst, uint64_t v)
{
	if (!reg_ok(e, dst))
		return;
	if ((int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX) {
		emit_movi(e, dst, (int32_t)(int64_t)v);
		return;
	}
	emit_insn(e, bpf_insn(BPF_LD | BPF_IMM | BPF_DW, (uint8_t)dst, 0, 0, (int32_t)(uint32_t)v));
	emit_insn(e, bpf_insn(0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32)));
}

static void ldmap(struct emit *e, int dst, int map, int value, int32_t off)
{
	struct emit_mapref *r;

	if (!reg_ok(e, dst))
		return;
	e->maps = xrealloc(e->maps, (e->nr_maps + 1) * sizeof(*e->maps));
	r = &e->maps[e->nr_maps++];
	r->insn = e->cnt;
	r->map = map;
	r->value = value;
	r->off = off;
	emit_insn(e, bpf_insn(BPF_LD | BPF_IMM | BPF_DW, (uint8_t)dst,
			      value ? BPF_PSEUDO_MAP_VALUE : BPF_PSEUDO_MAP_FD, 0, value ? 0 : map));
	emit_insn(e, bpf_insn(0, 0, 0, 0, value ? off : 0));
}

void emit_ldmap(struct emit *e, int dst, int map) { ldmap(e, dst, map, 0, 0); }
void emit_ldmap_value(struct emit *e, int dst, int map, int32_t off) { ldmap(e, dst, map, 1, off); }

static int size_code(struct emit *e, int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	case 8: return BPF_DW;
	}
	fail(e, err_set(EINVAL, "emitter: bad access size %d", size));
	return -1;
}

void emit_ldx(struct emit *e, int size, int dst, int src, int16_t off)
{
	int sz = size_code(e, size);

	if (sz >= 0 && reg_ok(e, dst) && reg_ok(e, src))
		emit_insn(e, bpf_insn((uint8_t)(BPF_LDX | BPF_MEM | sz), (uint8_t)dst, (uint8_t)src, off, 0));
}

void emit_stx(struct emit *e, int size, int dst, int16_t off, int src)
{
	int sz = size_code(e, size);

	if (sz >= 0 && reg_ok(e, dst) && reg_ok(e, src))
		emit_insn(e, bpf_insn((uint8_t)(BPF_STX | BPF_MEM | sz), (uint8_t)dst, (uint8_t)src, off, 0));
}

void emit_st(struct emit *e, int size, int dst, int16_t off, int32_t imm)
{
	int sz = size_code(e, size);

	if (sz >= 0 && reg_ok(e, dst))
		emit_insn(e, bpf_insn((uint8_t)(BPF_ST | BPF_MEM | sz), (uint8_t)dst, 0, off, imm));
}

void emit_xadd(struct emit *e, int size, int dst, int16_t off, int src)
{
	if (size != 4 && size != 8) {
		fail(e, err_set(EINVAL, "emitter: atomic add of %d bytes", size));
		return;
	}
#if defined(__arm__)
	/* A 32-bit ARM kernel keeps hash map values only 4-byte aligned, and
	 * its 64-bit atomics (ldrexd/strexd, interpreter and JIT alike) take
	 * an alignment fault there: an oops.  So a plain load, add, store,
	 * which loses an increment only when two CPUs race on one value; the
	 * scratch register is a caller-saved one (every caller adds right
	 * after a helper call or a map address load, R3..R5 hold nothing). */
	if (size == 8) {
		int tmp = dst != R5 && src != R5 ? R5 : dst != R4 && src != R4 ? R4 : R3;

		if (reg_ok(e, dst) && reg_ok(e, src)) {
			emit_ldx(e, 8, tmp, dst, off);
			emit_alu(e, BPF_ADD, tmp, src);
			emit_stx(e, 8, dst, off, tmp);
		}
		return;
	}
#endif
	/* BPF_XADD (= BPF_ATOMIC with imm BPF_ADD): kernels since 4.x */
	if (reg_ok(e, dst) && reg_ok(e, src))
		emit_insn(e, bpf_insn((uint8_t)(BPF_STX | 0xc0 | (size == 8 ? BPF_DW : BPF_W)), (uint8_t)dst,
				      (uint8_t)src, off, BPF_ADD));
}

void emit_call(struct emit *e, int32_t helper)
{
	emit_insn(e, bpf_insn(BPF_JMP | BPF_CALL, 0, 0, 0, helper));
}

void emit_map_update(struct emit *e, int map, int32_t key_off, int32_t val_off, int32_t flags)
{
	emit_ldmap(e, R1, map);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key_off);
	emit_mov(e, R3, R10);
	emit_alui(e, BPF_ADD, R3, val_off);
	emit_movi(e, R4, flags);
	emit_call(e, BPF_FUNC_map_update_elem);
}

void emit_exit(struct emit *e)
{
	emit_insn(e, bpf_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

int emit_label(struct emit *e)
{
	e->labels = xrealloc(e->labels, (e->nr_labels + 1) * sizeof(*e->labels));
	e->labels[e->nr_labels] = -1;
	return (int)e->nr_labels++;
}

void emit_place(struct emit *e, int label)
{
	if (label < 0 || (size_t)label >= e->nr_labels) {
		fail(e, err_set(EINVAL, "emitter: no label %d", label));
		return;
	}
	if (e->labels[label] >= 0) {
		fail(e, err_set(EINVAL, "emitter: label %d placed twice", label));
		return;
	}
	e->labels[label] = (int)e->cnt;
}

static void jump(struct emit *e, struct bpf_insn i, int label)
{
	if (label < 0 || (size_t)label >= e->nr_labels) {
		fail(e, err_set(EINVAL, "emitter: jump to no label %d", label));
		return;
	}
	e->fix = xrealloc(e->fix, (e->nr_fix + 1) * sizeof(*e->fix));
	e->fix[e->nr_fix].insn = e->cnt;
	e->fix[e->nr_fix].label = label;
	e->nr_fix++;
	emit_insn(e, i);
}

void emit_jmp(struct emit *e, int op, int dst, int src, int label)
{
	if (reg_ok(e, dst) && reg_ok(e, src))
		jump(e, bpf_insn((uint8_t)(BPF_JMP | op | BPF_X), (uint8_t)dst, (uint8_t)src, 0, 0), label);
}

void emit_jmpi(struct emit *e, int op, int dst, int32_t imm, int label)
{
	if (reg_ok(e, dst))
		jump(e, bpf_insn((uint8_t)(BPF_JMP | op | BPF_K), (uint8_t)dst, 0, 0, imm), label);
}

void emit_ja(struct emit *e, int label)
{
	jump(e, bpf_insn(BPF_JMP | BPF_JA, 0, 0, 0, 0), label);
}

int emit_finish(struct emit *e)
{
	if (e->err)
		return e->err;
	for (size_t i = 0; i < e->nr_fix; i++) {
		int target = e->labels[e->fix[i].label];
		long off;

		if (target < 0)
			return e->err = err_set(EINVAL, "emitter: label %d never placed", e->fix[i].label);
		off = (long)target - (long)e->fix[i].insn - 1;
		if (off < INT16_MIN || off > INT16_MAX)
			return e->err = err_set(E2BIG, "emitter: jump of %ld instructions is too far", off);
		e->insns[e->fix[i].insn].off = (int16_t)off;
	}
	e->nr_fix = 0;
	if (!e->cnt)
		return e->err = err_set(EINVAL, "emitter: empty program");
	return 0;
}
