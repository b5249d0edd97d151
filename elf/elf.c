/* ELF64 header, section header and program header validation.
 *
 * Everything is checked once in elf_open() so that later lookups can walk
 * the tables without re-validating them: header identity, table bounds and
 * alignment, the real section count, the section name table, every
 * section's name offset and file range.  Input is untrusted (fuzzed): all
 * offset arithmetic goes through elf_range_ok(), which cannot overflow. */
#include "elf.h"
#include "elf_priv.h"

#include <errno.h>
#include <string.h>

#include "err.h"

static int host_is_little_endian(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one == 1;
}

static int check_ident(struct elf_view *ev, size_t size)
{
	const unsigned char *id = ev->data;

	if (size < sizeof(Elf64_Ehdr))
		return err_set(EINVAL, "file too small for an ELF header (%zu bytes, need %zu)",
			       size, sizeof(Elf64_Ehdr));
	if (memcmp(id, ELFMAG, SELFMAG) != 0)
		return err_set(EINVAL, "not an ELF file (bad magic)");
	if (id[EI_CLASS] != ELFCLASS64)
		return err_set(ENOTSUP, "ELF class %u not supported (only 64-bit ELF)", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return err_set(EINVAL, "ELF byte order %u is invalid", id[EI_DATA]);
	/* Foreign byte order: every field would need swapping.  Record it so
	 * callers can say why, but refuse: a BPF object for the other
	 * endianness could never be loaded here anyway. */
	if ((id[EI_DATA] == ELFDATA2LSB) != host_is_little_endian()) {
		ev->swapped = 1;
		return err_set(ENOTSUP, "ELF is %s-endian, this machine is not (foreign byte order)",
			       id[EI_DATA] == ELFDATA2LSB ? "little" : "big");
	}
	if (id[EI_VERSION] != EV_CURRENT)
		return err_set(EINVAL, "ELF ident version %u is invalid", id[EI_VERSION]);
	return 0;
}

/* Section table: locate it, then find the real count (section 0's sh_size
 * when e_shnum is 0, the form used by files with >= 0xff00 sections). */
static int open_shdrs(struct elf_view *ev)
{
	const Elf64_Ehdr *eh = ev->ehdr;
	uint64_t room;

	if (eh->e_shoff == 0) {
		if (eh->e_shnum != 0)
			return err_set(EINVAL, "ELF e_shnum is %u but e_shoff is 0", eh->e_shnum);
		return 0;
	}
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return err_set(EINVAL, "ELF e_shentsize is %u, expected %zu",
			       eh->e_shentsize, sizeof(Elf64_Shdr));
	if (!elf_range_ok(ev->size, eh->e_shoff, sizeof(Elf64_Shdr)))
		return err_set(EINVAL, "ELF section headers (offset %llu) lie past end of file (%zu bytes)",
			       (unsigned long long)eh->e_shoff, ev->size);
	if (!ELF_ALIGNED(ev->data + eh->e_shoff, Elf64_Shdr))
		return err_set(EINVAL, "ELF section headers at offset %llu are misaligned",
			       (unsigned long long)eh->e_shoff);
	ev->shdrs = (const Elf64_Shdr *)(ev->data + eh->e_shoff);

	uint64_t n = eh->e_shnum;
	if (n == 0) {
		n = ev->shdrs[0].sh_size;
		if (n == 0)
			return err_set(EINVAL, "ELF e_shnum is 0 and section 0 holds no count");
	}
	room = (ev->size - eh->e_shoff) / sizeof(Elf64_Shdr);
	if (n > room)
		return err_set(EINVAL, "ELF has %llu section headers but only %llu fit in the file",
			       (unsigned long long)n, (unsigned long long)room);
	ev->shnum = (size_t)n;
	return 0;
}

/* Section name table: SHN_XINDEX means the index is in section 0's sh_link. */
static int open_shstrtab(struct elf_view *ev)
{
	uint64_t idx = ev->ehdr->e_shstrndx;
	const Elf64_Shdr *sh;

	if (!ev->shdrs)
		return 0;
	if (idx == SHN_XINDEX)
		idx = ev->shdrs[0].sh_link;
	if (idx == SHN_UNDEF)
		return 0; /* legal: no section names at all */
	if (idx >= ev->shnum)
		return err_set(EINVAL, "ELF section name table index %llu out of range (%zu sections)",
			       (unsigned long long)idx, ev->shnum);
	sh = &ev->shdrs[idx];
	if (sh->sh_type != SHT_STRTAB)
		return err_set(EINVAL, "ELF section name table (section %llu) has type %u, not STRTAB",
			       (unsigned long long)idx, sh->sh_type);
	if (!elf_range_ok(ev->size, sh->sh_offset, sh->sh_size))
		return err_set(EINVAL, "ELF section name table (offset %llu, size %llu) lies outside the file",
			       (unsigned long long)sh->sh_offset, (unsigned long long)sh->sh_size);
	/* A table that does not end in NUL would let a name run off its end. */
	if (sh->sh_size == 0 || ev->data[sh->sh_offset + sh->sh_size - 1] != '\0')
		return err_set(EINVAL, "ELF section name table is empty or not NUL-terminated");
	ev->shstrtab = (const char *)ev->data + sh->sh_offset;
	ev->shstrtab_size = (size_t)sh->sh_size;
	return 0;
}

/* Every section's name and file range, checked once so that users of the
 * view may trust them (elf_sec_data still re-checks, it is cheap). */
static int check_sections(const struct elf_view *ev)
{
	for (size_t i = 1; i < ev->shnum; i++) {
		const Elf64_Shdr *sh = &ev->shdrs[i];

		if (ev->shstrtab && sh->sh_name >= ev->shstrtab_size)
			return err_set(EINVAL, "ELF section %zu name offset %u out of range (table is %zu bytes)",
				       i, sh->sh_name, ev->shstrtab_size);
		if (sh->sh_type == SHT_NOBITS || sh->sh_type == SHT_NULL)
			continue;
		if (!elf_range_ok(ev->size, sh->sh_offset, sh->sh_size))
			return err_set(EINVAL, "ELF section %zu '%s' (offset %llu, size %llu) lies outside the file (%zu bytes)",
				       i, elf_sec_name(ev, sh), (unsigned long long)sh->sh_offset,
				       (unsigned long long)sh->sh_size, ev->size);
	}
	return 0;
}

/* Program headers: PN_XNUM means the count is in section 0's sh_info. */
static int open_phdrs(struct elf_view *ev)
{
	const Elf64_Ehdr *eh = ev->ehdr;
	uint64_t n = eh->e_phnum;

	if (n == 0)
		return 0;
	/* Offset 0 is the ELF header itself: no table can live there. */
	if (eh->e_phoff == 0)
		return err_set(EINVAL, "ELF e_phnum is %u but e_phoff is 0", eh->e_phnum);
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return err_set(EINVAL, "ELF e_phentsize is %u, expected %zu",
			       eh->e_phentsize, sizeof(Elf64_Phdr));
	if (n == PN_XNUM) {
		if (!ev->shdrs)
			return err_set(EINVAL, "ELF e_phnum is PN_XNUM but there is no section 0");
		n = ev->shdrs[0].sh_info;
	}
	if (!elf_range_ok(ev->size, eh->e_phoff, 0) ||
	    n > (ev->size - eh->e_phoff) / sizeof(Elf64_Phdr))
		return err_set(EINVAL, "ELF program headers (offset %llu, %llu entries) lie past end of file (%zu bytes)",
			       (unsigned long long)eh->e_phoff, (unsigned long long)n, ev->size);
	if (!ELF_ALIGNED(ev->data + eh->e_phoff, Elf64_Phdr))
		return err_set(EINVAL, "ELF program headers at offset %llu are misaligned",
			       (unsigned long long)eh->e_phoff);
	ev->phdrs = (const Elf64_Phdr *)(ev->data + eh->e_phoff);
	ev->phnum = (size_t)n;
	for (size_t i = 0; i < ev->phnum; i++) {
		const Elf64_Phdr *ph = &ev->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (!elf_range_ok(ev->size, ph->p_offset, ph->p_filesz))
			return err_set(EINVAL, "ELF segment %zu (offset %llu, size %llu) lies outside the file",
				       i, (unsigned long long)ph->p_offset, (unsigned long long)ph->p_filesz);
		if (ph->p_filesz > ph->p_memsz)
			return err_set(EINVAL, "ELF segment %zu file size exceeds its memory size", i);
	}
	return 0;
}

int elf_open(struct elf_view *ev, const void *data, size_t size)
{
	int err;

	memset(ev, 0, sizeof(*ev));
	if (!data)
		return err_set(EINVAL, "no ELF data");
	ev->data = data;
	ev->size = size;
	/* The tables are read in place: the buffer must be aligned like them
	 * (mmap, malloc and the embedded objects' .balign 8 all are). */
	if (!ELF_ALIGNED(data, Elf64_Ehdr))
		return err_set(EINVAL, "ELF buffer is not 8-byte aligned");
	err = check_ident(ev, size);
	if (err)
		return err;
	ev->ehdr = data;
	err = open_shdrs(ev);
	if (!err)
		err = open_shstrtab(ev);
	if (!err)
		err = check_sections(ev);
	if (!err)
		err = open_phdrs(ev);
	if (err) {
		int swapped = ev->swapped;

		/* Leave no half-validated table behind for a careless caller. */
		memset(ev, 0, sizeof(*ev));
		ev->swapped = swapped;
	}
	return err;
}

int elf_check_kind(const struct elf_view *ev, unsigned type, unsigned machine)
{
	if (ev->ehdr->e_type != type)
		return err_set(EINVAL, "ELF type is %u, expected %u", ev->ehdr->e_type, type);
	if (ev->ehdr->e_machine != machine)
		return err_set(EINVAL, "ELF machine is %u, expected %u%s", ev->ehdr->e_machine, machine,
			       machine == EM_BPF ? " (EM_BPF: not a BPF object)" : "");
	return 0;
}

const Elf64_Shdr *elf_shdr(const struct elf_view *ev, size_t idx)
{
	return idx < ev->shnum ? &ev->shdrs[idx] : NULL;
}

const char *elf_sec_name(const struct elf_view *ev, const Elf64_Shdr *sh)
{
	const char *s = elf_str_at(ev->shstrtab, ev->shstrtab_size, sh->sh_name);

	return s ? s : "";
}

int elf_sec_data(const struct elf_view *ev, const Elf64_Shdr *sh, const void **data, size_t *size)
{
	*data = NULL;
	*size = 0;
	if (sh->sh_type == SHT_NOBITS) {
		if (sh->sh_size > SIZE_MAX)
			return err_set(EFBIG, "ELF section '%s' is too large", elf_sec_name(ev, sh));
		*size = (size_t)sh->sh_size;
		return 0;
	}
	if (!elf_range_ok(ev->size, sh->sh_offset, sh->sh_size))
		return err_set(EINVAL, "ELF section '%s' (offset %llu, size %llu) lies outside the file",
			       elf_sec_name(ev, sh), (unsigned long long)sh->sh_offset,
			       (unsigned long long)sh->sh_size);
	*data = ev->data + sh->sh_offset;
	*size = (size_t)sh->sh_size;
	return 0;
}

const Elf64_Shdr *elf_find_sec(const struct elf_view *ev, const char *name)
{
	for (size_t i = 1; i < ev->shnum; i++)
		if (strcmp(elf_sec_name(ev, &ev->shdrs[i]), name) == 0)
			return &ev->shdrs[i];
	return NULL;
}
