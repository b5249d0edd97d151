/* ELF64 reader over a memory buffer (32-bit files: widened, elf32.c).
 *
 * Used for BPF objects (relocatable, EM_BPF) and for user binaries
 * (executables and shared libraries, for uprobes and stack symbols).
 * Nothing is copied: every pointer returned points into the caller's
 * buffer, which must outlive the view.  Every offset, size and index is
 * checked against the buffer before it is used; malformed input gives a
 * negative errno and a one-line message (lib/err.h) naming what is wrong. */
#ifndef COREBOX_ELF_H
#define COREBOX_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_view {
	const uint8_t *data;
	size_t size;
	const Elf64_Ehdr *ehdr;
	const Elf64_Shdr *shdrs;  /* NULL when the file has no sections */
	size_t shnum;             /* real count (section 0's sh_size when e_shnum is 0) */
	const char *shstrtab;     /* section name strings */
	size_t shstrtab_size;
	const Elf64_Phdr *phdrs;  /* NULL when none */
	size_t phnum;
	int swapped;              /* foreign endianness: refuse to load (parse is refused too) */
};

/* Validate the header, section and program header tables. */
int elf_open(struct elf_view *ev, const void *data, size_t size);

/* Check e_type (ET_REL, ET_EXEC, ET_DYN...) and e_machine (EM_BPF...):
 * elf_open() accepts any, since it reads both BPF objects and binaries.
 * Returns 0 or -EINVAL with a message naming the mismatch. */
int elf_check_kind(const struct elf_view *ev, unsigned type, unsigned machine);

/* Section header by index (NULL if out of range). */
const Elf64_Shdr *elf_shdr(const struct elf_view *ev, size_t idx);
/* Section name ("" if the name offset is bad). */
const char *elf_sec_name(const struct elf_view *ev, const Elf64_Shdr *sh);
/* Section contents: *data = NULL for SHT_NOBITS (size still reported).
 * Fails if the section lies outside the file. */
int elf_sec_data(const struct elf_view *ev, const Elf64_Shdr *sh, const void **data, size_t *size);
/* First section with this name, or NULL. */
const Elf64_Shdr *elf_find_sec(const struct elf_view *ev, const char *name);

/* The GNU build-id note as lowercase hex into hex[size]: 1, or 0 if none
 * (or it does not fit).  elf_debug.c. */
int elf_build_id(const struct elf_view *ev, char *hex, size_t size);
/* Call try(ctx, CANDIDATE, CHECK_CRC, CRC) for each place binary ev (read
 * from path) may have its separate debug file, in gdb's order, until one
 * returns nonzero: /usr/lib/debug/.build-id/xx/yyyy.debug (no CRC), then
 * the .gnu_debuglink name (with its CRC) next to path, in its .debug/ and
 * under /usr/lib/debug/DIR.  1 if a try succeeded, else 0. */
int elf_debug_files(const struct elf_view *ev, const char *path,
		    int (*try)(void *ctx, const char *cand, int check_crc, uint32_t crc), void *ctx);
static inline size_t elf_sec_idx(const struct elf_view *ev, const Elf64_Shdr *sh)
{
	return (size_t)(sh - ev->shdrs);
}

/* Symbol table access (SHT_SYMTAB or SHT_DYNSYM section). */
struct elf_symtab {
	const Elf64_Sym *syms;
	size_t count;
	const char *strs;
	size_t strs_size;
};
int elf_symtab(const struct elf_view *ev, const Elf64_Shdr *symsec, struct elf_symtab *st);
/* Symbol by index (NULL if out of range); name ("" if bad). */
const Elf64_Sym *elf_sym(const struct elf_symtab *st, size_t idx);
const char *elf_sym_name(const struct elf_symtab *st, const Elf64_Sym *sym);

/* For uprobes: file offset of function NAME in an executable or shared
 * library (.symtab, then .dynsym), as the uprobe PMU wants it: the symbol's
 * virtual address translated through the PT_LOAD segment holding it.
 * Returns 0 and sets *off, or -ENOENT with a message. */
int elf_func_file_offset(const struct elf_view *ev, const char *name, uint64_t *off);
/* 32-bit ARM: a function compiled as Thumb (its symbol value had bit 0
 * set; the widened image keeps that in st_other), which the arm kernel's
 * uprobes cannot probe (they decode ARM instructions only, and refuse an
 * address that is not 4-aligned).  elf_uprobe_sym_ok: 0, or -ENOTSUP with
 * the one sentence every uprobe tool prints for it. */
#define ELF_STO_THUMB 0x80
int elf_uprobe_sym_ok(const struct elf_view *ev, const Elf64_Sym *sym, const char *name);
/* The function symbol (.symtab, then .dynsym) whose [value, value + size)
 * holds vaddr, its name in *name; NULL when none does (a stripped file). */
const Elf64_Sym *elf_func_at(const struct elf_view *ev, uint64_t vaddr, const char **name);
/* elf_func_file_offset for a uprobe: a Thumb function refused as above. */
int elf_uprobe_func_offset(const struct elf_view *ev, const char *name, uint64_t *off);

/* Go's function table (.gopclntab), which even a stripped Go binary
 * keeps (the runtime reads it): function names by address.  Go 1.2 to
 * 1.15, 1.16/1.17 and 1.18+ layouts, 64-bit. */
struct elf_gopcln {
	const uint8_t *tab;       /* the section */
	size_t size;
	unsigned ver;             /* 2: 1.2, 16: 1.16, 18: 1.18 and later */
	uint64_t nfunc, text;     /* text: base of 1.18+ entry offsets */
	size_t ftab, names;       /* offsets in tab: function table, name table */
};
/* .gopclntab, .data.rel.ro.gopclntab (a PIE), or found in .data.rel.ro of
 * a Go binary linked by the system linker.  0, or -ENOENT (none) /
 * -EINVAL (unknown or damaged: message). */
int elf_gopcln(const struct elf_view *ev, struct elf_gopcln *g);
/* The function holding vaddr: its name and start.  0 or -ENOENT. */
int elf_gopcln_find(const struct elf_gopcln *g, uint64_t vaddr, const char **name, uint64_t *start);

/* Convenience: map a whole file read-only (mmap); *size set.  A 32-bit
 * little-endian ELF file comes back as its 64-bit image (elf32_widen),
 * so every reader here sees Elf64 tables; elf_unmap_file frees either. */
int elf_map_file(const char *path, const void **data, size_t *size);
int elf_map_fd(int fd, const char *path, const void **data, size_t *size);
/* The 64-bit image of the 32-bit ELF file at src (size bytes, mapped from
 * fd, or fd -1: copied): headers and symbol tables widened, every other
 * byte at its file offset; one munmap(*out, *out_size) frees it. */
int elf32_widen(int fd, const void *src, size_t size, const void **out, size_t *out_size);
void elf_unmap_file(const void *data, size_t size);

#endif
