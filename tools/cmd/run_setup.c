/* corebox run, before load: the choices a libbpf-tools binary makes in
 * its user space, made here from the object alone.
 *
 * Programs: libbpf-tools ship several programs for one hook (tp_btf and
 * raw_tp of the same tracepoint, fentry and kprobe of the same function)
 * and keep one at run time; here the best one the kernel takes is kept
 * (tp_btf > raw_tp > tracepoint, fentry > kprobe), unless --only names
 * them.  A program whose mechanism this kernel lacks (fentry refused,
 * no kprobes) is skipped with one line, unless --strict.
 *
 * Maps: libbpf-tools size some maps from user space (declared with 0
 * entries, stack maps with no value size); they get libbpf-tools'
 * defaults here, --map NAME=ENTRIES overrides, and a map whose size would
 * take more kernel memory than the limit is refused before the kernel
 * spends minutes trying to allocate it.
 *
 * Knobs: --set NAME=VALUE writes a global variable (the const volatile
 * knobs of .rodata: targ_pid, min_us, filter_cg...) typed by its BTF. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "run.h"
#include "tools/common/common.h"

#define DEFAULT_ENTRIES 10240        /* libbpf-tools' MAX_ENTRIES */
#define DEFAULT_STACK_DEPTH 127      /* libbpf-tools' perf_max_stack_depth */
#define DEFAULT_RINGBUF (256u << 10) /* libbpf-tools' RINGBUF_SIZE */

static int usage(const char *fmt, const char *a, const char *b)
{
	fflush(stdout);
	fprintf(stderr, RUN_NAME ": ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\nTry '" RUN_NAME " --help' for more information.\n");
	return 2;
}

/* ---- programs ------------------------------------------------------------ */

static bool listed(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static int check_names(struct obj *o, char **names, size_t n, const char *opt)
{
	char list[512];
	struct prog *p;
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		if (obj_prog(o, names[i]))
			continue;
		list[0] = 0;
		for (size_t k = 0; (p = obj_prog_at(o, k)) && len + 2 < sizeof(list); k++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", k ? ", " : "",
						run_esc(prog_name(p)));
		err_clear();
		fflush(stdout);
		fprintf(stderr, RUN_NAME ": %s: no program named '%s' (programs: %s)\n", opt, run_esc(names[i]),
			list);
		fprintf(stderr, "Try '" RUN_NAME " --help' for more information.\n");
		return 2;
	}
	return 0;
}

/* The hook a program shares with its variants: "tp:EVENT" for tp_btf,
 * raw_tp and tracepoint programs, "fn:FUNC" / "ret:FUNC" for fentry and
 * kprobe / fexit and kretprobe.  "" when it has no variants. */
static void hook_of(const struct prog *p, char *buf, size_t size)
{
	const char *t = prog_target(p), *slash;

	buf[0] = 0;
	if (!*t)
		return;
	switch (prog_kind(p)) {
	case ATTACH_TP_BTF:
	case ATTACH_RAW_TP:
		snprintf(buf, size, "tp:%s", t);
		break;
	case ATTACH_TRACEPOINT:
		slash = strchr(t, '/');
		snprintf(buf, size, "tp:%s", slash ? slash + 1 : t);
		break;
	case ATTACH_FENTRY:
	case ATTACH_KPROBE:
		if (!strchr(t, '+'))
			snprintf(buf, size, "fn:%s", t);
		break;
	case ATTACH_FEXIT:
	case ATTACH_KRETPROBE:
		snprintf(buf, size, "ret:%s", t);
		break;
	default:
		break;
	}
}

static bool have_kprobes(void)
{
	bool ok = probe_kprobe_pmu() || probe_kprobe_legacy();

	err_clear();
	return ok;
}

/* Why the kernel cannot run p as declared, or NULL. */
static const char *unavailable(struct obj *o, const struct prog *p)
{
	static char why[300];

	switch (prog_kind(p)) {
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		if (obj_fentry_ok(o, prog_target(p)))
			return NULL;
		snprintf(why, sizeof(why), "%s", err_msg());
		err_clear();
		return why;
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
	case ATTACH_KSYSCALL:
	case ATTACH_KRETSYSCALL:
		if (!*prog_target(p) || have_kprobes())
			return NULL;
		return "this kernel has no kprobes (CONFIG_KPROBES, or kprobe_events in tracefs)";
	default:
		return NULL;
	}
}

/* How good a mechanism is for its hook here; 0: the kernel cannot. */
static int rank(struct obj *o, const struct prog *p)
{
	switch (prog_kind(p)) {
	case ATTACH_TP_BTF:
		return obj_tp_btf_ok(o, prog_target(p)) ? 30 : 15; /* else it loads as raw_tp */
	case ATTACH_RAW_TP:
		return 20;
	case ATTACH_TRACEPOINT:
		return 10;
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		return unavailable(o, p) ? 0 : 30;
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
		return unavailable(o, p) ? 0 : 20;
	default:
		return 1;
	}
}

static const char *kind_word(enum attach_kind k)
{
	switch (k) {
	case ATTACH_TP_BTF: return "tp_btf";
	case ATTACH_RAW_TP: return "raw_tp";
	case ATTACH_TRACEPOINT: return "tracepoint";
	case ATTACH_FENTRY: return "fentry";
	case ATTACH_FEXIT: return "fexit";
	case ATTACH_KPROBE: return "kprobe";
	case ATTACH_KRETPROBE: return "kretprobe";
	default: return "other";
	}
}

/* Keep the best variant of each hook (all programs of that mechanism). */
static void pick_variants(struct obj *o, struct run_prog *rp)
{
	size_t n = 0;
	struct prog *p, *q;
	int *ranks;

	while (obj_prog_at(o, n))
		n++;
	ranks = xcalloc(n, sizeof(*ranks));
	for (size_t i = 0; i < n; i++) {
		p = obj_prog_at(o, i);
		ranks[i] = -1;
		if (prog_autoload(p) && !listed(run_env.only, run_env.nonly, prog_name(p)))
			ranks[i] = rank(o, p);
	}
	for (size_t i = 0; i < n; i++) {
		char hi[300], hk[300];
		size_t best = i;

		p = obj_prog_at(o, i);
		if (ranks[i] < 0 || rp[i].why[0])
			continue;
		hook_of(p, hi, sizeof(hi));
		if (!hi[0])
			continue;
		for (size_t k = 0; k < n; k++) {
			q = obj_prog_at(o, k);
			if (ranks[k] < 0)
				continue;
			hook_of(q, hk, sizeof(hk));
			if (!strcmp(hi, hk) && ranks[k] > ranks[best])
				best = k;
		}
		if (best == i || ranks[best] <= ranks[i] || prog_kind(obj_prog_at(o, best)) == prog_kind(p))
			continue;
		q = obj_prog_at(o, best);
		snprintf(rp[i].why, sizeof(rp[i].why), "not loaded: its %s variant %s is used",
			 kind_word(prog_kind(q)), run_esc(prog_name(q)));
		prog_set_autoload(p, false);
	}
	free(ranks);
}

int run_select_programs(struct obj *o, struct run_prog *rp)
{
	struct prog *p;
	int rc;

	if ((rc = check_names(o, run_env.only, run_env.nonly, "--only")) ||
	    (rc = check_names(o, run_env.skip, run_env.nskip, "--skip")))
		return rc;
	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		if (run_env.nonly && !listed(run_env.only, run_env.nonly, prog_name(p))) {
			prog_set_autoload(p, false);
			snprintf(rp[i].why, sizeof(rp[i].why), "not loaded: not in --only");
		} else if (listed(run_env.skip, run_env.nskip, prog_name(p))) {
			prog_set_autoload(p, false);
			snprintf(rp[i].why, sizeof(rp[i].why), "not loaded: --skip");
		}
	}
	pick_variants(o, rp);
	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		const char *why;

		if (!prog_autoload(p) || !(why = unavailable(o, p)))
			continue;
		if (run_env.strict) {
			fflush(stdout);
			fprintf(stderr, RUN_NAME ": program %s (%s): %s (without --strict it would be skipped)\n",
				run_esc(prog_name(p)), run_esc(prog_section(p)), why);
			return 1;
		}
		snprintf(rp[i].why, sizeof(rp[i].why), "skipped: %s", why);
		prog_set_autoload(p, false);
	}
	err_clear();
	return 0;
}

/* ---- maps ------------------------------------------------------------------ */

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static void human(uint64_t b, char *buf, size_t size)
{
	static const char *const u[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	size_t i = 0;

	while (v >= 1024 && i + 1 < ARRAY_SIZE(u)) {
		v /= 1024;
		i++;
	}
	if (i)
		snprintf(buf, size, "%.1f %s", v, u[i]);
	else
		snprintf(buf, size, "%" PRIu64 " bytes", b);
}

static void note(const char *fmt, const char *a, uint32_t v, const char *hint)
{
	if (tool_common.verbose)
		fprintf(stderr, RUN_NAME ": map %s: %s %u (%s)\n", a, fmt, v, hint);
}

int run_size_maps(struct obj *o)
{
	struct map *m;

	for (size_t i = 0; i < run_env.nmaps; i++) {
		char *name = run_env.maps[i].key, *dot = strrchr(name, '.'), field[32] = "max_entries";
		uint32_t v;

		if (dot && dot != name && (!strcmp(dot + 1, "max_entries") || !strcmp(dot + 1, "value_size") ||
					   !strcmp(dot + 1, "key_size"))) {
			snprintf(field, sizeof(field), "%s", dot + 1);
			*dot = 0;
		}
		m = obj_map(o, name);
		if (!m || map_is_global_data(m)) {
			err_clear();
			return usage("--map: no map named '%s'%s", run_esc(name),
				     m ? " (global data sections cannot be resized)" : "");
		}
		if (parse_u32(run_env.maps[i].value, &v) < 0 || !v)
			return usage("--map: invalid %s '%s' (a number from 1 to 4294967295)", field,
				     run_esc(run_env.maps[i].value));
		if (!strcmp(field, "max_entries"))
			map_set_max_entries(m, v);
		else if (!strcmp(field, "value_size"))
			map_set_value_size(m, v);
		else
			map_set_key_size(m, v);
	}
	/* what libbpf-tools set from user space when the object says 0 */
	for (size_t i = 0; (m = obj_map_at(o, i)); i++) {
		uint32_t t = map_type(m);

		if (map_is_global_data(m))
			continue;
		if (t == BPF_MAP_TYPE_STACK_TRACE && !map_key_size(m)) {
			map_set_key_size(m, 4);
			note("key_size", run_esc(map_name(m)), 4, "a stack id");
		}
		if (t == BPF_MAP_TYPE_STACK_TRACE && !map_value_size(m)) {
			map_set_value_size(m, DEFAULT_STACK_DEPTH * 8);
			note("value_size", run_esc(map_name(m)), DEFAULT_STACK_DEPTH * 8,
			     "127 frames of 8 bytes; set with --map NAME.value_size=N");
		}
		if (!map_max_entries(m) && t != BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			uint32_t n = t == BPF_MAP_TYPE_RINGBUF ? DEFAULT_RINGBUF : DEFAULT_ENTRIES;

			map_set_max_entries(m, n);
			note("max_entries", run_esc(map_name(m)), n, "the object says 0; set with --map NAME=ENTRIES");
		}
	}
	for (size_t i = 0; run_env.map_mem_limit && (m = obj_map_at(o, i)); i++) {
		uint64_t need = map_mem_estimate(m);
		char a[32], b[32];

		if (need <= run_env.map_mem_limit)
			continue;
		human(need, a, sizeof(a));
		human(run_env.map_mem_limit, b, sizeof(b));
		fflush(stdout);
		fprintf(stderr,
			RUN_NAME ": map %s: %u entries (key %u, value %u bytes) would take about %s of kernel memory,"
			" over the limit of %s: size it with --map %s=ENTRIES, or raise the limit with --map-mem-limit SIZE\n",
			run_esc(map_name(m)), map_max_entries(m), map_key_size(m), map_value_size(m), a, b,
			run_esc(map_name(m)));
		return 1;
	}
	return 0;
}

/* ---- global variables (--set) ------------------------------------------------ */

/* The VAR named name in a global data section: its type and size. */
static bool find_var(const struct btf *btf, const char *name, uint32_t *type, uint32_t *size)
{
	for (uint32_t id = 1; btf && id < btf_nr_types(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		const char *sec = btf_name(btf, t);

		if (btf_kind(t) != BTF_KIND_DATASEC ||
		    (strncmp(sec, ".rodata", 7) && strncmp(sec, ".data", 5) && strncmp(sec, ".bss", 4)))
			continue;
		for (uint32_t k = 0; k < btf_vlen(t); k++) {
			const struct btf_var_secinfo *vs = &btf_secinfos(t)[k];
			const struct btf_type *v = btf_type_by_id(btf, vs->type);

			if (v && btf_kind(v) == BTF_KIND_VAR && !strcmp(btf_name(btf, v), name)) {
				*type = v->type;
				*size = vs->size;
				return true;
			}
		}
	}
	return false;
}

static void knob_names(const struct btf *btf, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	for (uint32_t id = 1; btf && id < btf_nr_types(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (btf_kind(t) != BTF_KIND_DATASEC || strncmp(btf_name(btf, t), ".rodata", 7))
			continue;
		for (uint32_t k = 0; k < btf_vlen(t) && len + 2 < size; k++) {
			const struct btf_type *v = btf_type_by_id(btf, btf_secinfos(t)[k].type);

			if (v && btf_kind(v) == BTF_KIND_VAR)
				len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "",
							run_esc(btf_name(btf, v)));
		}
	}
}

static bool is_char_type(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;

	btf_resolve(btf, id, &t);
	return t && btf_kind(t) == BTF_KIND_INT && t->size == 1 &&
	       ((btf_int_encoding(t) & BTF_INT_CHAR) || strstr(btf_name(btf, t), "char"));
}

/* An integer of size bytes, signed or not, from text: 0 or -1 (range). */
static int parse_int(const char *s, uint32_t size, bool sgn, uint64_t *out)
{
	char *end;

	errno = 0;
	if (!*s)
		return -1;
	if (sgn) {
		long long v = strtoll(s, &end, 0);
		long long lo = size >= 8 ? INT64_MIN : -(1ll << (size * 8 - 1)), hi = size >= 8 ? INT64_MAX : (1ll << (size * 8 - 1)) - 1;

		if (errno || *end || v < lo || v > hi)
			return -1;
		*out = (uint64_t)v;
	} else {
		unsigned long long v;

		if (*s == '-')
			return -1;
		v = strtoull(s, &end, 0);
		if (errno || *end || (size < 8 && v >> (size * 8)))
			return -1;
		*out = v;
	}
	return 0;
}

static bool word_in(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcasecmp(s, *words))
			return true;
	return false;
}

/* Write VALUE into the variable at p (its BTF type id, size bytes).
 * Returns NULL or why not (a static string). */
static const char *set_value(const struct btf *btf, uint32_t id, uint32_t size, void *p, const char *value)
{
	static const char *const yes[] = { "1", "true", "yes", "on", NULL }, *const no[] = { "0", "false", "no", "off", NULL };
	static char why[200];
	const struct btf_type *t;
	uint64_t v = 0;

	btf_resolve(btf, id, &t);
	if (!t)
		return "its type is unknown";
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_encoding(t) & BTF_INT_BOOL) {
			if (word_in(value, yes))
				v = 1;
			else if (!word_in(value, no))
				return "it is a bool: true/false, yes/no, on/off or 1/0";
		} else if (t->size > 8 || t->size != size) {
			return "its integer type has an unusual size";
		} else if (parse_int(value, t->size, btf_int_encoding(t) & BTF_INT_SIGNED, &v) < 0) {
			snprintf(why, sizeof(why), "it is a %u-byte %s integer: give a number in range", t->size,
				 btf_int_encoding(t) & BTF_INT_SIGNED ? "signed" : "unsigned");
			return why;
		}
		memcpy(p, &v, t->size); /* little-endian hosts */
		return NULL;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		bool found = false;

		for (uint32_t i = 0; i < btf_vlen(t) && !found; i++) {
			uint32_t no_ = btf_kind(t) == BTF_KIND_ENUM ? btf_enums(t)[i].name_off : btf_enums64(t)[i].name_off;
			const char *n = btf_str(btf, no_);

			if (n && !strcmp(n, value)) {
				v = btf_kind(t) == BTF_KIND_ENUM ? (uint64_t)(int64_t)btf_enums(t)[i].val
								 : (uint64_t)btf_enums64(t)[i].val_hi32 << 32 | btf_enums64(t)[i].val_lo32;
				found = true;
			}
		}
		if (!found && (t->size > 8 || parse_int(value, t->size, btf_kflag(t), &v) < 0))
			return "it is an enum: give one of its names or a number";
		if (t->size > 8 || t->size != size)
			return "its enum type has an unusual size";
		memcpy(p, &v, t->size);
		return NULL;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array_info(t);
		size_t len = strlen(value);

		if (!is_char_type(btf, a->type) || a->nelems != size)
			return "only numbers, bools, enums and char arrays can be set";
		if (len >= a->nelems) {
			snprintf(why, sizeof(why), "it is a char[%u]: at most %u characters", a->nelems, a->nelems - 1);
			return why;
		}
		memset(p, 0, size);
		memcpy(p, value, len);
		return NULL;
	}
	default:
		return "only numbers, bools, enums and char arrays can be set";
	}
}

int run_set_globals(struct obj *o)
{
	const struct btf *btf = obj_btf(o);

	for (size_t i = 0; i < run_env.nsets; i++) {
		const char *name = run_env.sets[i].key, *value = run_env.sets[i].value, *why;
		uint32_t type, size;
		void *p;

		if (!find_var(btf, name, &type, &size)) {
			char names[400];

			knob_names(btf, names, sizeof(names));
			fflush(stdout);
			fprintf(stderr, RUN_NAME ": --set: no global variable '%s' in the object%s%s%s\n", run_esc(name),
				names[0] ? " (its .rodata knobs: " : "", names, names[0] ? ")" : "");
			return 2;
		}
		p = obj_global(o, name, size);
		if (!p) {
			fflush(stdout);
			fprintf(stderr, RUN_NAME ": --set %s: %s\n", run_esc(name), err_msg());
			return 1;
		}
		if ((why = set_value(btf, type, size, p, value))) {
			fflush(stdout);
			fprintf(stderr, RUN_NAME ": --set %s=%s: %s\n", run_esc(name), run_esc(value), why);
			return 2;
		}
		if (tool_common.verbose)
			fprintf(stderr, RUN_NAME ": %s = %s\n", run_esc(name), run_esc(value));
	}
	return 0;
}
