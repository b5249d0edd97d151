/* 32-bit ELF files (armhf binaries and libraries) seen through the ELF64
 * reader: the file is mapped copy-on-write at the start of a larger
 * anonymous reservation, an Elf64_Ehdr is written over its first bytes,
 * and the program headers, section headers and symbol tables, widened to
 * their 64-bit forms, go into the reservation after the file.  Every
 * other byte stays where the file has it, so program header offsets stay
 * file offsets (uprobes need those) and sections other than the symbol
 * tables are read in place; only the first page and the new tables cost
 * memory.  One munmap of (data, size) releases it all (elf_unmap_file).
 *
 * On 32-bit ARM, a Thumb function's symbol value has bit 0 set: it is
 * cleared, so the value is the function's address, and kept as
 * ELF_STO_THUMB in st_other (whose ELF64 meaning is its low 2 bits). */
#include "elf.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf_priv.h"
#include "err.h"

#define ALIGN8(x) (((x) + 7) & ~(uint64_t)7)

static int bad(const char *what)
{
	return err_set(EINVAL, "ELF32: %s", what);
}

int elf32_widen(int fd, const void *src, size_t size, const void **out, size_t *out_size)
{
	const uint8_t *d = src;
	const Elf32_Ehdr *eh = src;
	const Elf32_Shdr *sh = NULL;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), shnum, phnum, extra, total, base;
	uint64_t pos;
	uint8_t *m;
	Elf64_Ehdr *e64;

	if (size < sizeof(Elf32_Ehdr) || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS32)
		return bad("not a 32-bit ELF file");
	if (d[EI_DATA] != ELFDATA2LSB)
		return err_set(ENOTSUP, "ELF32: only little-endian 32-bit files are read");
	shnum = eh->e_shoff ? eh->e_shnum : 0;
	phnum = eh->e_phnum;
	if (shnum && (eh->e_shentsize != sizeof(Elf32_Shdr) || !elf_range_ok(size, eh->e_shoff,
			(uint64_t)shnum * sizeof(Elf32_Shdr)) || eh->e_shoff % 4))
		return bad("section headers lie outside the file");
	if (phnum && (eh->e_phentsize != sizeof(Elf32_Phdr) || !elf_range_ok(size, eh->e_phoff,
			(uint64_t)phnum * sizeof(Elf32_Phdr)) || eh->e_phoff % 4))
		return bad("program headers lie outside the file");
	if (shnum)
		sh = (const Elf32_Shdr *)(d + eh->e_shoff);
	/* the new tables: phdrs, shdrs, then each symbol table */
	extra = ALIGN8(phnum * sizeof(Elf64_Phdr)) + ALIGN8(shnum * sizeof(Elf64_Shdr));
	for (size_t i = 0; i < shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
			continue;
		if (sh[i].sh_entsize != sizeof(Elf32_Sym) || !elf_range_ok(size, sh[i].sh_offset, sh[i].sh_size) ||
		    sh[i].sh_offset % 4)
			return bad("a symbol table lies outside the file or has a bad entry size");
		extra += ALIGN8(sh[i].sh_size / sizeof(Elf32_Sym) * sizeof(Elf64_Sym));
	}
	base = (size + page - 1) / page * page;
	if (extra > SIZE_MAX - base)
		return bad("too large");
	total = base + extra;
	m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return err_sys(errno, "ELF32: mmap %zu bytes", total);
	if (fd >= 0) {
		if (mmap(m, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
			int e = errno;

			munmap(m, total);
			return err_sys(e, "ELF32: mmap the file");
		}
	} else {
		memcpy(m, d, size);
	}
	pos = base;
	e64 = (Elf64_Ehdr *)m;
	{
		Elf32_Ehdr h = *eh; /* m and src may be the same bytes */

		memcpy(e64->e_ident, h.e_ident, EI_NIDENT);
		e64->e_ident[EI_CLASS] = ELFCLASS64;
		e64->e_type = h.e_type;
		e64->e_machine = h.e_machine;
		e64->e_version = h.e_version;
		e64->e_entry = h.e_entry;
		e64->e_flags = h.e_flags;
		e64->e_ehsize = sizeof(Elf64_Ehdr);
		e64->e_phentsize = sizeof(Elf64_Phdr);
		e64->e_phnum = (Elf64_Half)phnum;
		e64->e_shentsize = sizeof(Elf64_Shdr);
		e64->e_shnum = (Elf64_Half)shnum;
		e64->e_shstrndx = h.e_shstrndx;
		e64->e_phoff = phnum ? pos : 0;
		pos += ALIGN8(phnum * sizeof(Elf64_Phdr));
		e64->e_shoff = shnum ? pos : 0;
		pos += ALIGN8(shnum * sizeof(Elf64_Shdr));
	}
	for (size_t i = 0; i < phnum; i++) {
		const Elf32_Phdr *p = (const Elf32_Phdr *)(d + eh->e_phoff) + i;
		Elf64_Phdr *q = (Elf64_Phdr *)(m + e64->e_phoff) + i;

		q->p_type = p->p_type;
		q->p_flags = p->p_flags;
		q->p_offset = p->p_offset;
		q->p_vaddr = p->p_vaddr;
		q->p_paddr = p->p_paddr;
		q->p_filesz = p->p_filesz;
		q->p_memsz = p->p_memsz;
		q->p_align = p->p_align;
	}
	for (size_t i = 0; i < shnum; i++) {
		const Elf32_Shdr *s = &sh[i];
		Elf64_Shdr *t = (Elf64_Shdr *)(m + e64->e_shoff) + i;

		t->sh_name = s->sh_name;
		t->sh_type = s->sh_type;
		t->sh_flags = s->sh_flags;
		t->sh_addr = s->sh_addr;
		t->sh_offset = s->sh_offset;
		t->sh_size = s->sh_size;
		t->sh_link = s->sh_link;
		t->sh_info = s->sh_info;
		t->sh_addralign = s->sh_addralign;
		t->sh_entsize = s->sh_entsize;
		if (s->sh_type == SHT_SYMTAB || s->sh_type == SHT_DYNSYM) {
			size_t n = s->sh_size / sizeof(Elf32_Sym);
			const Elf32_Sym *a = (const Elf32_Sym *)(d + s->sh_offset);
			Elf64_Sym *b = (Elf64_Sym *)(m + pos);

			for (size_t k = 0; k < n; k++) {
				b[k].st_name = a[k].st_name;
				b[k].st_info = a[k].st_info;
				b[k].st_other = a[k].st_other;
				b[k].st_shndx = a[k].st_shndx;
				b[k].st_value = a[k].st_value;
				b[k].st_size = a[k].st_size;
				if (eh->e_machine == EM_ARM && ELF32_ST_TYPE(a[k].st_info) == STT_FUNC &&
				    (a[k].st_value & 1)) {
					b[k].st_value &= ~(uint64_t)1; /* the Thumb bit */
					b[k].st_other |= ELF_STO_THUMB;
				}
			}
			t->sh_offset = pos;
			t->sh_size = n * sizeof(Elf64_Sym);
			t->sh_entsize = sizeof(Elf64_Sym);
			pos += ALIGN8(t->sh_size);
		}
	}
	/* a section 0 that holds the real counts (>= 0xff00) is not widened:
	 * 32-bit binaries that large are not expected */
	mprotect(m, total, PROT_READ);
	*out = m;
	*out_size = total;
	return 0;
}
