/* applet wqlat: summarize kernel workqueue latency as a histogram
 * readme: time work items wait on their workqueue (queued to executed) as a log2 histogram,
 *         per workqueue (`-W`) or for one (`-w NAME`); bcc's layout
 *
 * bcc's tool (tools/wqlat.py): flags and output.  Kernel side:
 * wqlat.bpf.c (workqueue:workqueue_queue_work, workqueue_execute_start).
 * Deliberate differences: -W sections are sorted by name (bcc: hash
 * order); a -w name of 24 or more bytes is a usage error (status 2; bcc
 * prints the same sentence and exits 255). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "wqlat.h"

BPF_OBJ_DECLARE(wqlat);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'N', "nanoseconds", NULL, "output in nanoseconds" },
	{ 'W', "workqueues", NULL, "print a histogram per work queue" },
	{ 'w', "wqname", "WQNAME", "print this workqueue only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-N] [-W] [-w WQNAME] [interval] [count]",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool ns, per_wq;
	const char *wq;
	struct interval iv;
	int npos;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 'N': env.ns = true; break;
	case 'W': env.per_wq = true; break;
	case 'w':
		if (strlen(arg) >= WQLAT_NAME_LEN)
			opt_usage_error(&help, "workqueue name len must be less than %d", WQLAT_NAME_LEN);
		env.wq = arg;
		break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

struct entry {
	struct wqlat_key key;
	struct wqlat_hist hist;
};

static int cmp_entry(const void *a, const void *b)
{
	return strncmp(((const struct entry *)a)->key.name, ((const struct entry *)b)->key.name, WQLAT_NAME_LEN);
}

static struct out_hist hist = { "latency", "time work items waited on their workqueue", "usecs", .bcc = true };

static int report(void *ctx)
{
	static struct wqlat_key keys[WQLAT_MAX_WQS];
	static struct wqlat_hist vals[WQLAT_MAX_WQS];
	static struct entry e[WQLAT_MAX_WQS];
	static bool batch = true;
	long n = tool_map_drain(*(int *)ctx, sizeof(*keys), sizeof(*vals), keys, vals, WQLAT_MAX_WQS, &batch);
	struct strbuf head = { 0 };

	if (n < 0) {
		tool_err("wqlat", "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (long i = 0; i < n; i++) {
		e[i].key = keys[i];
		e[i].key.name[WQLAT_NAME_LEN - 1] = 0;
		e[i].hist = vals[i];
	}
	qsort(e, (size_t)n, sizeof(*e), cmp_entry);
	for (long i = 0; i < n; i++) {
		struct out_label l = { "wqname", e[i].key.name };
		double sum = (double)e[i].hist.sum;

		strbuf_reset(&head);
		if (env.per_wq)
			strbuf_addf(&head, "\nwqname = %s\n", e[i].key.name);
		out_hist(&hist, head.s, &l, env.per_wq, e[i].hist.slots, WQLAT_SLOTS, &sum);
	}
	strbuf_free(&head);
	return 0;
}

int wqlat_main(int argc, char **argv)
{
	struct obj *o;
	int fd, ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(wqlat);
	OBJ_SET(o, targ_ns, (uint8_t)env.ns);
	OBJ_SET(o, per_wq, (uint8_t)env.per_wq);
	if (env.wq) {
		char *c = obj_global(o, "targ_wq", WQLAT_NAME_LEN);

		if (c)
			strncpy(c, env.wq, WQLAT_NAME_LEN - 1);
	}
	if (tool_load_attach(o, "wqlat"))
		return 1;
	if (env.ns)
		hist.unit = "nsecs";
	fd = map_fd(obj_map(o, "hists"));
	tool_signals();
	out_info("Tracing work queue request latency time... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &fd);
	obj_close(o);
	return ret;
}
