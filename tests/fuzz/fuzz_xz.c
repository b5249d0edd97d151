/* libFuzzer harness: xz_decode() on arbitrary bytes (exact-size copy),
 * output bounded to 4 MiB. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1), *out;
	size_t n;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	err_clear();
	if (xz_decode(buf, size, &out, &n, 4u << 20) == 0)
		free(out);
	free(buf);
	return 0;
}
