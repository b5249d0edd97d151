/* Page cache helpers the fs tools' BPF sides share (cachestat,
 * readahead). */
#ifndef COREBOX_PAGECACHE_BPF_H
#define COREBOX_PAGECACHE_BPF_H

#include "corebox.bpf.h"

/* Older layouts of struct folio (CO-RE flavors): flags a plain unsigned
 * long before 6.17 (memdesc_flags_t since), the page count in
 * _folio_nr_pages from 5.16 to 6.14 (64-bit; _nr_pages since). */
struct folio___ul {
	unsigned long flags;
} __attribute__((preserve_access_index));
struct folio___nr {
	unsigned int _folio_nr_pages;
} __attribute__((preserve_access_index));

/* Pages in a folio (1 for a struct page of an older kernel: it has no
 * PG_head set): folio_nr_pages() through CO-RE. */
static __always_inline __u32 folio_pages(struct folio *f)
{
	struct folio___ul *ul = (void *)f;
	struct folio___nr *nr = (void *)f;
	unsigned long flags = 0;

	if (bpf_core_field_exists(ul->flags))
		flags = BPF_CORE_READ(ul, flags);
	else
		flags = BPF_CORE_READ(f, flags.f);
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 1;
	if (bpf_core_field_exists(f->_nr_pages))
		return BPF_CORE_READ(f, _nr_pages);
	if (bpf_core_field_exists(nr->_folio_nr_pages))
		return BPF_CORE_READ(nr, _folio_nr_pages);
	if (bpf_core_field_exists(f->_flags_1))
		return 1U << (BPF_CORE_READ(f, _flags_1) & 0xff);
	return 1;
}

#endif
