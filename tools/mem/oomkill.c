/* applet oomkill: trace OOM killer kills
 * readme: each OOM kill: triggering and victim PID/comm, pages, load average
 *
 * libbpf-tools' line, with the load average label printed once as bcc and
 * bpftrace do.
 *
 * The tracepoint oom:mark_victim names each victim, in the context of the
 * task that triggered the kill.  libbpf-tools' "N pages" is the OOM
 * domain's size (oc->totalpages), known only where the kernel lets a
 * program into oom_kill_process() (fentry or kprobe); elsewhere the line
 * gives the victim's resident size instead: "N pages RSS". */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/kfunc.h"
#include "memtool.h"
#include "oomkill.h"

BPF_OBJ_DECLARE(oomkill);

static const struct opt opts[] = {
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-v]",
	.summary = "Trace OOM kills: the task that triggered each one, the victim, the OOM domain's "
		   "size in pages (the victim's RSS where the kernel cannot be probed for it) and the "
		   "load average.",
	.examples = "    oomkill               # trace OOM kills\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static long page_kb;

/* The victim's comm when the kernel did not give it (6.1's mark_victim
 * has only the pid): /proc while the victim is still dying, else "?". */
static void victim_comm(unsigned pid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if (read_line(path, buf, size) < 0) {
		err_clear();
		snprintf(buf, size, "?");
	}
}

static int on_event(void *ctx, const void *data, size_t size)
{
	const struct oomkill_event *e = data;
	char fcomm[EV_COMM_LEN + 1], tcomm[EV_COMM_LEN + 1], hms[16], loadavg[256] = "", safe[4][64];
	struct strbuf j = { 0 };
	unsigned long long pages;
	bool have_load;

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	ev_comm(fcomm, e->fcomm);
	if (e->has_tcomm)
		ev_comm(tcomm, e->tcomm);
	else
		victim_comm(e->tpid, tcomm, sizeof(tcomm));
	have_load = read_line("/proc/loadavg", loadavg, sizeof(loadavg)) >= 0;
	err_clear();
	pages = e->has_pages ? e->pages : e->rss_kb / (unsigned long long)page_kb;
	if (out_json()) {
		strbuf_reset(&j);
		strbuf_add(&j, "{\"time\":");
		json_time(&j);
		strbuf_addf(&j, ",\"trigger_pid\":%u,\"trigger_comm\":", e->fpid);
		json_str(&j, fcomm);
		strbuf_addf(&j, ",\"victim_pid\":%u,\"victim_comm\":", e->tpid);
		json_str(&j, tcomm);
		if (e->has_pages)
			strbuf_addf(&j, ",\"pages\":%llu", e->pages);
		if (e->has_rss)
			strbuf_addf(&j, ",\"victim_rss_kb\":%llu", e->rss_kb);
		if (have_load) {
			strbuf_add(&j, ",\"loadavg\":");
			json_str(&j, loadavg);
		}
		strbuf_addc(&j, '}');
		out_json_value(NULL, &j);
		strbuf_free(&j);
		return 0;
	}
	out_cgroup_prefix();
	printf("%s Triggered by PID %u (\"%s\"), OOM kill of PID %u (\"%s\"), %llu pages%s", tool_hms(hms, sizeof(hms)),
	       e->fpid, str_escape(safe[0], sizeof(safe[0]), fcomm, ""), e->tpid,
	       str_escape(safe[1], sizeof(safe[1]), tcomm, ""), pages,
	       e->has_pages || !e->has_rss ? "" : " RSS");
	if (have_load)
		printf(", loadavg: %s\n", str_escape(safe[2], sizeof(safe[2]), loadavg, ""));
	else
		printf("\n");
	return 0;
}

static bool tp;           /* oom:mark_victim exists */
static enum kfunc_way way; /* how oom_kill_process is probed */

/* -v: what is attached; the banner. */
static int after_load(struct obj *o)
{
	(void)o;
	if (tool_common.verbose)
		fprintf(stderr, "oomkill: %s%s%s\n", tp ? "oom:mark_victim" : "",
			tp && way != KFUNC_NONE ? " + " : "",
			way == KFUNC_NONE ? "" : way == KFUNC_FENTRY ? "fentry oom_kill_process" : "kprobe oom_kill_process");
	out_info("Tracing OOM kills... Ctrl-C to stop.\n");
	return 0;
}

int oomkill_main(int argc, char **argv)
{
	static const char *const func = "oom_kill_process";
	struct tool_events te = { .name = "oomkill", .after_load = after_load, .on_event = on_event };
	struct obj *o;

	opt_parse(argc, argv, &help, NULL, NULL);
	page_kb = sysconf(_SC_PAGESIZE) / 1024;
	tool_signals();

	o = BPF_OBJ_OPEN(oomkill);
	tp = perf_tp_exists("oom", "mark_victim");
	err_clear();
	way = kfunc_way(o, func);
	prog_set_autoload(obj_prog(o, "okp_fentry"), way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "okp_kprobe"), way == KFUNC_KPROBE);
	if (!tp) {
		if (way == KFUNC_NONE) {
			tool_err("oomkill", "this kernel offers no way to see OOM kills: no oom:mark_victim "
				 "tracepoint and %s cannot be probed (no fentry, no kprobes)", func);
			obj_close(o);
			return 1;
		}
		prog_set_autoload(obj_prog(o, "mark_victim"), false);
		OBJ_SET(o, emit_from_entry, 1);
	}
	return tool_run_events(o, &te);
}
