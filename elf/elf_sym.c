/* Symbol tables and function-name to file-offset lookup (uprobes). */
#include "elf.h"
#include "elf_priv.h"

#include <errno.h>
#include <string.h>

#include "err.h"

int elf_symtab(const struct elf_view *ev, const Elf64_Shdr *symsec, struct elf_symtab *st)
{
	const char *name = elf_sec_name(ev, symsec);
	const Elf64_Shdr *strsec;
	const void *syms, *strs;
	size_t syms_size, strs_size;
	int err;

	memset(st, 0, sizeof(*st));
	if (symsec->sh_type != SHT_SYMTAB && symsec->sh_type != SHT_DYNSYM)
		return err_set(EINVAL, "ELF section '%s' is not a symbol table (type %u)",
			       name, symsec->sh_type);
	if (symsec->sh_entsize != sizeof(Elf64_Sym))
		return err_set(EINVAL, "ELF symbol table '%s' entry size is %llu, expected %zu",
			       name, (unsigned long long)symsec->sh_entsize, sizeof(Elf64_Sym));
	err = elf_sec_data(ev, symsec, &syms, &syms_size);
	if (err)
		return err;
	if (syms_size % sizeof(Elf64_Sym))
		return err_set(EINVAL, "ELF symbol table '%s' size %zu is not a multiple of %zu",
			       name, syms_size, sizeof(Elf64_Sym));
	if (syms_size && !ELF_ALIGNED(syms, Elf64_Sym))
		return err_set(EINVAL, "ELF symbol table '%s' is misaligned", name);

	strsec = elf_shdr(ev, symsec->sh_link);
	if (!strsec || symsec->sh_link == 0)
		return err_set(EINVAL, "ELF symbol table '%s' links to bad string section %u",
			       name, symsec->sh_link);
	if (strsec->sh_type != SHT_STRTAB)
		return err_set(EINVAL, "ELF symbol table '%s' string section %u has type %u, not STRTAB",
			       name, symsec->sh_link, strsec->sh_type);
	err = elf_sec_data(ev, strsec, &strs, &strs_size);
	if (err)
		return err;
	/* Checked once here so that every name is a bounded C string. */
	if (strs_size == 0 || ((const char *)strs)[strs_size - 1] != '\0')
		return err_set(EINVAL, "ELF string table of '%s' is empty or not NUL-terminated", name);

	st->syms = syms;
	st->count = syms_size / sizeof(Elf64_Sym);
	st->strs = strs;
	st->strs_size = strs_size;
	/* A relocatable object's names are checked here, once (the loader's
	 * message names the bad symbol).  Binaries and libraries are read for
	 * a few names out of tables of megabytes (stack symbols, uprobes): a
	 * pass here would bring every page in; elf_sym_name checks each name
	 * it reads. */
	for (size_t i = 0; ev->ehdr->e_type == ET_REL && i < st->count; i++) {
		if (st->syms[i].st_name >= strs_size) {
			int r = err_set(EINVAL, "ELF symbol %zu in '%s' has name offset %u past its string table (%zu bytes)",
					i, name, st->syms[i].st_name, strs_size);
			memset(st, 0, sizeof(*st));
			return r;
		}
	}
	return 0;
}

const Elf64_Sym *elf_sym(const struct elf_symtab *st, size_t idx)
{
	return idx < st->count ? &st->syms[idx] : NULL;
}

const char *elf_sym_name(const struct elf_symtab *st, const Elf64_Sym *sym)
{
	const char *s = elf_str_at(st->strs, st->strs_size, sym->st_name);

	return s ? s : "";
}

/* Best definition of function NAME in one symbol table: a global or weak
 * one wins; otherwise a local one, provided all locals of that name agree
 * (two static functions with the same name in different files would make
 * the choice arbitrary).  Returns 1 found, 0 not found, <0 error. */
static int find_func(const struct elf_symtab *st, const char *name, const Elf64_Sym **out)
{
	const Elf64_Sym *local = NULL;

	for (size_t i = 1; i < st->count; i++) {
		const Elf64_Sym *s = &st->syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF)
			continue;
		if (strcmp(elf_sym_name(st, s), name) != 0)
			continue;
		if (ELF64_ST_BIND(s->st_info) != STB_LOCAL) {
			*out = s;
			return 1;
		}
		if (local && local->st_value != s->st_value)
			return err_set(EINVAL, "function %s is ambiguous: several local definitions", name);
		local = s;
	}
	*out = local;
	return local != NULL;
}

/* Virtual address to file offset through the PT_LOAD segment holding it. */
static int vaddr_to_offset(const struct elf_view *ev, const char *name, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < ev->phnum; i++) {
		const Elf64_Phdr *ph = &ev->phdrs[i];

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr)
			continue;
		/* Subtraction first: vaddr + size could wrap for hostile input. */
		if (vaddr - ph->p_vaddr >= ph->p_memsz)
			continue;
		if (vaddr - ph->p_vaddr >= ph->p_filesz)
			return err_set(EINVAL, "function %s at 0x%llx lies in a segment's zero-filled part",
				       name, (unsigned long long)vaddr);
		*off = vaddr - ph->p_vaddr + ph->p_offset;
		return 0;
	}
	return err_set(ENOENT, "function %s at 0x%llx is in no loadable segment",
		       name, (unsigned long long)vaddr);
}

/* Relocatable objects have no segments: st_value is section-relative. */
static int rel_to_offset(const struct elf_view *ev, const char *name, const Elf64_Sym *s, uint64_t *off)
{
	const Elf64_Shdr *sh = elf_shdr(ev, s->st_shndx);

	if (!sh || sh->sh_type == SHT_NOBITS || s->st_value > sh->sh_size)
		return err_set(EINVAL, "function %s has a bad section index or value", name);
	*off = sh->sh_offset + s->st_value;
	return 0;
}

/* Function name's symbol, .symtab first: 1, 0 when neither has it, or
 * a negative errno with a message. */
static int lookup_func(const struct elf_view *ev, const char *name, const Elf64_Sym **sym)
{
	static const unsigned order[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (size_t i = 1; i < ev->shnum; i++) {
			const Elf64_Shdr *sh = &ev->shdrs[i];
			struct elf_symtab st;
			int r;

			if (sh->sh_type != order[k])
				continue;
			r = elf_symtab(ev, sh, &st);
			if (r)
				return r;
			r = find_func(&st, name, sym);
			if (r)
				return r;
		}
	}
	return 0;
}

int elf_func_file_offset(const struct elf_view *ev, const char *name, uint64_t *off)
{
	const Elf64_Sym *sym = NULL;
	int r = lookup_func(ev, name, &sym);

	if (r < 0)
		return r;
	if (r == 0)
		return err_set(ENOENT, "function %s not found in .symtab or .dynsym", name);
	if (ev->ehdr->e_type == ET_REL)
		return rel_to_offset(ev, name, sym, off);
	return vaddr_to_offset(ev, name, sym->st_value, off);
}

int elf_uprobe_sym_ok(const struct elf_view *ev, const Elf64_Sym *sym, const char *name)
{
	if (ev->ehdr->e_machine != EM_ARM || !(sym->st_other & ELF_STO_THUMB))
		return 0;
	return err_set(ENOTSUP, "%s() is Thumb code, and 32-bit ARM uprobes take ARM instructions only: "
		       "probe a build with -marm", name);
}

const Elf64_Sym *elf_func_at(const struct elf_view *ev, uint64_t vaddr, const char **name)
{
	static const unsigned order[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (size_t i = 1; i < ev->shnum; i++) {
			struct elf_symtab st;

			if (ev->shdrs[i].sh_type != order[k] || elf_symtab(ev, &ev->shdrs[i], &st) < 0)
				continue;
			for (size_t j = 1; j < st.count; j++) {
				const Elf64_Sym *s = &st.syms[j];

				if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx != SHN_UNDEF &&
				    vaddr >= s->st_value && vaddr - s->st_value < (s->st_size ? s->st_size : 1)) {
					*name = elf_sym_name(&st, s);
					return s;
				}
			}
		}
	}
	return NULL;
}

int elf_uprobe_func_offset(const struct elf_view *ev, const char *name, uint64_t *off)
{
	const Elf64_Sym *sym = NULL;
	int r = elf_func_file_offset(ev, name, off);

	return r < 0 || lookup_func(ev, name, &sym) <= 0 ? r : elf_uprobe_sym_ok(ev, sym, name);
}
