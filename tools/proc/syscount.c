/* applet syscount: summarize syscall counts and latencies
 * readme: syscall counts (and latency with `-L`), per syscall, process (`-P`) or cgroup (`--cgroups`)
 *
 * libbpf-tools compatible flags and output. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "bpf/sys.h"
#include "tools/common/common.h"
#include "lib/util.h"
#include "syscount.h"

BPF_OBJ_DECLARE(syscount);

#define KEY_CGROUPS OPT_LONG_ONLY(1)

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 'i', "interval", "INTERVAL", "Print summary at this interval (seconds), 0 for infinite wait (default)" },
	{ 'd', "duration", "DURATION", "Total tracing duration (seconds)" },
	{ 'T', "top", "TOP", "Print only the top syscalls (default 10)" },
	{ 'c', "cgroup", "CG", "Trace process in cgroup path (cgroup v2 directory)" },
	{ 'x', "failures", NULL, "Trace only failed syscalls" },
	{ 'L', "latency", NULL, "Collect syscall latency" },
	{ 'm', "milliseconds", NULL, "Display latency in milliseconds (default: microseconds)" },
	{ 'P', "process", NULL, "Count by process and not by syscall" },
	{ KEY_CGROUPS, "cgroups", NULL, "Count by cgroup (v2 path) and not by syscall" },
	{ 'e', "errno", "ERRNO", "Trace only syscalls that return this error (numeric or EPERM, etc.)" },
	{ 'l', "list", NULL, "Print list of recognized syscalls and exit" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-p PID] [-i INTERVAL] [-d DURATION] [-T TOP] [-c CG] [-x] [-e ERRNO] [-L] [-m] [-P] [--cgroups] [-l] [-v]",
	.examples =
		"    syscount                 # print top 10 syscalls by count every second\n"
		"    syscount -p $(pidof dd)  # look only at a particular process\n"
		"    syscount -L              # measure and sort output by latency\n"
		"    syscount -P              # group statistics by pid, not by syscall\n"
		"    syscount -x -i 5         # count only failed syscalls\n"
		"    syscount -e ENOENT -i 5  # count only syscalls failed with a given errno\n"
		"    syscount -c CG           # Trace process under cgroupsPath CG\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct env {
	bool list, ms, failures, latency, process, cgroups; /* cgroups: process set too */
	int errnum;
	long interval, duration, top;
	unsigned pid;
	const char *cgroup;
} env = { .top = 10 };

/* One report row. */
struct row {
	uint64_t count;
	uint64_t total_ns;
	uint32_t key; /* syscall number or pid */
	char comm[SC_TASK_COMM_LEN];
};

static int parse(int key, const char *arg, void *ctx)
{
	char *end;
	long v;

	(void)ctx;
	switch (key) {
	case 'p':
		env.pid = (unsigned)opt_pid(&help, "PID", arg);
		break;
	case 'i':
		env.interval = (long)opt_num(&help, "INTERVAL", arg, 0, INT_MAX);
		break;
	case 'd':
		env.duration = (long)opt_num(&help, "DURATION", arg, 1, INT_MAX);
		break;
	case 'T':
		env.top = (long)opt_num(&help, "TOP", arg, 1, INT_MAX);
		break;
	case 'c':
		env.cgroup = arg;
		break;
	case 'x':
		env.failures = true;
		break;
	case 'L':
		env.latency = true;
		break;
	case 'm':
		env.ms = true;
		break;
	case 'P':
		env.process = true;
		break;
	case KEY_CGROUPS:
		env.cgroups = true;
		break;
	case 'l':
		env.list = true;
		break;
	case 'e':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (!errno && end != arg && !*end && v >= 1 && v <= INT_MAX) {
			env.errnum = (int)v;
			break;
		}
		env.errnum = errno_by_name(arg);
		if (env.errnum < 0)
			opt_usage_error(&help, "invalid errno: '%s' (use a number or a name like ENOENT)", arg);
		break;
	case 0:
		return 1; /* no positional arguments */
	default:
		return 1;
	}
	return 0;
}

static void list_syscalls(void)
{
	unsigned i, n = syscall_max();

	for (i = 0; i < n; i++)
		if (syscall_name(i))
			printf("%3u: %s\n", i, syscall_name(i));
}

static int cmp_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return cmp_count(a, b);
}

/* libbpf-tools' layout: "%-22s %8llu[ %16.3lf]" under "[HH:MM:SS]" and
 * a header; the key column is the syscall name, or "PID    COMM" with -P
 * (JSON and Prometheus get them as separate fields/labels). */
enum { C_KEY, C_SYSCALL, C_PID, C_COMM, C_CGROUP, C_COUNT, C_TIME, C_TOTAL_NS, C_END };
static const struct out_col cols[] = {
	[C_KEY] = { NULL, "SYSCALL", "%-22s ", OUT_STR, OUT_TEXT_ONLY },
	[C_SYSCALL] = { "syscall", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[C_COMM] = { "comm", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_CGROUP] = { "cgroup", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_COUNT] = { "calls", "COUNT", "%8llu", OUT_UINT, OUT_COUNTER, .help = "system calls" },
	[C_TIME] = { NULL, "TIME (us)", " %16.3f", OUT_FLOAT, OUT_TEXT_ONLY },
	[C_TOTAL_NS] = { "total_ns", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
			 .help = "time spent in system calls",
			 .metric = &(const struct out_metric){ "latency_seconds", 1e-9 } },
	[C_END] = { NULL, "", "\n", OUT_STR, OUT_TEXT_ONLY },
};
static const struct out_col key_process = { NULL, "PID    COMM", "%-22s ", OUT_STR, OUT_TEXT_ONLY };
static const struct out_col key_cgroup = { NULL, "CGROUP", "%-22s ", OUT_STR, OUT_TEXT_ONLY };
static const struct out_col time_ms = { NULL, "TIME (ms)", " %16.3f", OUT_FLOAT, OUT_TEXT_ONLY };
static struct out_col table_cols[ARRAY_SIZE(cols)];
static struct out_table table = { "syscalls", table_cols, ARRAY_SIZE(cols), 0 };

static void table_init(void)
{
	memcpy(table_cols, cols, sizeof(cols));
	if (env.process)
		table_cols[C_KEY] = env.cgroups ? key_cgroup : key_process;
	if (env.ms)
		table_cols[C_TIME] = time_ms;
	if (env.process)
		table.name = env.cgroups ? "cgroups" : "processes";
	out_show(&table, C_SYSCALL, !env.process);
	out_show(&table, C_PID, env.process && !env.cgroups);
	out_show(&table, C_COMM, env.process && !env.cgroups);
	out_show(&table, C_CGROUP, env.cgroups);
	out_show(&table, C_TIME, env.latency);
	out_show(&table, C_TOTAL_NS, env.latency);
}

static void print_rows(struct row *rows, size_t n)
{
	double div = env.ms ? 1e6 : 1e3;
	char col[64], name[32], cgcol[4096];
	size_t i;
	time_t t = time(NULL);
	struct tm tm;

	if (!n && !out_json() && !out_prom_on())
		return; /* libbpf-tools prints nothing for a quiet interval */
	qsort(rows, n, sizeof(*rows), env.latency ? cmp_time : cmp_count);
	localtime_r(&t, &tm);
	out_doc_begin();
	if (n) {
		out_text("[%02d:%02d:%02d]\n", tm.tm_hour, tm.tm_min, tm.tm_sec);
		out_header(&table);
	}
	for (i = 0; i < n; i++) {
		union out_val v[ARRAY_SIZE(cols)] = { { 0 } };

		if (env.cgroups) {
			const char *cg = cgroup_path_of(rows[i].key);

			if (cg)
				snprintf(cgcol, sizeof(cgcol), "%s", cg);
			else
				snprintf(cgcol, sizeof(cgcol), "%u", rows[i].key);
			v[C_CGROUP].s = cgcol;
			v[C_KEY].s = cgcol;
		} else if (env.process) {
			snprintf(col, sizeof(col), "%-6u %-15.*s", rows[i].key, SC_TASK_COMM_LEN,
				 rows[i].comm);
			v[C_PID].i = rows[i].key;
			v[C_COMM].s = rows[i].comm;
		} else {
			const char *sc = syscall_name(rows[i].key);

			if (!sc) {
				snprintf(name, sizeof(name), "[unknown: %u]", rows[i].key);
				sc = name;
			}
			snprintf(col, sizeof(col), "%s", sc);
			v[C_SYSCALL].s = sc;
		}
		if (!env.cgroups)
			v[C_KEY].s = col;
		v[C_COUNT].u = rows[i].count;
		v[C_TIME].f = (double)rows[i].total_ns / div;
		v[C_TOTAL_NS].u = rows[i].total_ns;
		if (i < (size_t)env.top)
			out_row(&table, v);
		else
			out_row_unshown(&table, v);
	}
	if (n)
		out_text("\n");
	out_doc_end();
	tool_flush();
}

/* Per-syscall mode: the per-CPU array keeps running totals; report the
 * growth since the previous report. */
struct sc_state {
	int fd, ncpu;
	bool batch;
	uint32_t *keys;
	struct sc_val *vals;  /* SC_MAX_NR * ncpu */
	struct sc_val *prev;  /* SC_MAX_NR, summed */
};

static int read_syscalls(struct sc_state *s, struct row *rows, size_t *nrows)
{
	uint32_t i, got = 0;
	int c, r;

	if (s->batch) {
		uint64_t out = 0;
		uint32_t count = SC_MAX_NR;

		r = bpf_map_lookup_batch(s->fd, NULL, &out, s->keys, s->vals, &count, 0);
		if ((r == 0 || r == -ENOENT) && count == SC_MAX_NR) {
			got = count;
		} else {
			s->batch = false; /* old kernel: one lookup per key */
		}
	}
	if (!s->batch) {
		for (i = 0; i < SC_MAX_NR; i++) {
			s->keys[i] = i;
			if (bpf_map_lookup(s->fd, &i, &s->vals[(size_t)i * s->ncpu]) < 0)
				memset(&s->vals[(size_t)i * s->ncpu], 0, sizeof(struct sc_val) * s->ncpu);
		}
		got = SC_MAX_NR;
	}
	*nrows = 0;
	for (i = 0; i < got; i++) {
		uint32_t k = s->keys[i];
		struct sc_val sum = { 0, 0 };

		if (k >= SC_MAX_NR)
			continue;
		for (c = 0; c < s->ncpu; c++) {
			sum.count += s->vals[(size_t)i * s->ncpu + c].count;
			sum.total_ns += s->vals[(size_t)i * s->ncpu + c].total_ns;
		}
		if (sum.count != s->prev[k].count) {
			struct row *w = &rows[(*nrows)++];

			w->key = k;
			w->count = sum.count - s->prev[k].count;
			w->total_ns = sum.total_ns - s->prev[k].total_ns;
		}
		s->prev[k] = sum;
	}
	return 0;
}

/* Per-process mode: read and delete the hash (atomically per bucket with
 * the batch command; the racy iterate/lookup/delete on old kernels). */
static int read_procs(int fd, bool *batch, uint32_t *keys, struct sc_pval *vals,
		      struct row *rows, size_t *nrows)
{
	long n = tool_map_drain(fd, sizeof(*keys), sizeof(*vals), keys, vals, SC_MAX_ENTRIES, batch);
	long i;

	if (n < 0)
		return (int)n;
	*nrows = 0;
	for (i = 0; i < n; i++) {
		struct row *w;

		if (!vals[i].count)
			continue;
		w = &rows[(*nrows)++];
		w->key = keys[i];
		w->count = vals[i].count;
		w->total_ns = vals[i].total_ns;
		memcpy(w->comm, vals[i].comm, SC_TASK_COMM_LEN);
		w->comm[SC_TASK_COMM_LEN - 1] = 0;
	}
	return 0;
}

int syscount_main(int argc, char **argv)
{
	struct sc_state s = { .fd = -1 };
	struct obj *o;
	struct map *m_sys, *m_procs;
	uint32_t *pkeys = NULL;
	struct sc_pval *pvals = NULL;
	struct row *rows;
	bool pbatch = true;
	uint64_t deadline = 0;
	int cgfd = -1, ret = 0, r;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.cgroups && env.process)
		opt_usage_error(&help, "-P and --cgroups can't be used together");
	env.process |= env.cgroups; /* the same per-key hash, keyed by cgroup */
	if (env.list) {
		list_syscalls();
		return 0;
	}

	o = BPF_OBJ_OPEN(syscount);
	if (env.pid)
		OBJ_SET(o, filter_pid, (uint32_t)env.pid);
	if (env.failures)
		OBJ_SET(o, filter_failed, (uint8_t)1);
	if (env.errnum)
		OBJ_SET(o, filter_errno, (int32_t)env.errnum);
	if (env.cgroup)
		OBJ_SET(o, filter_cg, (uint8_t)1);
	if (env.process)
		OBJ_SET(o, by_process, (uint8_t)1);
	if (env.cgroups)
		OBJ_SET(o, by_cgroup, (uint8_t)1);
	if (env.latency)
		OBJ_SET(o, measure_latency, (uint8_t)1);
	/* one sys_exit program: the direct-load one where tp_btf works */
	if (obj_tp_btf_ok(o, "sys_exit"))
		prog_set_autoload(obj_prog(o, "sys_exit"), false);
	else
		prog_set_autoload(obj_prog(o, "sys_exit_btf"), false);
	if (!env.latency) {
		prog_set_autoload(obj_prog(o, "sys_enter"), false);
		map_set_max_entries(obj_map(o, "start"), 1);
	}
	m_sys = obj_map(o, "syscalls");
	m_procs = obj_map(o, "procs");
	if (!m_sys || !m_procs) {
		tool_err("syscount", "BPF object lacks its maps");
		obj_close(o);
		return 1;
	}
	/* shrink whichever aggregation map this mode does not use */
	map_set_max_entries(env.process ? m_sys : m_procs, 1);

	if (tool_load_attach_cgroup(o, "syscount", env.cgroup, &cgfd) < 0)
		return 1;

	rows = xcalloc(SC_MAX_ENTRIES > SC_MAX_NR ? SC_MAX_ENTRIES : SC_MAX_NR, sizeof(*rows));
	if (env.process) {
		pkeys = xcalloc(SC_MAX_ENTRIES, sizeof(*pkeys));
		pvals = xcalloc(SC_MAX_ENTRIES, sizeof(*pvals));
	} else {
		s.fd = map_fd(m_sys);
		s.ncpu = cpus_possible();
		if (s.ncpu < 1)
			s.ncpu = 1;
		s.batch = true;
		s.keys = xcalloc(SC_MAX_NR, sizeof(*s.keys));
		s.vals = xcalloc((size_t)SC_MAX_NR * s.ncpu, sizeof(*s.vals));
		s.prev = xcalloc(SC_MAX_NR, sizeof(*s.prev));
	}

	tool_signals();
	table_init();
	out_info("Tracing syscalls, printing top %ld... Ctrl+C to quit.\n", env.top);
	tool_flush();
	if (env.duration)
		deadline = now_ns() + (uint64_t)env.duration * 1000000000ull;

	for (;;) {
		long wait_ms = env.interval ? env.interval * 1000 : 3600 * 1000;
		bool last;
		size_t n = 0;

		if (deadline) {
			uint64_t now = now_ns();
			long left = now < deadline ? (long)((deadline - now + 999999) / 1000000) : 0;

			if (left < wait_ms)
				wait_ms = left;
		}
		tool_sleep_ms(wait_ms);
		last = tool_exiting || (deadline && now_ns() >= deadline);
		if (!last && !env.interval)
			continue;
		if (env.process)
			r = read_procs(map_fd(m_procs), &pbatch, pkeys, pvals, rows, &n);
		else
			r = read_syscalls(&s, rows, &n);
		if (r < 0) {
			tool_err("syscount", "cannot read the counts: %s", strerror(-r));
			ret = 1;
			break;
		}
		print_rows(rows, n);
		if (last)
			break;
	}
	free(rows);
	free(pkeys);
	free(pvals);
	free(s.keys);
	free(s.vals);
	free(s.prev);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	return ret;
}
