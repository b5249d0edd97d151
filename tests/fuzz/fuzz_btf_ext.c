/* libFuzzer harness: .BTF.ext parsing.  Input = 4-byte little-endian
 * length L, then L bytes of .BTF, then the .BTF.ext bytes (L is taken
 * modulo the remaining size, so every input splits somewhere). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tests/fuzz/btf_walk.h"

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

/* The parse promises nr records of rec_size bytes each, in the blob. */
static unsigned touch_secs(const struct btf_ext_sec *secs, uint32_t nsec)
{
	unsigned sink = 0;

	for (uint32_t i = 0; secs && i < nsec; i++) {
		const unsigned char *r = secs[i].recs;

		sink += secs[i].sec_name ? (unsigned)strlen(secs[i].sec_name) : 0;
		for (uint64_t k = 0; r && k < (uint64_t)secs[i].nr * secs[i].rec_size; k++)
			sink += r[k];
	}
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned sink = 0;
	struct btf_ext ext;
	struct btf *btf;
	uint8_t *bbuf, *ebuf;
	size_t blen;

	if (size < 4)
		return 0;
	blen = (size_t)(data[0] | data[1] << 8 | data[2] << 16 | (uint32_t)data[3] << 24) % (size - 4 + 1);
	bbuf = dup_exact(data + 4, blen);
	ebuf = dup_exact(data + 4 + blen, size - 4 - blen);
	err_clear();
	btf = bbuf ? btf_new(bbuf, blen, 1, NULL) : NULL;
	if (btf && ebuf) {
		memset(&ext, 0, sizeof(ext));
		if (btf_ext_parse(&ext, ebuf, size - 4 - blen, btf) == 0) {
			sink += touch_secs(ext.func, ext.nr_func);
			sink += touch_secs(ext.line, ext.nr_line);
			sink += touch_secs(ext.core, ext.nr_core);
		}
		btf_ext_free(&ext); /* documented safe after a failed parse too */
	}
	if (btf)
		btf_free(btf);
	free(bbuf);
	free(ebuf);
	(void)sink;
	return 0;
}
