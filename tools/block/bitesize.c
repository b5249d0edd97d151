/* applet bitesize: summarize block device I/O size as a histogram per process
 * readme: block I/O size histograms per process name (`-c COMM`)
 *
 * libbpf-tools compatible flags and output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "blk.h"
#include "bitesize.h"

BPF_OBJ_DECLARE(bitesize);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'c', "comm", "COMM", "Trace this comm only (a prefix of the process name)" },
	{ 'd', "disk", "DISK", "Trace this disk only (name or MAJ:MIN)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-c COMM] [-d DISK] [interval] [count]",
	.examples =
		"    bitesize              # summarize block I/O size as a histogram\n"
		"    bitesize 1 10         # print 1 second summaries, 10 times\n"
		"    bitesize -T 1         # 1s summaries with timestamps\n"
		"    bitesize -c fio       # trace fio only\n"
		"    bitesize -d sdc       # trace sdc only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *comm, *disk;
	struct interval iv;
	int npos;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 'c':
		if (!*arg || strlen(arg) >= BITESIZE_COMM_LEN)
			opt_usage_error(&help, "invalid COMM '%s': 1 to %d characters", arg, BITESIZE_COMM_LEN - 1);
		env.comm = arg;
		break;
	case 'd': blk_disk_opt(&help, &env.disk, arg); break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default:
		return 1;
	}
	return 0;
}

struct entry {
	struct bitesize_key key;
	struct bitesize_hist hist;
};

static int cmp_entry(const void *a, const void *b)
{
	return memcmp(((const struct entry *)a)->key.comm, ((const struct entry *)b)->key.comm,
		      BITESIZE_COMM_LEN);
}

static struct bitesize_key *keys;
static struct bitesize_hist *vals;
static struct entry *entries;

static const struct out_hist hist_kb = { "size", "block I/O size", "Kbytes" };

struct report {
	int fd;
	bool batch;
};

/* Read and clear the histograms, print them by process name. */
static int report(void *ctx)
{
	struct report *r = ctx;
	long n = tool_map_drain(r->fd, sizeof(*keys), sizeof(*vals), keys, vals, BITESIZE_MAX_ENTRIES, &r->batch);
	struct strbuf head = { 0 };
	long i;

	if (n < 0) {
		tool_err("bitesize", "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (i = 0; i < n; i++) {
		entries[i].key = keys[i];
		entries[i].key.comm[BITESIZE_COMM_LEN - 1] = 0;
		entries[i].hist = vals[i];
	}
	qsort(entries, (size_t)n, sizeof(*entries), cmp_entry);
	for (i = 0; i < n; i++) {
		struct out_label label = { "comm", entries[i].key.comm };
		double sum = (double)entries[i].hist.bytes / 1024;

		strbuf_reset(&head);
		strbuf_addf(&head, "\nProcess Name = %s\n", entries[i].key.comm);
		out_hist(&hist_kb, head.s, &label, 1, entries[i].hist.slots, BITESIZE_MAX_SLOTS, &sum);
	}
	strbuf_free(&head);
	return 0;
}

int bitesize_main(int argc, char **argv)
{
	struct obj_opts oo = { 0 };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BLK_OPEN(bitesize, env.disk);
	if (!o)
		return 1;
	if (env.comm) {
		char *c = obj_global(o, "targ_comm", BITESIZE_COMM_LEN);

		if (c)
			strncpy(c, env.comm, BITESIZE_COMM_LEN - 1);
	}
	oo.btf_path = tool_common.btf_path;
	oo.verbose = tool_common.verbose;
	if (blk_rq_is_second_arg(obj_kernel_btf(o, &oo)))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	if (tool_load_attach(o, "bitesize"))
		return 1;

	keys = xcalloc(BITESIZE_MAX_ENTRIES, sizeof(*keys));
	vals = xcalloc(BITESIZE_MAX_ENTRIES, sizeof(*vals));
	entries = xcalloc(BITESIZE_MAX_ENTRIES, sizeof(*entries));
	tool_signals();
	out_info("Tracing block device I/O... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &(struct report){ map_fd(obj_map(o, "hists")), true });
	free(keys);
	free(vals);
	free(entries);
	obj_close(o);
	blk_parts_free();
	return ret;
}
