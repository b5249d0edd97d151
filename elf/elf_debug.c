/* Where a binary's separate debug file may be, as gdb looks for it: the
 * build-id path first, then the .gnu_debuglink name next to the file, in
 * its .debug/ and under /usr/lib/debug.  Both the stack symbolizer and
 * bpftrace's uprobe wildcards (Debian's libc6-dbg names the static
 * functions .dynsym lacks) read these files; each decides how to open a
 * candidate (in a process's root, checking the link's CRC or not). */
#include "elf/elf.h"

#include <stdio.h>
#include <string.h>

int elf_build_id(const struct elf_view *ev, char *hex, size_t size)
{
	for (size_t i = 0; i < ev->shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(ev, i);
		const uint8_t *p, *end;
		const void *data;
		size_t len;

		if (!sh || sh->sh_type != SHT_NOTE || elf_sec_data(ev, sh, &data, &len) < 0 || !data)
			continue;
		for (p = data, end = p + len; end - p >= 12;) {
			uint32_t nsz, dsz, type;
			size_t nal, dal;

			memcpy(&nsz, p, 4);
			memcpy(&dsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			nal = ((size_t)nsz + 3) & ~(size_t)3;
			dal = ((size_t)dsz + 3) & ~(size_t)3;
			if (nsz > len || dsz > len || nal + dal > (size_t)(end - p) - 12)
				break;
			if (type == NT_GNU_BUILD_ID && nsz == 4 && !memcmp(p + 12, "GNU", 4) && dsz >= 2 &&
			    dsz * 2 < size) {
				for (uint32_t k = 0; k < dsz; k++)
					snprintf(hex + 2 * k, 3, "%02x", p[12 + nal + k]);
				return 1;
			}
			p += 12 + nal + dal;
		}
	}
	return 0;
}

int elf_debug_files(const struct elf_view *ev, const char *path,
		    int (*try)(void *ctx, const char *cand, int check_crc, uint32_t crc), void *ctx)
{
	static const char *const fmt[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
	char id[130], cand[4200];
	const Elf64_Shdr *sh;
	const void *data;
	const char *slash = strrchr(path, '/');
	size_t len;

	if (elf_build_id(ev, id, sizeof(id))) {
		snprintf(cand, sizeof(cand), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
		if (try(ctx, cand, 0, 0))
			return 1;
	}
	sh = elf_find_sec(ev, ".gnu_debuglink");
	if (!sh || elf_sec_data(ev, sh, &data, &len) < 0 || !data || !slash)
		return 0;
	/* the name, NUL, padding to 4, then the CRC-32 of the debug file */
	const char *name = data;
	size_t nl = strnlen(name, len), at = (nl + 4) & ~(size_t)3;
	uint32_t crc;

	if (!nl || nl >= len || at + 4 > len || strchr(name, '/'))
		return 0;
	memcpy(&crc, (const uint8_t *)data + at, 4);
	for (int k = 0; k < 3; k++) {
		snprintf(cand, sizeof(cand), fmt[k], (int)(slash - path), path, name);
		if (strcmp(cand, path) && try(ctx, cand, 1, crc))
			return 1;
	}
	return 0;
}
