/* applet numamove: show NUMA-misplaced page migrations per second
 * readme: NUMA-misplaced page migrations per second and their time
 *
 * libbpf-tools' columns. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/kfunc.h"
#include "memtool.h"
#include "numamove.h"

BPF_OBJ_DECLARE(numamove);

static const struct opt opts[] = {
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-v]",
	.examples = "    numamove              # Show page migrations' count and latency\n",
	.opts = opts,
	.flags = OPT_PROM,
};

enum { C_TIME, C_NUM, C_MS, C_NS };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-10s ", OUT_STR, OUT_TEXT_ONLY },
	[C_NUM] = { "migrations", "NUMA_migrations", "%18llu ", OUT_UINT, OUT_COUNTER,
		    .help = "NUMA-misplaced page migrations" },
	[C_MS] = { "migrations_ms", "NUMA_migrations_ms", "%18llu\n", OUT_UINT, .hfmt = "%18s\n" },
	[C_NS] = { "migrations_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		   .help = "time spent in NUMA-misplaced page migrations",
		   .metric = &(const struct out_metric){ "migration_seconds", 1e-9 } },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int read_stats(int fd, int ncpu, struct numamove_stats *sum)
{
	struct numamove_stats *per = xcalloc((size_t)ncpu, sizeof(*per));
	uint32_t zero = 0;
	int r = bpf_map_lookup(fd, &zero, per);

	memset(sum, 0, sizeof(*sum));
	for (int c = 0; r == 0 && c < ncpu; c++) {
		sum->num += per[c].num;
		sum->ms += per[c].ms;
		sum->ns += per[c].ns;
	}
	free(per);
	return r;
}

/* The tracepoints, else entry and exit of the migrating function. */
static int choose(struct obj *o, const char **how)
{
	static const char *const funcs[] = { "migrate_misplaced_folio", "migrate_misplaced_page" };
	static const char *const progs[] = { "fn_entry", "fn_exit", "kp_entry", "kp_exit" };
	enum kfunc_way way;
	int i;

	if (perf_tp_exists("migrate", "mm_migrate_pages_start") && perf_tp_exists("migrate", "mm_migrate_pages")) {
		for (i = 0; i < 4; i++)
			prog_set_autoload(obj_prog(o, progs[i]), false);
		*how = "tracepoints migrate:mm_migrate_pages_start/mm_migrate_pages";
		return 0;
	}
	err_clear();
	prog_set_autoload(obj_prog(o, "tp_start"), false);
	prog_set_autoload(obj_prog(o, "tp_end"), false);
	i = kfunc_pick(o, funcs, 2, &way);
	if (i < 0) {
		tool_err("numamove", "this kernel offers no way to see NUMA migrations: no "
			 "migrate:mm_migrate_pages_start tracepoint (5.9+), and neither %s nor %s can be "
			 "probed (no fentry, no kprobes)", funcs[0], funcs[1]);
		return -1;
	}
	for (int k = 0; k < 4; k++) {
		struct prog *p = obj_prog(o, progs[k]);
		bool on = (k < 2) == (way == KFUNC_FENTRY);

		prog_set_autoload(p, on);
		if (on)
			prog_set_attach_target(p, funcs[i]);
	}
	*how = way == KFUNC_FENTRY ? "fentry/fexit" : "kprobe/kretprobe";
	return 0;
}

int numamove_main(int argc, char **argv)
{
	struct numamove_stats prev, now;
	union out_val v[ARRAY_SIZE(cols)];
	const char *how = "";
	struct obj *o;
	int ncpu, fd, ret = 0;
	char hms[16];

	opt_parse(argc, argv, &help, NULL, NULL);
	ncpu = cpus_possible();
	if (ncpu < 1) {
		tool_err("numamove", "cannot read the possible CPUs");
		return 1;
	}
	tool_signals();
	o = BPF_OBJ_OPEN(numamove);
	if (choose(o, &how) < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_load_attach(o, "numamove"))
		return 1;
	if (tool_common.verbose)
		fprintf(stderr, "numamove: %s\n", how);
	if (mem_numa_nodes() < 2) /* said once, before the header (stderr under --json) */
		fprintf(stderr, "numamove: this machine has one NUMA node: no NUMA-misplaced migrations can happen "
			 "here (the counts stay 0)\n");
	fd = map_fd(obj_map(o, "stats"));
	if (read_stats(fd, ncpu, &prev) < 0) {
		tool_err("numamove", "cannot read the totals: %s", strerror(errno));
		obj_close(o);
		return 1;
	}
	out_header(&table);
	tool_flush();
	while (!tool_exiting) {
		tool_sleep_ms(1000);
		if (tool_exiting)
			break;
		if (read_stats(fd, ncpu, &now) < 0) {
			tool_err("numamove", "cannot read the totals: %s", strerror(errno));
			ret = 1;
			break;
		}
		v[C_TIME].s = tool_hms(hms, sizeof(hms));
		v[C_NUM].u = now.num - prev.num;
		v[C_MS].u = now.ms - prev.ms;
		v[C_NS].u = now.ns - prev.ns;
		prev = now;
		out_doc_begin();
		out_row(&table, v);
		out_doc_end();
		if (tool_flush() < 0)
			break;
	}
	obj_close(o);
	return ret;
}
