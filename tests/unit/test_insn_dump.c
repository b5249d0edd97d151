/* bpf/insn_dump.c: every instruction class the emitter produces, and the
 * hand-made encodings it does not (atomics, byte swaps, v4 signed forms,
 * pseudo calls and sources), printed in the documented format. */
#include <stdbool.h>
#include <string.h>

#include "bpf/insn.h"
#include "bpf/insn_dump.h"
#include "lib/strbuf.h"
#include "t.h"

/* The first line where two texts differ, for a readable failure. */
static void first_diff(const char *got, const char *want)
{
	size_t i = 0, start = 0, line = 1;

	for (; got[i] && got[i] == want[i]; i++)
		if (got[i] == '\n')
			start = i + 1, line++;
	printf("# line %zu differs\n# got:  %.*s\n# want: %.*s\n", line, (int)strcspn(got + start, "\n"), got + start,
	       (int)strcspn(want + start, "\n"), want + start);
}

static void expect(const char *name, const char *got, const char *want)
{
	bool same = !strcmp(got, want);

	if (!same)
		first_diff(got, want);
	T_OK(same, "dump: %s", name);
}

static void test_emitted(void)
{
	static const char want[] =
		"   0: mov r6, r1\n"
		"   1: ldxdw r0, [r6+112]\n"
		"   2: jeq r0, 3, +6               -> 9\n"
		"   3: lddw r2, 0x123456789\n"
		"   5: lddw r1, map[2]\n"
		"   7: lddw r3, map[4]+16\n"
		"   9: call 14                     get_current_pid_tgid\n"
		"  10: stxw [r10-8], r0\n"
		"  11: stb [r10-1], -1\n"
		"  12: add32 r0, 0x7fffffff\n"
		"  13: rsh r0, r7\n"
		"  14: neg r1\n"
		"  15: ldxb r2, [r1+0]\n"
		"  16: jsgt r1, r2, -4             -> 13\n"
		"  17: ja +0                       -> 18\n"
#if defined(__arm__) /* no 64-bit atomics on 32-bit ARM (bpf/emit.c) */
		"  18: ldxdw r5, [r1+8]\n"
		"  19: add r5, r2\n"
		"  20: stxdw [r1+8], r5\n"
		"  21: exit\n";
#else
		"  18: lock_add64 [r1+8], r2\n"
		"  19: exit\n";
#endif
	struct strbuf b = { 0 };
	struct emit e;
	int done, back;

	emit_init(&e);
	done = emit_label(&e);
	back = emit_label(&e);
	emit_mov(&e, R6, R1);
	emit_ldx(&e, 8, R0, R6, 112);
	emit_jmpi(&e, BPF_JEQ, R0, 3, done);
	emit_ld64(&e, R2, 0x123456789ull);
	emit_ldmap(&e, R1, 2);
	emit_ldmap_value(&e, R3, 4, 16);
	emit_place(&e, done);
	emit_call(&e, BPF_FUNC_get_current_pid_tgid);
	emit_stx(&e, 4, R10, -8, R0);
	emit_st(&e, 1, R10, -1, -1);
	emit_alu32i(&e, BPF_ADD, R0, 0x7fffffff);
	emit_place(&e, back);
	emit_alu(&e, BPF_RSH, R0, R7);
	emit_alui(&e, BPF_NEG, R1, 0);
	emit_ldx(&e, 1, R2, R1, 0);
	emit_jmp(&e, BPF_JSGT, R1, R2, back);
	{
		int next = emit_label(&e);

		emit_ja(&e, next);
		emit_place(&e, next);
	}
	emit_xadd(&e, 8, R1, 8, R2);
	emit_exit(&e);
	T_OK(emit_finish(&e) == 0, "dump: the program assembles");
	emit_dump(&b, &e);
	expect("emitted program (ld_imm64 as one line, map index, map value, helper name, jump targets)", b.s, want);
	emit_free(&e);
	strbuf_free(&b);
}

static void test_encodings(void)
{
	const struct bpf_insn p[] = {
		bpf_insn(BPF_ALU | BPF_END | BPF_TO_BE, R1, 0, 0, 16),
		bpf_insn(BPF_ALU | BPF_END | BPF_TO_LE, R1, 0, 0, 64),
		bpf_insn(BPF_ALU64 | BPF_END, R2, 0, 0, 32),
		bpf_insn(BPF_ALU64 | BPF_DIV | BPF_X, R1, R2, 1, 0),
		bpf_insn(BPF_ALU | BPF_MOD | BPF_K, R1, 0, 1, -7),
		bpf_insn(BPF_ALU64 | BPF_MOV | BPF_X, R1, R2, 16, 0),
		bpf_insn(BPF_LDX | 0x80 /* BPF_MEMSX */ | BPF_H, R3, R4, -2, 0),
		bpf_insn(BPF_STX | BPF_ATOMIC | BPF_W, R1, R2, 4, BPF_OR | BPF_FETCH),
		bpf_insn(BPF_STX | BPF_ATOMIC | BPF_DW, R1, R2, 0, BPF_CMPXCHG),
		bpf_insn(BPF_JMP32 | BPF_JLT | BPF_K, R5, 0, 2, -5000),
		bpf_insn(BPF_JMP32 | BPF_JA, 0, 0, 0, -11),
		bpf_insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 3),
		bpf_insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 42),
		bpf_insn(BPF_JMP | BPF_CALL, 0, 0, 0, 100000),
		bpf_insn(BPF_LD | BPF_IMM | BPF_DW, R1, BPF_PSEUDO_BTF_ID, 0, 77),
		bpf_insn(0, 0, 0, 0, 0),
		bpf_insn(BPF_LD | BPF_IMM | BPF_DW, R2, BPF_PSEUDO_FUNC, 0, -4),
		bpf_insn(0, 0, 0, 0, 0),
		bpf_insn(BPF_LD | BPF_IMM | BPF_DW, R3, BPF_PSEUDO_MAP_VALUE, 0, 9),
		bpf_insn(0, 0, 0, 0, 24),
		bpf_insn(BPF_LD | BPF_IMM | BPF_DW, R0, 0, 0, -1),
		bpf_insn(0, 0, 0, 0, -1),
		bpf_insn(0xff, 0, 0, 0, 0),
		bpf_insn(BPF_LD | BPF_IMM | BPF_DW, R1, 0, 0, 1),
	};
	static const char want[] =
		"   0: be16 r1\n"
		"   1: le64 r1\n"
		"   2: bswap32 r2\n"
		"   3: sdiv r1, r2\n"
		"   4: smod32 r1, -7\n"
		"   5: movsx16 r1, r2\n"
		"   6: ldxsh r3, [r4-2]\n"
		"   7: fetch_or32 [r1+4], r2\n"
		"   8: cmpxchg64 [r1+0], r2\n"
		"   9: jlt32 r5, -0x1388, +2       -> 12\n"
		"  10: gotol -11                   -> 0\n"
		"  11: call pc+3                   -> 15\n"
		"  12: call kfunc btf_id[42]\n"
		"  13: call 100000\n"
		"  14: lddw r1, btf_id[77]\n"
		"  16: lddw r2, func[-4]\n"
		"  18: lddw r3, map[9]+24\n"
		"  20: lddw r0, -1\n"
		"  22: invalid alu 0xff\n"
		"  23: lddw (truncated: no second slot)\n";
	struct strbuf b = { 0 };

	insn_dump(&b, p, sizeof(p) / sizeof(p[0]), NULL, 0);
	expect("hand-made encodings (v4 forms, atomics, pseudo calls and sources, invalid and truncated)", b.s, want);
	strbuf_free(&b);
}

int main(void)
{
	test_emitted();
	test_encodings();
	T_EXIT();
}
