/* BPF ring buffer consumer (mmap + epoll; busy/discard protocol). */
#ifndef COREBOX_RINGBUF_H
#define COREBOX_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

/* data is valid only during the call: the kernel reuses the space once
 * the record is consumed, and a record that wraps arrives in a buffer
 * the next wrapped one overwrites */
typedef int (*ringbuf_cb)(void *ctx, const void *data, size_t size);
struct ringbuf;
/* map_fd: a BPF_MAP_TYPE_RINGBUF map. */
struct ringbuf *ringbuf_new(int map_fd, ringbuf_cb cb, void *ctx);
/* Wait up to timeout_ms (-1 forever) and consume everything available.
 * Returns records consumed, or -EINTR / negative errno; a negative
 * callback return stops and is returned. */
int ringbuf_poll(struct ringbuf *rb, int timeout_ms);
/* Consume without waiting. */
int ringbuf_consume(struct ringbuf *rb);
int ringbuf_epoll_fd(const struct ringbuf *rb);
void ringbuf_free(struct ringbuf *rb);

#endif
