/* Page cache helpers the fs tools' BPF sides share (cachestat,
 * readahead). */
#ifndef COREBOX_PAGECACHE_BPF_H
#define COREBOX_PAGECACHE_BPF_H

#include "corebox.bpf.h"

/* struct folio as minimal CO-RE flavors (matched to the kernel's folio by
 * field names; the objects' BTF then carries these fields only): flags
 * is memdesc_flags_t since 6.17, a plain unsigned long before; the page
 * count is _nr_pages (6.15+), _folio_nr_pages (5.16 .. 6.14, 64-bit), or
 * an order in _flags_1's low byte. */
struct folio___pc {
	struct {
		unsigned long f;
	} flags;
	unsigned int _nr_pages;
	unsigned long _flags_1;
} __attribute__((preserve_access_index));
struct folio___ul {
	unsigned long flags;
	unsigned int _folio_nr_pages;
} __attribute__((preserve_access_index));

/* Pages in a folio (1 for a struct page of an older kernel: it has no
 * PG_head set): folio_nr_pages() through CO-RE. */
static __always_inline __u32 folio_pages(void *folio)
{
	struct folio___pc *f = folio;
	struct folio___ul *ul = folio;
	unsigned long flags = 0;

	if (bpf_core_field_exists(ul->flags))
		flags = BPF_CORE_READ(ul, flags);
	else
		flags = BPF_CORE_READ(f, flags.f);
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 1;
	if (bpf_core_field_exists(f->_nr_pages))
		return BPF_CORE_READ(f, _nr_pages);
	if (bpf_core_field_exists(ul->_folio_nr_pages))
		return BPF_CORE_READ(ul, _folio_nr_pages);
	if (bpf_core_field_exists(f->_flags_1))
		return 1U << (BPF_CORE_READ(f, _flags_1) & 0xff);
	return 1;
}

#endif
