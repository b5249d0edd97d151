/* applet klockstat: summarize kernel mutex/rwsem lock contention
 * readme: contended mutex/rwsem waits per caller (`-P` per thread) with count, average, max and
 *         total wait; from lock:contention_begin/end: waits that did not contend and hold
 *         times are not seen (libbpf-tools needs fentry or kprobes for them)
 *
 * libbpf-tools' options and its "Caller  Avg Wait ..." table.  The lock
 * tracepoints mark contention only, so the acquisitions counted are the
 * contended ones and the hold table libbpf-tools prints after the wait
 * table is left out (-S hld_* is accepted and has nothing to sort); fentry
 * or kprobes on the lock and unlock functions would give both.  The
 * caller is the first stack frame outside the locking code (lock_syms.c),
 * the frame libbpf-tools' fentry on mutex_lock sees first.  -R clears
 * every entry (0.26 deletes only one, a bug).  JSON: one document per
 * interval, its "locks" array with the times in ns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/stack/ksyms.h"
#include "klockstat.h"
#include "lock_syms.h"
#include "lib/err.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(klockstat);

enum { SORT_MAX, SORT_COUNT, SORT_TOTAL };

static struct {
	int pid, tid;
	const char *caller; /* -c: prefix of the caller's name */
	const char *lock;   /* -L */
	long nr_locks, nr_stacks;
	int sort;           /* the wait table's key */
	long duration, interval;
	int reset, timestamp, per_thread;
} env = { .nr_locks = 99999999, .nr_stacks = 1, .sort = SORT_MAX, .interval = INTERVAL_FOREVER };

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Filter by process ID" },
	{ 't', "tid", "TID", "Filter by thread ID" },
	{ 'c', "caller", "FUNC", "Filter by caller string prefix" },
	{ 'L', "lock", "LOCK", "Filter by specific ksym lock name" },
	{ 'n', "locks", "NR_LOCKS", "Number of locks or threads to print" },
	{ 's', "stacks", "NR_STACKS", "Number of stack entries to print per lock" },
	{ 'S', "sort", "SORT", "Sort by field: acq_[max|total|count], hld_[max|total|count]" },
	{ 'd', "duration", "SECONDS", "Duration to trace" },
	{ 'i', "interval", "SECONDS", "Print interval" },
	{ 'R', "reset", NULL, "Reset stats each interval" },
	{ 'T', "timestamp", NULL, "Print timestamp" },
	{ 'P', "per-thread", NULL, "Print per-thread stats" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-hPRTv] [-p PID] [-t TID] [-c FUNC] [-L LOCK] [-n NR_LOCKS]\n"
		 "                 [-s NR_STACKS] [-S SORT] [-d DURATION] [-i INTERVAL]",
	.examples = "  klockstat                     # trace system wide until ctrl-c\n"
		    "  klockstat -d 5                # trace for 5 seconds\n"
		    "  klockstat -i 5                # print stats every 5 seconds\n"
		    "  klockstat -p 181              # trace process 181 only\n"
		    "  klockstat -t 181              # trace thread 181 only\n"
		    "  klockstat -c pipe_            # print only for lock callers with 'pipe_'\n"
		    "                                # prefix\n"
		    "  klockstat -L cgroup_mutex     # trace the cgroup_mutex lock only (accepts addr too)\n"
		    "  klockstat -S acq_count        # sort lock acquired results by acquire count\n"
		    "  klockstat -n 3                # display top 3 locks/threads\n"
		    "  klockstat -s 6                # display 6 stack entries per lock\n"
		    "  klockstat -P                  # print stats per thread\n",
	.opts = opts,
};

/* "acq_max", "hld_total", or two of them joined by a comma */
static int parse_one_sort(const char *s)
{
	static const char *const fields[] = { [SORT_MAX] = "max", [SORT_COUNT] = "count",
					      [SORT_TOTAL] = "total" };

	for (int i = 0; i < 3; i++) {
		if (strncmp(s, "acq_", 4) == 0 && strcmp(s + 4, fields[i]) == 0) {
			env.sort = i;
			return 0;
		}
		if (strncmp(s, "hld_", 4) == 0 && strcmp(s + 4, fields[i]) == 0)
			return 0; /* no hold times here (see above) */
	}
	return -1;
}

static void parse_sorts(const char *arg)
{
	char buf[64], *comma;

	snprintf(buf, sizeof(buf), "%s", arg);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = 0;
	if (strlen(arg) >= sizeof(buf) || parse_one_sort(buf) || (comma && parse_one_sort(comma)))
		opt_usage_error(&help, "Bad sort string: %s", arg);
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'c': env.caller = arg; break;
	case 'L': env.lock = arg; break;
	case 'n': env.nr_locks = (long)opt_num(&help, "NR_LOCKS", arg, 1, 99999999); break;
	case 's': env.nr_stacks = (long)opt_num(&help, "NR_STACKS", arg, 1, 99999999); break;
	case 'S': parse_sorts(arg); break;
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, 99999999); break;
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, 99999999); break;
	case 'R': env.reset = 1; break;
	case 'T': env.timestamp = 1; break;
	case 'P': env.per_thread = 1; break;
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

/* libbpf-tools' print_time: "1.5 ms", "12 ns", ... */
static const char *fmt_time(char *buf, size_t size, uint64_t ns)
{
	static const struct { double base; const char *unit; } units[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " }, { 1e6, "ms" }, { 1e3, "us" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (ns >= units[i].base) {
			/* float as the original computes it: the same rounding */
			snprintf(buf, size, "%.1f %s", (double)(float)(ns / (float)units[i].base), units[i].unit);
			return buf;
		}
	snprintf(buf, size, "%u ns", (unsigned)ns);
	return buf;
}

static void time_text(FILE *f, const struct out_col *c, const union out_val *v)
{
	char buf[40];

	fprintf(f, c->fmt, fmt_time(buf, sizeof(buf), v->u));
}

enum { C_CALLER, C_AVG, C_COUNT, C_MAX, C_TOTAL, C_MAX_PID, C_MAX_COMM, C_LOCK };
static const struct out_col cols[] = {
	[C_CALLER] = { "caller", NULL, "%37s ", OUT_STR },
	[C_AVG] = { "avg_ns", NULL, "%9s ", OUT_UINT, .text = time_text },
	[C_COUNT] = { "count", NULL, "%8llu ", OUT_UINT },
	[C_MAX] = { "max_ns", NULL, "%10s ", OUT_UINT, .text = time_text },
	[C_TOTAL] = { "total_ns", NULL, "%12s\n", OUT_UINT, .text = time_text },
	[C_MAX_PID] = { "max_pid", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_MAX_COMM] = { "max_comm", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_LOCK] = { "lock", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE("locks", cols);

struct entry {
	__u32 key; /* stack id, or the thread id (-P) */
	struct klockstat_stat s;
	__u64 bt[KLOCKSTAT_STACK_DEPTH];
	int first; /* bt[first]: the caller, past the locking code */
};

struct run {
	struct obj *o;
	struct ksyms *ks;
};

static const char *frame_name(struct ksyms *ks, __u64 pc, char *buf, size_t size)
{
	struct ksym k;

	if (!pc || ksyms_lookup(ks, pc, &k) < 0)
		return "Unknown";
	snprintf(buf, size, "%s+0x%llx", k.name, (unsigned long long)k.offset);
	return buf;
}

/* The stacks' frames named in one pass; each entry's caller found */
static void find_callers(struct ksyms *ks, struct entry *e, size_t n)
{
	struct ksym k;

	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < KLOCKSTAT_STACK_DEPTH && e[i].bt[j]; j++)
			ksyms_want(ks, e[i].bt[j]);
	if (ksyms_resolve(ks) < 0)
		tool_err("klockstat", "%s", err_msg());
	for (size_t i = 0; i < n; i++) {
		int j = 0;

		while (j < KLOCKSTAT_STACK_DEPTH - 1 && e[i].bt[j + 1] &&
		       ksyms_lookup(ks, e[i].bt[j], &k) == 0 && lock_impl_frame(k.name))
			j++;
		e[i].first = j;
	}
}

static bool caller_traced(struct ksyms *ks, const struct entry *e)
{
	struct ksym k;

	if (!env.caller || ksyms_lookup(ks, e->bt[e->first], &k) < 0)
		return true; /* as libbpf-tools: an unnamed caller passes */
	return strncmp(env.caller, k.name, strlen(env.caller)) == 0;
}

static int by_sort_key(const void *a, const void *b)
{
	const struct klockstat_stat *x = &((const struct entry *)a)->s, *y = &((const struct entry *)b)->s;
	__u64 vx = env.sort == SORT_COUNT ? x->acq_count : env.sort == SORT_TOTAL ? x->acq_total_time : x->acq_max_time;
	__u64 vy = env.sort == SORT_COUNT ? y->acq_count : env.sort == SORT_TOTAL ? y->acq_total_time : y->acq_max_time;

	return vx > vy ? -1 : vx < vy;
}

/* The entries of the stat map (and their stacks): a malloc'd array */
static struct entry *read_stats(struct run *r, size_t *count)
{
	int stat_fd = map_fd(obj_map(r->o, "stat_map")), stack_fd = map_fd(obj_map(r->o, "stack_map"));
	struct entry *e = NULL, *grown;
	size_t n = 0, cap = 0;
	__u32 key, *prev = NULL;

	while (bpf_map_next_key(stat_fd, prev, &key) == 0) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			if (!(grown = realloc(e, cap * sizeof(*e)))) {
				free(e);
				return NULL;
			}
			e = grown;
		}
		memset(&e[n], 0, sizeof(e[n]));
		e[n].key = key;
		prev = &e[n].key;
		if (bpf_map_lookup(stat_fd, &key, &e[n].s) < 0 || !e[n].s.acq_count)
			continue;
		if (!env.per_thread && bpf_map_lookup(stack_fd, &key, e[n].bt) < 0)
			tool_err("klockstat", "failed to lookup stack_id %u", key);
		n++;
	}
	if (env.reset)
		for (size_t i = 0; i < n; i++)
			bpf_map_delete(stat_fd, &e[i].key);
	*count = n;
	return e ? e : calloc(1, sizeof(*e));
}

static void print_entry(struct run *r, const struct entry *e)
{
	const struct klockstat_stat *s = &e->s;
	union out_val v[ARRAY_SIZE(cols)];
	char caller[64], comm[17], lock[128];

	memcpy(comm, s->acq_max_comm, 16);
	comm[16] = 0;
	if (env.per_thread)
		snprintf(caller, sizeof(caller), "%u  %16s", e->key, comm);
	else
		frame_name(r->ks, e->bt[e->first], caller, sizeof(caller));
	v[C_CALLER].s = caller;
	v[C_AVG].u = s->acq_total_time / s->acq_count;
	v[C_COUNT].u = s->acq_count;
	v[C_MAX].u = s->acq_max_time;
	v[C_TOTAL].u = s->acq_total_time;
	v[C_MAX_PID].u = s->acq_max_id >> 32;
	v[C_MAX_COMM].s = comm;
	v[C_LOCK].s = lock_name_at(s->acq_max_lock_ptr, lock, sizeof(lock));
	out_row(&table, v);
	if (env.per_thread || env.nr_stacks <= 1)
		return;
	for (long i = 1; i < env.nr_stacks; i++) {
		long j = e->first + i;

		if (j >= KLOCKSTAT_STACK_DEPTH || !e->bt[j])
			break;
		out_text("%37s\n", frame_name(r->ks, e->bt[j], caller, sizeof(caller)));
	}
	out_text("                              Max PID %llu, COMM %s, Lock %s (0x%llx)\n",
		 (unsigned long long)(s->acq_max_id >> 32), comm, v[C_LOCK].s,
		 (unsigned long long)s->acq_max_lock_ptr);
}

static int report(void *ctx)
{
	struct run *r = ctx;
	struct entry *e;
	size_t n = 0, kept = 0;

	if (!(e = read_stats(r, &n))) {
		tool_err("klockstat", "Out of memory");
		return -1;
	}
	if (!env.per_thread) {
		find_callers(r->ks, e, n);
		for (size_t i = 0; i < n; i++)
			if (caller_traced(r->ks, &e[i]))
				e[kept++] = e[i];
		n = kept;
	}
	qsort(e, n, sizeof(*e), by_sort_key);
	for (size_t i = 0; i < n && (long)i < env.nr_locks; i++) {
		if (i == 0 || env.nr_stacks > 1)
			out_text(env.per_thread ? "\n                Tid              Comm"
						: "\n                               Caller");
		if (i == 0 || env.nr_stacks > 1)
			out_text("  Avg Wait    Count   Max Wait   Total Wait\n");
		print_entry(r, &e[i]);
	}
	free(e);
	return 0;
}

int klockstat_main(int argc, char **argv)
{
	struct interval iv = { 0 };
	struct run r = { 0 };
	uint64_t lock = 0;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.per_thread && env.nr_stacks != 1)
		opt_usage_error(&help, "--per-thread and --stacks cannot be used together");
	iv.seconds = env.interval;
	iv.times = INTERVAL_FOREVER;
	if (env.duration) {
		if (iv.seconds > env.duration)
			iv.seconds = env.duration;
		iv.times = env.duration / iv.seconds;
	}
	iv.timestamp = env.timestamp;
	if (env.lock && lock_addr_of(env.lock, &lock) < 0) {
		tool_err("klockstat", "failed to find lock %s", env.lock);
		return 1;
	}
	if ((rc = ksyms_load(&r.ks)) < 0) {
		tool_err("klockstat", "%s", err_msg());
		return 1;
	}
	tool_signals();
	r.o = BPF_OBJ_OPEN(klockstat);
	OBJ_SET(r.o, targ_tgid, (uint32_t)env.pid);
	OBJ_SET(r.o, targ_pid, (uint32_t)env.tid);
	OBJ_SET(r.o, targ_lock, lock);
	OBJ_SET(r.o, per_thread, (uint8_t)env.per_thread);
	if (tool_load_attach(r.o, "klockstat")) {
		ksyms_free(r.ks);
		return 1;
	}
	out_info("Tracing mutex/sem lock events...  Hit Ctrl-C to end\n");
	tool_flush();
	rc = interval_loop(&iv, report, &r);
	out_info("Exiting trace of mutex/sem locks\n");
	obj_close(r.o);
	ksyms_free(r.ks);
	return rc;
}
