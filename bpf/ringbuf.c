/* BPF ring buffer consumer.
 *
 * Layout (kernel/bpf/ringbuf.c): page 0 holds consumer_pos (we write it),
 * page 1 holds producer_pos (read-only for us), then the data area, which
 * the kernel offers twice back to back so that a record that wraps is
 * contiguous.  We map it once: every mapped page counts in our resident
 * memory (the second copy made half of systrace's RSS), and the rare
 * record that wraps is copied into a bounce buffer instead.
 * Each record has an 8-byte header {u32 len; u32 pg_off}; len carries the
 * BUSY (not yet committed) and DISCARD bits; records are 8-byte aligned. */
#include "ringbuf.h"
#include "sys.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

struct ringbuf {
	int map_fd, epoll_fd;
	unsigned long *consumer_pos;
	const unsigned long *producer_pos;
	const uint8_t *data;
	uint64_t mask;
	size_t page, prod_len;
	uint8_t *bounce;	/* a wrapped record, made contiguous */
	size_t bounce_cap;
	ringbuf_cb cb;
	void *ctx;
};

struct ringbuf *ringbuf_new(int map_fd, ringbuf_cb cb, void *ctx)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	struct ringbuf *rb;
	struct epoll_event ev;
	uint64_t plen;
	void *p;
	int r;

	memset(&info, 0, sizeof(info));
	r = bpf_obj_info(map_fd, &info, &len);
	if (r < 0) {
		err_prefix(r, "ring buffer");
		return NULL;
	}
	if (info.type != BPF_MAP_TYPE_RINGBUF) {
		err_set(EINVAL, "map %s is not a ring buffer (type %u)", info.name, info.type);
		return NULL;
	}
	rb = xcalloc(1, sizeof(*rb));
	rb->map_fd = map_fd;
	rb->epoll_fd = -1;
	rb->cb = cb;
	rb->ctx = ctx;
	rb->page = (size_t)sysconf(_SC_PAGESIZE);
	rb->mask = (uint64_t)info.max_entries - 1;

	p = mmap(NULL, rb->page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED) {
		err_sys(errno, "cannot mmap ring buffer consumer page");
		goto fail;
	}
	rb->consumer_pos = p;
	/* 64-bit arithmetic: max_entries + a page can overflow a 32-bit size_t. */
	plen = (uint64_t)rb->page + (uint64_t)info.max_entries;
	if (plen > SIZE_MAX) {
		err_set(E2BIG, "ring buffer of %u bytes too large for this address space",
			info.max_entries);
		goto fail;
	}
	p = mmap(NULL, (size_t)plen, PROT_READ, MAP_SHARED, map_fd, (off_t)rb->page);
	if (p == MAP_FAILED) {
		err_sys(errno, "cannot mmap ring buffer data");
		goto fail;
	}
	rb->prod_len = (size_t)plen;
	rb->producer_pos = p;
	rb->data = (const uint8_t *)p + rb->page;

	rb->epoll_fd = fd_good(epoll_create1(EPOLL_CLOEXEC));
	if (rb->epoll_fd < 0) {
		err_sys(errno, "epoll_create1");
		goto fail;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	if (epoll_ctl(rb->epoll_fd, EPOLL_CTL_ADD, map_fd, &ev) < 0) {
		err_sys(errno, "epoll_ctl on ring buffer");
		goto fail;
	}
	return rb;
fail:
	ringbuf_free(rb);
	return NULL;
}

/* The record's sz bytes after its header at ring offset off, contiguous:
 * in place, or copied into the bounce buffer when they run past the end
 * of the (once mapped) data area.  Headers are 8-byte aligned and the
 * area a multiple of 8, so a header itself never wraps. */
static const uint8_t *record_body(struct ringbuf *rb, uint64_t off, size_t sz)
{
	size_t size = (size_t)rb->mask + 1;
	size_t start = (size_t)off + BPF_RINGBUF_HDR_SZ;	/* <= size */
	size_t first;

	if (start + sz <= size)
		return rb->data + start;
	if (sz > rb->bounce_cap) {
		free(rb->bounce);
		rb->bounce = xmalloc(sz);
		rb->bounce_cap = sz;
	}
	first = size - start;	/* the part before the end, maybe none */
	memcpy(rb->bounce, rb->data + start, first);
	memcpy(rb->bounce + first, rb->data, sz - first);
	return rb->bounce;
}

int ringbuf_consume(struct ringbuf *rb)
{
	unsigned long cons, prod, start;
	int cnt = 0;
	bool more;

	cons = __atomic_load_n(rb->consumer_pos, __ATOMIC_ACQUIRE);
	start = cons;
	do {
		more = false;
		prod = __atomic_load_n(rb->producer_pos, __ATOMIC_ACQUIRE);
		/* at most one buffer's worth per call: a producer as fast as
		 * the consumer would otherwise keep the caller here for good
		 * (deaf to signals) */
		if (prod - start > rb->mask + 1)
			prod = start + rb->mask + 1;
		while (cons < prod) {
			uint64_t off = cons & rb->mask;
			const uint32_t *hdr = (const uint32_t *)(rb->data + off);
			uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
			uint64_t sz;

			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out; /* reserved, not yet committed */
			more = true;
			sz = len & ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
			cons += (unsigned long)((sz + BPF_RINGBUF_HDR_SZ + 7) & ~7ull);
			if (!(len & BPF_RINGBUF_DISCARD_BIT) && sz <= rb->mask + 1) {
				int r = rb->cb(rb->ctx, record_body(rb, off, (size_t)sz),
					       (size_t)sz);

				if (r < 0) {
					__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
					return r;
				}
				if (cnt < INT_MAX)
					cnt++;
			}
			__atomic_store_n(rb->consumer_pos, cons, __ATOMIC_RELEASE);
		}
	} while (more);
out:
	return cnt;
}

int ringbuf_poll(struct ringbuf *rb, int timeout_ms)
{
	struct epoll_event ev;
	int n = epoll_wait(rb->epoll_fd, &ev, 1, timeout_ms);

	if (n < 0)
		return errno == EINTR ? -EINTR : err_sys(errno, "epoll_wait on ring buffer");
	return ringbuf_consume(rb);
}

int ringbuf_epoll_fd(const struct ringbuf *rb)
{
	return rb->epoll_fd;
}

void ringbuf_free(struct ringbuf *rb)
{
	if (!rb)
		return;
	if (rb->consumer_pos)
		munmap(rb->consumer_pos, rb->page);
	if (rb->producer_pos)
		munmap((void *)rb->producer_pos, rb->prod_len);
	if (rb->epoll_fd >= 0)
		close(rb->epoll_fd);
	free(rb->bounce);
	free(rb);
}
