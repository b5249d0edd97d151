/* libFuzzer harness: btf_new() on arbitrary bytes (borrowed and copied),
 * then every lookup over every type, and the C dumper, whose output must
 * never carry a byte a name could have smuggled in (only printable ASCII,
 * newlines and tabs; no preprocessor line but its own), and whose error
 * messages never a control byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tests/fuzz/btf_walk.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	struct btf *btf, *copy;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	err_clear();
	btf = btf_new(buf, size, 0, NULL);
	if (btf) {
		btf_walk(btf);
		/* A private copy must parse identically. */
		copy = btf_new(buf, size, 1, NULL);
		if (!copy || btf_nr_types(copy) != btf_nr_types(btf))
			__builtin_trap();
		for (uint32_t id = 1; id < btf_nr_types(copy); id++)
			if (!btf_type_mut(copy, id))
				__builtin_trap();
		btf_free(copy);
		{
			char *out = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&out, &n);

			if (f) {
				int r = btf_dump_c(btf, f, NULL);

				fclose(f);
				for (size_t i = 0; !r && i < n; i++)
					if ((out[i] < 0x20 && out[i] != '\n' && out[i] != '\t') || (unsigned char)out[i] >= 0x7f)
						__builtin_trap();
				if (!r && out && strstr(out, "#include"))
					__builtin_trap();
				for (const char *m = err_msg(); r && *m; m++)
					if ((unsigned char)*m < 0x20 || *m == 0x7f)
						__builtin_trap();
				free(out);
			}
		}
		(void)devnull;
		btf_free(btf);
	}
	free(buf);
	return 0;
}
