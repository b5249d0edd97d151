/* applet llcstat: summarize last-level cache references and misses by process
 * readme: last-level cache references, misses and hit % by process (needs a hardware PMU)
 *
 * libbpf-tools flags and output.
 *
 * Two hardware events per CPU (cache misses, cache references) sample
 * every -c SAMPLE_PERIOD events; llcstat.bpf.c adds each sample's period
 * to its {cpu, pid, tid} counts.  Without a PMU (most VMs, qemu TCG) the
 * kernel has no such events: one line says so, exit 1.
 *
 * --replay FILE prints the report for samples recorded elsewhere (lines
 * "ref|miss CPU PID TID PERIOD COMM"), summed as the BPF side sums them:
 * the report's arithmetic without a PMU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/common/perf_cpus.h"
#include "llcstat.h"

BPF_OBJ_DECLARE(llcstat);

#define KEY_REPLAY OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'c', "sample_period", "SAMPLE_PERIOD", "Sample one in this many number of cache reference / miss events" },
	{ 't', "tid", NULL, "Summarize cache references and misses by PID/TID" },
	{ KEY_REPLAY, "replay", "FILE", "report on samples recorded as text (ref|miss CPU PID TID PERIOD COMM)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-c SAMPLE_PERIOD] [-t] [--replay FILE] [duration]",
	.examples =
		"    llcstat             # 10 seconds, every CPU\n"
		"    llcstat -c 1000 5   # sample one in 1000 events, for 5 seconds\n"
		"    llcstat -t          # by thread\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	long long period; /* up to 2^40: 64-bit on 32-bit hosts too */
	long duration;
	bool per_thread;
	const char *replay;
	int npos;
} env = { .period = 100, .duration = 10 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'c': env.period = opt_num(&help, "sample period", arg, 1, 1LL << 40); break;
	case 't': env.per_thread = true; break;
	case KEY_REPLAY: env.replay = arg; break;
	case 0: env.duration = (long)opt_one_num(&help, &env.npos, "duration", arg, 1, 99999999); break;
	default: return 1;
	}
	return 0;
}

struct row {
	struct llcstat_key k;
	struct llcstat_value v;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	if (x->k.tid != y->k.tid)
		return x->k.tid < y->k.tid ? -1 : 1;
	return (x->k.cpu > y->k.cpu) - (x->k.cpu < y->k.cpu);
}

enum { C_PID, C_TID, C_NAME, C_CPU, C_REF, C_MISS, C_HIT };
static const struct out_col cols[] = {
	[C_PID] = { "pid", "PID", "%-8u ", OUT_UINT, OUT_LABEL },
	[C_TID] = { "tid", "TID", "%-8u ", OUT_UINT, OUT_LABEL },
	[C_NAME] = { "comm", "NAME", "%-16s ", OUT_STR, OUT_LABEL },
	[C_CPU] = { "cpu", "CPU", "%-4u ", OUT_UINT, OUT_LABEL },
	[C_REF] = { "references", "REFERENCE", "%12llu ", OUT_UINT, OUT_COUNTER, .help = "LLC references" },
	[C_MISS] = { "misses", "MISS", "%12llu ", OUT_UINT, OUT_COUNTER, .help = "LLC misses" },
	[C_HIT] = { "hit_percent", "HIT%", "%6.2f%%\n", OUT_FLOAT, 0, .hfmt = "%7s\n" },
};
static struct out_table table = OUT_TABLE("llcstat", cols);

static void print_rows(struct row *rows, size_t n)
{
	unsigned long long total_ref = 0, total_miss = 0, total_hit;

	qsort(rows, n, sizeof(*rows), cmp_row);
	out_show(&table, C_TID, env.per_thread);
	out_doc_begin();
	out_header(&table);
	for (size_t i = 0; i < n; i++) {
		const struct llcstat_value *v = &rows[i].v;
		unsigned long long hit = v->ref > v->miss ? v->ref - v->miss : 0;
		char comm[64];
		union out_val val[] = {
			[C_PID].u = rows[i].k.pid,
			[C_TID].u = rows[i].k.tid,
			[C_NAME].s = str_escape(comm, sizeof(comm), v->comm, ""),
			[C_CPU].u = rows[i].k.cpu,
			[C_REF].u = v->ref,
			[C_MISS].u = v->miss,
			[C_HIT].f = v->ref > 0 ? (double)hit * 1.0 / (double)v->ref * 100 : 0,
		};

		out_row(&table, val);
		total_ref += v->ref;
		total_miss += v->miss;
	}
	total_hit = total_ref > total_miss ? total_ref - total_miss : 0;
	out_text("Total References: %llu Total Misses: %llu Hit Rate: %.2f%%\n", total_ref, total_miss,
		 total_ref > 0 ? (double)total_hit * 1.0 / (double)total_ref * 100 : 0);
	out_doc_end();
}

/* ---- --replay: the BPF side's sums, from text ---- */

static int replay(const char *path)
{
	FILE *f = stdin;
	char line[256];
	struct row *rows = NULL;
	size_t n = 0;
	int lineno = 0, ret = 0;

	if (strcmp(path, "-")) {
		/* the checks --btf gets: /dev/zero would feed "blank" lines
		 * forever, a FIFO block the open, a directory read as empty */
		int fd = open_regular(path, NULL);

		if (fd < 0 || !(f = fdopen(fd, "r"))) {
			if (fd >= 0) {
				err_sys(errno, "cannot open %s", path);
				close(fd);
			}
			tool_err("llcstat", "%s", err_msg());
			return 1;
		}
	}
	while (fgets(line, sizeof(line), f)) {
		char type[8], comm[64];
		unsigned cpu, pid, tid;
		unsigned long long period;
		struct llcstat_key k;
		size_t i;

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
			continue;
		if (str_scan(line, "%7s %u %u %u %llu %63s", type, &cpu, &pid, &tid, &period, comm) != 6 ||
		    (strcmp(type, "ref") && strcmp(type, "miss"))) {
			tool_err("llcstat", "%s:%d: expected \"ref|miss CPU PID TID PERIOD COMM\"", path, lineno);
			ret = 1;
			break;
		}
		k = (struct llcstat_key){ cpu, pid, env.per_thread ? tid : pid };
		for (i = 0; i < n && memcmp(&rows[i].k, &k, sizeof(k)); i++)
			;
		if (i == n) {
			if (n == LLCSTAT_MAX_ENTRIES)
				continue; /* the map is full: the kernel side drops it too */
			rows = xrealloc(rows, (n + 1) * sizeof(*rows));
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n++].k = k;
		}
		if (!strcmp(type, "miss"))
			rows[i].v.miss += period;
		else
			rows[i].v.ref += period;
		snprintf(rows[i].v.comm, sizeof(rows[i].v.comm), "%.15s", comm); /* the latest, as bpf_get_current_comm */
	}
	if (f != stdin)
		fclose(f);
	if (!ret) {
		out_info("Running for %ld seconds or Hit Ctrl-C to end.\n", env.duration);
		print_rows(rows, n);
	}
	free(rows);
	return ret;
}

/* ---- live ---- */

static int no_pmu(int err)
{
	tool_err("llcstat", "the kernel offers no hardware cache events (perf_event_open: %s): llcstat needs "
		 "a CPU performance monitoring unit (bare metal, or a VM with a virtual PMU)", strerror(-err));
	return 1;
}

int llcstat_main(int argc, char **argv)
{
	struct perf_cpus miss = { 0 }, ref = { 0 };
	struct llcstat_key *keys;
	struct llcstat_value *vals;
	struct row *rows;
	bool batch = true;
	struct obj *o;
	long n;
	int r, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.replay)
		return replay(env.replay);
	o = BPF_OBJ_OPEN(llcstat);
	OBJ_SET(o, targ_per_thread, (uint8_t)env.per_thread);
	if (tool_load_attach(o, "llcstat"))
		return 1;
	r = perf_cpus_attach(&miss, obj_prog(o, "on_cache_miss"), PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
			     false, (uint64_t)env.period);
	if (r >= 0)
		r = perf_cpus_attach(&ref, obj_prog(o, "on_cache_ref"), PERF_TYPE_HARDWARE,
				     PERF_COUNT_HW_CACHE_REFERENCES, false, (uint64_t)env.period);
	if (r == -ENOENT || r == -EOPNOTSUPP) {
		ret = no_pmu(r);
		goto out;
	}
	if (r < 0) {
		tool_err("llcstat", "%s", err_msg());
		ret = 1;
		goto out;
	}
	tool_signals();
	out_info("Running for %ld seconds or Hit Ctrl-C to end.\n", env.duration);
	tool_flush();
	tool_sleep_ms(env.duration * 1000);
	keys = xcalloc(LLCSTAT_MAX_ENTRIES, sizeof(*keys));
	vals = xcalloc(LLCSTAT_MAX_ENTRIES, sizeof(*vals));
	n = tool_map_drain(map_fd(obj_map(o, "infos")), sizeof(*keys), sizeof(*vals), keys, vals,
			   LLCSTAT_MAX_ENTRIES, &batch);
	if (n < 0) {
		tool_err("llcstat", "cannot read the counts: %s", strerror((int)-n));
		ret = 1;
	} else {
		rows = xcalloc((size_t)n + 1, sizeof(*rows));
		for (long i = 0; i < n; i++) {
			rows[i].k = keys[i];
			rows[i].v = vals[i];
		}
		if (!tool_stdout_gone())
			print_rows(rows, (size_t)n);
		free(rows);
	}
	free(keys);
	free(vals);
out:
	obj_close(o);
	perf_cpus_close(&miss);
	perf_cpus_close(&ref);
	return ret;
}
