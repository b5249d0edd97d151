/* Helpers shared by the elf/ files only (not part of the API). */
#ifndef COREBOX_ELF_PRIV_H
#define COREBOX_ELF_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Does [off, off + len) lie inside a buffer of size bytes?  Written so
 * that no addition can wrap, whatever the (untrusted) operands are. */
static inline int elf_range_ok(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/* NUL-terminated string at off in a table of size bytes, or NULL when
 * the offset is past the end or the string runs off the table. */
static inline const char *elf_str_at(const char *tab, size_t size, uint64_t off)
{
	if (!tab || off >= size)
		return NULL;
	if (!memchr(tab + off, '\0', size - off))
		return NULL;
	return tab + off;
}

/* Is the pointer suitably aligned for the structure read through it?
 * Tables are read in place, so a misaligned one would be undefined
 * behaviour (and a trap on strict-alignment machines). */
#define ELF_ALIGNED(p, type) (((uintptr_t)(p) % _Alignof(type)) == 0)

#endif
