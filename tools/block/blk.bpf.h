/* What the block tools' BPF sides share: a request's disk as the
 * kernel's dev_t and the request argument of block_rq_insert/issue.
 * Kernel memory is read with CO-RE probe reads only, so the same code is
 * valid as tp_btf and as raw_tp. */
#ifndef COREBOX_BLK_BPF_H
#define COREBOX_BLK_BPF_H

#include "corebox.bpf.h"

#define MINORBITS 20

/* 1 on kernels < 5.11, where block_rq_insert/issue take (q, rq): set by
 * the user side from the tracepoint's BTF (blk_rq_is_second_arg). */
const volatile __u8 rq_arg1 = 0;

/* The request of a block_rq_insert/issue program's u64 context. */
#define BLK_RQ_ARG(ctx) ((struct request *)(rq_arg1 ? (ctx)[1] : (ctx)[0]))

/* Kernels before 5.17 keep the disk in the request itself. */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

/* major << 20 | first_minor of the request's disk, 0 if none. */
static __always_inline __u32 rq_dev(struct request *rq)
{
	struct request___old *old = (void *)rq;
	struct request_queue *q;
	struct gendisk *disk;

	if (bpf_core_field_exists(old->rq_disk)) {
		disk = BPF_CORE_READ(old, rq_disk);
	} else {
		q = BPF_CORE_READ(rq, q);
		disk = BPF_CORE_READ(q, disk);
	}
	if (!disk)
		return 0;
	return ((__u32)BPF_CORE_READ(disk, major) << MINORBITS) | (__u32)BPF_CORE_READ(disk, first_minor);
}

#endif
