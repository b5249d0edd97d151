/* One way to run an event tool: the events map (ring buffer, else perf
 * buffer), -c CGROUP, load and attach, the consumer, the table header,
 * the poll loop (duration, Ctrl-C/SIGTERM/SIGHUP, a closed output, lost
 * events) and the cleanup.  Every snooping tool's main() sets its .rodata
 * knobs and calls tool_run_events(); what differs between them is in the
 * few hooks of struct tool_events. */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/include/event_head.h"

#include "lib/err.h"
#include "lib/util.h"

/* Poll ev (or, without an event stream, sleep) until a signal, a closed
 * output, duration_ns (0: none) or tick(o) returning non-zero ends it;
 * flush after each batch; note new losses on stderr at most once a
 * second and the total at the end.  0, or 1 after a message. */
static int run_loop(const char *name, struct events *ev, uint64_t duration_ns, int (*tick)(struct obj *o),
		    struct obj *o)
{
	uint64_t start = now_ns(), next_note = start + 1000000000ull, noted = 0, lost;
	int ret = 0, ticked = 0;

	while (!tool_exiting) {
		int timeout = 100, n = 0;
		uint64_t now;

		if (duration_ns) {
			now = now_ns();
			if (now - start >= duration_ns)
				break;
			if (duration_ns - (now - start) < 100000000ull)
				timeout = (int)((duration_ns - (now - start)) / 1000000) + 1;
		}
		if (ev)
			n = events_poll(ev, timeout);
		else
			tool_sleep_ms(timeout);
		if (ev && tool_listening())
			tool_listen_poll(-1, 0); /* a client waits at most one poll of events */
		if (n < 0 && n != -EINTR) {
			tool_err(name, "reading events: %s", err_msg());
			ret = 1;
			break;
		}
		if ((n > 0 && tool_flush() < 0) || tool_stdout_gone())
			break;
		if (tick && tick(o)) {
			ticked = 1; /* what is already in the buffer is read below */
			break;
		}
		now = now_ns();
		if (ev && now >= next_note) { /* new losses, at most once a second */
			lost = events_lost(ev);
			if (lost > noted) {
				fprintf(stderr, "%s: lost %llu events (%llu so far)\n", name,
					(unsigned long long)(lost - noted), (unsigned long long)lost);
				noted = lost;
			}
			next_note = now + 1000000000ull;
		}
	}
	if (!ev)
		return ret;
	/* Ctrl-C, the duration or the tick ended the loop: what the kernel
	 * already wrote happened before, so it is shown (one bounded poll;
	 * when the tick said the traced process ended, its last events may
	 * still be arriving: a few more while there are any) */
	if (!ret && !tool_stdout_gone()) {
		events_poll(ev, 0);
		for (int i = 0; ticked && i < 4 && !tool_stdout_gone() && events_poll(ev, 0) > 0; i++)
			;
	}
	tool_flush();
	tool_report_lost(name, events_lost(ev));
	return ret;
}

int tool_event_loop(const char *name, struct events *ev, uint64_t duration_ns)
{
	return run_loop(name, ev, duration_ns, NULL, NULL);
}

/* Every event record starts with struct event_head (events.bpf.h): its
 * cgroup is turned into a path here, once for every tool, and handed to
 * the output layer for the duration of the tool's callback. */
static int on_event_head(void *ctx, const void *data, size_t size)
{
	const struct tool_events *te = ctx;
	struct event_head h = { 0 };
	int r;

	if (size >= sizeof(h))
		memcpy(&h, data, sizeof(h));
	out_event_cgroup(h.cgroup_id, cgroup_path_of(h.cgroup_id));
	r = te->on_event(NULL, data, size);
	out_event_cgroup(0, NULL);
	return r;
}

int tool_run_events(struct obj *o, const struct tool_events *te)
{
	struct events *ev = NULL;
	int err = 0, cgfd = -1, r;

	if (obj_setup_events(o, "events") < 0) {
		tool_err(te->name, "%s", err_msg());
		obj_close(o);
		return 1;
	}
	if (te->on_event && (out_json() || out_cfg.cgroup_column)) { /* the BPF side records cgroup ids */
		uint8_t *knob = obj_global(o, "cb_cgroup_ids", sizeof(*knob));

		if (knob)
			*knob = 1;
	}
	if (te->cgroup && (cgfd = tool_cgroup_open(te->name, te->cgroup)) < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, te->name)) { /* closed o */
		if (te->load_hint)
			tool_err(te->name, "%s", te->load_hint);
		if (cgfd >= 0)
			close(cgfd);
		return 1;
	}
	if (cgfd >= 0 && tool_cgroup_filter(o, te->name, te->cgroup, cgfd) < 0) {
		err = 1;
		goto out;
	}
	if (te->on_event && !(ev = events_open(obj_map(o, "events"), on_event_head, (void *)te))) {
		tool_err(te->name, "%s", err_msg());
		err = 1;
		goto out;
	}
	if (te->after_load && (r = te->after_load(o)) != 0) {
		err = r < 0;
		goto out;
	}
	if (te->header)
		out_header(te->header);
	tool_flush();
	err = run_loop(te->name, ev, te->duration_ns, te->tick, o);
	if (te->finish && te->finish(o))
		err = 1;
out:
	if (ev)
		events_close(ev);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	return err;
}
