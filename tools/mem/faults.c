/* applet faults: count page faults by user stack and process name
 * readme: page faults by user stack (`-f` folded)
 * applet ffaults: count page faults by file name
 * readme: page faults by file name
 * applet hfaults: count hugetlb page faults by process
 * readme: hugetlb page faults by process
 * applet swapin: count swap-ins by process
 * readme: swap-ins per process per interval
 *
 * faults, ffaults and hfaults are the BPF Performance Tools book's .bt tools
 * (their banners and bpftrace's map output), swapin has bcc's columns.  One
 * BPF object (faults.bpf.c) serves the four. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/kfunc.h"
#include "btmap.h"
#include "memcount.h"
#include "memtool.h"

BPF_OBJ_DECLARE(faults);

/* Every program of the object, off; the tool turns its own back on. */
static struct obj *open_faults(void)
{
	struct obj *o = BPF_OBJ_OPEN(faults);
	struct prog *p;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++)
		prog_set_autoload(p, false);
	return o;
}

/* The common options of the four: -p PID, and a duration for the three
 * that otherwise run until Ctrl-C. */
struct fenv {
	int pid;
	long duration;
	bool folded;
	const struct tool_help *help;
};

static int fparse(int key, const char *arg, void *ctx)
{
	struct fenv *e = ctx;

	switch (key) {
	case 'p': e->pid = opt_pid(e->help, "PID", arg); break;
	case 'd': e->duration = (long)opt_num(e->help, "DURATION", arg, 1, INT_MAX); break;
	case 'f': e->folded = true; break;
	default: return 1;
	}
	return 0;
}

/* Run until Ctrl-C or the duration, then print the map bpftrace-style. */
static int run_btmap(struct obj *o, const char *tool, const struct fenv *e, enum btmap_key kind)
{
	int ret;

	tool_flush();
	if (e->duration)
		tool_sleep_ms(e->duration * 1000);
	else
		while (!tool_exiting)
			tool_sleep_ms(1000000);
	ret = btmap_print(o, tool, kind, e->folded);
	obj_close(o);
	return ret;
}

/* Retarget and enable the fentry or kprobe program kf_* for the first of
 * funcs the kernel lets in; -1 after a message when none. */
static int attach_kfunc(struct obj *o, const char *tool, const char *const *funcs, int n, const char *what,
			const char *instead)
{
	enum kfunc_way way;
	int i = kfunc_pick(o, funcs, n, &way);
	struct prog *p;

	if (i < 0) {
		tool_err(tool, "this kernel offers no way to trace %s: %s%s%s %s no tracepoint, and this kernel "
			 "allows neither fentry (BTF trampolines) nor kprobes on %s (a kernel with either would "
			 "do)%s", what, funcs[0], n > 1 ? " and " : "", n > 1 ? funcs[1] : "", n > 1 ? "have" : "has",
			 n > 1 ? "them" : "it", instead);
		return -1;
	}
	p = obj_prog(o, way == KFUNC_FENTRY ? "kf_fentry" : "kf_kprobe");
	prog_set_autoload(p, true);
	prog_set_attach_target(p, funcs[i]);
	if (tool_common.verbose)
		fprintf(stderr, "%s: %s %s\n", tool, kfunc_way_name(way), funcs[i]);
	return 0;
}

/* ---- faults ---------------------------------------------------------- */

static const struct opt faults_opts[] = {
	{ 'p', "pid", "PID", "only page faults of this process" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds (default: until Ctrl-C)" },
	{ 'f', "folded", NULL, "folded output (comm;frames count), for flame graphs" },
	{ 0 },
};

static const struct tool_help faults_help = {
	.usage = "[-h] [-p PID] [-d DURATION] [-f]",
	.summary = "Count page faults with user stacks (the page-faults software event on every CPU; "
		   "the exceptions:page_fault_user tracepoint where software events cannot be opened).",
	.examples = "    faults              # page faults by user stack and process name, until Ctrl-C\n"
		    "    faults -p 123 -d 5  # process 123 for 5 seconds\n"
		    "    faults -f > f.txt   # folded, for flamegraph.pl (a page fault flame graph)\n",
	.opts = faults_opts,
};

/* One page-faults event per online CPU (sample every fault); the number
 * opened, or -1 after a message. */
static int open_fault_events(struct prog *p, int *fds, int ncpu)
{
	bool *online = xcalloc((size_t)ncpu, sizeof(*online));
	int n = 0;

	if (cpus_online(online, ncpu) < 0)
		for (int c = 0; c < ncpu; c++)
			online[c] = true;
	for (int c = 0; c < ncpu; c++) {
		int fd;

		if (!online[c])
			continue;
		fd = perf_open_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, false, 1, -1, c);
		if (fd == -ENODEV)
			continue;
		if (fd < 0 || prog_attach_perf_fd(p, fd) < 0) {
			if (fd >= 0)
				close(fd);
			n = -1;
			break;
		}
		fds[n++] = fd;
	}
	free(online);
	return n;
}

int faults_main(int argc, char **argv)
{
	struct fenv e = { .help = &faults_help };
	struct obj *o;
	int ncpu, *fds, n = 0, ret;
	bool use_tp = probe_disabled("perf_sw");

	opt_parse(argc, argv, &faults_help, fparse, &e);
	ncpu = cpus_possible();
	if (ncpu < 1) {
		tool_err("faults", "cannot read the possible CPUs");
		return 1;
	}
	tool_signals();
	o = open_faults();
	OBJ_SET(o, targ_tgid, (uint32_t)e.pid);
	/* a software event needs no tracepoint: the x86 one is the fallback */
	prog_set_autoload(obj_prog(o, use_tp ? "faults_tp" : "faults_pe"), true);
	if (tool_load_attach(o, "faults"))
		return 1;
	fds = xcalloc((size_t)ncpu, sizeof(*fds));
	if (!use_tp && (n = open_fault_events(obj_prog(o, "faults_pe"), fds, ncpu)) <= 0) {
		const char *why = n < 0 ? err_msg() : "no online CPU";

		if (!perf_tp_exists("exceptions", "page_fault_user")) {
			tool_err("faults", "cannot open the page-faults software event (%s) and this kernel has "
				 "no exceptions:page_fault_user tracepoint", why);
			free(fds);
			obj_close(o);
			return 1;
		}
		/* reload with the tracepoint program */
		fprintf(stderr, "faults: page-faults software event unavailable (%s): using "
			"exceptions:page_fault_user\n", why);
		for (int i = 0; i < n; i++)
			close(fds[i]);
		n = 0;
		obj_close(o);
		o = open_faults();
		OBJ_SET(o, targ_tgid, (uint32_t)e.pid);
		prog_set_autoload(obj_prog(o, "faults_tp"), true);
		if (tool_load_attach(o, "faults")) {
			free(fds);
			return 1;
		}
	}
	if (!e.folded)
		btmap_attaching(1);
	ret = run_btmap(o, "faults", &e, BTMAP_USTACK_COMM);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return ret;
}

/* ---- ffaults --------------------------------------------------------- */

static const struct opt ffaults_opts[] = {
	{ 'p', "pid", "PID", "only page faults of this process" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds (default: until Ctrl-C)" },
	{ 0 },
};

static const struct tool_help ffaults_help = {
	.usage = "[-h] [-p PID] [-d DURATION]",
	.summary = "Count page faults by file name: the faults served from a file's page cache "
		   "(filemap:mm_filemap_fault where the kernel has it, else filemap_fault() by fentry or "
		   "kprobe).",
	.examples = "    ffaults             # page faults by file name, until Ctrl-C\n",
	.opts = ffaults_opts,
};

int ffaults_main(int argc, char **argv)
{
	static const char *const func = "filemap_fault";
	struct fenv e = { .help = &ffaults_help };
	struct obj *o;
	enum kfunc_way way = KFUNC_NONE;

	opt_parse(argc, argv, &ffaults_help, fparse, &e);
	tool_signals();
	o = open_faults();
	OBJ_SET(o, targ_tgid, (uint32_t)e.pid);
	if (perf_tp_exists("filemap", "mm_filemap_fault")) {
		prog_set_autoload(obj_prog(o, "ff_tp"), true);
	} else {
		err_clear();
		way = kfunc_way(o, func);
		if (way == KFUNC_NONE) {
			tool_err("ffaults", "this kernel offers no way to trace file page faults: no "
				 "filemap:mm_filemap_fault tracepoint (6.10+) and %s cannot be probed (no fentry, "
				 "no kprobes)", func);
			obj_close(o);
			return 1;
		}
		prog_set_autoload(obj_prog(o, way == KFUNC_FENTRY ? "ff_fentry" : "ff_kprobe"), true);
	}
	if (tool_load_attach(o, "ffaults"))
		return 1;
	if (tool_common.verbose)
		fprintf(stderr, "ffaults: %s\n", way == KFUNC_NONE ? "filemap:mm_filemap_fault" :
			way == KFUNC_FENTRY ? "fentry filemap_fault" : "kprobe filemap_fault");
	btmap_attaching(1);
	return run_btmap(o, "ffaults", &e, BTMAP_NAME);
}

/* ---- hfaults --------------------------------------------------------- */

static const struct opt hfaults_opts[] = {
	{ 'p', "pid", "PID", "only hugetlb faults of this process" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds (default: until Ctrl-C)" },
	{ 0 },
};

static const struct tool_help hfaults_help = {
	.usage = "[-h] [-p PID] [-d DURATION]",
	.summary = "Count huge page (hugetlbfs) faults by process: hugetlb_fault() by fentry or kprobe "
		   "(the kernel has no tracepoint there).",
	.examples = "    hfaults             # hugetlb faults by PID and name, until Ctrl-C\n",
	.opts = hfaults_opts,
};

int hfaults_main(int argc, char **argv)
{
	static const char *const funcs[] = { "hugetlb_fault" };
	struct fenv e = { .help = &hfaults_help };
	struct obj *o;

	opt_parse(argc, argv, &hfaults_help, fparse, &e);
	tool_signals();
	o = open_faults();
	OBJ_SET(o, targ_tgid, (uint32_t)e.pid);
	if (attach_kfunc(o, "hfaults", funcs, 1, "hugetlb page faults", "; HugetlbPages in /proc/PID/status and "
			 "/proc/meminfo show their result") < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "hfaults"))
		return 1;
	btmap_attaching(2);
	out_info("Tracing Huge Page faults per process... Hit Ctrl-C to end.\n");
	return run_btmap(o, "hfaults", &e, BTMAP_PID_COMM);
}

/* ---- swapin (bcc) ----------------------------------------------------- */

static const struct opt swapin_opts[] = {
	{ 'T', "notime", NULL, "do not show the timestamp (HH:MM:SS)" },
	{ 'p', "pid", "PID", "only swap-ins of this process" },
	{ 0 },
};

static const struct tool_help swapin_help = {
	.usage = "[-h] [-T] [-p PID] [interval [count]]",
	.summary = "Count swapin events by process: swap_read_folio() (swap_readpage() before 6.x) by "
		   "fentry or kprobe; the kernel has no swap-in tracepoint.",
	.examples = "    swapin              # counts every second\n"
		    "    swapin -T 5 3       # every 5 seconds, 3 times, no time line\n",
	.opts = swapin_opts,
	.flags = OPT_PROM,
};

static struct {
	bool notime;
	int pid, npos;
	long interval, count;
} sw = { .interval = 1, .count = 99999999 };

static int swparse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': sw.notime = true; break;
	case 'p': sw.pid = opt_pid(&swapin_help, "PID", arg); break;
	case 0:
		if (sw.npos == 0)
			sw.interval = (long)opt_num(&swapin_help, "interval", arg, 1, INT_MAX);
		else if (sw.npos == 1)
			sw.count = (long)opt_num(&swapin_help, "count", arg, 1, INT_MAX);
		else
			return 1;
		sw.npos++;
		break;
	default: return 1;
	}
	return 0;
}

enum { S_COMM, S_PID, S_COUNT };
static const struct out_col swcols[] = {
	[S_COMM] = { "comm", "COMM", "%-16s ", OUT_STR, OUT_LABEL },
	[S_PID] = { "pid", "PID", "%-7lld ", OUT_INT, OUT_LABEL, .hfmt = "%-7s " },
	[S_COUNT] = { "swapins", "COUNT", "%llu\n", OUT_UINT, OUT_COUNTER, .hfmt = "%s\n",
		      .help = "swap-ins (pages read from swap)" },
};
static struct out_table swtable = OUT_TABLE("swapins", swcols);

struct swrow {
	struct memcount_key k;
	uint64_t n;
};

static int swcmp(const void *a, const void *b)
{
	const struct swrow *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

int swapin_main(int argc, char **argv)
{
	static const char *const funcs[] = { "swap_read_folio", "swap_readpage" };
	static struct memcount_key keys[MEMCOUNT_MAX_ENTRIES];
	static uint64_t vals[MEMCOUNT_MAX_ENTRIES];
	static struct swrow rows[MEMCOUNT_MAX_ENTRIES];
	bool batch = true;
	struct obj *o;
	int fd, ret = 0;

	opt_parse(argc, argv, &swapin_help, swparse, NULL);
	tool_signals();
	o = open_faults();
	OBJ_SET(o, targ_tgid, (uint32_t)sw.pid);
	if (attach_kfunc(o, "swapin", funcs, 2, "swap-ins", "; pswpin in /proc/vmstat counts them system-wide") < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "swapin"))
		return 1;
	fd = map_fd(obj_map(o, "counts"));
	out_info("Counting swap ins. Ctrl-C to end.\n");
	tool_flush();
	for (long i = 0; i < sw.count; i++) {
		char hms[16], comm[EV_COMM_LEN + 1];
		long n;

		tool_sleep_ms(sw.interval * 1000);
		n = tool_map_drain(fd, sizeof(keys[0]), sizeof(vals[0]), keys, vals, MEMCOUNT_MAX_ENTRIES, &batch);
		if (n < 0) {
			tool_err("swapin", "cannot read the counts: %s", strerror((int)-n));
			ret = 1;
			break;
		}
		for (long j = 0; j < n; j++)
			rows[j] = (struct swrow){ keys[j], vals[j] };
		qsort(rows, (size_t)n, sizeof(rows[0]), swcmp);
		out_doc_begin();
		if (!sw.notime)
			out_text("%s\n", tool_hms(hms, sizeof(hms)));
		out_header(&swtable);
		for (long j = 0; j < n; j++) {
			union out_val v[ARRAY_SIZE(swcols)];

			v[S_COMM].s = ev_comm(comm, rows[j].k.comm);
			v[S_PID].i = rows[j].k.pid;
			v[S_COUNT].u = rows[j].n;
			out_row(&swtable, v);
		}
		out_text("\n");
		if (out_doc_end() < 0 || tool_flush() < 0 || tool_exiting)
			break;
	}
	out_info("Detaching...\n");
	obj_close(o);
	return ret;
}
