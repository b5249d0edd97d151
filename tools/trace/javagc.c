/* applet javagc: trace Java garbage collection pauses (HotSpot USDT probes)
 * readme: Java GC pauses from libjvm.so's USDT probes hotspot:gc__begin/gc__end and mem__pool__gc__begin/end (`-p PID`, `-t US`)
 *
 * libbpf-tools' javagc: the libjvm.so that process PID has mapped
 * (/proc/PID/maps), its four USDT probes (a pause starts at gc__begin or
 * mem__pool__gc__begin, ends at gc__end or mem__pool__gc__end: one start
 * time per process, as there), and a line for each pause longer than
 * -t microseconds (default 1000): "TIME CPU PID GC TIME" (us).
 * Programs come from the tracing compiler's USDT support (tools/probe).
 * Deliberate difference: the pause is kept in 64 bits (libbpf-tools'
 * 32-bit nanoseconds wrap after 4.3 s). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/probe/build.h"

/* REC_CGROUP: under -j or --show-cgroup, the JVM thread's cgroup id */
enum { REC_CPU = 0, REC_PID = 4, REC_TS = 8, REC_SIZE = 16, REC_CGROUP = 16 };

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 't', "time", "TIME", "Java gc time" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help] [-p PID] [-t GC time]",
	.summary = "Monitor javagc time cost.",
	.examples = "javagc -p 185         # trace PID 185 only\n"
		    "javagc -p 185 -t 100  # trace PID 185 java gc time beyond 100us\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	int pid, rec_size;
	long long time_us;
} env = { .time_us = 1000 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.time_us = opt_num(&help, "time", arg, 0, 1LL << 40); break;
	default: return 1;
	}
	return 0;
}

/* The libjvm.so that pid has mapped, as libbpf-tools finds it: malloc'd
 * path, or NULL after a message. */
static char *find_libjvm(int pid)
{
	char path[64], line[4096], *found = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "r"))) {
		tool_err("javagc", "cannot read %s: %s (is process %d running?)", path, strerror(errno), pid);
		return NULL;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *nl;

		if (!p || !strstr(p, "libjvm.so"))
			continue;
		if ((nl = strchr(p, '\n')))
			*nl = 0;
		found = xstrdup(p);
	}
	fclose(f);
	if (!found)
		tool_err("javagc", "process %d has no libjvm.so mapped: is it a HotSpot JVM?", pid);
	return found;
}

/* begin: start[tgid] = now */
static int gen_begin_prog(struct obj *o, struct spec *s, struct loc *l, int start)
{
	struct cg_opts co = { .pid = env.pid, .uid = -1, .cpu = -1 };
	struct gen *g = gen_new(l, s, &co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), val = gen_stack(g, 8), rc = 0;

	emit_mov(e, R1, R8);
	emit_alui(e, BPF_RSH, R1, 32);
	emit_stx(e, 4, R10, (int16_t)key, R1);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_stx(e, 8, R10, (int16_t)val, R0);
	emit_map_update(e, start, key, val, BPF_ANY);
	gen_end(g, out);
	if (build_add(o, l, g, s->text, env.pid) < 0)
		rc = build_probe_error("javagc", s, g);
	gen_free(g);
	return rc;
}

/* end: the pause since start[tgid]; above the threshold, a record */
static int gen_end_prog(struct obj *o, struct spec *s, struct loc *l, int start, int events, int drop_map,
			uint32_t drop_off, bool ring)
{
	struct cg_opts co = { .pid = env.pid, .uid = -1, .cpu = -1 };
	struct gen *g = gen_new(l, s, &co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, 8), rec = gen_stack(g, env.rec_size), rc = 0;

	emit_mov(e, R1, R8);
	emit_alui(e, BPF_RSH, R1, 32);
	emit_stx(e, 4, R10, (int16_t)key, R1);
	emit_stx(e, 4, R10, (int16_t)(rec + REC_PID), R1);
	gen_lookup(g, start, key, out);
	emit_ldx(e, 8, R7, R0, 0);
	emit_ldmap(e, R1, start);
	emit_mov(e, R2, R10);
	emit_alui(e, BPF_ADD, R2, key);
	emit_call(e, BPF_FUNC_map_delete_elem);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_alu(e, BPF_SUB, R0, R7);
	emit_ld64(e, R1, (uint64_t)env.time_us * 1000);
	emit_jmp(e, BPF_JLE, R0, R1, out);
	emit_stx(e, 8, R10, (int16_t)(rec + REC_TS), R0);
	emit_call(e, BPF_FUNC_get_smp_processor_id);
	emit_stx(e, 4, R10, (int16_t)(rec + REC_CPU), R0);
	if (env.rec_size > REC_SIZE)
		gen_cgroup_id(g, R10, (int16_t)(rec + REC_CGROUP));
	gen_output(g, events, R10, rec, env.rec_size, ring);
	/* sent: ring 0; perf anything but -ENOSPC (no room) */
	emit_jmpi(e, ring ? BPF_JEQ : BPF_JNE, R0, ring ? 0 : -ENOSPC, out);
	/* no room: counted once, the loop reports it */
	emit_ldmap_value(e, R1, drop_map, (int32_t)drop_off);
	emit_movi(e, R2, 1);
	emit_xadd(e, 8, R1, 0, R2);
	gen_end(g, out);
	if (build_add(o, l, g, s->text, env.pid) < 0)
		rc = build_probe_error("javagc", s, g);
	gen_free(g);
	return rc;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	uint32_t cpu, pid;
	uint64_t ts, cg = 0;
	char t[16];

	(void)ctx;
	if (size < REC_SIZE)
		return 0;
	if (size >= REC_SIZE + 8)
		memcpy(&cg, (const char *)data + REC_CGROUP, 8);
	out_event_cgroup(cg, cg ? cgroup_path_of(cg) : NULL); /* the row's CGROUP, JSON "cgroup" */
	memcpy(&cpu, (const char *)data + REC_CPU, 4);
	memcpy(&pid, (const char *)data + REC_PID, 4);
	memcpy(&ts, (const char *)data + REC_TS, 8);
	tool_hms(t, sizeof(t));
	if (out_json()) {
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		strbuf_add(&b, "{\"time\":");
		json_time(&b);
		strbuf_addf(&b, ",\"cpu\":%u,\"pid\":%u,\"gc_time_us\":%llu}", cpu, pid, (unsigned long long)(ts / 1000));
		out_json_value(NULL, &b);
		strbuf_free(&b);
		return 0;
	}
	out_cgroup_prefix();
	printf("%-8s %-7u %-7u %-7llu\n", t, cpu, pid, (unsigned long long)(ts / 1000));
	return 0;
}

int javagc_main(int argc, char **argv)
{
	/* begin probes first: even index begins, odd ends */
	static const char *const probes[] = { "mem__pool__gc__begin", "mem__pool__gc__end", "gc__begin", "gc__end" };
	struct resolve_opts ro = { .tool = "javagc", .limit = 16 };
	struct spec specs[4];
	struct loc *locs[4] = { 0 };
	char *texts[4] = { 0 }; /* the specs point into them */
	int nl[4] = { 0 }, nspec = 0, start, events, drop_map, rc = 0, attached = 0;
	uint32_t drop_off = 0;
	bool ring = probe_ringbuf();
	struct events *ev = NULL;
	struct obj *o = NULL;
	char *lib;

	opt_parse(argc, argv, &help, parse, NULL);
	env.rec_size = REC_SIZE + (out_json() || out_cfg.cgroup_column ? 8 : 0);
	if (!env.pid)
		opt_usage_error(&help, "-p PID is required: the JVM whose libjvm.so to trace");
	if (!(lib = find_libjvm(env.pid)))
		return 1;
	if (strchr(lib, ':')) {
		tool_err("javagc", "%s: a path with ':' cannot be named in a USDT probe", lib);
		free(lib);
		return 1;
	}
	ro.pid = env.pid;
	ro.verbose = tool_common.verbose;
	for (; nspec < 4; nspec++) {
		int errpos = 0;

		size_t tl = strlen(lib) + 40;

		texts[nspec] = xmalloc(tl);
		snprintf(texts[nspec], tl, "u:%s:hotspot:%s", lib, probes[nspec]);
		if (spec_parse_trace(texts[nspec], &specs[nspec], &errpos) < 0) {
			tool_err("javagc", "%s: %s", texts[nspec], err_msg());
			rc = 1;
			goto out;
		}
		if (probe_resolve(&specs[nspec], &ro, false, &locs[nspec], &nl[nspec]) < 0) {
			tool_err("javagc", "attach usdt %s failed: %s", probes[nspec], err_msg());
			nspec++;
			rc = 1;
			goto out;
		}
	}
	tool_signals();
	o = obj_new("javagc");
	start = obj_new_map(o, "data_map", BPF_MAP_TYPE_HASH, 4, 8, 10240, 0);
	events = ring ? obj_new_map(o, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, 256 * 1024, 0)
		      : obj_new_map(o, "events", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	drop_map = obj_new_global(o, "cb_events_dropped", 8, &drop_off);
	for (int i = 0; i < 4 && !rc; i++)
		for (int k = 0; k < nl[i] && !rc; k++)
			rc = i % 2 ? gen_end_prog(o, &specs[i], &locs[i][k], start, events, drop_map, drop_off, ring)
				   : gen_begin_prog(o, &specs[i], &locs[i][k], start);
	if ((rc = build_finish(o, rc, "javagc", "the hotspot probes", &attached)))
		goto out;
	if (!(ev = events_open(obj_map_at(o, (size_t)events), on_event, NULL))) {
		tool_err("javagc", "%s", err_msg());
		rc = 1;
		goto out;
	}
	out_info("Tracing javagc time... Hit Ctrl-C to end.\n");
	out_cgroup_head();
	out_info("%-8s %-7s %-7s %-7s\n", "TIME", "CPU", "PID", "GC TIME");
	tool_flush();
	rc = tool_event_loop("javagc", ev, 0);
out:
	events_close(ev);
	if (o)
		obj_close(o);
	for (int i = 0; i < nspec; i++) {
		locs_free(locs[i], nl[i]);
		spec_free(&specs[i]);
	}
	for (int i = 0; i < 4; i++)
		free(texts[i]);
	free(lib);
	return rc;
}
