/* Perf buffer consumer: one BPF_OUTPUT perf event + mmap ring per online
 * CPU, stored in a PERF_EVENT_ARRAY map; lost records are counted. */
#ifndef COREBOX_PERFBUF_H
#define COREBOX_PERFBUF_H

#include <stddef.h>
#include <stdint.h>

typedef int (*perfbuf_cb)(void *ctx, int cpu, const void *data, size_t size);
typedef void (*perfbuf_lost_cb)(void *ctx, int cpu, uint64_t lost);
struct perfbuf;
/* page_cnt: data pages per CPU, rounded up to a power of two (0: 8).
 * Memory: (1 + pages) * page_size per online CPU. */
struct perfbuf *perfbuf_new(int map_fd, unsigned page_cnt, perfbuf_cb cb,
			    perfbuf_lost_cb lost_cb, void *ctx);
int perfbuf_poll(struct perfbuf *pb, int timeout_ms);
uint64_t perfbuf_lost(const struct perfbuf *pb);
void perfbuf_free(struct perfbuf *pb);

#endif
