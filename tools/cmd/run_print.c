/* corebox run: records from events maps, and every map at exit, printed
 * by their BTF types; every name and string from the file escaped.
 *
 * A record's type: --event-type, else what the code says it sends
 * (map_record_types: the BTF type of the data passed to
 * bpf_perf_event_output / bpf_ringbuf_output or reserved); never a struct
 * guessed by its size (a kernel struct of the same size is not the
 * record).  Unknown: hex. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "bpf/sys.h"
#include "btf/btf.h"
#include "btf/btf_print.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "run.h"
#include "tools/common/common.h"

const char *run_esc(const char *s)
{
	static char buf[8][512];
	static unsigned next;

	return str_escape(buf[next++ % 8], sizeof(buf[0]), s ? s : "", "");
}

/* A name from the file as a JSON string. */
static void json_name(const char *s)
{
	struct strbuf b = { 0 };

	json_str(&b, s ? s : "");
	fwrite(b.s, 1, b.len, stdout);
	strbuf_free(&b);
}

/* ---- events ------------------------------------------------------------ */

struct run_events {
	struct map *m;
	const struct btf *btf;
	bool prefix;          /* several events maps: lines start with the map name */
	bool perf;            /* perf records are padded to 8 bytes (with their u32 size) */
	uint32_t forced;      /* --event-type */
	const uint32_t *ids;  /* from the code */
	size_t nids;
	uint32_t cg_type;     /* the type cg_off was found for (0: none yet) */
	int cg_off;           /* its cgroup id member's offset, -1: none */
};

/* A struct, union or typedef of one named type: its id, or 0. */
static uint32_t type_by_name(const struct btf *btf, const char *spec)
{
	static const struct { const char *word; int kind; } kinds[] = {
		{ "struct ", BTF_KIND_STRUCT }, { "union ", BTF_KIND_UNION }, { "typedef ", BTF_KIND_TYPEDEF },
	};
	int32_t id;

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(spec, kinds[i].word, strlen(kinds[i].word)))
			return (id = btf_find(btf, spec + strlen(kinds[i].word), kinds[i].kind)) > 0 ? (uint32_t)id : 0;
	if ((id = btf_find(btf, spec, BTF_KIND_STRUCT)) > 0 || (id = btf_find(btf, spec, BTF_KIND_UNION)) > 0 ||
	    (id = btf_find(btf, spec, BTF_KIND_TYPEDEF)) > 0)
		return (uint32_t)id;
	return 0;
}

static void no_type(const char *spec)
{
	fflush(stdout);
	fprintf(stderr,
		RUN_NAME ": --event-type: no struct, union or typedef '%s' in the object's BTF"
		" (clang puts a type in BTF only when a map, a global or a function signature uses it)\n",
		run_esc(spec));
}

int run_check_event_types(struct obj *o)
{
	for (size_t i = 0; i < run_env.nevtypes; i++) {
		const char *map = run_env.evtypes[i].key;
		struct map *m = map ? obj_map(o, map) : NULL;

		err_clear();
		if (map && (!m || (map_type(m) != BPF_MAP_TYPE_RINGBUF && map_type(m) != BPF_MAP_TYPE_PERF_EVENT_ARRAY))) {
			fflush(stdout);
			fprintf(stderr, RUN_NAME ": --event-type: no ring buffer or perf event array named '%s'\n",
				run_esc(map));
			return 2;
		}
		if (!obj_btf(o) || !type_by_name(obj_btf(o), run_env.evtypes[i].value)) {
			no_type(run_env.evtypes[i].value);
			return 2;
		}
	}
	return 0;
}

struct run_events *run_events_new(struct obj *o, struct map *m, bool prefix)
{
	struct run_events *e = xcalloc(1, sizeof(*e));
	const char *spec = NULL;

	e->m = m;
	e->btf = obj_btf(o);
	e->prefix = prefix;
	e->perf = map_type(m) == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	for (size_t i = 0; i < run_env.nevtypes; i++)
		if (!run_env.evtypes[i].key || !strcmp(run_env.evtypes[i].key, map_name(m)))
			spec = run_env.evtypes[i].value;
	if (spec)
		e->forced = e->btf ? type_by_name(e->btf, spec) : 0; /* checked before load */
	else
		e->nids = map_record_types(m, &e->ids);
	err_clear();
	if (tool_common.verbose)
		for (size_t i = 0; i < (e->forced ? 1 : e->nids); i++) {
			uint32_t id = e->forced ? e->forced : e->ids[i];

			fprintf(stderr, RUN_NAME ": map %s: records are %s %s (%s)\n", run_esc(map_name(m)),
				btf_kind(btf_type_by_id(e->btf, id)) == BTF_KIND_UNION ? "union" : "struct",
				run_esc(btf_name(e->btf, btf_type_by_id(e->btf, id))),
				e->forced ? "--event-type" : "from the code");
		}
	return e;
}

void run_events_free(struct run_events *e)
{
	free(e);
}

/* Does a record of size bytes hold a type of tsize bytes? */
static bool fits(const struct run_events *e, int64_t tsize, size_t size)
{
	return tsize > 0 && (uint64_t)tsize <= size && size - (uint64_t)tsize < (e->perf ? 8u : 1u);
}

static uint32_t record_type(const struct run_events *e, size_t size)
{
	if (e->forced)
		return e->forced;
	for (size_t i = 0; i < e->nids; i++)
		if (fits(e, btf_type_size(e->btf, e->ids[i]), size))
			return e->ids[i];
	/* one type: a record cut short (a string or array sent in part) */
	return e->nids == 1 ? e->ids[0] : 0;
}

/* Where a record of type id keeps the cgroup id its code recorded
 * (bpf_get_current_cgroup_id): the offset of the first 8-byte integer
 * member whose name starts with "cg" (cgroup_id, cgid, cgrp...), at the
 * top or one struct down (corebox's own records: head.cgroup_id); -1:
 * none. */
static int cgroup_member(const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t, *mt;
	const struct btf_member *m;
	int off;

	if (!btf_resolve(btf, id, &t) || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION))
		return -1;
	m = btf_members(t);
	for (uint32_t i = 0, bit; i < btf_vlen(t); i++, m++) {
		const char *name = btf_str(btf, m->name_off);

		bit = btf_member_bit_offset(t, m);
		if (bit % 8 || btf_member_bitfield_size(t, m) || !btf_resolve(btf, m->type, &mt))
			continue;
		if (btf_kind(mt) == BTF_KIND_INT && mt->size == 8 && name && !strncmp(name, "cg", 2))
			return (int)(bit / 8);
		if (depth && (off = cgroup_member(btf, m->type, 0)) >= 0)
			return (int)(bit / 8) + off;
	}
	return -1;
}

int run_on_event(void *ctx, const void *data, size_t size)
{
	struct run_events *e = ctx;
	uint32_t id = record_type(e, size);
	uint64_t cg = 0;

	if (id && (out_json() || out_cfg.cgroup_column)) { /* the container, as the tools name it */
		if (e->cg_type != id) {
			e->cg_type = id;
			e->cg_off = cgroup_member(e->btf, id, 1);
		}
		if (e->cg_off >= 0 && (size_t)e->cg_off + 8 <= size)
			memcpy(&cg, (const uint8_t *)data + e->cg_off, 8);
	}
	out_event_cgroup(cg, cg ? cgroup_path_of(cg) : NULL);
	if (out_json()) { /* one line per record: {["cgroup":PATH,"cgroup_id":ID,]"map":NAME,"record":VALUE} */
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		strbuf_addc(&b, '{');
		if (cg) {
			out_cgroup_fields(&b);
			strbuf_addc(&b, ',');
		}
		strbuf_add(&b, "\"map\":");
		json_str(&b, map_name(e->m));
		strbuf_add(&b, ",\"record\":");
		fwrite(b.s, 1, b.len, stdout);
		strbuf_free(&b);
		btf_print_json(stdout, e->btf, id, data, size);
		fputs("}\n", stdout);
		return 0;
	}
	out_cgroup_prefix();
	if (e->prefix)
		printf("%s: ", run_esc(map_name(e->m)));
	if (id)
		btf_print(stdout, e->btf, id, data, size, 1);
	else
		btf_print_hex(stdout, data, size);
	putchar('\n');
	return 0;
}

/* ---- map dump at exit --------------------------------------------------- */

static const char *const map_types[] = {
	"unspec", "hash", "array", "prog_array", "perf_event_array", "percpu_hash", "percpu_array",
	"stack_trace", "cgroup_array", "lru_hash", "lru_percpu_hash", "lpm_trie", "array_of_maps",
	"hash_of_maps", "devmap", "sockmap", "cpumap", "xskmap", "sockhash", "cgroup_storage",
	"reuseport_sockarray", "percpu_cgroup_storage", "queue", "stack", "sk_storage",
	"devmap_hash", "struct_ops", "ringbuf", "inode_storage", "task_storage", "bloom_filter",
	"user_ringbuf", "cgrp_storage", "arena",
};

const char *run_map_type_name(uint32_t t)
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
		if (out_json())
			printf(sgn ? "%lld" : "%llu", (long long)sum);
		else
			printf(sgn ? "%lld (sum over CPUs)" : "%llu (sum over CPUs)", (long long)sum);
		return;
	}
	bool first = true;

	if (out_json()) /* {"cpuN":VALUE} for the CPUs with a non-zero value */
		putchar('{');
	for (int c = 0; c < ncpu; c++) {
		if (all_zero(v + c * stride, vsize))
			continue;
		if (out_json()) {
			printf("%s\"cpu%d\":", first ? "" : ",", c);
			btf_print_json(stdout, btf, vid, v + c * stride, vsize);
		} else {
			printf("%scpu%d=", first ? "" : " ", c);
			btf_print(stdout, btf, vid, v + c * stride, vsize, 0);
		}
		first = false;
	}
	if (out_json())
		putchar('}');
	else if (first)
		printf("0 (all CPUs)");
}

void run_dump_map(struct map *m, const struct btf *btf)
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
	if (map_is_global_data(m) && out_json()) { /* {"map":NAME,"values":{VAR:VALUE...}} */
		uint32_t zero = 0;

		val = xcalloc(1, vs ? vs : 1);
		fputs("{\"map\":", stdout);
		json_name(map_name(m));
		if (bpf_map_lookup(fd, &zero, val) == 0) {
			fputs(",\"values\":", stdout);
			btf_print_json(stdout, btf, vid, val, vs);
		}
		fputs("}\n", stdout);
		err_clear();
		free(val);
		return;
	}
	if (map_is_global_data(m)) {
		uint32_t zero = 0;

		val = xcalloc(1, vs ? vs : 1);
		printf("%s:\n", run_esc(map_name(m)));
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
		if (type == BPF_MAP_TYPE_RINGBUF || type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			return;
		if (out_json()) { /* {"map":NAME,"type":TYPE}: no "entries" */
			fputs("{\"map\":", stdout);
			json_name(map_name(m));
			printf(",\"type\":\"%s\"}\n", run_map_type_name(type));
		} else {
			printf("map %s (%s): contents not shown\n", run_esc(map_name(m)), run_map_type_name(type));
		}
		return;
	}
	if (ncpu <= 0 || !ks)
		return;
	if (out_json()) { /* {"map":NAME,"type":TYPE,"entries":[{"key":K,"value":V}...]} */
		fputs("{\"map\":", stdout);
		json_name(map_name(m));
		printf(",\"type\":\"%s\",\"entries\":[", run_map_type_name(type));
	} else {
		printf("map %s (%s):\n", run_esc(map_name(m)), run_map_type_name(type));
	}
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
		if (out_json()) {
			printf("%s{\"key\":", shown ? "," : "");
			btf_print_json(stdout, btf, kid, key, ks);
			fputs(",\"value\":", stdout);
			if (percpu)
				print_percpu(btf, vid, val, vs, ncpu);
			else
				btf_print_json(stdout, btf, vid, val, vs);
			putchar('}');
			shown++;
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
	if (out_json()) /* an array's all-zero slots are left out, as in text */
		printf("],\"zero_entries_not_shown\":%zu}\n", zeros);
	else if (zeros)
		printf("  (%zu all-zero entries not shown)\n", zeros);
	else if (!shown)
		printf("  (empty)\n");
	free(key);
	free(val);
}
