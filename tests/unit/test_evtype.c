/* loader/evtype.c: the record types of events maps, read from the code of
 * the objects of tests/run/ (built by tests/run/gen.sh; no kernel needed):
 * a ring buffer record reserved and handed to a typed subprogram, a perf
 * record sent from a subprogram's typed parameter, a ring buffer record
 * built in a heap map (its BTF value type), and a perf record built on the
 * stack (no type: it must stay unknown, even though a struct of the same
 * size is in the BTF).  Also: usdt sections open as USDT programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "t.h"

#define DIR "../../build/test/run/"

static struct obj *open_obj(const char *name, char **buf)
{
	char path[256];
	size_t size;
	struct obj *o;

	snprintf(path, sizeof(path), DIR "%s.bpf.o", name);
	if (read_file(path, 1 << 24, buf, &size) < 0) {
		T_OK(0, "read %s (run tests/run/gen.sh): %s", path, err_msg());
		return NULL;
	}
	o = obj_open(name, *buf, size);
	if (!o) {
		T_OK(0, "open %s: %s", path, err_msg());
		free(*buf);
	}
	return o;
}

/* The record types of events map `map` in object `name`, as "a,b" */
static void expect(const char *name, const char *map, const char *want, const char *how)
{
	char *buf = NULL, got[128] = "";
	const uint32_t *ids;
	struct obj *o = open_obj(name, &buf);
	struct map *m;
	size_t n;

	if (!o)
		return;
	m = obj_map(o, map);
	n = m ? map_record_types(m, &ids) : 0;
	for (size_t i = 0; i < n; i++) {
		const struct btf_type *t = btf_type_by_id(obj_btf(o), ids[i]);

		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? "," : "", btf_name(obj_btf(o), t));
	}
	T_OK(!strcmp(got, want), "%s: map %s carries '%s' (%s), got '%s'", name, map, want, how, got);
	obj_close(o);
	free(buf);
}

int main(void)
{
	char *buf = NULL;
	struct obj *o;

	expect("ringbuf", "events", "event", "reserved, then passed to fill(struct event *)");
	expect("perfbuf", "events", "event", "a subprogram's struct event * parameter sent");
	expect("rqlat", "events", "event", "a value of heap, a PERCPU_ARRAY of struct event");
	expect("biolat", "events", "", "a local variable: no BTF type, struct request's size is no reason");
	expect("counts", "calls", "", "not an events map");
	if ((o = open_obj("mech", &buf))) {
		struct prog *p = obj_prog(o, "on_usdt");

		T_OK(p && prog_kind(p) == ATTACH_USDT && !strcmp(prog_target(p), ""),
		     "SEC(\"usdt\") opens as a USDT program");
		p = obj_prog(o, "read_fentry");
		T_OK(p && prog_kind(p) == ATTACH_FENTRY && !strcmp(prog_target(p), "vfs_read"),
		     "fentry/vfs_read: kind and target");
		obj_close(o);
		free(buf);
	}
	T_EXIT();
}
