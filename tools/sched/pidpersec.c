/* applet pidpersec: count new processes (via fork)
 * readme: new processes (forks, clones) per second, from sched:sched_process_fork
 *
 * bcc's layout: "Tracing... Ctrl-C to end.", then each second
 * "HH:MM:SS: PIDs/sec: N"; Ctrl-C ends it without a line for the partial
 * second, as bcc does (hence its own loop, not interval_loop, which
 * reports the partial interval).  JSON: {"time", "pids"} per second;
 * --prom: the counter of new processes. */
#include <stdio.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(pidpersec);

static const struct tool_help help = {
	.usage = "[-h]",
	.examples = "    pidpersec          # new processes per second, until Ctrl-C\n",
	.flags = OPT_PROM,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)key, (void)arg, (void)ctx;
	return 1; /* no options, no positional arguments */
}

enum { C_TIME, C_PIDS };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, NULL, "%s: ", OUT_STR, OUT_TEXT_ONLY },
	[C_PIDS] = { "pids", NULL, "PIDs/sec: %llu\n", OUT_UINT, OUT_COUNTER,
		     .help = "new processes and threads (sched_process_fork)" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

int pidpersec_main(int argc, char **argv)
{
	union out_val v[ARRAY_SIZE(cols)];
	__u64 now, last = 0;
	__u32 zero = 0;
	char hms[16];
	struct obj *o;
	int fd, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(pidpersec);
	if (tool_load_attach(o, "pidpersec"))
		return 1;
	fd = map_fd(obj_map(o, "forks"));
	tool_signals();
	out_info("Tracing... Ctrl-C to end.\n");
	tool_flush();
	for (;;) {
		tool_sleep_ms(1000);
		if (tool_exiting || tool_stdout_gone())
			break;
		if (bpf_map_lookup(fd, &zero, &now) < 0) {
			tool_err("pidpersec", "cannot read the count: %s", err_msg());
			ret = 1;
			break;
		}
		out_doc_begin();
		v[C_TIME].s = tool_hms(hms, sizeof(hms));
		v[C_PIDS].u = now - last;
		last = now;
		out_row(&table, v);
		if (out_doc_end() < 0)
			ret = 1;
		tool_flush();
	}
	obj_close(o);
	return ret;
}
