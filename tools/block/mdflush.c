/* applet mdflush: trace md (software RAID) flush requests
 * readme: flush requests to md (software RAID) arrays: process and array (fentry or kprobe on
 *         md_flush_request: no tracepoint marks them)
 *
 * libbpf-tools' 0.26 banner and columns: TIME (HH:MM:SS), PID, COMM,
 * DEVICE.  md has no tracepoint for its flushes: the tool needs fentry
 * or a kprobe on md_flush_request, and says so where the kernel allows
 * neither (or has no md driver). */
#include <stdio.h>
#include <linux/types.h>

#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/common/kfunc.h"
#include "mdflush.h"

BPF_OBJ_DECLARE(mdflush);

static const struct tool_help help = {
	.usage = "[-h]",
	.opts = (const struct opt[]){ { 0 } },
	.flags = OPT_EVENTS,
};

enum { C_TIME, C_PID, C_COMM, C_DISK };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_DISK] = { "device", "DEVICE", "%-s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct mdflush_event e;
	char comm[EV_COMM_LEN + 1], hms[16], disk[33];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	snprintf(disk, sizeof(disk), "%.32s", e.disk);
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_DISK].s = disk;
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	(void)o;
	out_info("Tracing md flush requests... Hit Ctrl-C to end.\n");
	return 0;
}

int mdflush_main(int argc, char **argv)
{
	struct tool_events te = { .name = "mdflush", .after_load = after_load, .on_event = on_event,
				  .header = &table };
	enum kfunc_way way;
	struct obj *o;

	opt_parse(argc, argv, &help, NULL, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(mdflush);
	way = kfunc_way(o, "md_flush_request");
	if (way == KFUNC_NONE) {
		tool_err("mdflush", "md flushes have no tracepoint and this kernel offers neither fentry nor a "
			 "kprobe on md_flush_request (%s); a kernel with the md driver (md-mod loaded) and "
			 "BPF trampolines or kprobes would do",
			 kfunc_have_kprobes() ? "not found: is md-mod loaded?" : "no kprobes, no fentry");
		obj_close(o);
		return 1;
	}
	prog_set_autoload(obj_prog(o, way == KFUNC_FENTRY ? "mdflush_kprobe" : "mdflush_fentry"), false);
	return tool_run_events(o, &te);
}
