/* cachestat: what the BPF side and the user side share. */
#ifndef COREBOX_CACHESTAT_H
#define COREBOX_CACHESTAT_H

/* Running totals since start (the user side takes differences): calls of
 * the page cache functions, or pages where tracepoints count (pages). */
struct cachestat_counts {
	__s64 accessed; /* folio_mark_accessed / mark_page_accessed */
	__s64 added;    /* filemap_add_folio / add_to_page_cache_lru */
	__s64 mbd;      /* mark_buffer_dirty */
	__s64 dirtied;  /* folio_account_dirtied / account_page_dirtied */
};

#endif
