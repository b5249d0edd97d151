/* Shared user-side pieces of the memory tools. */
#include "memtool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "lib/err.h"
#include "lib/util.h"

struct events *mem_attach_events(struct obj *o, const char *name, event_cb cb, void *ctx)
{
	struct events *ev;

	if (obj_setup_events(o, "events") < 0) {
		tool_err(name, "%s", err_msg());
		obj_close(o);
		return NULL;
	}
	if (tool_load_attach(o, name))
		return NULL;
	ev = events_open(obj_map(o, "events"), cb, ctx);
	if (!ev) {
		tool_err(name, "%s", err_msg());
		obj_close(o);
	}
	return ev;
}

int mem_run_events(struct obj *o, struct events *ev, const char *name, long duration_s)
{
	int ret;

	tool_flush();
	ret = tool_event_loop(name, ev, (uint64_t)duration_s * 1000000000ull);
	events_close(ev);
	obj_close(o);
	return ret;
}

long long mem_vmstat(const char *key)
{
	FILE *f = fopen("/proc/vmstat", "re");
	char line[256];
	size_t n = strlen(key);
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

int mem_numa_nodes(void)
{
	char buf[256];
	bool mask[1024];
	int n = 0;

	if (read_line("/sys/devices/system/node/online", buf, sizeof(buf)) < 0) {
		err_clear();
		return 1;
	}
	if (cpus_parse(buf, mask, 1024) < 0)
		return 1;
	for (int i = 0; i < 1024; i++)
		n += mask[i];
	return n ? n : 1;
}

const char *mem_comm(char buf[17], const char *comm)
{
	memcpy(buf, comm, 16);
	buf[16] = 0;
	return buf;
}
