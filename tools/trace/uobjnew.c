/* applet uobjnew: summarize object allocations in high-level languages
 * readme: object allocations of a C (malloc sizes), Java, Ruby or Tcl process by type: count and bytes
 *         (`-C TOP_COUNT`, `-S TOP_SIZE`, interval); bcc's tools/lib/uobjnew.py
 * alias cobjnew (uobjnew): uobjnew -l c
 * alias javaobjnew (uobjnew): uobjnew -l java
 * alias rubyobjnew (uobjnew): uobjnew -l ruby
 * alias tclobjnew (uobjnew): uobjnew -l tcl
 *
 * Allocations and bytes per type in one hash map: C's by block size
 * (a uprobe on libc's malloc), Java's by class (hotspot:object__alloc,
 * which needs -XX:+ExtendedDTraceProbes), Ruby's by class
 * (object__create, no size) and for strings, hashes and arrays
 * (*__create), Tcl's all as "<ALL>" (obj__create).  bcc's layout,
 * smallest total size (or count, -C) first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "ulang.h"

static const struct opt opts[] = {
	{ 'l', "language", "LANGUAGE", "language to trace" },
	{ 'C', "top-count", "TOP_COUNT", "number of most frequently allocated types to print" },
	{ 'S', "top-size", "TOP_SIZE", "number of largest types by allocated bytes to print" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-l {c,java,ruby,tcl}] [-C TOP_COUNT] [-S TOP_SIZE] [-v] pid [interval]",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *lang;
	int pid, npos;
	long interval, top_count, top_size;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'l': env.lang = arg; break;
	case 'C': env.top_count = opt_num(&help, "top-count", arg, 0, 1 << 30); break;
	case 'S': env.top_size = opt_num(&help, "top-size", arg, 0, 1 << 30); break;
	case 0: return ulang_pos(&help, arg, &env.npos, &env.pid, &env.interval);
	default: return 1;
	}
	return 0;
}

enum { NAME = 56 }; /* bcc's name[50] (or C's u64 size), zero-padded */

/* one allocation: allocs[name] += { size, 1 } */
static int gen_alloc(struct obj *o, const struct loc *l)
{
	struct gen *g = ulang_gen(l, env.pid);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, NAME), val = gen_stack(g, 16), err = 0, size = 0;
	const char *probe = l->name, *what = NULL;
	struct ctype t;

	ulang_zero(g, key, NAME);
	emit_st(e, 8, R10, (int16_t)val, 0);
	if (!l->usdt)
		size = 1; /* malloc(size): the key too */
	else if (!strcmp(probe, "object__alloc")) { /* (thread, class, length, size) */
		err = ulang_str(g, 2, true, key, 51);
		size = 4;
	} else if (!strcmp(probe, "object__create")) {
		err = ulang_str(g, 1, false, key, 50);
	} else if (strstr(probe, "__create")) { /* ruby's string/hash/array__create(size), tcl's obj__create */
		size = probe[0] != 'o';
		what = size ? probe : "<ALL>";
	}
	if (what) /* the name, a constant: 4 bytes at a time up to "__" */
		for (int i = 0; what[i] && what[i] != '_'; i += 4) {
			int32_t w = 0;

			for (int k = 0; k < 4 && what[i + k] && what[i + k] != '_'; k++)
				w |= (int32_t)((uint32_t)(uint8_t)what[i + k] << (8 * k));
			emit_st(e, 4, R10, (int16_t)(key + i), w);
		}
	if (!err && size) {
		char x[8];

		snprintf(x, sizeof(x), "arg%d", size);
		err = gen_value(g, x, 0, &t);
		emit_stx(e, 8, R10, (int16_t)val, R0);
		if (!l->usdt)
			emit_stx(e, 8, R10, (int16_t)key, R0);
	}
	emit_st(e, 8, R10, (int16_t)(val + 8), 1);
	gen_hash_add(g, 0, key, val, 2);
	return ulang_prog(o, l, g, out, env.pid, err);
}

static void fill(union out_val *v, const struct ulang_row *r)
{
	v[1].u = r->v[1];
	v[2].u = r->v[0];
}

static struct out_col cols[] = {
	{ "type", "NAME/TYPE", "%-30s", OUT_STR, OUT_LABEL },
	{ "allocs", "# ALLOCS", " %8llu", OUT_UINT, OUT_COUNTER, " %8s", "allocations" },
	{ "bytes", "# BYTES", " %12llu", OUT_UINT, OUT_COUNTER, " %12s", "bytes" },
	{ NULL, NULL, "\n", OUT_STR, OUT_TEXT_ONLY, "\n" },
};
static struct out_table table = OUT_TABLE("allocs", cols);

static bool c_lang;

static int report(struct obj *o)
{
	struct ulang_row *rows;
	uint64_t(*vals)[2];
	char *keys;
	long n = ulang_drain(o, 0, NAME, (void **)&keys, &vals);

	if (n < 0)
		return free(keys), free(vals), -1;
	rows = xmalloc(((size_t)n + 1) * sizeof(*rows));
	for (long i = 0; i < n; i++) {
		const char *k = keys + i * NAME;
		uint64_t size;

		memcpy(&size, k, 8);
		if (c_lang)
			snprintf(rows[i].name, sizeof(rows[i].name), "block size %llu", (unsigned long long)size);
		else
			snprintf(rows[i].name, sizeof(rows[i].name), "%.50s", k);
		memcpy(rows[i].v, vals[i], sizeof(vals[i]));
	}
	free(keys);
	free(vals);
	return ulang_report(&table, rows, (size_t)n, env.top_count ? 1 : 0,
			    env.top_count ? env.top_count : env.top_size, fill);
}

int uobjnew_main(int argc, char **argv)
{
	const struct ulang *u;
	struct loc *locs = NULL;
	struct obj *o;
	int n = 0, rc = 0, attached;
	char w[32];

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.npos)
		opt_usage_error(&help, "the following arguments are required: pid");
	u = ulang_pick(&help, env.lang, "objnew", "c java ruby tcl", env.pid, &env.lang);
	if (!u) {
		printf("No language detected; use -l to trace a language.\n");
		return 1;
	}
	c_lang = u->name[0] == 'c';
	if (c_lang) {
		if (ulang_resolve("p:c:malloc", env.pid, &locs, &n) < 0) {
			tool_err(tool_applet, "libc's malloc in process %d: %s", env.pid, err_msg());
			return 1;
		}
	} else
		/* C's is malloc's uprobe */
		for (const char *p = u->objnew; ulang_word(&p, w, sizeof(w));)
			if (ulang_need(env.pid, w, u->name, &locs, &n))
				return 1;
	tool_signals();
	o = obj_new(tool_applet);
	obj_new_map(o, "allocs", BPF_MAP_TYPE_HASH, NAME, 16, MAX_ENTRIES, 0);
	for (int i = 0; i < n && !rc; i++)
		rc = gen_alloc(o, &locs[i]);
	if (!(rc = build_finish(o, rc, tool_applet, "the probes", &attached))) {
		out_info("Tracing allocations in process %d (language: %s)... Ctrl-C to quit.\n", env.pid, u->name);
		rc = ulang_loop(o, env.interval, report);
	}
	obj_close(o);
	locs_free(locs, n);
	return rc;
}
