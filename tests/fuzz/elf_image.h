/* Build small, valid ELF64 images in memory, for the elf/ unit tests and
 * for the fuzzers' seed corpus (tests/fuzz/gen_seeds.c).
 *
 * One fixed layout, so tests can corrupt a chosen field and know what
 * should go wrong:
 *
 *   Ehdr | Phdr[2] | .text | .data | .symtab | .dynsym | .strtab | .dynstr | .shstrtab | Shdr[9]
 *
 * Sections: 0 null, 1 .text, 2 .data, 3 .bss (NOBITS), 4 .symtab,
 * 5 .strtab, 6 .dynsym, 7 .dynstr, 8 .shstrtab.  Segments (not for
 * ET_REL): text (R+X) and data (RW, memsz > filesz, the tail is .bss).
 * Header-only, static: every user is a single test or tool file. */
#ifndef COREBOX_TESTS_ELF_IMAGE_H
#define COREBOX_TESTS_ELF_IMAGE_H

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { IMG_TEXT = 1, IMG_DATA, IMG_BSS, IMG_SYMTAB, IMG_STRTAB, IMG_DYNSYM, IMG_DYNSTR, IMG_SHSTRTAB, IMG_NSEC };
enum { IMG_TEXT_SIZE = 64, IMG_DATA_SIZE = 16, IMG_BSS_SIZE = 32 };
/* Offsets inside .text of the functions the symbol table defines. */
enum { IMG_FUNC_GLOBAL = 0x10, IMG_FUNC_LOCAL = 0x20, IMG_FUNC_WEAK = 0x28, IMG_FUNC_DYN = 0x30 };

struct elf_image {
	uint8_t *buf;      /* 8-byte aligned (malloc) */
	size_t size;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;    /* NULL for ET_REL */
	Elf64_Shdr *sh;
	Elf64_Sym *syms;   /* .symtab entries */
	size_t nsyms;
	uint64_t text_off, text_vaddr, data_vaddr;
};

struct img_cursor {
	uint8_t *buf;
	size_t len;
};

static size_t img_put(struct img_cursor *c, const void *p, size_t n)
{
	size_t at;

	c->len = (c->len + 7) & ~(size_t)7; /* every table 8-byte aligned */
	at = c->len;
	memcpy(c->buf + at, p, n);
	c->len += n;
	return at;
}

/* Symbol table strings: offsets are fixed by the literal below. */
static const char img_strtab[] = "\0func_global\0func_local\0func_weak\0undef_fn\0an_object\0in_bss\0";
enum { S_GLOBAL = 1, S_LOCAL = 13, S_WEAK = 24, S_UNDEF = 34, S_OBJECT = 43, S_BSS = 53 };
static const char img_dynstr[] = "\0dyn_only\0func_global\0";
enum { D_DYN = 1, D_GLOBAL = 10 };
static const char img_shstrtab[] = "\0.text\0.data\0.bss\0.symtab\0.strtab\0.dynsym\0.dynstr\0.shstrtab\0";
enum { N_TEXT = 1, N_DATA = 7, N_BSS = 13, N_SYMTAB = 18, N_STRTAB = 26, N_DYNSYM = 34, N_DYNSTR = 42, N_SHSTRTAB = 50 };

/* e_type ET_DYN (PIE or library, base 0), ET_EXEC (base 0x400000) or
 * ET_REL (no segments, symbol values relative to their section). */
static int elf_image_build(struct elf_image *im, unsigned type, unsigned machine)
{
	struct img_cursor c = { .buf = calloc(1, 4096), .len = 0 };
	uint64_t base = type == ET_EXEC ? 0x400000 : 0;
	int rel = type == ET_REL;
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph[2] = { { 0 } };
	Elf64_Shdr sh[IMG_NSEC] = { { 0 } };
	uint8_t text[IMG_TEXT_SIZE], data[IMG_DATA_SIZE];
	size_t shoff, phoff = 0;

	if (!c.buf)
		return -1;
	memset(im, 0, sizeof(*im));
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)(0x90 + i);
	memset(data, 0x5a, sizeof(data));

	img_put(&c, &eh, sizeof(eh)); /* placeholder, filled last */
	if (!rel)
		phoff = img_put(&c, ph, sizeof(ph));
	sh[IMG_TEXT].sh_offset = img_put(&c, text, sizeof(text));
	sh[IMG_DATA].sh_offset = img_put(&c, data, sizeof(data));

	uint64_t text_vaddr = rel ? 0 : base + 0x1000 + sh[IMG_TEXT].sh_offset;
	uint64_t data_vaddr = rel ? 0 : base + 0x2000 + sh[IMG_DATA].sh_offset;
	Elf64_Sym syms[] = {
		{ 0 },
		{ .st_name = S_LOCAL, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = IMG_TEXT,
		  .st_value = text_vaddr + IMG_FUNC_LOCAL, .st_size = 8 },
		{ .st_name = S_GLOBAL, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = IMG_TEXT,
		  .st_value = text_vaddr + IMG_FUNC_GLOBAL, .st_size = 16 },
		{ .st_name = S_WEAK, .st_info = ELF64_ST_INFO(STB_WEAK, STT_FUNC), .st_shndx = IMG_TEXT,
		  .st_value = text_vaddr + IMG_FUNC_WEAK, .st_size = 8 },
		{ .st_name = S_UNDEF, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = SHN_UNDEF },
		{ .st_name = S_OBJECT, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), .st_shndx = IMG_DATA,
		  .st_value = data_vaddr, .st_size = 4 },
		/* A "function" in the zero-filled tail of the data segment. */
		{ .st_name = S_BSS, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = IMG_BSS,
		  .st_value = rel ? 0 : data_vaddr + IMG_DATA_SIZE + 8, .st_size = 4 },
	};
	Elf64_Sym dsyms[] = {
		{ 0 },
		{ .st_name = D_DYN, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = IMG_TEXT,
		  .st_value = text_vaddr + IMG_FUNC_DYN, .st_size = 8 },
		/* Same name as in .symtab but a different address: .symtab must win. */
		{ .st_name = D_GLOBAL, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = IMG_TEXT,
		  .st_value = text_vaddr + IMG_FUNC_DYN, .st_size = 8 },
	};
	sh[IMG_SYMTAB].sh_offset = img_put(&c, syms, sizeof(syms));
	sh[IMG_DYNSYM].sh_offset = img_put(&c, dsyms, sizeof(dsyms));
	sh[IMG_STRTAB].sh_offset = img_put(&c, img_strtab, sizeof(img_strtab));
	sh[IMG_DYNSTR].sh_offset = img_put(&c, img_dynstr, sizeof(img_dynstr));
	sh[IMG_SHSTRTAB].sh_offset = img_put(&c, img_shstrtab, sizeof(img_shstrtab));

	sh[IMG_TEXT] = (Elf64_Shdr){ N_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_vaddr,
				     sh[IMG_TEXT].sh_offset, IMG_TEXT_SIZE, 0, 0, 8, 0 };
	sh[IMG_DATA] = (Elf64_Shdr){ N_DATA, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, data_vaddr,
				     sh[IMG_DATA].sh_offset, IMG_DATA_SIZE, 0, 0, 8, 0 };
	sh[IMG_BSS] = (Elf64_Shdr){ N_BSS, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, rel ? 0 : data_vaddr + IMG_DATA_SIZE,
				    sh[IMG_DATA].sh_offset + IMG_DATA_SIZE, IMG_BSS_SIZE, 0, 0, 8, 0 };
	sh[IMG_SYMTAB] = (Elf64_Shdr){ N_SYMTAB, SHT_SYMTAB, 0, 0, sh[IMG_SYMTAB].sh_offset, sizeof(syms),
				       IMG_STRTAB, 2, 8, sizeof(Elf64_Sym) };
	sh[IMG_STRTAB] = (Elf64_Shdr){ N_STRTAB, SHT_STRTAB, 0, 0, sh[IMG_STRTAB].sh_offset, sizeof(img_strtab),
				       0, 0, 1, 0 };
	sh[IMG_DYNSYM] = (Elf64_Shdr){ N_DYNSYM, SHT_DYNSYM, SHF_ALLOC, 0, sh[IMG_DYNSYM].sh_offset, sizeof(dsyms),
				       IMG_DYNSTR, 1, 8, sizeof(Elf64_Sym) };
	sh[IMG_DYNSTR] = (Elf64_Shdr){ N_DYNSTR, SHT_STRTAB, SHF_ALLOC, 0, sh[IMG_DYNSTR].sh_offset, sizeof(img_dynstr),
				       0, 0, 1, 0 };
	sh[IMG_SHSTRTAB] = (Elf64_Shdr){ N_SHSTRTAB, SHT_STRTAB, 0, 0, sh[IMG_SHSTRTAB].sh_offset,
					 sizeof(img_shstrtab), 0, 0, 1, 0 };
	shoff = img_put(&c, sh, sizeof(sh));

	if (!rel) {
		ph[0] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, sh[IMG_TEXT].sh_offset, text_vaddr, text_vaddr,
				      IMG_TEXT_SIZE, IMG_TEXT_SIZE, 0x1000 };
		ph[1] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_W, sh[IMG_DATA].sh_offset, data_vaddr, data_vaddr,
				      IMG_DATA_SIZE, IMG_DATA_SIZE + IMG_BSS_SIZE, 0x1000 };
		memcpy(c.buf + phoff, ph, sizeof(ph));
	}
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = (uint16_t)type;
	eh.e_machine = (uint16_t)machine;
	eh.e_version = EV_CURRENT;
	eh.e_entry = rel ? 0 : text_vaddr;
	eh.e_phoff = phoff;
	eh.e_shoff = shoff;
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = rel ? 0 : sizeof(Elf64_Phdr);
	eh.e_phnum = rel ? 0 : 2;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = IMG_NSEC;
	eh.e_shstrndx = IMG_SHSTRTAB;
	memcpy(c.buf, &eh, sizeof(eh));

	im->buf = c.buf;
	im->size = c.len;
	im->eh = (Elf64_Ehdr *)c.buf;
	im->ph = rel ? NULL : (Elf64_Phdr *)(c.buf + phoff);
	im->sh = (Elf64_Shdr *)(c.buf + shoff);
	im->syms = (Elf64_Sym *)(c.buf + sh[IMG_SYMTAB].sh_offset);
	im->nsyms = sizeof(syms) / sizeof(syms[0]);
	im->text_off = sh[IMG_TEXT].sh_offset;
	im->text_vaddr = text_vaddr;
	im->data_vaddr = data_vaddr;
	return 0;
}

static void elf_image_free(struct elf_image *im)
{
	free(im->buf);
	memset(im, 0, sizeof(*im));
}

#endif
