/* biolatency: summarize block device I/O latency as a histogram
 * (libbpf-tools compatible flags and output). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "btf/btf.h"
#include "tools/common/common.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "biolatency.h"

BPF_OBJ_DECLARE(biolatency);

#define KEY_CGROUP 'c'

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ 'Q', "queued", NULL, "Include OS queued time in I/O time" },
	{ 'D', "disk", NULL, "Print a histogram per disk device" },
	{ 'F', "flag", NULL, "Print a histogram per set of I/O flags" },
	{ 'd', NULL, "DISK", "Trace this disk only" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "biolatency",
	.usage = "[-h] [-T] [-m] [-Q] [-D] [-F] [-d DISK] [-c CG] [interval] [count]",
	.summary = "Summarize block device I/O latency as a histogram.",
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
	bool timestamp, ms, queued, per_disk, per_flag;
	const char *disk, *cgroup;
	long interval, times;
	int npos;
} env = { .interval = 99999999, .times = 99999999 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.timestamp = true; break;
	case 'm': env.ms = true; break;
	case 'Q': env.queued = true; break;
	case 'D': env.per_disk = true; break;
	case 'F': env.per_flag = true; break;
	case 'd':
		if (strlen(arg) >= 32)
			opt_usage_error(&help, "invalid disk name: too long");
		env.disk = arg;
		break;
	case KEY_CGROUP: env.cgroup = arg; break;
	case 'v': tool_common.verbose = 1; break;
	case 0:
		if (env.npos == 0)
			env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX);
		else if (env.npos == 1)
			env.times = (long)opt_num(&help, "count", arg, 1, INT_MAX);
		else
			opt_usage_error(&help, "unrecognized positional argument: %s", arg);
		env.npos++;
		break;
	default:
		return 1;
	}
	return 0;
}

/* ---- /proc/partitions: name <-> dev (major << 20 | minor) -------------- */

struct part {
	unsigned dev;
	char name[64];
};
static struct part *parts;
static size_t nparts;

static void parts_load(void)
{
	FILE *f = fopen("/proc/partitions", "re");
	char line[256], name[64];
	unsigned maj, min;
	unsigned long long blocks;

	free(parts);
	parts = NULL;
	nparts = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %llu %63s", &maj, &min, &blocks, name) != 4)
			continue;
		parts = xrealloc(parts, (nparts + 1) * sizeof(*parts));
		parts[nparts].dev = (maj << 20) | min;
		snprintf(parts[nparts].name, sizeof(parts[nparts].name), "%s", name);
		nparts++;
	}
	fclose(f);
}

static const char *part_name(unsigned dev)
{
	static int reloaded;
	size_t i;

	for (i = 0; i < nparts; i++)
		if (parts[i].dev == dev)
			return parts[i].name;
	if (!reloaded) { /* a disk that appeared since start-up */
		reloaded = 1;
		parts_load();
		return part_name(dev);
	}
	return NULL;
}

static int part_dev(const char *name, unsigned *dev)
{
	size_t i;

	for (i = 0; i < nparts; i++)
		if (!strcmp(parts[i].name, name)) {
			*dev = parts[i].dev;
			return 0;
		}
	return -1;
}

/* ---- cmd_flags decoding (-F), bit numbers from the kernel's BTF -------- */

static const struct flagname {
	const char *enumerator;
	const char *str;
	int fallback; /* bit / op value of the 6.x kernels */
} flag_names[] = {
	{ "__REQ_NOWAIT", "NoWait-", 21 },
	{ "__REQ_BACKGROUND", "Background-", 20 },
	{ "__REQ_RAHEAD", "ReadAhead-", 19 },
	{ "__REQ_PREFLUSH", "PreFlush-", 18 },
	{ "__REQ_FUA", "FUA-", 17 },
	{ "__REQ_INTEGRITY", "Integrity-", 16 },
	{ "__REQ_IDLE", "Idle-", 15 },
	{ "__REQ_NOMERGE", "NoMerge-", 14 },
	{ "__REQ_PRIO", "Priority-", 13 },
	{ "__REQ_META", "Metadata-", 12 },
	{ "__REQ_SYNC", "Sync-", 11 },
}, op_names[] = {
	{ "REQ_OP_READ", "Read", 0 },
	{ "REQ_OP_WRITE", "Write", 1 },
	{ "REQ_OP_FLUSH", "Flush", 2 },
	{ "REQ_OP_DISCARD", "Discard", 3 },
	{ "REQ_OP_SECURE_ERASE", "SecureErase", 5 },
	{ "REQ_OP_ZONE_RESET", "ZoneReset", 17 },
	{ "REQ_OP_WRITE_SAME", "WriteSame", -1 },
	{ "REQ_OP_ZONE_RESET_ALL", "ZoneResetAll", 19 },
	{ "REQ_OP_WRITE_ZEROES", "WriteZeroes", 9 },
	{ "REQ_OP_ZONE_OPEN", "ZoneOpen", 11 },
	{ "REQ_OP_ZONE_CLOSE", "ZoneClose", 13 },
	{ "REQ_OP_ZONE_FINISH", "ZoneFinish", 15 },
	{ "REQ_OP_SCSI_IN", "SCSIIn", -1 },
	{ "REQ_OP_SCSI_OUT", "SCSIOut", -1 },
	{ "REQ_OP_DRV_IN", "DrvIn", 34 },
	{ "REQ_OP_DRV_OUT", "DrvOut", 35 },
	{ "REQ_OP_ZONE_APPEND", "ZoneAppend", 7 },
};
static int flag_bit[ARRAY_SIZE(flag_names)];
static int op_val[ARRAY_SIZE(op_names)];
static unsigned op_mask = 0xff;

/* Value of enumerator NAME in enum ENUM_NAME of the kernel BTF, or def. */
static long long btf_enum_val(const struct btf *btf, const char *enum_name, const char *name,
			      long long def)
{
	const struct btf_type *t;
	int32_t id;
	uint32_t i;

	if (!btf || (id = btf_find(btf, enum_name, BTF_KIND_ENUM)) <= 0)
		return def;
	t = btf_type_by_id(btf, (uint32_t)id);
	if (!t)
		return def;
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_enum *e = &btf_enums(t)[i];

		if (!strcmp(btf_str(btf, e->name_off) ? btf_str(btf, e->name_off) : "", name))
			return e->val;
	}
	/* the enum exists but lacks the name: not on this kernel */
	return -1;
}

static void flags_init(const struct btf *btf)
{
	long long bits;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_names); i++)
		flag_bit[i] = (int)btf_enum_val(btf, "req_flag_bits", flag_names[i].enumerator,
						flag_names[i].fallback);
	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		op_val[i] = (int)btf_enum_val(btf, "req_op", op_names[i].enumerator, op_names[i].fallback);
	/* REQ_OP_BITS == the first flag bit (__REQ_FAILFAST_DEV) */
	bits = btf_enum_val(btf, "req_flag_bits", "__REQ_FAILFAST_DEV", 8);
	if (bits > 0 && bits < 32)
		op_mask = (1u << bits) - 1;
}

/* "Sync-Write" as libbpf-tools prints after "flags = ". */
static void cmd_flags_str(unsigned flags, struct strbuf *b)
{
	unsigned op = flags & op_mask;
	const char *name = "Unknown";
	size_t i;

	strbuf_reset(b);
	for (i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (flag_bit[i] >= 0 && flag_bit[i] < 32 && (flags & (1u << flag_bit[i])))
			strbuf_add(b, flag_names[i].str);
	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		if (op_val[i] >= 0 && (unsigned)op_val[i] == op) {
			name = op_names[i].str;
			break;
		}
	strbuf_add(b, name);
}

/* ---- the request-pointer argument of block_rq_insert/issue ------------- */

/* 1 when btf_trace_block_rq_issue is void (*)(void *, q, rq) (< 5.11). */
static int rq_is_second_arg(const struct btf *btf)
{
	const struct btf_type *t;
	int32_t id;

	if (!btf)
		return 0;
	id = btf_find(btf, "btf_trace_block_rq_issue", BTF_KIND_TYPEDEF);
	if (id <= 0)
		return 0;
	t = btf_type_by_id(btf, (uint32_t)id);
	if (!t || !(t = btf_type_by_id(btf, t->type)) || btf_kind(t) != BTF_KIND_PTR)
		return 0;
	t = btf_type_by_id(btf, t->type);
	if (!t || btf_kind(t) != BTF_KIND_FUNC_PROTO)
		return 0;
	return btf_vlen(t) >= 3;
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
		struct out_label labels[2];
		double sum;
		int nl = 0;

		strbuf_reset(&head);
		if (env.per_disk) {
			const char *name = part_name(entries[i].key.dev);

			strbuf_addf(&head, "\ndisk = %s\t", name ? name : "Unknown");
			labels[nl++] = (struct out_label){ "disk", name ? name : "Unknown" };
		}
		if (env.per_flag) {
			cmd_flags_str(entries[i].key.cmd_flags, &flags);
			strbuf_addf(&head, "flags = %s", flags.s);
			labels[nl++] = (struct out_label){ "flags", flags.s };
		}
		strbuf_addc(&head, '\n');
		sum = (double)entries[i].hist.sum_ns / (env.ms ? 1e6 : 1e3);
		out_hist(env.ms ? &hist_ms : &hist_us, head.s, labels, nl, entries[i].hist.slots,
			 BIOLAT_MAX_SLOTS, &sum);
	}
	strbuf_free(&head);
	strbuf_free(&flags);
}

int biolatency_main(int argc, char **argv)
{
	struct obj_opts oo;
	const struct btf *kbtf;
	struct obj *o;
	bool batch = true;
	unsigned dev = 0;
	int cgfd = -1, ret = 0, r;

	opt_parse(argc, argv, &help, parse, NULL);
	parts_load();
	o = BPF_OBJ_OPEN(biolatency);
	if (env.disk) {
		if (part_dev(env.disk, &dev) < 0) {
			tool_err("biolatency", "invalid partition name: '%s' is not in /proc/partitions",
				 env.disk);
			obj_close(o);
			return 1;
		}
		OBJ_SET(o, filter_dev, (uint8_t)1);
		OBJ_SET(o, targ_dev, (uint32_t)dev);
	}
	if (env.per_disk)
		OBJ_SET(o, per_disk, (uint8_t)1);
	if (env.per_flag)
		OBJ_SET(o, per_flag, (uint8_t)1);
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
	if (rq_is_second_arg(kbtf))
		OBJ_SET(o, rq_arg1, (uint8_t)1);
	if (env.per_flag)
		flags_init(kbtf);

	if (env.cgroup && (cgfd = tool_cgroup_open("biolatency", env.cgroup)) < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "biolatency")) {
		if (cgfd >= 0)
			close(cgfd);
		return 1;
	}
	if (cgfd >= 0 && tool_cgroup_filter(o, "biolatency", env.cgroup, cgfd) < 0) {
		ret = 1;
		goto out;
	}

	bkeys = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*bkeys));
	bvals = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*bvals));
	entries = xcalloc(BIOLAT_MAX_ENTRIES, sizeof(*entries));

	tool_signals();
	out_info("Tracing block device I/O... Hit Ctrl-C to end.\n");
	tool_flush();
	for (;;) {
		size_t n = 0;

		tool_sleep_ms(env.interval * 1000);
		if (tool_stdout_gone())
			break;
		out_doc_begin();
		out_text("\n");
		if (env.timestamp) {
			char ts[16];

			out_text("%-8s\n", tool_hms(ts, sizeof(ts)));
		}
		r = read_hists(map_fd(obj_map(o, "hists")), &batch, &n);
		if (r < 0) {
			tool_err("biolatency", "cannot read the histograms: %s", strerror(-r));
			ret = 1;
			break;
		}
		print_hists(n);
		if (out_doc_end() < 0)
			ret = 1;
		tool_flush();
		if (tool_exiting || --env.times == 0)
			break;
	}
	free(bkeys);
	free(bvals);
	free(entries);
out:
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	free(parts);
	return ret;
}
