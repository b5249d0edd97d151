/* Event delivery: ring buffer when the kernel has it, else perf buffer,
 * chosen before load; the consumer follows whatever the map became. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/perfbuf.h"
#include "bpf/probe.h"
#include "bpf/ringbuf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

struct events {
	struct map *map;
	struct ringbuf *rb;
	struct perfbuf *pb;
	event_cb cb;
	void *ctx;
};

int obj_setup_events(struct obj *o, const char *map_name)
{
	struct map *m = obj_map(o, map_name);
	int *knob;

	if (!m)
		return -ENOENT;
	if (probe_ringbuf())
		return 0;
	map_set_type(m, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	map_set_key_size(m, 4);
	map_set_value_size(m, 4);
	map_set_max_entries(m, 0); /* one slot per possible CPU */
	knob = obj_global(o, "cb_perfbuf", sizeof(int));
	if (!knob)
		return err_prefix(-ENOENT, "ring buffer unavailable and no perf buffer switch");
	*knob = 1;
	return 0;
}

static int on_perf(void *ctx, int cpu, const void *data, size_t size)
{
	struct events *ev = ctx;

	(void)cpu;
	return ev->cb(ev->ctx, data, size);
}

struct events *events_open(struct map *m, event_cb cb, void *ctx)
{
	struct events *ev = xcalloc(1, sizeof(*ev));

	ev->map = m;
	ev->cb = cb;
	ev->ctx = ctx;
	if (m->type == BPF_MAP_TYPE_RINGBUF)
		ev->rb = ringbuf_new(m->fd, cb, ctx);
	else if (m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		ev->pb = perfbuf_new(m->fd, 64, on_perf, NULL, ev);
	else
		err_set(EINVAL, "map %s is neither a ring buffer nor a perf event array", m->name);
	if (!ev->rb && !ev->pb) {
		free(ev);
		return NULL;
	}
	return ev;
}

int events_poll(struct events *ev, int timeout_ms)
{
	return ev->rb ? ringbuf_poll(ev->rb, timeout_ms) : perfbuf_poll(ev->pb, timeout_ms);
}

uint64_t events_lost(const struct events *ev)
{
	const uint64_t *dropped;

	/* the BPF side counts each failed output once, when it fails
	 * (events.bpf.h); PERF_RECORD_LOST counts the same records, later or
	 * never (it is written only when a later record fits), so it is the
	 * count only for objects without that counter */
	dropped = obj_global(ev->map->obj, "cb_events_dropped", sizeof(*dropped));
	if (dropped)
		return *dropped;
	err_clear();
	return ev->pb ? perfbuf_lost(ev->pb) : 0;
}

void events_close(struct events *ev)
{
	if (!ev)
		return;
	if (ev->rb)
		ringbuf_free(ev->rb);
	if (ev->pb)
		perfbuf_free(ev->pb);
	free(ev);
}
