/* applet smpcalls: time SMP calls (cross-CPU function calls) by function
 * readme: SMP calls (functions run on other CPUs) by function and latency, bpftrace-style
 *         histograms
 *
 * The book's smpcalls.bt, output as bpftrace prints it, plus -T, interval
 * and count.
 *
 * The mechanism (smpcalls.bpf.c): the csd tracepoints on 6.3+ kernels
 * (queue -> done of each call another CPU runs, and the IPIs sent by
 * callback); else fentry/fexit, else kprobes, on the callers as the book
 * does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/bthist.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/common/ksym_scan.h"
#include "smpcalls.h"

BPF_OBJ_DECLARE(smpcalls);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "print a time stamp before each interval's maps" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [interval] [count]",
	.examples =
		"    smpcalls            # histograms at Ctrl-C\n"
		"    smpcalls -T 1 10    # every second, 10 times, with time stamps\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	struct interval iv; /* seconds 0: maps at Ctrl-C only, as the book's tool */
	int npos;
} env = { { 0, INTERVAL_FOREVER, false }, 0 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

/* ---- choosing the programs ---- */

static const char *const callers[][3] = {
	/* function, fentry/fexit and kprobe/kretprobe program name suffixes */
	{ "smp_call_function_single", "single" },
	{ "smp_call_function_many", "many" },
	{ "smp_call_function_many_cond", "many_cond" },
	{ "native_smp_send_reschedule", "resched" },
};

static void autoload(struct obj *o, const char *prefix, const char *suffix, bool on)
{
	char name[48];

	snprintf(name, sizeof(name), "%s_%s", prefix, suffix);
	prog_set_autoload(obj_prog(o, name), on);
}

/* The mechanism's name (for -v), or NULL after a message. */
static const char *choose(struct obj *o)
{
	bool csd = perf_tp_exists("csd", "csd_queue_cpu") && perf_tp_exists("csd", "csd_function_exit");
	bool ipi = perf_tp_exists("ipi", "ipi_send_cpu") && perf_tp_exists("ipi", "ipi_send_cpumask");
	int n = 0, fentry = 0;

	prog_set_autoload(obj_prog(o, "csd_queue"), csd);
	prog_set_autoload(obj_prog(o, "csd_exit"), csd);
	prog_set_autoload(obj_prog(o, "ipi_cpu"), csd && ipi);
	prog_set_autoload(obj_prog(o, "ipi_mask"), csd && ipi);
	err_clear();
	for (size_t i = 0; i < ARRAY_SIZE(callers); i++) {
		bool fe = !csd && obj_fentry_ok(o, callers[i][0]);
		bool kp = !csd && !fe && ksym_scan_addr(callers[i][0]);

		autoload(o, "fe", callers[i][1], fe);
		autoload(o, "fx", callers[i][1], fe);
		autoload(o, "kp", callers[i][1], kp);
		autoload(o, "kr", callers[i][1], kp);
		n += fe || kp;
		fentry += fe;
	}
	if (csd)
		return ipi ? "csd and ipi tracepoints" : "csd tracepoints";
	if (!n) {
		tool_err("smpcalls", "no way in: this kernel has no csd tracepoints (6.3+), and "
			 "smp_call_function_* can be probed neither with fentry nor with kprobes");
		return NULL;
	}
	return fentry == n ? "fentry/fexit on the callers" : fentry ? "fentry and kprobes on the callers"
								  : "kprobes on the callers";
}

/* ---- reports ---- */

struct entry {
	__u64 key;
	__u64 total; /* count of the histogram, or the IPI count */
	struct smpcalls_hist h;
	char *name;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Read and delete a map's entries (hist or not) with their names. */
static long read_map(struct obj *o, const char *map, bool hist, struct entry **out, bool *batch)
{
	size_t vsize = hist ? sizeof(struct smpcalls_hist) : sizeof(__u64);
	uint64_t *keys = xcalloc(SMPCALLS_MAX_FUNCS, sizeof(*keys));
	char *vals = xcalloc(SMPCALLS_MAX_FUNCS, vsize);
	char **names;
	struct entry *e;
	long n;

	n = tool_map_drain(map_fd(obj_map(o, map)), sizeof(*keys), vsize, keys, vals, SMPCALLS_MAX_FUNCS, batch);
	if (n < 0) {
		tool_err("smpcalls", "cannot read the %s map: %s", map, strerror((int)-n));
		free(keys);
		free(vals);
		return -1;
	}
	names = xcalloc((size_t)n + 1, sizeof(*names));
	ksym_scan_names(keys, (size_t)n, names);
	e = xcalloc((size_t)n + 1, sizeof(*e));
	for (long i = 0; i < n; i++) {
		char buf[32];

		e[i].key = keys[i];
		if (hist) {
			memcpy(&e[i].h, vals + (size_t)i * vsize, vsize);
			for (int s = 0; s < SMPCALLS_MAX_SLOTS; s++)
				e[i].total += e[i].h.slots[s];
		} else {
			memcpy(&e[i].total, vals + (size_t)i * vsize, vsize);
		}
		if (hist && keys[i] == SMPCALLS_RESCHED)
			e[i].name = xstrdup("native_smp_send_reschedule");
		else if (!hist && !keys[i])
			e[i].name = xstrdup("reschedule"); /* an IPI with no callback */
		else if (names[i])
			e[i].name = names[i], names[i] = NULL;
		else
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)keys[i]), e[i].name = xstrdup(buf);
	}
	for (long i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(keys);
	free(vals);
	qsort(e, (size_t)n, sizeof(*e), cmp_entry);
	*out = e;
	return n;
}

static void free_entries(struct entry *e, long n)
{
	for (long i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

enum { C_CALLBACK, C_COUNT };
static const struct out_col ipi_cols[] = {
	[C_CALLBACK] = { "callback", NULL, "@ipis[%s]: ", OUT_STR, OUT_LABEL },
	[C_COUNT] = { "count", NULL, "%llu\n", OUT_UINT, OUT_COUNTER, .help = "IPIs sent" },
};
static struct out_table ipi_table = OUT_TABLE("ipis", ipi_cols);
static const struct out_hist hist = { "time_ns", "SMP call latency", "nsecs" };

static int report(struct obj *o, bool *batch)
{
	struct entry *ipis = NULL, *hists = NULL;
	long ni, nh;
	int ret = 0;

	ni = read_map(o, "ipis", false, &ipis, batch);
	nh = ni < 0 ? -1 : read_map(o, "hists", true, &hists, batch);
	if (ni < 0 || nh < 0) {
		ret = -1;
		goto out;
	}
	out_doc_begin();
	if (env.iv.timestamp) {
		char ts[16];

		out_text("%s\n", tool_hms(ts, sizeof(ts)));
	}
	for (long i = 0; i < ni; i++) {
		union out_val v[] = { [C_CALLBACK].s = ipis[i].name, [C_COUNT].u = ipis[i].total };

		out_row(&ipi_table, v);
	}
	if (ni)
		out_text("\n");
	for (long i = 0; i < nh; i++) {
		uint64_t bt[SMPCALLS_MAX_SLOTS], lg[SMPCALLS_MAX_SLOTS];
		struct out_label l = { "function", hists[i].name };
		double sum = (double)hists[i].h.sum_ns;

		for (int s = 0; s < SMPCALLS_MAX_SLOTS; s++)
			bt[s] = hists[i].h.slots[s];
		bt_hist_to_log2(bt, SMPCALLS_MAX_SLOTS, lg);
		if (out_hist64_data(&hist, &l, 1, lg, SMPCALLS_MAX_SLOTS - 1, &sum))
			continue;
		printf("@time_ns[%s]:\n", hists[i].name);
		bt_hist_print(bt, SMPCALLS_MAX_SLOTS);
	}
	if (out_doc_end() < 0)
		ret = -1;
out:
	free_entries(ipis, ni);
	free_entries(hists, nh);
	return ret;
}

int smpcalls_main(int argc, char **argv)
{
	const char *mech;
	bool batch = true;
	struct obj *o;
	int ncpus, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	ncpus = cpus_possible();
	o = BPF_OBJ_OPEN(smpcalls);
	if (!(mech = choose(o))) {
		obj_close(o);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "smpcalls: %s\n", mech);
	OBJ_SET(o, ttwu_func, (uint64_t)ksym_scan_addr("sched_ttwu_pending"));
	OBJ_SET(o, mask_words, (uint32_t)((ncpus > 0 ? ncpus + 63 : 64) / 64));
	if (tool_load_attach(o, "smpcalls"))
		return 1;
	tool_signals();
	out_info("Tracing SMP calls. Hit Ctrl-C to stop.\n");
	tool_flush();
	for (long n = env.iv.times; n > 0; n--) {
		tool_sleep_ms((env.iv.seconds ? env.iv.seconds : INTERVAL_FOREVER) * 1000);
		if (tool_stdout_gone())
			break;
		if (!env.iv.seconds)
			out_text("\n\n"); /* bpftrace's end of the main loop */
		if (report(o, &batch) < 0)
			ret = 1;
		tool_flush();
		if (ret || tool_exiting || !env.iv.seconds)
			break;
	}
	obj_close(o);
	return ret;
}
