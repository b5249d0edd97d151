/* BPF instructions as text (see insn_dump.h). */
#include "insn_dump.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

/* Newer than some UAPI headers the build may see. */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

/* Helper names from the UAPI's own list, in id order (BPF_FUNC_unspec is
 * 0, each next one 1 more), as one string "unspec, map_lookup_elem, ...":
 * the mapper puts the commas, the stringizing keeps them.  No table of
 * 200-odd pointers (1.7 KB). */
#define HELPER_NAME(x, ...) x
#define HELPER_STR_(...) #__VA_ARGS__
#define HELPER_STR(...) HELPER_STR_(__VA_ARGS__)
static const char helper_names[] = HELPER_STR(__BPF_FUNC_MAPPER(HELPER_NAME));
#undef HELPER_NAME

/* Helper id's name: its start in helper_names, its length in *len; NULL
 * past the list. */
static const char *helper_name(int id, size_t *len)
{
	const char *p = helper_names;

	for (; id > 0 && p; id--)
		if ((p = strchr(p, ',')))
			p += strspn(p + 1, " ") + 1;
	if (!p || !*p)
		return NULL;
	*len = strcspn(p, ", ");
	return p;
}

static const char *const alu_ops[16] = {
	"add", "sub", "mul", "div", "or", "and", "lsh", "rsh", "neg", "mod", "xor", "mov", "arsh", "end", NULL, NULL,
};
static const char *const jmp_ops[16] = {
	"ja", "jeq", "jgt", "jge", "jset", "jne", "jsgt", "jsge", "call", "exit", "jlt", "jle", "jslt", "jsle", NULL, NULL,
};
static const char size_suffix[4][3] = { "w", "h", "b", "dw" }; /* BPF_W, BPF_H, BPF_B, BPF_DW >> 3 */

/* Small numbers read best in decimal, addresses and masks in hex. */
static void add_imm(struct strbuf *b, int64_t v)
{
	if (v > -1024 && v < 1024)
		strbuf_addf(b, "%" PRId64, v);
	else if (v < 0)
		strbuf_addf(b, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
	else
		strbuf_addf(b, "0x%" PRIx64, (uint64_t)v);
}

static void add_mem(struct strbuf *b, int reg, int16_t off)
{
	strbuf_addf(b, "[r%d%+d]", reg, off);
}

/* Pad the line (from start) to the column of the notes (jump targets,
 * helper names), which are not part of the instruction. */
static void pad_note(struct strbuf *b, size_t start)
{
	do
		strbuf_addc(b, ' ');
	while (b->len - start < 28);
}

static void dump_alu(struct strbuf *b, const struct bpf_insn *i)
{
	int cls = BPF_CLASS(i->code), op = BPF_OP(i->code) >> 4;
	const char *w = cls == BPF_ALU ? "32" : "";
	const char *name = alu_ops[op];

	if (BPF_OP(i->code) == BPF_END) {
		/* ALU: to big/little endian; ALU64: unconditional swap (v4) */
		strbuf_addf(b, "%s%d r%d", cls == BPF_ALU64 ? "bswap" : BPF_SRC(i->code) == BPF_TO_BE ? "be" : "le", i->imm,
			    i->dst_reg);
		return;
	}
	if (!name) {
		strbuf_addf(b, "invalid alu 0x%02x", i->code);
		return;
	}
	/* v4 signed division and sign-extending moves live in off */
	if ((BPF_OP(i->code) == BPF_DIV || BPF_OP(i->code) == BPF_MOD) && i->off == 1)
		strbuf_addf(b, "s%s%s r%d", name, w, i->dst_reg);
	else if (BPF_OP(i->code) == BPF_MOV && i->off)
		strbuf_addf(b, "movsx%d%s r%d", i->off, w, i->dst_reg);
	else
		strbuf_addf(b, "%s%s r%d", name, w, i->dst_reg);
	if (BPF_OP(i->code) == BPF_NEG)
		return;
	if (BPF_SRC(i->code) == BPF_X) {
		strbuf_addf(b, ", r%d", i->src_reg);
	} else {
		strbuf_add(b, ", ");
		add_imm(b, i->imm);
	}
}

static void dump_jmp(struct strbuf *b, size_t start, const struct bpf_insn *i, size_t pc)
{
	int op = BPF_OP(i->code);
	const char *w = BPF_CLASS(i->code) == BPF_JMP32 ? "32" : "";
	long target;

	if (op == BPF_EXIT) {
		strbuf_add(b, "exit");
		return;
	}
	if (op == BPF_CALL) {
		if (i->src_reg == BPF_PSEUDO_CALL) {
			strbuf_addf(b, "call pc%+d", i->imm);
			pad_note(b, start);
			strbuf_addf(b, "-> %ld", (long)pc + 1 + i->imm);
		} else if (i->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			strbuf_addf(b, "call kfunc btf_id[%d]", i->imm);
		} else {
			size_t len;
			const char *name = i->imm > 0 ? helper_name(i->imm, &len) : NULL;

			strbuf_addf(b, "call %d", i->imm);
			if (name) {
				pad_note(b, start);
				strbuf_addn(b, name, len);
			}
		}
		return;
	}
	if (op == BPF_JA) {
		/* JMP32 ja ("gotol") keeps its 32-bit offset in imm */
		int32_t off = BPF_CLASS(i->code) == BPF_JMP32 ? i->imm : i->off;

		strbuf_addf(b, "%s %+d", BPF_CLASS(i->code) == BPF_JMP32 ? "gotol" : "ja", off);
		target = (long)pc + 1 + off;
	} else if (!jmp_ops[op >> 4]) {
		strbuf_addf(b, "invalid jmp 0x%02x", i->code);
		return;
	} else {
		strbuf_addf(b, "%s%s r%d, ", jmp_ops[op >> 4], w, i->dst_reg);
		if (BPF_SRC(i->code) == BPF_X)
			strbuf_addf(b, "r%d", i->src_reg);
		else
			add_imm(b, i->imm);
		strbuf_addf(b, ", %+d", i->off);
		target = (long)pc + 1 + i->off;
	}
	pad_note(b, start);
	strbuf_addf(b, "-> %ld", target);
}

static void dump_atomic(struct strbuf *b, const struct bpf_insn *i)
{
	const char *sz = BPF_SIZE(i->code) == BPF_DW ? "64" : "32";
	int op = i->imm & ~BPF_FETCH;

	if (i->imm == BPF_XCHG || i->imm == BPF_CMPXCHG) {
		strbuf_addf(b, "%s%s ", i->imm == BPF_XCHG ? "xchg" : "cmpxchg", sz);
	} else if (op == BPF_ADD || op == BPF_OR || op == BPF_AND || op == BPF_XOR) {
		strbuf_addf(b, "%s%s%s ", i->imm & BPF_FETCH ? "fetch_" : "lock_", alu_ops[op >> 4], sz);
	} else {
		strbuf_addf(b, "invalid atomic 0x%x", (unsigned)i->imm);
		return;
	}
	add_mem(b, i->dst_reg, i->off);
	strbuf_addf(b, ", r%d", i->src_reg);
}

/* ld_imm64 (two slots): a constant or a pseudo source. */
static void dump_ld64(struct strbuf *b, const struct bpf_insn *i, size_t pc, const struct emit_mapref *maps,
		      size_t nr_maps)
{
	uint64_t v = (uint32_t)i[0].imm | (uint64_t)(uint32_t)i[1].imm << 32;
	const struct emit_mapref *r = NULL;

	for (size_t k = 0; k < nr_maps; k++)
		if (maps[k].insn == pc)
			r = &maps[k];
	strbuf_addf(b, "lddw r%d, ", i->dst_reg);
	switch (i->src_reg) {
	case 0:
		add_imm(b, (int64_t)v);
		break;
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_IDX:
		strbuf_addf(b, "map[%d]", r ? r->map : i[0].imm);
		break;
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		strbuf_addf(b, "map[%d]%+d", r ? r->map : i[0].imm, i[1].imm);
		break;
	case BPF_PSEUDO_BTF_ID:
		strbuf_addf(b, "btf_id[%d]", i[0].imm);
		break;
	case BPF_PSEUDO_FUNC:
		strbuf_addf(b, "func[%+d]", i[0].imm);
		break;
	default:
		strbuf_addf(b, "pseudo%d[%d]", i->src_reg, i[0].imm);
	}
}

static void dump_mem(struct strbuf *b, const struct bpf_insn *i)
{
	int cls = BPF_CLASS(i->code), mode = BPF_MODE(i->code);
	const char *sz = size_suffix[BPF_SIZE(i->code) >> 3];

	if (cls == BPF_LDX && (mode == BPF_MEM || mode == BPF_MEMSX)) {
		strbuf_addf(b, "ldx%s%s r%d, ", mode == BPF_MEMSX ? "s" : "", sz, i->dst_reg);
		add_mem(b, i->src_reg, i->off);
	} else if (cls == BPF_ST && mode == BPF_MEM) {
		strbuf_addf(b, "st%s ", sz);
		add_mem(b, i->dst_reg, i->off);
		strbuf_add(b, ", ");
		add_imm(b, i->imm);
	} else if (cls == BPF_STX && mode == BPF_MEM) {
		strbuf_addf(b, "stx%s ", sz);
		add_mem(b, i->dst_reg, i->off);
		strbuf_addf(b, ", r%d", i->src_reg);
	} else if (cls == BPF_STX && mode == BPF_ATOMIC) {
		dump_atomic(b, i);
	} else if (cls == BPF_LD && (mode == BPF_ABS || mode == BPF_IND)) {
		strbuf_addf(b, "ld%s%s ", mode == BPF_ABS ? "abs" : "ind", sz);
		if (mode == BPF_IND)
			strbuf_addf(b, "r%d, ", i->src_reg);
		add_imm(b, i->imm);
	} else {
		strbuf_addf(b, "invalid 0x%02x", i->code);
	}
}

void insn_dump(struct strbuf *b, const struct bpf_insn *insns, size_t n, const struct emit_mapref *maps,
	       size_t nr_maps)
{
	for (size_t pc = 0; pc < n; pc++) {
		const struct bpf_insn *i = &insns[pc];
		int cls = BPF_CLASS(i->code);
		size_t start;

		strbuf_addf(b, "%4zu: ", pc);
		start = b->len;
		if (i->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (pc + 1 < n) {
				dump_ld64(b, i, pc, maps, nr_maps);
				pc++;
			} else {
				strbuf_add(b, "lddw (truncated: no second slot)");
			}
		} else if (cls == BPF_ALU || cls == BPF_ALU64) {
			dump_alu(b, i);
		} else if (cls == BPF_JMP || cls == BPF_JMP32) {
			dump_jmp(b, start, i, pc);
		} else {
			dump_mem(b, i);
		}
		strbuf_addc(b, '\n');
	}
}

void emit_dump(struct strbuf *b, const struct emit *e)
{
	insn_dump(b, e->insns, e->cnt, e->maps, e->nr_maps);
}
