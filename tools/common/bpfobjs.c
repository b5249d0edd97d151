/* The embedded BPF objects' shared dictionary.
 *
 * The Makefile packs each tool's object against one preset dictionary
 * (tools/bpfpack.py: the bytes the objects have in common, stored once)
 * and embeds that dictionary as it is (6 KiB; packed it cost each
 * start ~0.3 ms to unpack) as corebox_bpf_dict (build/bpfobjs.S).
 *
 * The symbols are weak: the unit tests and fuzz harnesses link
 * tools/common without the embedded objects, and there the dictionary is
 * simply absent (an object that needs it fails to open with a message). */
#include "bpfobjs.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/inflate.h"

extern const char corebox_bpf_dict[] __attribute__((weak));
extern const char corebox_bpf_dict_end[] __attribute__((weak));

int bpf_dict(const void **dict, size_t *len)
{
	const char *start = corebox_bpf_dict, *end = corebox_bpf_dict_end;

	*dict = start && end > start ? start : NULL;
	*len = *dict ? (size_t)(end - start) : 0;
	return 0;
}

int bpf_obj_unpack(const void *data, size_t size, char **raw, size_t *len)
{
	const void *dict;
	size_t dict_len;
	int err;

	*raw = NULL;
	*len = size;
	if (size >= 2 && ((const uint8_t *)data)[0] == 0x1f && ((const uint8_t *)data)[1] == 0x8b)
		return gunzip(data, size, raw, len, 64u << 20);
	if (!cbz_is(data, size))
		return 0;
	if ((err = bpf_dict(&dict, &dict_len)))
		return err;
	return cbz_unpack(data, size, dict, dict_len, raw, len, 64u << 20);
}
