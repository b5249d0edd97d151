/* ttysnoop, kernel side: the data written to one tty (matched by its
 * inode number), taken at tty_write(struct kiocb *, struct iov_iter *)
 * (5.11+) with fentry or a kprobe, in chunks of read_bytes, at most
 * read_count of them per write, as libbpf-tools.  tty_write has no
 * tracepoint.  The user buffer is the iterator's ubuf (ITER_UBUF: a plain
 * write(2) since 6.x) or its first iovec (ITER_IOVEC: writev). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "ttysnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 pts_ino = 0;
const volatile __u32 read_bytes = 256;
const volatile __u32 read_count = 16;

CB_HEAP(heap, struct ttysnoop_event);

struct iovec___tty {
	void *iov_base;
	__u64 iov_len;
} __attribute__((preserve_access_index));

/* count and ubuf are at the top level before 6.4 and in anonymous
 * members after; the iovec pointer is iov before 6.4, __iov after */
struct iov_iter___tty {
	__u8 iter_type;
	bool data_source;
	__u64 count;
	void *ubuf;
	const struct iovec___tty *iov;
	const struct iovec___tty *__iov;
} __attribute__((preserve_access_index));

enum iter_type___tty { ITER_UBUF___tty = 1, ITER_IOVEC___tty = 2 };

struct inode___tty {
	unsigned long i_ino;
} __attribute__((preserve_access_index));
struct file___tty {
	struct inode___tty *f_inode;
} __attribute__((preserve_access_index));
struct kiocb___tty {
	struct file___tty *ki_filp;
} __attribute__((preserve_access_index));

static __always_inline int send(void *ctx, const char *buf, __u64 count)
{
	__u32 zero = 0;
	struct ttysnoop_event *e = bpf_map_lookup_elem(&heap, &zero);

	if (!e)
		return 0;
	for (int i = 0; i < TTY_MAX_CHUNKS && i < read_count && count; i++) {
		__u32 n = count < read_bytes ? count : read_bytes;

		n &= TTY_BUF - 1;
		if (!n)
			break;
		if (bpf_probe_read_user(e->buf, n, buf))
			return 0;
		e->count = n;
		events_output(ctx, e, (__u64)(sizeof(*e) - TTY_BUF) + (n & (TTY_BUF - 1)));
		count -= n;
		buf += n;
	}
	return 0;
}

static __always_inline int tty_write(void *ctx, struct kiocb___tty *iocb, struct iov_iter___tty *from)
{
	const char *buf;
	__u64 count;
	__u8 type;

	if (BPF_CORE_READ(iocb, ki_filp, f_inode, i_ino) != pts_ino)
		return 0;
	if (!BPF_CORE_READ(from, data_source)) /* not a write */
		return 0;
	type = BPF_CORE_READ(from, iter_type);
	count = BPF_CORE_READ(from, count);
	if (bpf_core_enum_value_exists(enum iter_type___tty, ITER_UBUF___tty) &&
	    type == bpf_core_enum_value(enum iter_type___tty, ITER_UBUF___tty)) {
		buf = BPF_CORE_READ(from, ubuf);
	} else if (type == bpf_core_enum_value(enum iter_type___tty, ITER_IOVEC___tty)) {
		const struct iovec___tty *iov;
		__u64 len;

		if (bpf_core_field_exists(from->__iov))
			iov = BPF_CORE_READ(from, __iov);
		else
			iov = BPF_CORE_READ(from, iov);
		buf = BPF_CORE_READ(iov, iov_base);
		len = BPF_CORE_READ(iov, iov_len);
		if (len < count)
			count = len;
	} else {
		return 0;
	}
	return send(ctx, buf, count);
}

SEC("fentry/tty_write")
int BPF_PROG(tty_write_fentry, struct kiocb___tty *iocb, struct iov_iter___tty *from)
{
	return tty_write(ctx, iocb, from);
}

SEC("kprobe/tty_write")
int tty_write_kprobe(struct pt_regs *ctx)
{
	return tty_write(ctx, (void *)PT_REGS_PARM1(ctx), (void *)PT_REGS_PARM2(ctx));
}
