/* applet threadsnoop: list new threads with their start function
 * readme: new threads with their start function (pthread_create uprobe; other runtimes via
 *         the fork tracepoint); as `uthreads PID` bcc's layout for one process's pthreads
 *         (`-l java` adds HotSpot's thread__start/stop rows)
 * alias uthreads (threadsnoop): trace thread creation events in high-level languages
 *
 * bcc's columns: TIME(ms) PID COMM FUNC.  Besides bcc's uprobe on
 * pthread_create, the kernel's sched_process_fork tracepoint catches
 * threads made without the probed libc (other runtimes, static binaries,
 * other mount namespaces): FUNC is "[unknown]" for those.
 *
 * As uthreads (bcc's tools/lib/uthreads.py): the pthreads one process
 * creates, "TIME ID TYPE DESCRIPTION" (bcc's USDT probe
 * libpthread:pthread_start is absent from most glibc builds, Debian's
 * included; the same uprobe and fork event see the same threads).
 * -l java adds bcc's rows for HotSpot's thread__start/stop USDT probes
 * (libjvm.so): "R=JAVA_ID/N=NATIVE_ID start|stop NAME", from programs
 * the tracing compiler makes (tools/probe) in an object of their own,
 * whose buffer the pthread loop reads at each tick. */
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/probe.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/probe/build.h"
#include "tools/stack/usyms.h"
#include "threadsnoop.h"

BPF_OBJ_DECLARE(threadsnoop);

static struct {
	int pid;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "only threads created by this process" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID]",
	.examples = "    threadsnoop        # list new thread creation\n"
		    "    threadsnoop -p 181 # only threads of PID 181\n",
	.opts = opts,
	.flags = OPT_USTACKS | OPT_EVENTS,
};

static const struct opt uopts[] = {
	{ 'l', "language", "LANGUAGE", "language to trace: c, java or none (none for pthreads only)" },
	{ 0 },
};

static const struct tool_help uhelp = {
	.usage = "[-h] [-l {c,java,none}] [-v] pid",
	.opts = uopts,
	.flags = OPT_EVENTS,
};

static const char *lang;

static int parse(int key, const char *arg, void *ctx)
{
	const struct tool_help *h = ctx;

	switch (key) {
	case 'p': env.pid = opt_pid(h, "PID", arg); break;
	case 'l':
		if (strcmp(arg, "c") && strcmp(arg, "java") && strcmp(arg, "none"))
			opt_usage_error(h, "invalid language '%s'", arg);
		lang = arg;
		break;
	case 0:
		if (h != &uhelp || env.pid)
			return 1;
		env.pid = opt_pid(h, "pid", arg);
		break;
	default: return 1;
	}
	return 0;
}

#if defined(__aarch64__)
#define TRIPLET "aarch64-linux-gnu"
#define MUSL_LD "/lib/ld-musl-aarch64.so.1"
#elif defined(__arm__)
#define TRIPLET "arm-linux-gnueabihf"
#define MUSL_LD "/lib/ld-musl-armhf.so.1"
#else
#define TRIPLET "x86_64-linux-gnu"
#define MUSL_LD "/lib/ld-musl-x86_64.so.1"
#endif

/* Does the ELF file at path define pthread_create? */
static int has_pthread_create(const char *path)
{
	struct elf_view ev;
	const void *data;
	size_t size;
	uint64_t off;
	int ok;

	if (access(path, R_OK) || elf_map_file(path, &data, &size) < 0)
		return 0;
	ok = elf_open(&ev, data, size) == 0 && elf_func_file_offset(&ev, "pthread_create", &off) == 0;
	elf_unmap_file(data, size);
	err_clear();
	return ok;
}

/* glibc: libc.so.6 (2.34+) or libpthread.so.0 (older), in the usual
 * library directories.  Fills path; 0 when none has the symbol. */
static int find_glibc(char *path, size_t size)
{
	static const char *const dirs[] = { "/lib/" TRIPLET, "/usr/lib/" TRIPLET, "/lib64", "/usr/lib64",
					    "/lib", "/usr/lib" };
	static const char *const libs[] = { "libc.so.6", "libpthread.so.0" };

	for (size_t l = 0; l < ARRAY_SIZE(libs); l++)
		for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
			snprintf(path, size, "%s/%s", dirs[d], libs[l]);
			if (has_pthread_create(path))
				return 1;
		}
	return 0;
}

/* bcc's columns; JSON adds the new thread's id and the raw address. */
enum { C_TIME, C_PID, C_COMM, C_FUNC, C_TID, C_START };
static const struct out_col cols[] = {
	[C_TIME] = { "time_ms", "TIME(ms)", "%-10lld ", OUT_INT },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_FUNC] = { "func", "FUNC", "%s\n", OUT_STR },
	[C_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_START] = { "start", NULL, NULL, OUT_HEX, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* uthreads: bcc's columns */
enum { U_TIME, U_ID, U_TYPE, U_DESC };
static const struct out_col ucols[] = {
	[U_TIME] = { "time_s", "TIME", "%-8.3f ", OUT_FLOAT },
	[U_ID] = { "id", "ID", "%-16s ", OUT_STR },
	[U_TYPE] = { "type", "TYPE", "%-8s ", OUT_STR },
	[U_DESC] = { "description", "DESCRIPTION", "%-30s\n", OUT_STR },
};
static struct out_table utable = OUT_TABLE(NULL, ucols);

static struct usyms *usyms;
static uint64_t first_ts, ctx_start_ns;

/* uthreads' banner, before the header */
static int ubanner(struct obj *o)
{
	struct timespec ts;

	(void)o;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ctx_start_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	out_info("Tracing thread events in process %d (language: %s)... Ctrl-C to quit.\n", env.pid, lang);
	return 0;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	struct threadsnoop_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[EV_COMM_LEN + 1], func[256];
	struct usym sym = { 0 };
	char id[16];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	if (!first_ts)
		first_ts = e.ts_ns;
	/* unresolved: bcc's symbolizer text (the address stays in JSON's "start") */
	if (e.start && usyms_lookup(usyms, (int)e.pid, e.start, &sym) == 0 && sym.name)
		snprintf(func, sizeof(func), "%s", sym.name);
	else
		snprintf(func, sizeof(func), "[unknown]");
	if (lang) { /* uthreads: pthreads only, bcc's sym(show_module=True) */
		const char *m = sym.module && e.start ? strrchr(sym.module, '/') : NULL;

		if (!e.start)
			return 0;
		if (m)
			snprintf(func + strlen(func), sizeof(func) - strlen(func), " [%s]", m + 1);
		v[U_TIME].f = (double)(e.ts_ns - ctx_start_ns) / 1e9;
		snprintf(id, sizeof(id), "%u", e.tid);
		v[U_ID].s = id;
		v[U_TYPE].s = "pthread";
		v[U_DESC].s = func;
		out_row(&utable, v);
		return 0;
	}
	v[C_TIME].i = e.ts_ns >= first_ts ? (long long)((e.ts_ns - first_ts) / 1000000) : 0;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_FUNC].s = func;
	v[C_TID].i = e.tid;
	v[C_START].u = e.start;
	out_row(&table, v);
	return 0;
}


/* -l java: a record per thread__start/stop(name, name length, java id,
 * native id, daemon): J_NAME holds bcc's 80 bytes of the name */
enum { J_TS = 0, J_RID = 8, J_NID = 16, J_CG = 24, J_STOP = 32, J_NAME = 40, J_SIZE = J_NAME + 80 };
static struct events *jev;

static int java_prog(struct obj *o, const struct loc *l, int events, bool ring, bool stop)
{
	struct cg_opts co = { .pid = env.pid, .uid = -1, .cpu = -1 };
	struct gen *g = gen_new(l, NULL, &co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), rec = gen_stack(g, J_SIZE), fit = emit_label(e), err = 0;
	static const char *const args[] = { "arg3", "arg4", "arg2" }; /* to J_RID, J_NID, J_NAME */
	struct ctype t;

	for (int i = 0; i < J_SIZE; i += 8)
		emit_st(e, 8, R10, (int16_t)(rec + i), 0);
	for (int i = 0; i < 3 && !err; i++) {
		err = gen_value(g, args[i], 0, &t);
		emit_stx(e, 8, R10, (int16_t)(rec + (i < 2 ? J_RID + 8 * i : J_NAME)), R0);
	}
	if (!err)
		err = gen_value(g, "arg1", 0, &t);
	if (err < 0) {
		tool_err(tool_applet, "%s: %s", l->name, err_msg());
		gen_free(g);
		return 1;
	}
	/* the name's bytes (not NUL-terminated), at most 79 */
	emit_mov(e, R3, R0);
	emit_ldx(e, 8, R2, R10, (int16_t)(rec + J_NAME));
	emit_st(e, 8, R10, (int16_t)(rec + J_NAME), 0);
	emit_jmpi(e, BPF_JLE, R2, 79, fit);
	emit_movi(e, R2, 79);
	emit_place(e, fit);
	emit_mov(e, R1, R10);
	emit_alui(e, BPF_ADD, R1, rec + J_NAME);
	emit_call(e, BPF_FUNC_probe_read_user);
	emit_st(e, 4, R10, (int16_t)(rec + J_STOP), stop);
	gen_cgroup_id(g, R10, (int16_t)(rec + J_CG));
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_stx(e, 8, R10, (int16_t)(rec + J_TS), R0);
	gen_output(g, events, R10, rec, J_SIZE, ring);
	gen_end(g, out);
	err = build_add(o, l, g, l->name, env.pid) < 0;
	if (err)
		tool_err(tool_applet, "%s: %s", l->name, err_msg());
	gen_free(g);
	return err;
}

static int on_java(void *ctx, const void *data, size_t size)
{
	const char *d = data;
	union out_val v[ARRAY_SIZE(ucols)];
	uint64_t x[4];
	uint32_t stop;
	char id[48], name[81];

	(void)ctx;
	if (size < J_SIZE)
		return 0;
	memcpy(x, d, sizeof(x));
	memcpy(&stop, d + J_STOP, 4);
	memcpy(name, d + J_NAME, 80);
	name[80] = 0;
	snprintf(id, sizeof(id), "R=%llu/N=%llu", (unsigned long long)x[1], (unsigned long long)x[2]);
	out_event_cgroup(x[3], x[3] ? cgroup_path_of(x[3]) : NULL);
	v[U_TIME].f = (double)(int64_t)(x[0] - ctx_start_ns) / 1e9;
	v[U_ID].s = id;
	v[U_TYPE].s = stop ? "stop" : "start";
	v[U_DESC].s = name;
	out_row(&utable, v);
	return 0;
}

/* the JVM's events between two polls of the pthread buffer, and the last */
static int java_tick(struct obj *o)
{
	(void)o;
	if (events_poll(jev, 0) > 0)
		tool_flush();
	return 0;
}

/* at the end: the last of them, and the perf buffer's losses */
static int java_finish(struct obj *o)
{
	uint64_t lost;

	java_tick(o);
	if ((lost = events_lost(jev)))
		fprintf(stderr, "%s: lost %llu JVM thread events\n", tool_applet, (unsigned long long)lost);
	return 0;
}

/* Load the programs at thread__start/stop in process pid's libjvm.so
 * into jo and open their buffer: 0, or 1 after a message. */
static int java_open(struct obj *jo)
{
	struct resolve_opts ro = { .tool = tool_applet, .pid = env.pid };
	bool ring = probe_ringbuf();
	int events = ring ? obj_new_map(jo, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, 64 * 1024, 0)
			  : obj_new_map(jo, "events", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	int rc = 0, attached;

	for (int stop = 0; stop < 2 && !rc; stop++) {
		struct spec s;
		struct loc *l = NULL;
		int n = 0, errpos;

		if (spec_parse_trace(stop ? "u:jvm:thread__stop" : "u:jvm:thread__start", &s, &errpos) < 0 ||
		    probe_resolve(&s, &ro, false, &l, &n) < 0 || !n) {
			tool_err(tool_applet, "-l java: no HotSpot thread probe in process %d: is it a JVM? (%s)",
				 env.pid, err_msg());
			rc = 1;
		}
		for (int i = 0; i < n && !rc; i++)
			rc = java_prog(jo, &l[i], events, ring, stop);
		locs_free(l, n);
		spec_free(&s);
	}
	if ((rc = build_finish(jo, rc, tool_applet, "the hotspot probes", &attached)))
		return rc;
	if (!(jev = events_open(obj_map_at(jo, (size_t)events), on_java, NULL))) {
		tool_err(tool_applet, "%s", err_msg());
		return 1;
	}
	return 0;
}

int threadsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = tool_applet, .on_event = on_event, .header = &table };
	char glibc[256], target[300], exe[300];
	struct obj *o, *jo = NULL;
	int nlib = 0, err;

	if (!strcmp(tool_applet, "uthreads")) {
		opt_parse(argc, argv, &uhelp, parse, (void *)&uhelp);
		if (!env.pid)
			opt_usage_error(&uhelp, "the following arguments are required: pid");
		if (!lang) { /* bcc's detection, reduced: "java" in the executable's path, else C */
			snprintf(target, sizeof(target), "/proc/%d/exe", env.pid);
			lang = realpath(target, exe) && strstr(exe, "java") ? "java" : "c";
		}
		te.header = &utable;
		te.after_load = ubanner;
		if (!strcmp(lang, "java")) {
			jo = obj_new(tool_applet);
			if (java_open(jo)) {
				obj_close(jo);
				return 1;
			}
			te.tick = java_tick;
			te.finish = java_finish;
		}
	} else {
		opt_parse(argc, argv, &help, parse, (void *)&help);
	}
	tool_signals();
	o = BPF_OBJ_OPEN(threadsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	if (find_glibc(glibc, sizeof(glibc))) {
		snprintf(target, sizeof(target), "%s:pthread_create", glibc);
		prog_set_attach_target(obj_prog(o, "threadsnoop_glibc"), target);
		nlib++;
	} else {
		prog_set_autoload(obj_prog(o, "threadsnoop_glibc"), false);
	}
	if (has_pthread_create(MUSL_LD)) {
		prog_set_attach_target(obj_prog(o, "threadsnoop_musl"), MUSL_LD ":pthread_create");
		nlib++;
	} else {
		prog_set_autoload(obj_prog(o, "threadsnoop_musl"), false);
	}
	if (!nlib)
		fprintf(stderr, "%s: no C library with pthread_create found (looked for glibc's "
			"libc.so.6/libpthread.so.0 and musl): threads show with FUNC [unknown]\n", tool_applet);
	usyms = usyms_new(USYMS_NAMES);
	err = tool_run_events(o, &te);
	usyms_free(usyms);
	if (jo) {
		events_close(jev);
		obj_close(jo);
	}
	return err;
}
