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

/* The kernel structures read, as minimal CO-RE flavors (matched to the
 * kernel's request, request_queue, gendisk by field names): the objects'
 * BTF carries these fields, not the block layer's whole type graph. */
struct gendisk___blk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));
struct request_queue___blk {
	void *elevator;
	struct gendisk___blk *disk;
} __attribute__((preserve_access_index));
struct request___blk {
	struct request_queue___blk *q;
	__u32 cmd_flags;
	unsigned int __data_len;
	__u64 __sector;
	struct gendisk___blk *rq_disk; /* before 5.17 */
} __attribute__((preserve_access_index));

/* The request of a block_rq_insert/issue program's u64 context. */
#define BLK_RQ_ARG(ctx) ((struct request___blk *)(rq_arg1 ? (ctx)[1] : (ctx)[0]))

/* The block_rq_insert and block_rq_issue programs of a tool that stamps
 * the start of a request (biolatency, biosnoop): both call
 * start(rq, insert), insert 1 from block_rq_insert, 0 from block_rq_issue.
 * One definition, so the tools see the same request argument. */
#define BLK_RQ_START_PROGS(start)                                     \
	SEC("tp_btf/block_rq_insert")                                 \
	int block_rq_insert(unsigned long long *ctx)                  \
	{                                                             \
		return start(BLK_RQ_ARG(ctx), 1);                     \
	}                                                             \
	SEC("tp_btf/block_rq_issue")                                  \
	int block_rq_issue(unsigned long long *ctx)                   \
	{                                                             \
		return start(BLK_RQ_ARG(ctx), 0);                     \
	}

/* major << 20 | first_minor of the request's disk, 0 if none. */
static __always_inline __u32 rq_dev(struct request___blk *rq)
{
	struct gendisk___blk *disk;

	if (bpf_core_field_exists(rq->rq_disk))
		disk = BPF_CORE_READ(rq, rq_disk);
	else
		disk = BPF_CORE_READ(rq, q, disk);
	if (!disk)
		return 0;
	return ((__u32)BPF_CORE_READ(disk, major) << MINORBITS) | (__u32)BPF_CORE_READ(disk, first_minor);
}

#endif
