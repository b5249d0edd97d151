/* extfrag: the count key shared by the BPF and user sides. */
#ifndef COREBOX_EXTFRAG_H
#define COREBOX_EXTFRAG_H

#define EXTFRAG_MAX_ENTRIES 10240

struct extfrag_key {
	int alloc_order, fallback_order;
	int alloc_mt, fallback_mt;         /* enum migratetype */
	int change_ownership;              /* the pageblock was taken over */
	int stack_id;                      /* kernel stack (-s), else -1 */
};

#endif
