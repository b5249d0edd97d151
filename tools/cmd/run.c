/* command run: load and run any libbpf-style BPF object
 *
 *   corebox run OBJ.bpf.o [-d SECONDS] [--dry-run] [--only|--skip NAMES]
 *               [--map NAME=N] [--set NAME=VALUE] [--event-type TYPE] ...
 *
 * Picks the programs a libbpf-tools binary would (one variant per hook,
 * skipping what the kernel cannot attach), sizes and sets what its user
 * space would (maps declared with 0 entries, .rodata knobs), relocates,
 * loads and attaches them by section name, prints ring buffer / perf
 * buffer records decoded by their BTF type, and at exit every map's
 * contents and the global variables by name (run_setup.c, run_print.c).
 * --dry-run loads and lists programs and maps without attaching anything. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sys.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "run.h"
#include "tools/common/common.h"

#define MAX_OBJECT (64u << 20) /* the largest libbpf-tools object is 185 KB */

enum {
	KEY_DRY = OPT_LONG_ONLY(1), KEY_ONLY, KEY_SKIP, KEY_STRICT, KEY_MAP, KEY_MEMLIMIT, KEY_SET, KEY_EVTYPE,
};

static const struct opt opts[] = {
	{ 'd', "duration", "SECONDS", "stop after SECONDS (default: until Ctrl-C / SIGTERM)" },
	{ KEY_DRY, "dry-run", NULL, "load, list programs and maps, attach nothing" },
	{ KEY_ONLY, "only", "NAMES", "load only these programs (comma-separated; no variant choice)" },
	{ KEY_SKIP, "skip", "NAMES", "do not load these programs" },
	{ KEY_STRICT, "strict", NULL, "fail when a program cannot attach here (default: skip it)" },
	{ KEY_MAP, "map", "NAME=N", "N entries for map NAME (NAME.value_size=N, NAME.key_size=N)" },
	{ KEY_MEMLIMIT, "map-mem-limit", "SIZE", "refuse maps needing more kernel memory (default: 1G or half"
						 " the RAM; 0: none)" },
	{ KEY_SET, "set", "NAME=VALUE", "set global NAME before load (a const volatile knob: number, bool,"
					" enum name, string)" },
	{ KEY_EVTYPE, "event-type", "TYPE", "records are struct TYPE (MAP=TYPE: of one map; default: the type"
					    " the code sends, else hex)" },
	{ 0 },
};

static const struct tool_help help = {
	.name = RUN_NAME,
	.usage = "OBJ.bpf.o [-d SECONDS] [--dry-run] [--only|--skip NAMES] [--strict] [--map NAME=N]\n"
		 "       [--set NAME=VALUE] [--event-type [MAP=]TYPE] [--map-mem-limit SIZE] [-v] [--btf FILE]",
	.summary = "Load a BPF object that follows libbpf's conventions (SEC names, .maps, global\n"
		   "data, externs, subprograms) and run it as its libbpf-tools binary would: of the\n"
		   "programs hooking one event (tp_btf, raw_tp, tracepoint; fentry, kprobe) only the\n"
		   "best the kernel takes is attached, and a program whose mechanism this kernel\n"
		   "lacks is skipped with one line.  Maps declared with 0 entries get 10240 (stack\n"
		   "maps 127 frames of 8 bytes).  Records of ring and perf buffers are printed by the\n"
		   "type the code sends (from BTF), else in hex; at exit every map's contents and\n"
		   "the global variables are printed.  USDT programs load but are not attached yet.",
	.examples = "  corebox run prog.bpf.o                          # run until Ctrl-C\n"
		    "  corebox run prog.bpf.o -d 10                    # run for 10 seconds\n"
		    "  corebox run prog.bpf.o --dry-run                # load and list, attach nothing\n"
		    "  corebox run runqlat.bpf.o --set targ_tgid=1234 --set targ_ms=true\n"
		    "  corebox run offcputime.bpf.o --map stackmap=2048 --map stackmap.value_size=400\n"
		    "  corebox run prog.bpf.o --event-type event --skip handle_exit\n",
	.opts = opts,
	.flags = OPT_EVENTS, /* --show-cgroup: a record's cgroup id member (cgroup_id, cgid...) as a path */
};

struct run_env run_env;

static void add_names(char ***v, size_t *n, const char *list)
{
	char *copy = xstrdup(list), *s, *save = NULL;

	for (s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = xstrdup(s);
	}
	free(copy);
}

/* NAME=VALUE (eq: VALUE may be absent only when optional_key: TYPE). */
static int add_kv(struct run_kv **v, size_t *n, const char *arg, bool key_optional)
{
	char *copy = xstrdup(arg), *eq = strchr(copy, '=');
	struct run_kv kv = { copy, NULL };

	if (eq) {
		*eq = 0;
		kv.value = eq + 1;
		if (!*copy) {
			free(copy);
			return 1;
		}
	} else if (key_optional) {
		kv.key = NULL;
		kv.value = copy;
	} else {
		free(copy);
		return 1;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = kv;
	return 0;
}

static uint64_t parse_size(const char *arg)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *arg == '-')
		opt_usage_error(&help, "invalid --map-mem-limit: '%s' (a size such as 512M or 2G)", run_esc(arg));
	switch (*end) {
	case 'k': case 'K': mult = 1ull << 10; end++; break;
	case 'm': case 'M': mult = 1ull << 20; end++; break;
	case 'g': case 'G': mult = 1ull << 30; end++; break;
	case 't': case 'T': mult = 1ull << 40; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end += *end == 'i' && end[1] == 'B' ? 2 : 1;
	if (*end || (v && mult > UINT64_MAX / v))
		opt_usage_error(&help, "invalid --map-mem-limit: '%s' (a size such as 512M or 2G)", run_esc(arg));
	return (uint64_t)v * mult;
}

static int parse_arg(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 0:
		if (run_env.file)
			return 1;
		run_env.file = arg;
		return 0;
	case 'd':
		run_env.duration = (long)opt_num(&help, "duration", arg, 1, 100000000);
		return 0;
	case KEY_DRY:
		run_env.dry = true;
		return 0;
	case KEY_ONLY:
		add_names(&run_env.only, &run_env.nonly, arg);
		return 0;
	case KEY_SKIP:
		add_names(&run_env.skip, &run_env.nskip, arg);
		return 0;
	case KEY_STRICT:
		run_env.strict = true;
		return 0;
	case KEY_MAP:
		return add_kv(&run_env.maps, &run_env.nmaps, arg, false);
	case KEY_SET:
		return add_kv(&run_env.sets, &run_env.nsets, arg, false);
	case KEY_EVTYPE:
		return add_kv(&run_env.evtypes, &run_env.nevtypes, arg, true);
	case KEY_MEMLIMIT:
		run_env.map_mem_limit = parse_size(arg);
		run_env.map_mem_limit_set = true;
		return 0;
	}
	return 1;
}

/* 1 GiB, or half the RAM when that is less (an embedded board). */
static uint64_t default_mem_limit(void)
{
	uint64_t lim = 1ull << 30;
	char *buf, *p;

	if (read_file("/proc/meminfo", 1 << 16, &buf, NULL) == 0) {
		unsigned long long kb;

		if ((p = strstr(buf, "MemTotal:")) && str_scan(p + 9, "%llu", &kb) == 1 && kb * 512 < lim && kb)
			lim = kb * 512;
		free(buf);
	}
	err_clear();
	return lim;
}

static void env_free(void)
{
	for (size_t i = 0; i < run_env.nonly; i++)
		free(run_env.only[i]);
	for (size_t i = 0; i < run_env.nskip; i++)
		free(run_env.skip[i]);
	for (size_t i = 0; i < run_env.nmaps; i++)
		free(run_env.maps[i].key);
	for (size_t i = 0; i < run_env.nsets; i++)
		free(run_env.sets[i].key);
	for (size_t i = 0; i < run_env.nevtypes; i++)
		free(run_env.evtypes[i].key ? run_env.evtypes[i].key : run_env.evtypes[i].value);
	free(run_env.only);
	free(run_env.skip);
	free(run_env.maps);
	free(run_env.sets);
	free(run_env.evtypes);
}

static bool is_events(uint32_t t)
{
	return t == BPF_MAP_TYPE_RINGBUF || t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
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

/* Status lines (the program table, attach results, the banner, losses):
 * stdout, or stderr under -j so that stdout holds only JSON lines. */
static FILE *status_out(void)
{
	return out_json() ? stderr : stdout;
}

static int width(int w, const char *s)
{
	int n = (int)strlen(run_esc(s));

	return n > w ? n : w;
}

static void list(struct obj *o, const struct run_prog *rp)
{
	struct prog *p;
	struct map *m;
	int w = 12, ws = 8;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		w = width(w, prog_name(p));
		ws = width(ws, prog_section(p));
	}
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		w = width(w, map_name(m));
	fprintf(status_out(), "%-*s %-*s %6s  %s\n", w, "PROGRAM", ws, "SECTION", "INSNS", "STATUS");
	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		uint32_t n = prog_insns(p);
		char ns[16] = "-";

		if (n)
			snprintf(ns, sizeof(ns), "%u", n);
		fprintf(status_out(), "%-*s %-*s %6s  %s\n", w, run_esc(prog_name(p)), ws, run_esc(prog_section(p)), ns,
		       prog_fd(p) >= 0 ? "loaded" : rp[i].why[0] ? rp[i].why : "not loaded");
	}
	fprintf(status_out(), "\n%-*s %-16s %5s %6s %11s\n", w, "MAP", "TYPE", "KEY", "VALUE", "MAX_ENTRIES");
	for (size_t i = 0; (m = obj_map_at(o, i)); i++) {
		fprintf(status_out(), "%-*s %-16s %5u %6u %11u%s", w, run_esc(map_name(m)), run_map_type_name(map_type(m)),
		       map_key_size(m), map_value_size(m), map_max_entries(m), map_fd(m) >= 0 ? "" : "  (not created)");
		if (is_events(map_type(m))) {
			const uint32_t *ids;
			size_t n = map_record_types(m, &ids);

			fprintf(status_out(), "  records:");
			for (size_t k = 0; k < n; k++)
				fprintf(status_out(), " %s%s", k ? ", " : "", run_esc(btf_name(obj_btf(o), btf_type_by_id(obj_btf(o), ids[k]))));
			fprintf(status_out(), "%s", n ? "" : " untyped (hex)");
		}
		fputc('\n', status_out());
	}
}

static int fail(const char *what)
{
	fflush(stdout);
	fprintf(stderr, RUN_NAME ": %s%s\n", what, err_msg());
	return 1;
}

static int nothing_attachable(size_t skipped)
{
	fflush(stdout);
	fprintf(stderr, RUN_NAME ": no program of the object can be attached on this kernel (%zu skipped)\n", skipped);
	return 1;
}

/* An attach failure that says the kernel lacks the hook (a tracepoint or
 * function that is not there, a mechanism it does not support): skipped
 * like a missing mechanism.  Anything else (no file descriptors left,
 * permissions) is an error. */
static bool missing_hook(int err)
{
	return err == -ENOENT || err == -ENOTSUP || err == -EOPNOTSUPP || err == -524 /* ENOTSUPP */ ||
	       err == -ENODEV || err == -ESRCH;
}

/* Attach every loaded program; one line each.  Returns 0 or the exit
 * status after a message. */
static int attach(struct obj *o, struct run_prog *rp, size_t *attached)
{
	size_t skipped = 0;
	struct prog *p;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		const char *mech;
		int err;

		if (prog_fd(p) < 0) {
			if (rp[i].why[0] && (tool_common.verbose || strncmp(rp[i].why, "not loaded: ", 12) ||
					     strstr(rp[i].why, "variant")))
				fprintf(status_out(), "%s (%s): %s\n", run_esc(prog_name(p)), run_esc(prog_section(p)), rp[i].why);
			skipped += !strncmp(rp[i].why, "skipped", 7);
			continue;
		}
		err = prog_attach(p);
		if (err < 0 && (run_env.strict || !missing_hook(err)))
			return fail("");
		if (err < 0) {
			fprintf(status_out(), "%s (%s): skipped: %s\n", run_esc(prog_name(p)), run_esc(prog_section(p)), err_msg());
			err_clear();
			skipped++;
			continue;
		}
		mech = prog_mechanism(p);
		if (mech && *mech) {
			fprintf(status_out(), "%s (%s): %s\n", run_esc(prog_name(p)), run_esc(prog_section(p)), mech);
			(*attached)++;
		} else {
			fprintf(status_out(), "%s (%s): loaded, not attached%s\n", run_esc(prog_name(p)), run_esc(prog_section(p)),
			       prog_kind(p) == ATTACH_USDT ? " (USDT probes are not attached yet)" : "");
		}
	}
	return !*attached && skipped ? nothing_attachable(skipped) : 0;
}

static int run(struct obj *o, struct run_prog *rp)
{
	struct run_events **evs = NULL;
	struct events **ev = NULL;
	struct map **evm = NULL;
	size_t nev = 0, nprogs = 0, nmaps = 0;
	struct map *m;
	uint64_t end;
	int rc;

	tool_signals();
	if ((rc = attach(o, rp, &nprogs)))
		return rc;
	while (obj_map_at(o, nmaps))
		nmaps++;
	evs = xcalloc(nmaps, sizeof(*evs));
	ev = xcalloc(nmaps, sizeof(*ev));
	evm = xcalloc(nmaps, sizeof(*evm));
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		if (is_events(map_type(m)) && map_fd(m) >= 0)
			evm[nev++] = m;
	for (size_t i = 0; i < nev; i++) {
		evs[i] = run_events_new(o, evm[i], nev > 1);
		if (!(ev[i] = events_open(evm[i], run_on_event, evs[i]))) {
			rc = fail("");
			goto out;
		}
	}
	fprintf(status_out(), "Running %s: %zu program%s attached, %zu event map%s. Hit Ctrl-C to end.\n", run_esc(run_env.file),
	       nprogs, nprogs == 1 ? "" : "s", nev, nev == 1 ? "" : "s");
	fflush(stdout);

	end = run_env.duration ? now_ns() + (uint64_t)run_env.duration * 1000000000ull : 0;
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
			int r = events_poll(ev[i], nev == 1 ? tmo : tmo / (int)nev + 1);

			if (r < 0 && r != -EINTR) {
				rc = fail("reading events: ");
				goto out;
			}
			if (r > 0)
				fflush(stdout);
		}
	}
	for (size_t i = 0; i < nev; i++) /* what arrived before the stop */
		events_poll(ev[i], 0);
	fflush(stdout);
	for (size_t i = 0; i < nev; i++) {
		uint64_t lost = events_lost(ev[i]);

		if (lost)
			fprintf(status_out(), "Lost %llu events on map %s.\n", (unsigned long long)lost, run_esc(map_name(evm[i])));
	}
	for (size_t i = 0; (m = obj_map_at(o, i)); i++)
		run_dump_map(m, obj_btf(o));
out:
	fflush(stdout);
	for (size_t i = 0; i < nev; i++) {
		events_close(ev[i]);
		run_events_free(evs[i]);
	}
	free(evs);
	free(ev);
	free(evm);
	return rc;
}

int run_main(int argc, char **argv)
{
	struct obj_opts oo;
	struct run_prog *rp = NULL;
	struct obj *o = NULL;
	char *buf = NULL, name[64];
	const char *base;
	size_t size, n = 0;
	int rc;

	opt_parse(argc, argv, &help, parse_arg, NULL);
	if (!run_env.file)
		opt_usage_error(&help, "missing object file (corebox run OBJ.bpf.o)");
	if (!run_env.map_mem_limit_set)
		run_env.map_mem_limit = default_mem_limit();
	if (read_file(run_env.file, MAX_OBJECT, &buf, &size) < 0) {
		rc = fail("");
		goto out;
	}
	base = strrchr(run_env.file, '/');
	snprintf(name, sizeof(name), "%s", base ? base + 1 : run_env.file);
	name[strcspn(name, ".")] = 0; /* "prog.bpf.o" -> "prog" (kernel names of data maps) */
	o = obj_open(name[0] ? name : "obj", buf, size);
	if (!o) {
		rc = fail("");
		goto out;
	}
	while (obj_prog_at(o, n))
		n++;
	rp = xcalloc(n, sizeof(*rp));
	if ((rc = run_select_programs(o, rp)) || (rc = run_size_maps(o)) || (rc = run_set_globals(o)) ||
	    (rc = run_check_event_types(o)))
		goto out;
	memset(&oo, 0, sizeof(oo));
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (obj_load(o, &oo) < 0) {
		rc = fail("");
		goto out;
	}
	if (run_env.dry) {
		size_t loaded = 0, skipped = 0;
		struct prog *p;

		list(o, rp);
		fflush(stdout); /* reported while still loaded */
		for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
			loaded += prog_fd(p) >= 0;
			skipped += !strncmp(rp[i].why, "skipped", 7);
		}
		rc = !loaded && skipped ? nothing_attachable(skipped) : 0;
		goto out;
	}
	rc = run(o, rp);
out:
	obj_close(o);
	free(rp);
	free(buf);
	env_free();
	return rc;
}
