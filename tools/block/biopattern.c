/* applet biopattern: show random vs sequential block I/O per disk
 * readme: per disk, random vs sequential I/O per interval (`-d` takes a name or `MAJ:MIN`)
 *
 * The share of random and sequential block I/O of each disk in each
 * interval (libbpf-tools compatible flags and output; -d also takes
 * MAJ:MIN, as in "biopattern -T 1 -d 259:0"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/util.h"
#include "blk.h"
#include "biopattern.h"

BPF_OBJ_DECLARE(biopattern);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 'd', "disk", "DISK", "Trace this disk only (name or MAJ:MIN)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-d DISK] [interval] [count]",
	.examples =
		"    biopattern              # show block I/O pattern\n"
		"    biopattern 1 10         # print 1 second summaries, 10 times\n"
		"    biopattern -T 1         # 1s summaries with timestamps\n"
		"    biopattern -d sdc       # trace sdc only\n"
		"    biopattern -d 259:0     # trace the disk with major 259, minor 0 only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *disk;
	struct interval iv;
	int npos;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, .rows = true, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 'd': blk_disk_opt(&help, &env.disk, arg); break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default:
		return 1;
	}
	return 0;
}

enum { C_TIME, C_DISK, C_RND, C_SEQ, C_COUNT, C_KBYTES, C_RANDOM, C_SEQUENTIAL, C_BYTES };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-9s ", OUT_STR, OUT_TEXT_ONLY },
	[C_DISK] = { "disk", "DISK", "%-7s ", OUT_STR, OUT_LABEL },
	[C_RND] = { "random_pct", "%RND", "%5ld ", OUT_INT },
	[C_SEQ] = { "sequential_pct", "%SEQ", "%5ld ", OUT_INT },
	[C_COUNT] = { "count", "COUNT", "%8d ", OUT_INT },
	[C_KBYTES] = { "kbytes", "KBYTES", "%10lld\n", OUT_INT },
	[C_RANDOM] = { "random", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		       .help = "block requests that did not start where the previous one ended" },
	[C_SEQUENTIAL] = { "sequential", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
			   .help = "block requests that started where the previous one ended" },
	[C_BYTES] = { "bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		      .help = "bytes of the requests counted" },
};
static struct out_table table = OUT_TABLE("disks", cols);

struct entry {
	__u32 dev;
	struct biopattern_counter c;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

struct report {
	int fd;
	bool batch;
};

/* Read and clear the counters: one row per disk that had I/O. */
static int report(void *ctx)
{
	static __u32 keys[BIOPATTERN_MAX_DISKS];
	static struct biopattern_counter vals[BIOPATTERN_MAX_DISKS];
	static struct entry e[BIOPATTERN_MAX_DISKS];
	struct report *r = ctx;
	long n = tool_map_drain(r->fd, sizeof(keys[0]), sizeof(vals[0]), keys, vals, BIOPATTERN_MAX_DISKS,
				&r->batch);
	char hms[16];
	long i;

	if (n < 0) {
		tool_err("biopattern", "cannot read the counters: %s", strerror((int)-n));
		return -1;
	}
	for (i = 0; i < n; i++) {
		e[i].dev = keys[i];
		e[i].c = vals[i];
	}
	qsort(e, (size_t)n, sizeof(e[0]), cmp_entry);
	for (i = 0; i < n; i++) {
		unsigned long long total = (unsigned long long)e[i].c.sequential + e[i].c.random;
		union out_val v[ARRAY_SIZE(cols)];
		const char *name;

		if (!total)
			continue;
		name = blk_disk_name(e[i].dev);
		v[C_TIME].s = env.iv.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
		v[C_DISK].s = name ? name : "Unknown";
		v[C_RND].i = (long long)(e[i].c.random * 100ull / total);
		v[C_SEQ].i = (long long)(e[i].c.sequential * 100ull / total);
		v[C_COUNT].i = (long long)total;
		v[C_KBYTES].i = (long long)(e[i].c.bytes / 1024);
		v[C_RANDOM].u = e[i].c.random;
		v[C_SEQUENTIAL].u = e[i].c.sequential;
		v[C_BYTES].u = e[i].c.bytes;
		out_row(&table, v);
	}
	return 0;
}

int biopattern_main(int argc, char **argv)
{
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BLK_OPEN(biopattern, env.disk);
	if (!o)
		return 1;
	if (tool_load_attach(o, "biopattern"))
		return 1;

	tool_signals();
	out_info("Tracing block device I/O requested seeks... Hit Ctrl-C to end.\n");
	out_show(&table, C_TIME, env.iv.timestamp);
	out_header(&table);
	tool_flush();
	ret = interval_loop(&env.iv, report, &(struct report){ map_fd(obj_map(o, "counters")), true });
	obj_close(o);
	blk_parts_free();
	return ret;
}
