/* BPF instructions as text, one line each, for tests that compare a
 * generated program with a golden file and for people reading one.
 *
 * The format is corebox's own, in the style of the BPF assembler
 * mnemonics (llvm-objdump, ubpf):
 *
 *      0: mov r6, r1
 *      1: ldxdw r0, [r6+112]
 *      2: jeq r0, 0x3, +4          -> 7
 *      3: lddw r1, map[2]          (ld_imm64: one line for its two slots)
 *      5: call 14                  get_current_pid_tgid
 *      6: exit
 *
 * 32-bit ALU and JMP32 forms end in "32"; immediates are decimal when
 * small and hexadecimal otherwise; jumps show the offset and the target
 * index; ld_imm64's pseudo sources are named (map[N] by the emitter's map
 * index, map[N]+OFF for a map value, btf_id[N], func[+N]).  Nothing here
 * depends on a kernel, a file descriptor or an address, so a program's
 * text is the same on every run. */
#ifndef COREBOX_BPF_INSN_DUMP_H
#define COREBOX_BPF_INSN_DUMP_H

#include <stddef.h>

#include "insn.h"

struct strbuf;

/* Append insns[0..n) to b.  maps (nr_maps entries, may be NULL) are the
 * emitter's map references: they name the map of a BPF_PSEUDO_MAP_VALUE
 * load, whose imm the loader fills in later. */
void insn_dump(struct strbuf *b, const struct bpf_insn *insns, size_t n, const struct emit_mapref *maps,
	       size_t nr_maps);
/* A finished emitter's program (emit_finish done): its instructions and
 * map references. */
void emit_dump(struct strbuf *b, const struct emit *e);

#endif
