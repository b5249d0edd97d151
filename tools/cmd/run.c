/* corebox run: load and run any libbpf-style BPF object.
 *
 *   corebox run OBJ.bpf.o [--btf FILE] [-d SECONDS] [--dry-run] [-v]
 *
 * Relocates, loads and attaches every program by its section name, prints
 * ring buffer / perf buffer records decoded with the object's BTF, and at
 * exit prints every map's contents (key: value) and the global variables
 * of .bss/.data/.rodata by name.  --dry-run loads and lists programs and
 * maps without attaching anything. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "bpf/sys.h"
#include "btf/btf.h"
#include "btf_print.h"
#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/util.h"

#define NAME "corebox run"
#define KEY_DRY OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'd', "duration", "SECONDS", "stop after SECONDS (default: until Ctrl-C / SIGTERM)" },
	{ KEY_DRY, "dry-run", NULL, "load, list programs and maps, attach nothing" },
	{ 'v', "verbose", NULL, "print the verifier log and load steps" },
	{ 0 },
};

static const struct tool_help help = {
	.name = NAME,
	.usage = "OBJ.bpf.o [-d SECONDS] [--dry-run] [-v] [--btf FILE]",
	.summary = "Load a BPF object that follows libbpf's conventions (SEC names, .maps, global\n"
		   "data, externs, subprograms), attach every program by its section name, print\n"
		   "ring buffer and perf buffer records decoded with the object's BTF, and at exit\n"
		   "print every map's contents and the global variables.",
	.examples = "  corebox run prog.bpf.o              # run until Ctrl-C\n"
		    "  corebox run prog.bpf.o -d 10        # run for 10 seconds\n"
		    "  corebox run prog.bpf.o --dry-run    # load and list, attach nothing\n",
	.opts = opts,
};

static struct {
	const char *file;
	long duration;
	bool dry;
} env;

static int parse_arg(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 0:
		if (env.file)
			return 1;
		env.file = arg;
		return 0;
	case 'd':
		env.duration = (long)opt_num(&help, "duration", arg, 1, 100000000);
		return 0;
	case KEY_DRY:
		env.dry = true;
		return 0;
	case 'v':
		tool_common.verbose++;
		return 0;
	}
	return 1;
}

static const char *const map_types[] = {
	"unspec", "hash", "array", "prog_array", "perf_event_array", "percpu_hash", "percpu_array",
	"stack_trace", "cgroup_array", "lru_hash", "lru_percpu_hash", "lpm_trie", "array_of_maps",
	"hash_of_maps", "devmap", "sockmap", "cpumap", "xskmap", "sockhash", "cgroup_storage",
	"reuseport_sockarray", "percpu_cgroup_storage", "queue", "stack", "sk_storage",
	"devmap_hash", "struct_ops", "ringbuf", "inode_storage", "task_storage", "bloom_filter",
	"user_ringbuf", "cgrp_storage", "arena",
};

static const char *map_type_name(uint32_t t)
{
	static char buf[16];

	if (t < ARRAY_SIZE(map_types))
		return map_types[t];
	snprintf(buf, sizeof(buf), "type %u", t);
	return buf;
}

static bool is_percpu(uint32_t t)
{
	return t == BPF_MAP_TYPE_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_events(uint32_t t)
{
	return t == BPF_MAP_TYPE_RINGBUF || t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
}

/* ---- events ------------------------------------------------------------ */

struct evmap {
	struct map *m;
	struct events *ev;
	const struct btf *btf;
	bool prefix;        /* several events maps: prefix lines with the map name */
	size_t last_size;   /* record type cache */
	uint32_t last_id;
};

static bool preferred(const char *s)
{
	size_t n = strlen(s);

	return !strcmp(s, "event") || !strcmp(s, "data_t") ||
	       (n >= 6 && !strcmp(s + n - 6, "_event")) || (n >= 7 && !strcmp(s + n - 7, "event_t")) ||
	       (n >= 6 && !strcmp(s + n - 6, "data_t"));
}

/* The record type: the map's declared value type when it is a struct of
 * the record's size, else the one named struct of that size in the
 * object's BTF (names like event / data_t / *_event win a tie).  Perf
 * records are padded to 8 bytes (with their u32 size), so a perf record
 * may be up to 7 bytes longer than its struct.  No struct of the size:
 * the one struct with an event-like name. */
static uint32_t record_type(struct evmap *e, size_t size)
{
	const struct btf *btf = e->btf;
	bool perf = map_type(e->m) == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	uint32_t id = map_btf_value_type(e->m);
	const struct btf_type *t;

	if (!btf)
		return 0;
	btf_resolve(btf, id, &t);
	if (id && t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) && t->size <= size &&
	    size - t->size < (perf ? 8 : 1))
		return id;
	for (size_t slack = 0; slack < (perf ? 8u : 1u); slack++) {
		uint32_t any = 0, pref = 0, nany = 0, npref = 0;

		if (slack > size)
			break;
		for (uint32_t i = 1; i < btf_nr_types(btf); i++) {
			t = btf_type_by_id(btf, i);
			if (!t || btf_kind(t) != BTF_KIND_STRUCT || t->size != size - slack || !*btf_name(btf, t))
				continue;
			nany++, any = i;
			if (preferred(btf_name(btf, t)))
				npref++, pref = i;
		}
		if (npref == 1)
			return pref;
		if (nany == 1)
			return any;
		if (nany)
			return 0; /* ambiguous */
	}
	/* variable-length records (a trailing string or array sent in part):
	 * the one struct with an event-like name, printed as far as it goes */
	uint32_t pref = 0;

	for (uint32_t i = 1; i < btf_nr_types(btf); i++) {
		t = btf_type_by_id(btf, i);
		if (t && btf_kind(t) == BTF_KIND_STRUCT && preferred(btf_name(btf, t))) {
			if (pref)
				return 0;
			pref = i;
		}
	}
	return pref;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	struct evmap *e = ctx;
	uint32_t id;

	if (size != e->last_size || !e->last_size) {
		e->last_size = size;
		e->last_id = record_type(e, size);
	}
	id = e->last_id;
	if (e->prefix)
		printf("%s: ", map_name(e->m));
	if (id)
		btf_print(stdout, e->btf, id, data, size, 1);
	else
		btf_print_hex(stdout, data, size);
	putchar('\n');
	return 0;
}

/* ---- map dump at exit --------------------------------------------------- */

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* Per-CPU integer values summed; anything else per CPU (non-zero only). */
static void print_percpu(const struct btf *btf, uint32_t vid, const uint8_t *v, uint32_t vsize, int ncpu)
{
	const struct btf_type *t = NULL;
	size_t stride = (vsize + 7) & ~7u;

	if (btf && vid)
		btf_resolve(btf, vid, &t);
	if (t && btf_kind(t) == BTF_KIND_INT && t->size <= 8 && t->size == vsize && !btf_int_offset(t) &&
	    btf_int_bits(t) == t->size * 8) {
		bool sgn = btf_int_encoding(t) & BTF_INT_SIGNED;
		uint64_t sum = 0;

		for (int c = 0; c < ncpu; c++) {
			uint64_t x = 0;

			memcpy(&x, v + c * stride, vsize); /* little-endian */
			if (sgn && vsize < 8 && x >> (vsize * 8 - 1))
				x |= ~0ull << (vsize * 8);
			sum += x;
		}
		printf(sgn ? "%lld (sum over CPUs)" : "%llu (sum over CPUs)", (long long)sum);
		return;
	}
	bool first = true;

	for (int c = 0; c < ncpu; c++) {
		if (all_zero(v + c * stride, vsize))
			continue;
		printf("%scpu%d=", first ? "" : " ", c);
		btf_print(stdout, btf, vid, v + c * stride, vsize, 0);
		first = false;
	}
	if (first)
		printf("0 (all CPUs)");
}

static void dump_map(struct map *m, const struct btf *btf)
{
	uint32_t type = map_type(m), ks = map_key_size(m), vs = map_value_size(m);
	uint32_t kid = map_btf_key_type(m), vid = map_btf_value_type(m);
	bool percpu = is_percpu(type), array = type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
	int ncpu = percpu ? cpus_possible() : 1;
	size_t vbuf = percpu ? ((vs + 7) & ~7u) * (size_t)(ncpu > 0 ? ncpu : 1) : vs;
	uint8_t *key, *next, *val;
	size_t shown = 0, zeros = 0;
	int fd = map_fd(m), err;

	if (fd < 0)
		return;
	if (map_is_global_data(m)) {
		uint32_t zero = 0;

		val = xcalloc(1, vs ? vs : 1);
		printf("%s:\n", map_name(m));
		if (bpf_map_lookup(fd, &zero, val) < 0)
			printf("  (cannot read: %s)\n", err_msg());
		else
			btf_print_datasec(stdout, btf, vid, val, vs, "  ");
		free(val);
		return;
	}
	switch (type) {
	case BPF_MAP_TYPE_HASH: case BPF_MAP_TYPE_ARRAY: case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY: case BPF_MAP_TYPE_LRU_HASH: case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_LPM_TRIE:
		break;
	default:
		if (!is_events(type))
			printf("map %s (%s): contents not shown\n", map_name(m), map_type_name(type));
		return;
	}
	if (ncpu <= 0 || !ks)
		return;
	printf("map %s (%s):\n", map_name(m), map_type_name(type));
	key = xcalloc(2, ks);
	next = key + ks;
	val = xcalloc(1, vbuf);
	for (err = bpf_map_next_key(fd, NULL, next); !err; err = bpf_map_next_key(fd, key, next)) {
		memcpy(key, next, ks);
		if (bpf_map_lookup(fd, key, val) < 0)
			continue; /* deleted meanwhile */
		if (array && all_zero(val, vbuf)) {
			zeros++;
			continue;
		}
		printf("  ");
		btf_print(stdout, btf, kid, key, ks, 0);
		printf(": ");
		if (percpu)
			print_percpu(btf, vid, val, vs, ncpu);
		else
			btf_print(stdout, btf, vid, val, vs, 0);
		putchar('\n');
		shown++;
	}
	if (zeros)
		printf("  (%zu all-zero entries not shown)\n", zeros);
	else if (!shown)
		printf("  (empty)\n");
	free(key);
	free(val);
}

/* ---- main --------------------------------------------------------------- */

static uint32_t prog_insns(const struct prog *p)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (prog_fd(p) < 0 || bpf_obj_info(prog_fd(p), &info, &len) < 0)
		return 0;
	return info.xlated_prog_len / 8;
}

static void list(struct obj *o)
{
	struct prog *p;
	struct map *m;
	int w = 12, ws = 8;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		w = (int)strlen(prog_name(p)) > w ? (int)strlen(prog_name(p)) : w;
		ws = (int)strlen(prog_section(p)) > ws ? (int)strlen(prog_section(p)) : ws;
	}
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		w = (int)strlen(map_name(m)) > w ? (int)strlen(map_name(m)) : w;
	printf("%-*s %-*s %6s  %s\n", w, "PROGRAM", ws, "SECTION", "INSNS", "STATUS");
	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		uint32_t n = prog_insns(p);
		char ns[16] = "-";

		if (n)
			snprintf(ns, sizeof(ns), "%u", n);
		printf("%-*s %-*s %6s  %s\n", w, prog_name(p), ws, prog_section(p), ns,
		       prog_fd(p) >= 0 ? "loaded" : "not loaded");
	}
	printf("\n%-*s %-16s %5s %6s %11s\n", w, "MAP", "TYPE", "KEY", "VALUE", "MAX_ENTRIES");
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		printf("%-*s %-16s %5u %6u %11u%s\n", w, map_name(m), map_type_name(map_type(m)), map_key_size(m),
		       map_value_size(m), map_max_entries(m), map_fd(m) >= 0 ? "" : "  (not created)");
}

static int fail(struct obj *o, char *buf, const char *what)
{
	fflush(stdout);
	fprintf(stderr, NAME ": %s%s\n", what, err_msg());
	obj_close(o);
	free(buf);
	return 1;
}

int run_main(int argc, char **argv)
{
	struct obj_opts oo;
	struct evmap *evs = NULL;
	size_t nev = 0, size, nprogs = 0;
	const struct btf *btf;
	struct obj *o = NULL;
	char *buf = NULL, name[64];
	const char *base;
	struct prog *p;
	struct map *m;
	uint64_t end;
	int rc = 0;

	opt_parse(argc, argv, &help, parse_arg, NULL);
	if (!env.file)
		opt_usage_error(&help, "missing object file (corebox run OBJ.bpf.o)");
	if (read_file(env.file, 256u << 20, &buf, &size) < 0)
		return fail(NULL, NULL, "");
	base = strrchr(env.file, '/');
	snprintf(name, sizeof(name), "%s", base ? base + 1 : env.file);
	name[strcspn(name, ".")] = 0; /* "prog.bpf.o" -> "prog" (kernel names of data maps) */
	o = obj_open(name[0] ? name : "obj", buf, size);
	if (!o)
		return fail(NULL, buf, "");
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (obj_load(o, &oo) < 0)
		return fail(o, buf, "");
	btf = obj_btf(o);
	if (env.dry) {
		list(o);
		fflush(stdout); /* reported while still loaded */
		obj_close(o);
		free(buf);
		return 0;
	}
	tool_signals();
	if (obj_attach(o) < 0)
		return fail(o, buf, "");
	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		const char *mech = prog_mechanism(p);

		if (prog_fd(p) < 0)
			continue;
		printf("%s (%s): %s\n", prog_name(p), prog_section(p),
		       mech && *mech ? mech : "loaded, not attached");
		nprogs += mech && *mech;
	}
	for (size_t i = 0; (m = obj_map_at(o, i)); i++) {
		if (!is_events(map_type(m)) || map_fd(m) < 0)
			continue;
		evs = xrealloc(evs, (nev + 1) * sizeof(*evs));
		memset(&evs[nev], 0, sizeof(*evs));
		evs[nev].m = m;
		evs[nev].btf = btf;
		if (!(evs[nev].ev = events_open(m, on_event, &evs[nev]))) {
			rc = fail(NULL, NULL, "");
			goto out;
		}
		nev++;
	}
	for (size_t i = 0; i < nev; i++)
		evs[i].prefix = nev > 1;
	printf("Running %s: %zu program%s attached, %zu event map%s. Hit Ctrl-C to end.\n", env.file, nprogs,
	       nprogs == 1 ? "" : "s", nev, nev == 1 ? "" : "s");
	fflush(stdout);

	end = env.duration ? now_ns() + (uint64_t)env.duration * 1000000000ull : 0;
	while (!tool_exiting) {
		uint64_t now = now_ns();
		int tmo = 200;

		if (end && now >= end)
			break;
		if (end && (end - now) / 1000000 < (uint64_t)tmo)
			tmo = (int)((end - now) / 1000000) + 1;
		if (!nev) {
			tool_sleep_ms(tmo);
			continue;
		}
		for (size_t i = 0; i < nev && !tool_exiting; i++) {
			int r = events_poll(evs[i].ev, nev == 1 ? tmo : tmo / (int)nev + 1);

			if (r < 0 && r != -EINTR) {
				rc = fail(NULL, NULL, "reading events: ");
				goto out;
			}
			if (r > 0)
				fflush(stdout);
		}
	}
	for (size_t i = 0; i < nev; i++) /* what arrived before the stop */
		events_poll(evs[i].ev, 0);
	fflush(stdout);
	for (size_t i = 0; i < nev; i++) {
		uint64_t lost = events_lost(evs[i].ev);

		if (lost)
			printf("Lost %llu events on map %s.\n", (unsigned long long)lost, map_name(evs[i].m));
	}
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		dump_map(m, btf);
out:
	fflush(stdout);
	for (size_t i = 0; i < nev; i++)
		events_close(evs[i].ev);
	free(evs);
	obj_close(o);
	free(buf);
	return rc;
}
