/* elf_gopcln(): hand-built .gopclntab sections of the three layouts
 * (Go 1.2, 1.16, 1.18+) in a minimal ELF: names and starts by address,
 * the table's ends; then every byte of the table flipped and the section
 * size cut: errors or answers inside the table, never a crash (ASan);
 * and a 1.18 table whose textStart is 0 in the file, relocated by
 * .rela.dyn (a Go PIE linked by ld.lld). */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf.h"
#include "lib/err.h"
#include "t.h"

static const char names[] = "\0main.main\0main.(*spinner).innerCbxgo\0runtime.goexit";
enum { N_MAIN = 1, N_INNER = 11, N_EXIT = 38 };
static const uint64_t entry[] = { 0x401000, 0x401100, 0x401180 }, end_pc = 0x401200;
static const uint32_t nameoff[] = { N_MAIN, N_INNER, N_EXIT };

static void w64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* the table of version ver into t; returns its size */
static size_t table(uint8_t *t, int ver)
{
	size_t hdr = ver == 2 ? 16 : ver == 16 ? 64 : 72, ftab = hdr, fsz = ver == 18 ? 8 : 16;
	size_t funcs = ftab + 4 * fsz, nmo = funcs + 3 * 16, size = nmo + sizeof(names);

	memset(t, 0, size);
	w32(t, ver == 2 ? 0xfffffffb : ver == 16 ? 0xfffffffa : 0xfffffff0);
	t[6] = 1;
	t[7] = 8;
	w64(t + 8, 3);
	if (ver == 16) {
		w64(t + 24, nmo);
		w64(t + 56, ftab);
	} else if (ver == 18) {
		w64(t + 24, 0x401000);
		w64(t + 32, nmo);
		w64(t + 64, ftab);
	}
	for (int i = 0; i < 4; i++) {
		uint64_t pc = i < 3 ? entry[i] : end_pc;
		/* func records: 1.2 relative to the table, else to ftab */
		uint64_t fo = funcs + (size_t)i * 16 - (ver == 2 ? 0 : ftab);

		if (ver == 18) {
			w32(t + ftab + i * 8, (uint32_t)(pc - 0x401000));
			w32(t + ftab + i * 8 + 4, (uint32_t)fo);
		} else {
			w64(t + ftab + i * 16, pc);
			w64(t + ftab + i * 16 + 8, fo);
		}
		if (i < 3) {
			uint8_t *f = t + funcs + i * 16;

			if (ver == 18) {
				w32(f, (uint32_t)(pc - 0x401000));
				w32(f + 4, nameoff[i]);
			} else {
				w64(f, pc);
				w32(f + 8, (uint32_t)(ver == 2 ? nmo - 0 + nameoff[i] : nameoff[i]));
			}
		}
	}
	memcpy(t + nmo, names, sizeof(names));
	return size;
}

/* Ehdr | table | .shstrtab | [.rela.dyn] | Shdr[3 or 4]; with rela_text,
 * .rela.dyn holds one R_X86_64_RELATIVE putting rela_text into the
 * table's textStart field: how ld.lld links a Go PIE (0 in the file) */
static uint8_t *image(const uint8_t *t, size_t tsize, uint64_t rela_text, size_t *size)
{
	static const char shstr[] = "\0.gopclntab\0.shstrtab\0.rela.dyn";
	size_t toff = sizeof(Elf64_Ehdr), soff = toff + tsize, roff = (soff + sizeof(shstr) + 7) & ~(size_t)7;
	size_t nsec = rela_text ? 4 : 3, shoff = roff + (rela_text ? sizeof(Elf64_Rela) : 0);
	uint8_t *b = calloc(1, shoff + nsec * sizeof(Elf64_Shdr));
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	Elf64_Shdr *sh = (Elf64_Shdr *)(b + shoff);

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = (uint16_t)nsec;
	eh->e_shstrndx = 2;
	memcpy(b + toff, t, tsize);
	memcpy(b + soff, shstr, sizeof(shstr));
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_addr = 0x4bc000;
	sh[1].sh_offset = toff;
	sh[1].sh_size = tsize;
	sh[2].sh_name = 12;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = soff;
	sh[2].sh_size = sizeof(shstr);
	if (rela_text) {
		Elf64_Rela r = { 0x4bc000 + 24, ELF64_R_INFO(0, R_X86_64_RELATIVE), (int64_t)rela_text };

		memcpy(b + roff, &r, sizeof(r));
		sh[3].sh_name = 22;
		sh[3].sh_type = SHT_RELA;
		sh[3].sh_offset = roff;
		sh[3].sh_size = sizeof(r);
		sh[3].sh_entsize = sizeof(r);
	}
	*size = shoff + nsec * sizeof(Elf64_Shdr);
	return b;
}

static int lookup(const uint8_t *img, size_t size, uint64_t va, const char **name, uint64_t *start)
{
	struct elf_view ev;
	struct elf_gopcln g;

	err_clear();
	if (elf_open(&ev, img, size) < 0 || elf_gopcln(&ev, &g) < 0)
		return -EINVAL;
	return elf_gopcln_find(&g, va, name, start);
}

/* With a directory argument: write the three images there (the ELF
 * fuzzer's corpus: tests/fuzz/corpus/elf/gopcln-*). */
int main(int argc, char **argv)
{
	static const int vers[] = { 2, 16, 18 };
	uint8_t t[512];

	for (size_t v = 0; argc > 1 && v < 3; v++) {
		char path[512];
		size_t size;
		uint8_t *img = image(t, table(t, vers[v]), 0, &size);
		FILE *f;

		snprintf(path, sizeof(path), "%s/gopcln-1.%d", argv[1], vers[v]);
		if (!(f = fopen(path, "wb")) || fwrite(img, 1, size, f) != size || fclose(f))
			return 1;
		free(img);
	}

	for (size_t v = 0; v < 3; v++) {
		size_t ts = table(t, vers[v]), size, bad = 0;
		uint8_t *img = image(t, ts, 0, &size);
		const char *n1 = NULL, *n2 = NULL, *n3 = NULL;
		uint64_t s1 = 0, s2 = 0, s3 = 0;
		int r1 = lookup(img, size, 0x401000, &n1, &s1), r2 = lookup(img, size, 0x401150, &n2, &s2),
		    r3 = lookup(img, size, 0x4011ff, &n3, &s3);

		T_OK(!r1 && !r2 && !r3 && !strcmp(n1, "main.main") && !strcmp(n2, "main.(*spinner).innerCbxgo") &&
			     !strcmp(n3, "runtime.goexit") && s1 == 0x401000 && s2 == 0x401100 && s3 == 0x401180,
		     "Go 1.%d layout: names and starts by address", vers[v]);
		T_OK(lookup(img, size, 0x400fff, &n1, &s1) == -ENOENT && lookup(img, size, end_pc, &n1, &s1) == -ENOENT,
		     "Go 1.%d layout: addresses outside the table: -ENOENT", vers[v]);
		/* every byte flipped, every cut of the section */
		for (size_t i = 0; i < ts; i++) {
			uint8_t *c = malloc(size);
			struct elf_view ev;
			struct elf_gopcln g;

			memcpy(c, img, size);
			c[sizeof(Elf64_Ehdr) + i] ^= 0x5a;
			for (uint64_t va = 0x400ff0; va < 0x401210; va += 0x30)
				if (lookup(c, size, va, &n1, &s1) == 0 && (n1 < (const char *)c || n1 >= (const char *)c + size))
					bad++;
			memcpy(c, img, size);
			((Elf64_Shdr *)(c + ((Elf64_Ehdr *)c)->e_shoff))[1].sh_size = i;
			if (elf_open(&ev, c, size) == 0 && elf_gopcln(&ev, &g) == 0)
				for (uint64_t va = 0x400ff0; va < 0x401210; va += 0x30)
					if (elf_gopcln_find(&g, va, &n1, &s1) == 0 && (n1 < (const char *)g.tab || n1 >= (const char *)g.tab + i))
						bad++;
			free(c);
		}
		T_OK(!bad, "Go 1.%d layout: every byte flipped, every size cut: names stay inside the table", vers[v]);
		free(img);
	}
	{ /* 1.18+ with textStart 0 in the file (ld.lld): the relocation's addend */
		size_t ts = table(t, 18), size;
		uint8_t *img;
		const char *n = NULL;
		uint64_t st = 0;
		int r;

		w64(t + 24, 0);
		img = image(t, ts, 0x401000, &size);
		r = lookup(img, size, 0x401150, &n, &st);
		T_OK(!r && !strcmp(n, "main.(*spinner).innerCbxgo") && st == 0x401100,
		     "Go 1.18 layout, textStart 0 in the file: based at its R_X86_64_RELATIVE's addend (%d %s 0x%llx)", r,
		     r ? "-" : n, (unsigned long long)st);
		free(img);
	}
	T_EXIT();
}
