/* Go's .gopclntab: function names of (stripped) Go binaries.
 *
 * Layouts (cmd/link's pclntab writer, runtime/symtab.go), little-endian,
 * 8-byte pointers:
 *   1.2-1.15 (magic 0xfffffffb): nfunc at 8, then nfunc pairs {entry pc,
 *     func offset} and the end pc; a func starts {entry, name offset from
 *     the table's start (int32)}.
 *   1.16/1.17 (0xfffffffa): nfunc, nfiles, then the offsets of the name
 *     table, cu, file, pc tables and the function table (pcln); pairs of
 *     pointers there, func offsets relative to it, names to the name table.
 *   1.18+ (0xfffffff0, 1.20: 0xfffffff1): as 1.16 with textStart after
 *     nfiles; pairs of uint32 {entry - textStart, func offset}.
 * Every offset read is checked against the section. */
#include "elf.h"
#include "elf_priv.h"

#include <errno.h>
#include <string.h>

#include "err.h"

static uint64_t rd(const struct elf_gopcln *g, size_t off, unsigned size, int *bad)
{
	uint64_t v = 0;

	if (!elf_range_ok(g->size, off, size)) {
		*bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)g->tab[off + i] << (8 * i);
	return v;
}

/* What the dynamic loader writes at vaddr of a PIE: the addend of the
 * relocation there, or 0.  (ld.bfd and gold also write the value into
 * the file; ld.lld leaves 0 there.) */
static uint64_t rela_at(const struct elf_view *ev, uint64_t vaddr)
{
	for (size_t i = 0; i < ev->shnum; i++) {
		const Elf64_Shdr *sh = &ev->shdrs[i];
		const uint8_t *d;
		const void *data;
		size_t size;
		Elf64_Rela r;

		if (sh->sh_type != SHT_RELA || sh->sh_entsize != sizeof(r) || elf_sec_data(ev, sh, &data, &size) < 0 ||
		    !(d = data))
			continue;
		for (size_t k = 0; k + sizeof(r) <= size; k += sizeof(r)) {
			memcpy(&r, d + k, sizeof(r)); /* a crafted file's table may be unaligned */
			if (r.r_offset == vaddr)
				return (uint64_t)r.r_addend;
		}
	}
	return 0;
}

/* The table at data (size bytes up to its section's end), loaded at vaddr. */
static int parse(const struct elf_view *ev, struct elf_gopcln *g, const uint8_t *data, size_t size, uint64_t vaddr)
{
	const Elf64_Shdr *text;
	uint32_t magic;
	int bad = 0;

	memset(g, 0, sizeof(*g));
	if (size < 16)
		return err_set(EINVAL, ".gopclntab is empty");
	g->tab = data;
	g->size = size;
	magic = (uint32_t)rd(g, 0, 4, &bad);
	if (g->tab[4] || g->tab[5] || g->tab[7] != 8)
		return err_set(EINVAL, ".gopclntab: not a 64-bit table");
	g->nfunc = rd(g, 8, 8, &bad);
	switch (magic) {
	case 0xfffffffb:
		g->ver = 2;
		g->ftab = 16;
		break;
	case 0xfffffffa:
		g->ver = 16;
		g->names = rd(g, 24, 8, &bad);
		g->ftab = rd(g, 56, 8, &bad);
		break;
	case 0xfffffff0:
	case 0xfffffff1:
		g->ver = 18;
		g->text = rd(g, 24, 8, &bad);
		g->names = rd(g, 32, 8, &bad);
		g->ftab = rd(g, 64, 8, &bad);
		break;
	default:
		return err_set(EINVAL, ".gopclntab: unknown magic 0x%x", magic);
	}
	/* the function table (nfunc + 1 entries) must fit */
	if (bad || !g->nfunc || g->nfunc > size / 8 || g->names >= size ||
	    !elf_range_ok(size, g->ftab, (g->nfunc + 1) * (g->ver == 18 ? 8 : 16)))
		return err_set(EINVAL, ".gopclntab: function table outside the section");
	/* a PIE's textStart (runtime.text) is relocated at load: 0 in the
	 * file as ld.lld links it, the relocation's addend has it; .text's
	 * start is right only when Go linked it (after the system linker's
	 * start-up code, 0x100 bytes of it on x86_64, it is not).  Looked up
	 * only for a table that passed the checks: .data.rel.ro is searched
	 * for one, and each candidate must not scan the relocations. */
	if (g->ver == 18 && !g->text && !(g->text = rela_at(ev, vaddr + 24)) && (text = elf_find_sec(ev, ".text")))
		g->text = text->sh_addr;
	return 0;
}

int elf_gopcln(const struct elf_view *ev, struct elf_gopcln *g)
{
	const Elf64_Shdr *sh = elf_find_sec(ev, ".gopclntab");
	const uint8_t *d;
	const void *data;
	size_t size;

	memset(g, 0, sizeof(*g));
	/* Go's linker names it .data.rel.ro.gopclntab in a PIE */
	if (!sh)
		sh = elf_find_sec(ev, ".data.rel.ro.gopclntab");
	if (sh) {
		if (elf_sec_data(ev, sh, &data, &size) < 0 || !data)
			return err_set(EINVAL, ".gopclntab is outside the file");
		return parse(ev, g, data, size, sh->sh_addr);
	}
	/* linked by the system linker (cgo, PIE): merged into .data.rel.ro;
	 * in a Go binary (.go.buildinfo), its header is looked for there */
	if (!elf_find_sec(ev, ".go.buildinfo") || !(sh = elf_find_sec(ev, ".data.rel.ro")) ||
	    elf_sec_data(ev, sh, &data, &size) < 0 || !data)
		return -ENOENT;
	d = data;
	for (size_t at = 0; at + 16 <= size; at += 8)
		if (d[at] >= 0xf0 && d[at + 1] == 0xff && d[at + 2] == 0xff && d[at + 3] == 0xff && !d[at + 4] &&
		    !d[at + 5] && d[at + 7] == 8 && parse(ev, g, d + at, size - at, sh->sh_addr + at) == 0)
			return 0;
	memset(g, 0, sizeof(*g));
	return err_set(ENOENT, "no Go function table in .data.rel.ro");
}

/* Entry address of function table slot i (0..nfunc) and its func offset. */
static uint64_t slot(const struct elf_gopcln *g, uint64_t i, uint64_t *func, int *bad)
{
	if (g->ver == 18) {
		*func = rd(g, g->ftab + i * 8 + 4, 4, bad);
		return g->text + rd(g, g->ftab + i * 8, 4, bad);
	}
	*func = rd(g, g->ftab + i * 16 + 8, 8, bad);
	return rd(g, g->ftab + i * 16, 8, bad);
}

int elf_gopcln_find(const struct elf_gopcln *g, uint64_t vaddr, const char **name, uint64_t *start)
{
	uint64_t lo = 0, hi = g->nfunc, func, at, noff;
	int bad = 0;

	if (!g->tab || vaddr < slot(g, 0, &func, &bad) || vaddr >= slot(g, g->nfunc, &func, &bad))
		return -ENOENT;
	while (hi - lo > 1) { /* the last entry <= vaddr */
		uint64_t mid = lo + (hi - lo) / 2;

		if (slot(g, mid, &func, &bad) <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	*start = slot(g, lo, &func, &bad);
	/* the func record: {entry, name offset}; 1.16+ relative to pcln */
	at = g->ver == 2 ? func : g->ftab + func;
	noff = rd(g, at + (g->ver == 18 ? 4 : 8), 4, &bad);
	noff = (g->ver == 2 ? 0 : g->names) + (uint32_t)noff;
	if (bad || noff >= g->size || !(*name = elf_str_at((const char *)g->tab, g->size, noff)) || !**name)
		return -ENOENT;
	return 0;
}
