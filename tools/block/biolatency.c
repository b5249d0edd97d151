/* applet biolatency: summarize block device I/O latency as a histogram
 * readme: block I/O latency as a log2 histogram, per disk (`-D`), flags (`-F`) or cgroup (`--cgroups`)
 *
 * libbpf-tools compatible flags and output. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "btf/btf.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "blk.h"
#include "biolatency.h"

BPF_OBJ_DECLARE(biolatency);

#define KEY_CGROUP 'c'
#define KEY_CGROUPS OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ 'Q', "queued", NULL, "Include OS queued time in I/O time" },
	{ 'D', "disk", NULL, "Print a histogram per disk device" },
	{ 'F', "flag", NULL, "Print a histogram per set of I/O flags" },
	{ KEY_CGROUPS, "cgroups", NULL, "Print a histogram per cgroup (v2 path) of the submitting task" },
	{ 'd', NULL, "DISK", "Trace this disk only (name or MAJ:MIN)" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-m] [-Q] [-D] [-F] [--cgroups] [-d DISK] [-c CG] [interval] [count]",
	.examples =
		"    biolatency              # summarize block I/O latency as a histogram\n"
		"    biolatency 1 10         # print 1 second summaries, 10 times\n"
		"    biolatency -mT 1        # 1s summaries, milliseconds, and timestamps\n"
		"    biolatency -Q           # include OS queued time in I/O time\n"
		"    biolatency -D           # show each disk device separately\n"
		"    biolatency -F           # show I/O flags separately\n"
		"    biolatency -d sdc       # Trace sdc only\n"
		"    biolatency -c CG        # Trace process under cgroupsPath CG\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct env {
	bool ms, queued, per_disk, per_flag, per_cgroup;
	const char *disk, *cgroup;
	struct interval iv;
	int npos;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 'm': env.ms = true; break;
	case 'Q': env.queued = true; break;
	case 'D': env.per_disk = true; break;
	case 'F': env.per_flag = true; break;
	case KEY_CGROUPS: env.per_cgroup = true; break;
	case 'd': blk_disk_opt(&help, &env.disk, arg); break;
	case KEY_CGROUP: env.cgroup = arg; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default:
		return 1;
	}
	return 0;
}

/* ---- reading and printing --------------------------------------------- */

struct entry {
	struct biolat_key key;
	struct biolat_hist hist;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key.dev != y->key.dev)
		return x->key.dev < y->key.dev ? -1 : 1;
	if (x->key.cmd_flags != y->key.cmd_flags)
		return x->key.cmd_flags < y->key.cmd_flags ? -1 : 1;
	if (x->key.cgroup != y->key.cgroup)
		return x->key.cgroup < y->key.cgroup ? -1 : 1;
	return 0;
}

static struct biolat_key *bkeys;
static struct biolat_hist *bvals;
static struct entry *entries;

/* Read and delete every histogram. */
static int read_hists(int fd, bool *batch, size_t *n_out)
{
	long n = tool_map_drain(fd, sizeof(*bkeys), sizeof(*bvals), bkeys, bvals, BIOLAT_MAX_ENTRIES, batch);
	long i;

	if (n < 0)
		return (int)n;
	for (i = 0; i < n; i++) {
		entries[i].key = bkeys[i];
		entries[i].hist = bvals[i];
	}
	qsort(entries, n, sizeof(*entries), cmp_entry);
	*n_out = n;
	return 0;
}

static const struct out_hist hist_us = { "latency", "block I/O latency", "usecs" };
static const struct out_hist hist_ms = { "latency", "block I/O latency", "msecs" };

static void print_hists(size_t n)
{
	struct strbuf head = { 0 }, flags = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		struct out_label labels[3];
		char cg[4096];
		double sum;
		int nl = 0;

		strbuf_reset(&head);
		if (env.per_disk) {
			const char *name = blk_disk_name(entries[i].key.dev);

			strbuf_addf(&head, "\ndisk = %s\t", name ? name : "Unknown");
			labels[nl++] = (struct out_label){ "disk", name ? name : "Unknown" };
		}
		if (env.per_flag) {
			blk_flags_str(entries[i].key.cmd_flags, &flags);
			strbuf_addf(&head, "flags = %s", flags.s);
			labels[nl++] = (struct out_label){ "flags", flags.s };
		}
		if (env.per_cgroup) {
			const char *path = cgroup_path_of(entries[i].key.cgroup);

			if (path)
				str_escape(cg, sizeof(cg), path, "");
			else
				snprintf(cg, sizeof(cg), "%u", entries[i].key.cgroup);
			strbuf_addf(&head, "%scgroup = %s", env.per_disk || env.per_flag ? "\t" : "\n", cg);
			labels[nl++] = (struct out_label){ "cgroup", cg };
		}
		strbuf_addc(&head, '\n');
		sum = (double)entries[i].hist.sum_ns / (env.ms ? 1e6 : 1e3);
		out_hist(env.ms ? &hist_ms : &hist_us, head.s, labels, nl, entries[i].hist.slots,
			 BIOLAT_MAX_SLOTS, &sum);
	}
	strbuf_free(&head);
	strbuf_free(&flags);
}

struct report {
	int fd;
	bool batch;
};

static int report(void *ctx)
{
	struct report *r = ctx;
	size_t n = 0;
	int err = read_hists(r->fd, &r->batch, &n);

	if (err < 0) {
		tool_err("biolatency", "cannot read the histograms: %s", strerror(-err));
		return -1;
	}
	print_hists(n);
	return 0;
}

int biolatency_main(int argc, char **argv)
{
	struct obj_opts oo;
	const struct btf *kbtf;
	struct obj *o;
	int cgfd, ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BLK_OPEN(biolatency, env.disk);
	if (!o)
		return 1;
	if (env.per_disk)
		OBJ_SET(o, per_disk, (uint8_t)1);
	if (env.per_flag)
		OBJ_SET(o, per_flag, (uint8_t)1);
	if (env.per_cgroup)
		OBJ_SET(o, per_cgroup, (uint8_t)1);
	if (env.ms)
		OBJ_SET(o, ms, (uint8_t)1);
	if (env.queued)
		OBJ_SET(o, queued, (uint8_t)1);
	if (env.cgroup)
		OBJ_SET(o, filter_cg, (uint8_t)1);
	if (!env.queued)
		prog_set_autoload(obj_prog(o, "block_rq_insert"), false);

	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	kbtf = obj_kernel_btf(o, &oo);
	if (blk_rq_is_second_arg(kbtf))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	if (env.per_flag)
		blk_flags_init(kbtf);

	if (tool_load_attach_cgroup(o, "biolatency", env.cgroup, &cgfd) < 0)
		return 1;

	bkeys = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*bkeys));
	bvals = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*bvals));
	entries = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*entries));

	tool_signals();
	out_info("Tracing block device I/O... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &(struct report){ map_fd(obj_map(o, "hists")), true });
	free(bkeys);
	free(bvals);
	free(entries);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	blk_parts_free();
	return ret;
}
