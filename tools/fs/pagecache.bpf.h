/* Page cache helpers the fs tools' BPF sides share (cachestat,
 * readahead). */
#ifndef COREBOX_PAGECACHE_BPF_H
#define COREBOX_PAGECACHE_BPF_H

#include "corebox.bpf.h"

/* Older layouts of struct folio's page count (CO-RE flavors). */
struct folio___nr {
	unsigned int _folio_nr_pages; /* 5.16 .. 6.14, 64-bit */
} __attribute__((preserve_access_index));

/* Pages in a folio (1 for a struct page of an older kernel: it has no
 * PG_head set): folio_nr_pages() through CO-RE. */
static __always_inline __u32 folio_pages(struct folio *f)
{
	struct folio___nr *old = (void *)f;
	unsigned long flags = 0;

	bpf_probe_read_kernel(&flags, sizeof(flags), (const void *)__builtin_preserve_access_index(&f->flags));
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 1;
	if (bpf_core_field_exists(f->_nr_pages))
		return BPF_CORE_READ(f, _nr_pages);
	if (bpf_core_field_exists(old->_folio_nr_pages))
		return BPF_CORE_READ(old, _folio_nr_pages);
	if (bpf_core_field_exists(f->_flags_1))
		return 1U << (BPF_CORE_READ(f, _flags_1) & 0xff);
	return 1;
}

#endif
