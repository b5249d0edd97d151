/* libFuzzer harness: elf_open() on arbitrary bytes, then every reader
 * (sections, names, data, symbol tables, function offsets) via elf_walk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	free(buf);
	return 0;
}
