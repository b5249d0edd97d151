/* .BTF.ext: func_info, line_info and CO-RE relocation records.
 *
 * Layout (all offsets relative to the end of the header):
 *   header: magic u16, version u8, flags u8, hdr_len u32,
 *           func_info off/len, line_info off/len [, core_relo off/len]
 *   each subsection: u32 rec_size, then blocks of
 *           { u32 sec_name_off, u32 num_info, num_info * rec_size bytes }
 * Records are not copied: the btf_ext_sec entries point into `data`.
 * Record sizes may grow in later formats; we only require the fields we
 * read and keep the size from the file. */
#include "btf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

struct ext_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_off, func_len;
	uint32_t line_off, line_len;
	uint32_t core_off, core_len; /* present when hdr_len covers it */
};

#define EXT_MIN_HDR_LEN 24u  /* magic..line_info_len */
#define EXT_CORE_HDR_LEN 32u /* with core_relo_off/len */

/* Parse one subsection into a freshly allocated array of blocks. */
static int parse_sub(const char *what, const uint8_t *p, uint32_t len, uint32_t min_rec,
		     const struct btf *btf, struct btf_ext_sec **secs, uint32_t *nr, uint32_t *rec_size)
{
	uint32_t rs, pos, n = 0, pass;

	if (!len)
		return 0;
	if ((uintptr_t)p & 3)
		return err_set(EINVAL, ".BTF.ext %s is not 4-byte aligned", what);
	if (len < 4)
		return err_set(EINVAL, ".BTF.ext %s too short (%u bytes)", what, len);
	rs = *(const uint32_t *)p;
	if (rs < min_rec || rs & 3)
		return err_set(EINVAL, ".BTF.ext %s record size %u is invalid (at least %u, multiple of 4)",
			       what, rs, min_rec);
	/* pass 0 validates and counts, pass 1 fills */
	for (pass = 0; pass < 2; pass++) {
		uint32_t i = 0;

		if (pass == 1) {
			if (!n)
				return 0;
			*secs = xcalloc(n, sizeof(**secs));
		}
		for (pos = 4; pos < len; i++) {
			uint32_t name_off, num;
			const char *name;

			if (len - pos < 8)
				return err_set(EINVAL, ".BTF.ext %s block %u truncated", what, i);
			name_off = *(const uint32_t *)(p + pos);
			num = *(const uint32_t *)(p + pos + 4);
			pos += 8;
			if (!num)
				return err_set(EINVAL, ".BTF.ext %s block %u has no records", what, i);
			if ((uint64_t)num * rs > len - pos)
				return err_set(EINVAL, ".BTF.ext %s block %u: %u records of %u bytes run past the end",
					       what, i, num, rs);
			name = btf_str(btf, name_off);
			if (!name || !*name)
				return err_set(EINVAL, ".BTF.ext %s block %u: bad section name offset %u",
					       what, i, name_off);
			if (pass == 1) {
				(*secs)[i].sec_name = name;
				(*secs)[i].recs = p + pos;
				(*secs)[i].nr = num;
				(*secs)[i].rec_size = rs;
			}
			pos += num * rs;
		}
		n = i;
	}
	*nr = n;
	*rec_size = rs;
	return 0;
}

/* Check that one subsection lies inside the data; 0 or -EINVAL. */
static int sub_bounds(const char *what, size_t size, uint32_t hdr_len, uint32_t off, uint32_t len)
{
	if ((uint64_t)hdr_len + off + len > size)
		return err_set(EINVAL, ".BTF.ext %s (offset %u, %u bytes) lies outside the section (%zu bytes)",
			       what, off, len, size);
	return 0;
}

int btf_ext_parse(struct btf_ext *ext, const void *data, size_t size, const struct btf *btf)
{
	struct ext_header h = { 0 };
	const uint8_t *base = data;
	int err;

	memset(ext, 0, sizeof(*ext));
	if (!data || size < 8)
		return err_set(EINVAL, ".BTF.ext too small (%zu bytes)", data ? size : 0);
	memcpy(&h, data, 8);
	if (h.magic != BTF_MAGIC)
		return err_set(EINVAL, ".BTF.ext has bad magic 0x%04x", h.magic);
	if (h.version != BTF_VERSION)
		return err_set(ENOTSUP, "unsupported .BTF.ext version %u", h.version);
	if (h.hdr_len < EXT_MIN_HDR_LEN || h.hdr_len > size)
		return err_set(EINVAL, "bad .BTF.ext header length %u (section is %zu bytes)", h.hdr_len, size);
	memcpy(&h, data, h.hdr_len < sizeof(h) ? h.hdr_len : sizeof(h));
	if (h.hdr_len < EXT_CORE_HDR_LEN)
		h.core_off = h.core_len = 0;

	base += h.hdr_len;
	if ((err = sub_bounds("func_info", size, h.hdr_len, h.func_off, h.func_len)) ||
	    (err = sub_bounds("line_info", size, h.hdr_len, h.line_off, h.line_len)) ||
	    (err = sub_bounds("core_relo", size, h.hdr_len, h.core_off, h.core_len)))
		return err;
	if ((err = parse_sub("func_info", base + h.func_off, h.func_len, 8, btf,
			     &ext->func, &ext->nr_func, &ext->func_rec_size)) ||
	    (err = parse_sub("line_info", base + h.line_off, h.line_len, 16, btf,
			     &ext->line, &ext->nr_line, &ext->line_rec_size)) ||
	    (err = parse_sub("core_relo", base + h.core_off, h.core_len, 16, btf,
			     &ext->core, &ext->nr_core, &ext->core_rec_size))) {
		btf_ext_free(ext);
		return err;
	}
	return 0;
}

void btf_ext_free(struct btf_ext *ext)
{
	free(ext->func);
	free(ext->line);
	free(ext->core);
	memset(ext, 0, sizeof(*ext));
}
