/* libFuzzer harness: elf_open() on arbitrary bytes, then every reader
 * (sections, names, data, symbol tables, function offsets) via elf_walk;
 * a 32-bit file is first widened (elf32_widen) and its image walked. */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "elf.h"
#include "err.h"
#include "tests/fuzz/elf_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exact-size, malloc-aligned copy: the reader requires 8-byte
	 * alignment, and ASan flags the first byte read past the end. */
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	err_clear();
	elf_walk(buf, size);
	if (size > EI_CLASS && !memcmp(buf, ELFMAG, SELFMAG) && buf[EI_CLASS] == ELFCLASS32) {
		const void *w;
		size_t wsize;

		err_clear();
		if (elf32_widen(-1, buf, size, &w, &wsize) == 0) {
			elf_walk(w, wsize);
			munmap((void *)w, wsize);
		}
	}
	free(buf);
	return 0;
}
