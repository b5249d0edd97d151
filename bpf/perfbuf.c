/* Perf buffer consumer: per CPU a PERF_COUNT_SW_BPF_OUTPUT event whose
 * ring (1 header page + 2^n data pages) receives bpf_perf_event_output()
 * records; the event fd is stored in the PERF_EVENT_ARRAY at key = cpu. */
#include "perfbuf.h"
#include "cpus.h"
#include "perf.h"
#include "sys.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

#define PAGE_CNT_DEFAULT 8
#define PAGE_CNT_MAX (1u << 16)

struct pb_cpu {
	int cpu, fd;
	void *base; /* header page + data */
};

struct perfbuf {
	int map_fd, epoll_fd;
	struct pb_cpu *cpus;
	int ncpu;
	size_t page, data_size, mmap_size;
	uint8_t *scratch;
	size_t scratch_size;
	uint64_t lost;
	perfbuf_cb cb;
	perfbuf_lost_cb lost_cb;
	void *ctx;
	struct epoll_event *evs;
};

struct perfbuf *perfbuf_new(int map_fd, unsigned page_cnt, perfbuf_cb cb,
			    perfbuf_lost_cb lost_cb, void *ctx)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	struct perfbuf *pb;
	bool *online = NULL;
	unsigned pages = 1;
	int r, n, cpu;

	memset(&info, 0, sizeof(info));
	r = bpf_obj_info(map_fd, &info, &len);
	if (r < 0) {
		err_prefix(r, "perf buffer");
		return NULL;
	}
	if (info.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		err_set(EINVAL, "map %s is not a PERF_EVENT_ARRAY (type %u)", info.name, info.type);
		return NULL;
	}
	if (!page_cnt)
		page_cnt = PAGE_CNT_DEFAULT;
	if (page_cnt > PAGE_CNT_MAX) {
		err_set(EINVAL, "perf buffer of %u pages per cpu is too large", page_cnt);
		return NULL;
	}
	while (pages < page_cnt) /* the kernel wants a power of two */
		pages <<= 1;
	n = cpus_possible();
	if (n < 0) {
		err_prefix(n, "perf buffer");
		return NULL;
	}
	if (info.max_entries && (uint32_t)n > info.max_entries)
		n = (int)info.max_entries;

	pb = xcalloc(1, sizeof(*pb));
	pb->map_fd = map_fd;
	pb->cb = cb;
	pb->lost_cb = lost_cb;
	pb->ctx = ctx;
	pb->page = (size_t)sysconf(_SC_PAGESIZE);
	pb->data_size = pages * pb->page;
	pb->mmap_size = pb->page + pb->data_size;
	pb->cpus = xcalloc((size_t)n, sizeof(*pb->cpus));
	pb->evs = xcalloc((size_t)n, sizeof(*pb->evs));
	pb->epoll_fd = fd_good(epoll_create1(EPOLL_CLOEXEC));
	if (pb->epoll_fd < 0) {
		err_sys(errno, "epoll_create1");
		goto fail;
	}
	online = xcalloc((size_t)n, sizeof(bool));
	r = cpus_online(online, n);
	if (r < 0) {
		err_prefix(r, "perf buffer");
		goto fail;
	}
	for (cpu = 0; cpu < n; cpu++) {
		struct perf_event_attr a;
		struct pb_cpu *c = &pb->cpus[pb->ncpu];
		struct epoll_event ev;
		uint32_t key = (uint32_t)cpu;
		int fd;

		if (!online[cpu])
			continue;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_BPF_OUTPUT;
		a.sample_type = PERF_SAMPLE_RAW;
		a.sample_period = 1;
		a.wakeup_events = 1;
		fd = perf_event_open(&a, -1, cpu, -1, 0);
		if (fd == -ENODEV)
			continue; /* went offline meanwhile */
		if (fd < 0) {
			err_sys(-fd, "cannot open perf buffer event on cpu %d", cpu);
			goto fail;
		}
		c->cpu = cpu;
		c->fd = fd;
		pb->ncpu++;
		c->base = mmap(NULL, pb->mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (c->base == MAP_FAILED) {
			c->base = NULL;
			err_sys(errno, "cannot mmap %zu-byte perf buffer on cpu %d", pb->mmap_size, cpu);
			goto fail;
		}
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
			err_sys(errno, "cannot enable perf buffer event on cpu %d", cpu);
			goto fail;
		}
		r = bpf_map_update(map_fd, &key, &fd, BPF_ANY);
		if (r < 0) {
			err_prefix(r, "perf buffer: cpu %d", cpu);
			goto fail;
		}
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)(pb->ncpu - 1);
		if (epoll_ctl(pb->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			err_sys(errno, "epoll_ctl on perf buffer");
			goto fail;
		}
	}
	free(online);
	if (!pb->ncpu) {
		err_set(ENODEV, "perf buffer: no online cpu");
		perfbuf_free(pb);
		return NULL;
	}
	return pb;
fail:
	free(online);
	perfbuf_free(pb);
	return NULL;
}

/* Read one CPU's ring; returns records handled or a negative cb return. */
static int read_ring(struct perfbuf *pb, struct pb_cpu *c)
{
	struct perf_event_mmap_page *h = c->base;
	uint8_t *data = (uint8_t *)c->base + pb->page;
	uint64_t size = pb->data_size, head, tail;
	int cnt = 0, ret = 0;

	head = __atomic_load_n(&h->data_head, __ATOMIC_ACQUIRE);
	tail = h->data_tail;
	while (tail != head) {
		struct perf_event_header *e = (void *)(data + (tail & (size - 1)));
		uint64_t off = tail & (size - 1);
		uint16_t esz = e->size; /* records are 8-aligned: the header never wraps */

		if (esz < sizeof(*e) || esz > head - tail) {
			ret = err_set(EIO, "perf buffer on cpu %d is corrupt", c->cpu);
			tail = head;
			break;
		}
		if (off + esz > size) {
			uint64_t first = size - off;

			if (pb->scratch_size < esz) {
				pb->scratch = xrealloc(pb->scratch, esz);
				pb->scratch_size = esz;
			}
			memcpy(pb->scratch, data + off, first);
			memcpy(pb->scratch + first, data, esz - first);
			e = (void *)pb->scratch;
		}
		if (e->type == PERF_RECORD_SAMPLE && esz >= sizeof(*e) + 4) {
			uint32_t rsz;

			memcpy(&rsz, e + 1, 4);
			if (rsz <= esz - sizeof(*e) - 4) {
				int r = pb->cb(pb->ctx, c->cpu, (uint8_t *)(e + 1) + 4, rsz);

				if (r < 0) {
					ret = r;
					tail += esz;
					break;
				}
				if (cnt < INT_MAX)
					cnt++;
			}
		} else if (e->type == PERF_RECORD_LOST && esz >= sizeof(*e) + 16) {
			uint64_t lost;

			memcpy(&lost, (uint8_t *)(e + 1) + 8, 8); /* {u64 id, lost} */
			pb->lost += lost;
			if (pb->lost_cb)
				pb->lost_cb(pb->ctx, c->cpu, lost);
		}
		tail += esz;
	}
	__atomic_store_n(&h->data_tail, tail, __ATOMIC_RELEASE);
	return ret < 0 ? ret : cnt;
}

int perfbuf_poll(struct perfbuf *pb, int timeout_ms)
{
	int n, i, total = 0;

	n = epoll_wait(pb->epoll_fd, pb->evs, pb->ncpu, timeout_ms);
	if (n < 0)
		return errno == EINTR ? -EINTR : err_sys(errno, "epoll_wait on perf buffer");
	/* Drain every ring, not only the ones epoll named: wakeups are
	 * per wakeup_events and a quiet cpu may hold records too. */
	for (i = 0; i < pb->ncpu; i++) {
		int r = read_ring(pb, &pb->cpus[i]);

		if (r < 0)
			return r;
		total = total > INT_MAX - r ? INT_MAX : total + r;
	}
	return total;
}

uint64_t perfbuf_lost(const struct perfbuf *pb)
{
	return pb->lost;
}

void perfbuf_free(struct perfbuf *pb)
{
	int i;

	if (!pb)
		return;
	for (i = 0; i < pb->ncpu; i++) {
		struct pb_cpu *c = &pb->cpus[i];
		uint32_t key = (uint32_t)c->cpu;
		union cb_bpf_attr u;

		/* Remove our fd from the map (quietly: the map may be gone). */
		memset(&u, 0, sizeof(u));
		u.a.map_fd = (uint32_t)pb->map_fd;
		u.a.key = (uint64_t)(uintptr_t)&key;
		sys_bpf(BPF_MAP_DELETE_ELEM, &u.a, sizeof(u.a));
		if (c->base)
			munmap(c->base, pb->mmap_size);
		if (c->fd > 0)
			close(c->fd);
	}
	if (pb->epoll_fd >= 0)
		close(pb->epoll_fd);
	free(pb->cpus);
	free(pb->evs);
	free(pb->scratch);
	free(pb);
}
