/* The user side runqlat and cpudist share: options common to both, the
 * load of the shared object (tools/sched/schedhist.bpf.c) and the
 * per-task histogram reports. */
#ifndef COREBOX_SCHEDTOOL_H
#define COREBOX_SCHEDTOOL_H

#include <stdbool.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "schedhist.h"

struct schedtool {
	const struct tool_help *help;
	enum schedhist_mode mode;
	enum schedhist_key key;
	bool ms, idle, ext;
	unsigned pid;       /* -p: 0 for every process */
	const char *cgroup; /* -c */
	struct interval iv;
	int npos;
	const struct out_hist *hist_us, *hist_ms;
	const char *banner; /* "Tracing run queue latency... Hit Ctrl-C to end.\n" */
};

/* --cgroups: a histogram per cgroup (both tools) */
#define SCHEDTOOL_KEY_CGROUPS OPT_LONG_ONLY(50)
#define SCHEDTOOL_OPT_CGROUPS { SCHEDTOOL_KEY_CGROUPS, "cgroups", NULL, "Print a histogram per cgroup (v2 path)" }

#define SCHEDTOOL_INIT(h) .help = (h), .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false }

/* The options both take: -T -m -P -L -p PID -c CG -v and the positional
 * interval and count.  1 for a key that is not one of them. */
int schedtool_parse(struct schedtool *st, int key, const char *arg);
/* -P/-L (and runqlat's --pidnss) exclude each other. */
void schedtool_set_key(struct schedtool *st, enum schedhist_key key);
/* Load, attach, report until done; the exit status. */
int schedtool_run(struct schedtool *st);

#endif
