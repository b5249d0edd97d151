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

/* Corrupted copies (byte flips): whatever opens is walked without a
 * crash (ASan/UBSan) and every type found is a struct or union. */
static void mutations(const char *name)
{
	char path[256], *data, *copy;
	size_t size, opened = 0, typed = 0, bad = 0;

	snprintf(path, sizeof(path), DIR "%s.bpf.o", name);
	if (read_file(path, 1 << 24, &data, &size) < 0)
		return;
	copy = xmalloc(size);
	srand(7);
	for (int i = 0; i < 3000; i++) {
		struct obj *o;
		struct map *m;

		memcpy(copy, data, size);
		for (int k = 0; k < 1 + i % 4; k++)
			copy[(size_t)rand() % size] ^= (char)(1 + rand() % 255);
		o = obj_open("flip", copy, size);
		if (!o)
			continue;
		opened++;
		for (size_t k = 0; (m = obj_map_at(o, k)); k++) {
			const uint32_t *ids;
			size_t n = map_record_types(m, &ids);

			for (size_t j = 0; j < n; j++) {
				const struct btf_type *t = btf_type_by_id(obj_btf(o), ids[j]);

				typed++;
				bad += !t || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION);
			}
		}
		obj_close(o);
	}
	T_OK(opened > 100 && !bad, "%s: 3000 corrupted copies, %zu opened and walked, %zu types found, all structs",
	     name, opened, typed);
	free(copy);
	free(data);
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
	mutations("rqlat");
	mutations("perfbuf");
	T_EXIT();
}
