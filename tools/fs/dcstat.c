/* applet dcstat: directory entry cache (dcache) stats
 * readme: dcache references, slow lookups, misses and hit ratio per interval (bcc's;
 *         fentry or kprobes on lookup_fast and d_lookup: no tracepoint has them)
 *
 * bcc's output: "HH:MM:SS:" rows of REFS/s, SLOW/s, MISS/s and HIT% (or
 * "-%" with no reference).  REFS counts lookup_fast calls (one per path
 * component found the fast way), SLOW d_lookup calls, MISS those that
 * found nothing.  On a kernel with neither kprobes nor fentry the tool
 * says so in one line. */
#include <limits.h>
#include <stdio.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/err.h"
#include "lib/util.h"
#include "dcache_funcs.h"
#include "dcstat.h"

BPF_OBJ_DECLARE(dcstat);

static const struct tool_help help = {
	.usage = "[interval [count]]",
	.examples = "    dcstat        # one line a second\n"
		    "    dcstat 5 3    # three lines, five seconds apart\n",
	.flags = OPT_PROM,
};

static struct {
	struct interval iv;
	int npos;
} env = { .iv = { 1, INTERVAL_FOREVER, .rows = true, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	if (key != 0)
		return 1;
	interval_arg(&help, &env.iv, &env.npos, arg);
	return 0;
}

static void pct_text(FILE *f, const struct out_col *c, const union out_val *v)
{
	(void)c;
	if (v->f < 0) /* no reference: bcc's ZeroDivisionError branch */
		fprintf(f, " %7s%%\n", "-");
	else
		fprintf(f, " %8.2f\n", v->f);
}

enum { C_TIME, C_REFS, C_SLOW, C_MISS, C_HIT, C_NREFS, C_NSLOW, C_NMISS };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s: ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s  " },
	[C_REFS] = { NULL, "REFS/s", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %8s" },
	[C_SLOW] = { NULL, "SLOW/s", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %8s" },
	[C_MISS] = { NULL, "MISS/s", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %8s" },
	[C_HIT] = { "hit_pct", "HIT%", " %8.2f\n", OUT_FLOAT, OUT_GAUGE, .hfmt = " %8s\n",
		    .help = "dcache hit ratio of the last interval, percent (-1: no reference)", .text = pct_text },
	[C_NREFS] = { "refs", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "lookup_fast calls" },
	[C_NSLOW] = { "slow", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "d_lookup calls" },
	[C_NMISS] = { "miss", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		      .help = "d_lookup calls that found nothing" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

struct report {
	int fd;
	struct dcstat_counts prev;
};

static int report(void *ctx)
{
	struct report *r = ctx;
	struct dcstat_counts now;
	union out_val v[ARRAY_SIZE(cols)];
	__u64 refs, slow, miss, secs = (__u64)env.iv.seconds;
	char hms[16];
	__u32 zero = 0;

	if (bpf_map_lookup(r->fd, &zero, &now) < 0) {
		tool_err("dcstat", "cannot read the counts: %s", err_msg());
		return -1;
	}
	refs = now.refs - r->prev.refs;
	slow = now.slow - r->prev.slow;
	miss = now.miss - r->prev.miss;
	r->prev = now;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_REFS].u = refs / secs;
	v[C_SLOW].u = slow / secs;
	v[C_MISS].u = miss / secs;
	/* bcc: (refs - misses) / refs of the interval's raw counts */
	v[C_HIT].f = refs ? 100.0 * ((double)refs - (double)miss) / (double)refs : -1;
	v[C_NREFS].u = refs;
	v[C_NSLOW].u = slow;
	v[C_NMISS].u = miss;
	out_row(&table, v);
	return 0;
}

int dcstat_main(int argc, char **argv)
{
	static const char *const d_lookup[] = { "d_lookup" };
	enum kfunc_way fw, dw;
	const char *fast;
	struct report r = { 0 };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(dcstat);
	fast = dcache_lookup_fast(o, &fw);
	kfunc_pick(o, d_lookup, 1, &dw);
	if (!fast || dw == KFUNC_NONE) {
		tool_err("dcstat", DCACHE_NO_WAY);
		obj_close(o);
		return 1;
	}
	prog_set_autoload(obj_prog(o, "fast_fentry"), fw == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "fast_kprobe"), fw == KFUNC_KPROBE);
	prog_set_attach_target(obj_prog(o, fw == KFUNC_FENTRY ? "fast_fentry" : "fast_kprobe"), fast);
	prog_set_autoload(obj_prog(o, "d_lookup_fexit"), dw == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "d_lookup_kretprobe"), dw == KFUNC_KPROBE);
	if (tool_load_attach(o, "dcstat"))
		return 1;
	if (tool_common.verbose)
		fprintf(stderr, "dcstat: %s on %s, %s on d_lookup\n", kfunc_way_name(fw), fast,
			dw == KFUNC_FENTRY ? "fexit" : "kretprobe");
	r.fd = map_fd(obj_map(o, "counts"));
	tool_signals();
	out_header(&table);
	tool_flush();
	ret = interval_loop(&env.iv, report, &r);
	obj_close(o);
	return ret;
}
