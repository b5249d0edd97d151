/* libFuzzer harness: demangle() on arbitrary bytes (a NUL-terminated
 * copy), into output buffers of several sizes; the result must be NULL or
 * a NUL-terminated string inside the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[] = { 1024, 64, 7 };
	char *s = malloc(size + 1), out[1024];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const char *r = demangle(s, out, sizes[i]);

		if (r && (r != out || strnlen(out, sizes[i]) >= sizes[i]))
			abort();
	}
	free(s);
	return 0;
}
