/* applet systrace: trace system calls like perf trace: lines, summary, flight recorder
 * readme: perf trace without perf: each syscall with decoded arguments, result and duration
 *         (`--duration MS`), a per-thread summary (`-s`), the last N calls of every cgroup
 *         on SIGUSR1 (`--flight N`)
 *
 * perf trace's syscall view without perf.  One line per system
 * call with decoded arguments, the result (or errno) and the time it
 * took; --duration MS keeps only the slow ones; -s a per-thread summary
 * (perf trace -s); --flight N keeps the last N calls of every cgroup in
 * the kernel and prints them on SIGUSR1 or at exit (traceloop).  Calls
 * are paired in the kernel, so a filtered-out call costs two short BPF
 * programs and never reaches user space.
 *
 *   systrace [-p PID | -t TID | -c CGROUP | -G NAME] [-e LIST] [--duration MS]
 *            [--failure] [-s | -S] [--stack] [--flight N] [-a] [-- COMMAND...] */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "lib/bignum.h"
#include "lib/err.h"
#include "lib/strdouble.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/stack/usyms.h"
#include "systrace.h"
#include "systrace_fmt.h"

BPF_OBJ_DECLARE(systrace);

enum {
	KEY_DURATION = OPT_LONG_ONLY(1),
	KEY_FAILURE,
	KEY_STACK,
	KEY_FLIGHT,
};

static struct {
	int pid, tid, all, failure, summary, with_summary, stack;
	long flight, mmap_pages;
	double duration_ms;
	const char *cgroup, *cgroup_name, *events;
	char **cmd;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this process (all its threads)" },
	{ 't', "tid", "TID", "trace this thread" },
	{ 'c', "cgroup", "PATH", "trace the processes of this cgroup v2 directory (a container)" },
	{ 'G', "cgroup-name", "NAME", "the same, NAME relative to the cgroup v2 mount (perf trace -G)" },
	{ 'e', "expr", "LIST", "only these syscalls (comma-separated; !LIST: all but these)" },
	{ KEY_DURATION, "duration", "MS", "only calls that took longer than MS milliseconds" },
	{ KEY_FAILURE, "failure", NULL, "only calls that failed" },
	{ 's', "summary", NULL, "only a summary per thread at the end (perf trace -s)" },
	{ 'S', "with-summary", NULL, "the calls and a summary at the end" },
	{ KEY_STACK, "stack", NULL, "show the user stack of each call shown" },
	{ KEY_FLIGHT, "flight", "N", "flight recorder: keep the last N calls of each cgroup in the "
				     "kernel, print them on SIGUSR1 and at exit" },
	{ 'a', "all-cpus", NULL, "system-wide (the default); with COMMAND: trace everything while it runs" },
	{ 'm', "mmap-pages", "PAGES", "events buffer size in pages, a power of two (perf trace -m; default 128: "
				      "512 KiB, more if calls are lost)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-p PID | -t TID | -c CGROUP | -G NAME] [-e LIST] [--duration MS] [--failure]\n"
		 "                [-s | -S] [--stack] [--flight N] [-a] [[--] COMMAND [ARG...]]",
	.summary = "Trace system calls like perf trace: one line per call with its arguments, result\n"
		   "and duration, or a summary (-s), or the last calls of each cgroup (--flight).\n"
		   "Without -p/-t/-c and without COMMAND the whole system is traced.",
	.examples = "    systrace --duration 200            # calls slower than 200 ms, system-wide\n"
		    "    systrace -p 1234 -s                # summary of PID 1234's calls at Ctrl-C\n"
		    "    systrace -s -- dd if=/dev/zero of=/dev/null count=1000\n"
		    "    systrace -e openat,close -p 1234   # only these calls\n"
		    "    systrace -c /sys/fs/cgroup/system.slice/sshd.service --duration 10 --stack\n"
		    "    systrace --flight 100 -c /sys/fs/cgroup/mycontainer   # kill -USR1 to dump\n"
		    "    systrace -G bpftools -a -- sleep 10 # a cgroup, for 10 seconds\n",
	.opts = opts,
	.flags = OPT_PROM | OPT_USTACKS | OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	double ms;

	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'c': env.cgroup = arg; break;
	case 'G': env.cgroup_name = arg; break;
	case 'e': env.events = arg; break;
	case KEY_DURATION:
		if (str_double(arg, &ms) || !(ms >= 0) || ms > 1e9)
			return 1;
		env.duration_ms = ms;
		break;
	case KEY_FAILURE: env.failure = 1; break;
	case 's': env.summary = 1; break;
	case 'S': env.with_summary = 1; break;
	case KEY_STACK: env.stack = 1; break;
	case KEY_FLIGHT: env.flight = (long)opt_num(&help, "N", arg, 1, ST_FLIGHT_MAX); break;
	case 'a': env.all = 1; break;
	case 'm':
		env.mmap_pages = (long)opt_num(&help, "PAGES", arg, 1, 1 << 18);
		if (env.mmap_pages & (env.mmap_pages - 1))
			opt_usage_error(&help, "PAGES must be a power of two, not %ld", env.mmap_pages);
		break;
	default: return 1; /* positional words are the COMMAND (split off before) */
	}
	return 0;
}

/* Where the COMMAND starts: after "--", or at the first word that is not
 * an option or an option's argument (so "systrace -s ls -l" works). */
static int command_index(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o;

		if (!strcmp(a, "--"))
			return i;
		if (a[0] != '-' || !a[1])
			return i;
		if (a[1] == '-') { /* --name[=value] */
			size_t n = strcspn(a + 2, "=");

			if (a[2 + n] == '=')
				continue;
			if ((n == 4 && !strncmp(a + 2, "prom", 4)) || (n == 3 && !strncmp(a + 2, "btf", 3))) {
				i++;
				continue;
			}
			for (o = opts; o->key; o++)
				if (o->name && strlen(o->name) == n && !strncmp(o->name, a + 2, n) && o->arg)
					i++;
			continue;
		}
		for (const char *p = a + 1; *p; p++) { /* -abc, -p123, -p 123 */
			for (o = opts; o->key && o->key != *p; o++)
				;
			if (o->key && o->arg) {
				if (!p[1])
					i++;
				break;
			}
		}
	}
	return argc;
}

/* ---- -e LIST --------------------------------------------------------- */

static void set_syscall_filter(uint8_t *info)
{
	char *list = xstrdup(env.events + (env.events[0] == '!')), *save = NULL;
	int negate = env.events[0] == '!';

	for (unsigned i = 0; i < ST_MAX_NR; i++)
		if (negate)
			info[i] |= ST_TRACED;
	for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int nr = syscall_nr(w);

		if (nr < 0 || nr >= ST_MAX_NR)
			opt_usage_error(&help, "unknown syscall '%s' in -e (systrace knows %u names; "
					"'corebox syscount -l' lists them)", w, syscall_max());
		if (negate)
			info[nr] &= (uint8_t)~ST_TRACED;
		else
			info[nr] |= ST_TRACED;
	}
	free(list);
}

/* ---- events ----------------------------------------------------------- */

enum { C_TS, C_DUR, C_COMM, C_TID, C_LINE, C_CGROUP, C_PID, C_SC, C_ARGS, C_RET, C_ERRNO, C_STACK };
static void text_stack(FILE *f, const struct out_col *c, const union out_val *v);
static const struct out_col ecols[] = {
	[C_TS] = { "time_ms", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY },
	[C_DUR] = { "duration_ms", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY },
	[C_COMM] = { "comm", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_LINE] = { NULL, NULL, "%s\n", OUT_STR, OUT_TEXT_ONLY },
	[C_CGROUP] = { "cgroup", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_SC] = { "syscall", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_ARGS] = { "args", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_RET] = { "ret", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_ERRNO] = { "errno", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_STACK] = { "stack", NULL, NULL, OUT_STRV, .text = text_stack },
};
static struct out_table etable = OUT_TABLE(NULL, ecols);

static uint64_t base_ns;       /* time 0 of the lines */
static struct usyms *usyms;

/* perf trace --call-graph style: one frame a line, indented. */
static void text_stack(FILE *f, const struct out_col *c, const union out_val *v)
{
	const char *p = v->strv.p, *end = p + v->strv.size;

	(void)c;
	for (int i = 0; i < v->strv.n && p < end; i++) {
		size_t n = strnlen(p, (size_t)(end - p));

		fprintf(f, "%38s%.*s\n", "", (int)n, p);
		p += n + 1;
	}
}

/* One call out through the table (events and flight records alike). */
static void show_call(const struct out_table *t, const struct st_call *c, uint64_t ts, uint64_t dur,
		      const char *comm, const char *cgroup, const uint64_t *stack, int nstack)
{
	union out_val v[ARRAY_SIZE(ecols)];
	struct strbuf line = { 0 }, args = { 0 }, ret = { 0 }, frames = { 0 };
	char nbuf[32], errbuf[16];
	double ts_ms = ts >= base_ns ? (double)(ts - base_ns) / 1e6 : -(double)(base_ns - ts) / 1e6;
	int nframes = 0;

	strbuf_reset(&line);
	strbuf_reset(&args);
	strbuf_reset(&frames);
	if (!out_json()) {
		st_fmt_line(&line, ts_ms, (double)dur / 1e6, comm, c);
	} else {
		st_fmt_entry(&args, c);
		/* the arguments alone: after "name(" */
		const char *open = strchr(args.s, '(');

		v[C_ARGS].s = open ? open + 1 : args.s;
	}
	for (int i = 0; stack && i < nstack; i++) {
		char fr[300];

		if (!stack[i])
			break;
		usyms_format(usyms, (int)c->pid, stack[i], 1, 1, fr, sizeof(fr));
		strbuf_addn(&frames, fr, strlen(fr) + 1);
		nframes++;
	}
	if (stack && nstack < 0) {
		strbuf_addn(&frames, "[Missed User Stack]", 20);
		nframes = 1;
	}
	v[C_TS].f = ts_ms;
	v[C_DUR].f = (double)dur / 1e6;
	v[C_COMM].s = comm;
	v[C_TID].i = c->tid;
	v[C_LINE].s = line.s;
	v[C_CGROUP].s = cgroup;
	v[C_PID].i = c->pid;
	v[C_SC].s = st_sc_name(c->nr, nbuf, sizeof(nbuf));
	v[C_RET].i = c->ret < 0 && c->ret >= -4095 ? -1 : c->ret;
	v[C_ERRNO].s = NULL;
	if (c->ret < 0 && c->ret >= -4095) {
		v[C_ERRNO].s = errno_name((int)-c->ret);
		if (!v[C_ERRNO].s) {
			snprintf(errbuf, sizeof(errbuf), "E%d", (int)-c->ret);
			v[C_ERRNO].s = errbuf;
		}
	}
	v[C_STACK].strv.p = frames.s;
	v[C_STACK].strv.size = frames.len;
	v[C_STACK].strv.n = nframes;
	out_row(t, v);
	st_fd_track(c);
	strbuf_free(&line);
	strbuf_free(&args);
	strbuf_free(&ret);
	strbuf_free(&frames);
}

static int on_event(void *ctx, const void *data, size_t size)
{
	struct st_event e;
	struct st_call c;
	char comm[EV_COMM_LEN + 1], strs[ST_NSTR][ST_STR_MAX + 1];
	size_t hdr = offsetof(struct st_event, str);

	(void)ctx;
	if (size < hdr)
		return 0;
	memset(&e, 0, sizeof(e));
	memcpy(&e, data, size < sizeof(e) ? size : sizeof(e));
	memset(&c, 0, sizeof(c));
	memcpy(c.args, e.args, sizeof(c.args));
	c.ret = e.ret;
	c.pid = e.pid;
	c.tid = e.tid;
	c.nr = e.nr;
	for (int k = 0; k < ST_NSTR; k++) {
		if (!e.str_len[k] || e.str_arg[k] >= 6 || hdr + (size_t)(k + 1) * ST_STR_MAX > size)
			continue;
		memcpy(strs[k], e.str[k], ST_STR_MAX);
		strs[k][ST_STR_MAX] = 0;
		c.str[e.str_arg[k]] = strs[k];
	}
	ev_comm(comm, e.comm);
	if (!base_ns)
		base_ns = e.ts;
	show_call(&etable, &c, e.ts, e.dur, comm, NULL, env.stack ? (const uint64_t *)e.stack : NULL,
		  env.stack ? (e.nstack > ST_STACK_MAX ? ST_STACK_MAX : e.nstack) : 0);
	return 0;
}

/* ---- -s: perf trace's summary ----------------------------------------- */

enum { S_NAME, S_CALLS, S_ERRORS, S_TOTAL, S_MIN, S_AVG, S_MAX, S_STDDEV, S_COMM, S_PID, S_TID, S_SC };
static const struct out_col scols[] = {
	[S_NAME] = { NULL, NULL, "   %-15s", OUT_STR, OUT_TEXT_ONLY },
	[S_CALLS] = { "calls", NULL, " %8llu", OUT_UINT, OUT_COUNTER, .help = "system calls" },
	[S_ERRORS] = { "errors", NULL, " %6llu", OUT_UINT, OUT_COUNTER, .help = "system calls that failed" },
	[S_TOTAL] = { "total_ms", NULL, " %9.3f", OUT_FLOAT, OUT_COUNTER, .help = "time in system calls",
		       .metric = &(const struct out_metric){ "time_seconds", 1e-3 } },
	[S_MIN] = { "min_ms", NULL, " %9.3f", OUT_FLOAT },
	[S_AVG] = { "avg_ms", NULL, " %9.3f", OUT_FLOAT },
	[S_MAX] = { "max_ms", NULL, " %9.3f", OUT_FLOAT },
	[S_STDDEV] = { "stddev_pct", NULL, " %9.2f%%\n", OUT_FLOAT },
	[S_COMM] = { "comm", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[S_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[S_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[S_SC] = { "syscall", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
};
static struct out_table stable = OUT_TABLE("syscalls", scols);

struct srow {
	struct st_key k;
	struct st_stats s;
};

static int cmp_srow(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;

	if (x->k.tid != y->k.tid)
		return x->k.tid < y->k.tid ? -1 : 1;
	if (x->s.total != y->s.total)
		return x->s.total > y->s.total ? -1 : 1; /* perf: by total time, descending */
	return x->k.nr < y->k.nr ? -1 : x->k.nr > y->k.nr;
}

struct thr {
	uint32_t tid;
	uint64_t calls;
	size_t first, n; /* rows[first .. first + n) */
};

static int cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls < y->calls ? -1 : 1; /* perf: fewest events first */
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* perf's relative standard deviation of the mean, in percent:
 * 100 * sqrt(M2 / ((n - 1) n)) / mean, M2 = sum x^2 - n mean^2 */
#if LDBL_MANT_DIG <= 64 /* x87's long double in hardware (x86_64), or double (arm) */
static double rel_stddev(const struct st_stats *s)
{
	long double n = (long double)s->calls, sum = (long double)s->total, mean, sq, m2;

	if (s->calls < 2 || !s->total)
		return 0;
	mean = sum / n;
	sq = (long double)s->sq_hi * 18446744073709551616.0L + (long double)s->sq_lo;
	m2 = sq - n * mean * mean;
	if (m2 < 0)
		m2 = 0;
	return (double)(100.0L * sqrtl(m2 / ((n - 1) * n)) / mean);
}
#else
/* Where long double is binary128 in software (arm64: 5 KB of libgcc and
 * sqrtl), the same double from exact integers: with D = n sum x^2 -
 * (sum x)^2 (= n M2), the value is 100 sqrt(D / (n - 1)) / sum.  A
 * double estimate of it moves by an ulp until exact comparisons put the
 * value between the rounding midpoints on either side of it: rounded
 * once to nearest, as binary128's 113 bits rounded it before. */

/* the sign of value - mid * 2^-e (e > 0): of 10^4 D 2^2e - mid^2 sum^2 (n - 1) */
static int rel_cmp(const struct big *d, const struct st_stats *s, uint64_t mid, int e)
{
	struct big l = *d, r;

	big_muladd(&l, 10000, 0);
	big_shl(&l, 2 * e);
	big_set(&r, mid);
	big_mul64(&r, mid);
	big_mul64(&r, s->total);
	big_mul64(&r, s->total);
	big_mul64(&r, s->calls - 1);
	return big_cmp(&l, &r);
}

static double rel_stddev(const struct st_stats *s)
{
	struct big d, t;
	uint64_t bits, m;
	double y, dd = 0;
	int e, c;

	if (s->calls < 2 || !s->total)
		return 0;
	big_set(&d, s->sq_hi);
	big_shl(&d, 64);
	big_set(&t, s->sq_lo);
	big_add(&d, &t);
	big_mul64(&d, s->calls);
	big_set(&t, s->total);
	big_mul64(&t, s->total);
	if (big_cmp(&d, &t) <= 0)
		return 0;
	big_sub(&d, &t);
	for (int i = d.n - 1; i >= 0; i--)
		dd = dd * 4294967296.0 + d.w[i];
	y = 100 * sqrt(dd / (double)(s->calls - 1)) / (double)s->total;
	/* 2^-89 <= value < 2^8: y is normal, y = m 2^-e with 44 <= e <= 141 */
	for (int k = 0; k < 16; k++) {
		memcpy(&bits, &y, sizeof bits);
		m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
		e = 1075 - (int)(bits >> 52);
		c = rel_cmp(&d, s, 2 * m + 1, e + 1);
		if (c > 0 || (c == 0 && (m & 1)))
			bits++;
		else if ((c = m == 1ull << 52 ? rel_cmp(&d, s, 4 * m - 1, e + 2) : rel_cmp(&d, s, 2 * m - 1, e + 1)) < 0 ||
			 (c == 0 && (m & 1)))
			bits--;
		else
			break;
		memcpy(&y, &bits, sizeof y);
	}
	return y;
}
#endif

/* The calls the kernel side could not count, one line per cause: each
 * says what happened (the old single line blamed a full map for what was
 * a failed allocation). */
_Static_assert(ST_STATS_MAX == 65536, "the stats_full line below names the number");
static void report_unsummarized(struct obj *o)
{
	static const struct {
		const char *global, *why;
	} causes[] = {
		{ "stats_full", "the summary holds 65536 thread/syscall pairs, no more" },
		{ "stats_nomem", "the kernel could not allocate a new thread/syscall pair (out of memory)" },
		{ "stats_busy", "the summary's hash bucket lock was refused" },
		{ "stats_other", "the summary's insert failed" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(causes); i++) {
		uint64_t *n = obj_global(o, causes[i].global, sizeof(uint64_t));

		if (n && *n)
			fprintf(stderr, "systrace: %llu calls were not summarized: %s\n", (unsigned long long)*n,
				causes[i].why);
	}
}

static int print_summary(struct obj *o)
{
	struct st_key *keys = xcalloc(ST_STATS_MAX, sizeof(*keys));
	struct st_stats *vals = xcalloc(ST_STATS_MAX, sizeof(*vals));
	struct srow *rows;
	struct thr *thr;
	size_t nthr = 0;
	uint64_t total_calls = 0;
	bool batch = true;
	long n = tool_map_drain(map_fd(obj_map(o, "stats")), sizeof(*keys), sizeof(*vals), keys, vals,
				ST_STATS_MAX, &batch);

	if (n < 0) {
		tool_err("systrace", "cannot read the summary: %s", strerror((int)-n));
		free(keys);
		free(vals);
		return 1;
	}
	rows = xcalloc((size_t)n + 1, sizeof(*rows));
	thr = xcalloc((size_t)n + 1, sizeof(*thr));
	for (long i = 0; i < n; i++) {
		rows[i].k = keys[i];
		rows[i].s = vals[i];
		rows[i].s.comm[15] = 0;
		total_calls += vals[i].calls;
	}
	free(keys);
	free(vals);
	qsort(rows, (size_t)n, sizeof(*rows), cmp_srow);
	for (size_t i = 0; i < (size_t)n; i++) {
		if (!nthr || thr[nthr - 1].tid != rows[i].k.tid) {
			thr[nthr].tid = rows[i].k.tid;
			thr[nthr].first = i;
			nthr++;
		}
		thr[nthr - 1].n++;
		thr[nthr - 1].calls += rows[i].s.calls;
	}
	qsort(thr, nthr, sizeof(*thr), cmp_thr);

	out_doc_begin();
	out_text("\n Summary of events:\n\n");
	for (size_t t = 0; t < nthr; t++) {
		const struct srow *r0 = &rows[thr[t].first];
		char comm[64];

		for (size_t i = thr[t].first; i < thr[t].first + thr[t].n; i++)
			if (rows[i].s.comm_ts > r0->s.comm_ts)
				r0 = &rows[i];

		/* perf counts entry and exit events: two per call */
		out_text(" %s (%u), %llu events, %.1f%%\n", str_escape(comm, sizeof(comm), r0->s.comm, ""), thr[t].tid,
			 (unsigned long long)(2 * thr[t].calls),
			 total_calls ? 100.0 * (double)thr[t].calls / (double)total_calls : 0.0);
		out_text("\n   syscall            calls  errors  total       min       avg       max       stddev\n"
			 "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n"
			 "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
		for (size_t i = thr[t].first; i < thr[t].first + thr[t].n; i++) {
			const struct srow *r = &rows[i];
			union out_val v[ARRAY_SIZE(scols)];
			char nbuf[32];

			v[S_NAME].s = v[S_SC].s = st_sc_name(r->k.nr, nbuf, sizeof(nbuf));
			v[S_CALLS].u = r->s.calls;
			v[S_ERRORS].u = r->s.errors;
			v[S_TOTAL].f = (double)r->s.total / 1e6;
			v[S_MIN].f = r->s.calls ? (double)r->s.min / 1e6 : 0;
			v[S_AVG].f = r->s.calls ? (double)r->s.total / (double)r->s.calls / 1e6 : 0;
			v[S_MAX].f = (double)r->s.max / 1e6;
			v[S_STDDEV].f = rel_stddev(&r->s);
			v[S_COMM].s = comm;
			v[S_PID].i = r->k.pid;
			v[S_TID].i = r->k.tid;
			out_row(&stable, v);
		}
		out_text("\n\n");
	}
	report_unsummarized(o);
	free(rows);
	free(thr);
	return out_doc_end() < 0;
}

/* ---- --flight: the rings ------------------------------------------------- */

static uint64_t find_ino;
static char found_path[4096];

/* Depth first under path (its length len) for the directory with inode
 * find_ino, each directory before its entries, as nftw(FTW_PHYS |
 * FTW_MOUNT) walks (symbolic links not followed, no other file system
 * entered, an unreadable directory not a match): 1 when found (into
 * found_path), 0 when not, -1 when a directory could not be read (nftw's
 * walk ends there too).  Its own few lines instead of libc's nftw: 1 KB. */
static int find_dir(char *path, size_t len, dev_t dev)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (lstat(path, &st) < 0)
		return errno == EACCES ? 0 : -1;
	if (!S_ISDIR(st.st_mode) || (dev && st.st_dev != dev) || access(path, R_OK) < 0)
		return 0;
	if ((uint64_t)st.st_ino == find_ino) {
		snprintf(found_path, sizeof(found_path), "%s", path);
		return 1;
	}
	if (!(d = opendir(path)))
		return errno == EACCES ? 0 : -1;
	len -= len && path[len - 1] == '/'; /* "dir/" + name: one slash */
	while (!r && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n >= PATH_MAX - len) {
			r = -1; /* nftw: ENAMETOOLONG */
			break;
		}
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, n + 1);
		r = find_dir(path, len + 1 + n, st.st_dev);
	}
	closedir(d);
	return r;
}

/* Look for the directory with inode find_ino under one cgroup2 mount. */
static int find_in_mount(const char *dir, void *arg)
{
	char path[PATH_MAX + 1];
	size_t len = strlen(dir);

	(void)arg;
	if (len >= PATH_MAX)
		return 0;
	memcpy(path, dir, len + 1);
	return find_dir(path, len, 0) == 1 && found_path[0];
}

/* A cgroup id is its directory's inode number on the cgroup2 mount. */
static const char *cgroup_path(uint64_t id, char *buf, size_t size)
{
	find_ino = id;
	found_path[0] = 0;
	if (cgroup2_mounts(find_in_mount, NULL))
		snprintf(buf, size, "%s", found_path);
	else
		snprintf(buf, size, "cgroup id %llu", (unsigned long long)id);
	return buf;
}

static size_t ring_size(void)
{
	return 8 + (size_t)env.flight * sizeof(struct st_rec);
}

static struct out_table ftable = OUT_TABLE("calls", ecols);

static int dump_flight(struct obj *o)
{
	int fd = map_fd(obj_map(o, "rings"));
	uint64_t key, next, *dropped;
	size_t size = ring_size();
	char *ring = xmalloc(size);
	int have = 0;

	out_doc_begin();
	while (bpf_map_next_key(fd, have ? &key : NULL, &next) == 0) {
		uint64_t head, first;
		char cg[4096], safe[4200];

		key = next;
		have = 1;
		if (bpf_map_lookup(fd, &key, ring) < 0)
			continue;
		memcpy(&head, ring, 8);
		first = head > (uint64_t)env.flight ? head - (uint64_t)env.flight : 0;
		cgroup_path(key, cg, sizeof(cg));
		out_text("\ncgroup %s: last %llu of %llu system calls\n", str_escape(safe, sizeof(safe), cg, ""),
			 (unsigned long long)(head - first), (unsigned long long)head);
		for (uint64_t pos = first; pos < head; pos++) {
			struct st_rec r;
			struct st_call c;
			char comm[EV_COMM_LEN + 1], str[ST_FLIGHT_STR + 1];
			memcpy(&r, ring + 8 + (pos % (uint64_t)env.flight) * sizeof(r), sizeof(r));
			if (r.seq != (uint32_t)(pos + 1))
				continue; /* being written, or overwritten meanwhile */
			memset(&c, 0, sizeof(c));
			memcpy(c.args, r.args, sizeof(c.args));
			c.ret = r.ret;
			c.pid = r.pid;
			c.tid = r.tid;
			c.nr = r.nr;
			memcpy(str, r.str, ST_FLIGHT_STR);
			str[ST_FLIGHT_STR] = 0;
			if (str[0]) {
				unsigned mask = st_fmt_strmask(r.nr);

				for (int i = 0; i < 6; i++)
					if (mask & (1u << i)) {
						c.str[i] = str;
						break;
					}
			}
			show_call(&ftable, &c, r.ts, r.dur, ev_comm(comm, r.comm), cg, NULL, 0);
		}
	}
	free(ring);
	dropped = obj_global(o, "rings_dropped", sizeof(uint64_t));
	if (dropped && *dropped)
		fprintf(stderr, "systrace: %llu calls of cgroups beyond the first %u were not recorded\n",
			(unsigned long long)*dropped, map_max_entries(obj_map(o, "rings")));
	tool_flush();
	return out_doc_end() < 0;
}

/* ---- the run ------------------------------------------------------------ */

static volatile sig_atomic_t dump_requested, child_exited;

static void on_usr1(int sig)
{
	(void)sig;
	dump_requested = 1;
}

static void on_chld(int sig)
{
	(void)sig;
	child_exited = 1;
	tool_exiting = 1;
}

static pid_t child = -1;
static int go_fd = -1;

/* COMMAND: fork it now, stopped on a pipe until tracing is on. */
static int start_command(void)
{
	int p[2];
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127); /* the tool failed: do not run it untraced */
		execvp(env.cmd[0], env.cmd);
		int e = errno;
		char shown[256]; /* the user's text: escaped, one line */

		fprintf(stderr, "systrace: cannot run %s: %s\n", str_escape(shown, sizeof(shown), env.cmd[0], ""),
			strerror(e));
		_exit(e == ENOENT ? 127 : 126); /* as the shells: not found, found but not runnable */
	}
	close(p[0]);
	go_fd = p[1];
	return 0;
}

/* systrace COMMAND exits as the command did (as perf trace and strace
 * do, so it can stand in a script): its exit status, 128 + the signal
 * that killed it, 126/127 from the child when it could not be run.  A
 * command systrace itself ended (Ctrl-C, a failure) does not decide. */
static int command_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

static int target_gone(void)
{
	if (child > 0)
		return child_exited;
	if (env.pid && kill(env.pid, 0) < 0 && errno == ESRCH)
		return 1;
	if (env.tid && kill(env.tid, 0) < 0 && errno == ESRCH)
		return 1;
	return 0;
}

static int do_events, do_summary;
static int run_failed; /* a failed dump or start: exit 1, yet the run goes on */

/* After each poll (or wait): a dump SIGUSR1 asked for; stop when the
 * traced process is gone. */
static int tick(struct obj *o)
{
	if (dump_requested) {
		dump_requested = 0;
		if (dump_flight(o))
			run_failed = 1;
	}
	return target_gone();
}

/* Tracing is on: the command's pid in the map, the banner, then let the
 * command run. */
static int after_load(struct obj *o)
{
	if (env.cmd && !env.all && !env.pid && !env.tid && !env.cgroup) {
		uint32_t pid = (uint32_t)child;
		uint8_t one = 1;
		int r = bpf_map_update(map_fd(obj_map(o, "pids")), &pid, &one, 0);

		if (r < 0) {
			tool_err("systrace", "cannot add the command to the pid map: %s", strerror(-r));
			return -1;
		}
	}
	if (do_events && env.stack)
		usyms = usyms_new(USYMS_NAMES);
	if (env.flight) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
		base_ns = now_ns();
		out_info("Recording the last %ld system calls of each cgroup: kill -USR1 %d to print them; "
			 "Ctrl-C to print and end.\n", env.flight, (int)getpid());
	} else if (!do_events && !env.cmd) {
		out_info("Tracing system calls... Ctrl-C to print the summary.\n");
	}
	out_show(&etable, C_CGROUP, false);
	out_show(&etable, C_STACK, env.stack);
	out_show(&ftable, C_STACK, false);
	tool_flush();
	if (go_fd >= 0) { /* tracing is on: let the command run */
		char c = 1;

		if (write(go_fd, &c, 1) != 1)
			run_failed = 1;
		close(go_fd);
		go_fd = -1;
	}
	return 0;
}

/* After the loop: the flight rings (Ctrl-C prints them), the summary. */
static int finish(struct obj *o)
{
	int err = run_failed;

	if (env.flight && dump_flight(o))
		err = 1;
	if (do_summary && print_summary(o))
		err = 1;
	return err;
}

int systrace_main(int argc, char **argv)
{
	struct tool_events te = { .name = "systrace",
				  .after_load = after_load, .tick = tick, .finish = finish };
	int ci = command_index(argc, argv), err;
	char cgbuf[4096];
	uint8_t *info;
	struct obj *o;

	if (ci < argc) {
		env.cmd = argv + ci + (strcmp(argv[ci], "--") == 0);
		if (!env.cmd[0])
			env.cmd = NULL;
	}
	opt_parse(ci, argv, &help, parse, NULL);
	if ((env.pid != 0) + (env.tid != 0) + (env.cgroup || env.cgroup_name) > 1)
		opt_usage_error(&help, "use one of -p, -t, -c/-G");
	if (env.summary && env.with_summary)
		opt_usage_error(&help, "-s and -S: choose one");
	if (env.stack && (env.summary || env.flight))
		opt_usage_error(&help, "--stack shows the stacks of calls shown one by one: not with -s or --flight");
	if (env.cgroup_name) {
		char dir[512];
		const char *mnt = cgroup2_mount(dir, sizeof(dir));

		if (env.cgroup_name[0] == '/' || !mnt)
			snprintf(cgbuf, sizeof(cgbuf), "%s", env.cgroup_name);
		else
			snprintf(cgbuf, sizeof(cgbuf), "%s/%s", mnt, env.cgroup_name);
		env.cgroup = cgbuf;
	}
	do_summary = env.summary || env.with_summary;
	do_events = !env.summary && !env.flight;
	if (out_prom_on() && !do_summary)
		opt_usage_error(&help, "--prom needs -s or -S (the summary)");
	tool_signals();

	o = BPF_OBJ_OPEN(systrace);
	OBJ_SET(o, self_tgid, (uint32_t)getpid());
	OBJ_SET(o, filter_tgid, (uint32_t)env.pid);
	OBJ_SET(o, filter_tid, (uint32_t)env.tid);
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	OBJ_SET(o, filter_nr, (uint8_t)(env.events != NULL));
	OBJ_SET(o, follow, (uint8_t)(env.cmd && !env.all && !env.pid && !env.tid && !env.cgroup));
	OBJ_SET(o, failed_only, (uint8_t)env.failure);
	OBJ_SET(o, do_events, (uint8_t)do_events);
	OBJ_SET(o, do_summary, (uint8_t)do_summary);
	OBJ_SET(o, do_flight, (uint8_t)(env.flight > 0));
	OBJ_SET(o, want_args, (uint8_t)(do_events || env.flight));
	OBJ_SET(o, want_stack, (uint8_t)env.stack);
	OBJ_SET(o, min_ns, (uint64_t)(env.duration_ms * 1e6));
	OBJ_SET(o, flight_n, (uint32_t)(env.flight ? env.flight : 1));
	info = obj_global(o, "sc_info", ST_MAX_NR);
	if (!info) {
		tool_err("systrace", "%s", err_msg());
		obj_close(o);
		return 1;
	}
	if (env.events)
		set_syscall_filter(info);
	if (do_events || env.flight) /* which arguments are strings: from tracefs */
		for (unsigned nr = 0; nr < ST_MAX_NR && nr < syscall_max(); nr++)
			if (!env.events || (info[nr] & ST_TRACED))
				info[nr] |= (uint8_t)st_fmt_strmask(nr);

	if (!(env.cmd && !env.all && !env.pid && !env.tid && !env.cgroup))
		prog_set_autoload(obj_prog(o, "systrace_fork"), false);
	if (!do_summary)
		map_set_max_entries(obj_map(o, "stats"), 1);
	if (!do_events)
		map_set_max_entries(obj_map(o, "exec_path"), 1);
	if (env.flight) {
		map_set_value_size(obj_map(o, "rings"), (uint32_t)ring_size());
		map_set_value_size(obj_map(o, "ring_zero"), (uint32_t)ring_size());
		if (env.cgroup)
			map_set_max_entries(obj_map(o, "rings"), 64);
	} else {
		map_set_max_entries(obj_map(o, "rings"), 1);
	}
	/* the buffer's pages are mapped into this process: they are most of
	 * its resident memory (4 MiB made a 9 MiB RSS); 512 KiB keeps up
	 * with a terminal, -m gives more */
	if (do_events)
		map_set_max_entries(obj_map(o, "events"),
				    (uint32_t)((env.mmap_pages ? env.mmap_pages : 128) * sysconf(_SC_PAGESIZE)));
	else
		map_set_max_entries(obj_map(o, "events"), 4096);
	if (env.cmd && start_command() < 0) {
		tool_err("systrace", "cannot start %s: %s", env.cmd[0], strerror(errno));
		obj_close(o);
		return 1;
	}
	if (env.cmd)
		signal(SIGCHLD, on_chld);
	te.cgroup = env.cgroup;
	if (do_events)
		te.on_event = on_event;
	if (env.flight)
		te.load_hint = "--flight needs BPF atomic fetch-and-add (Linux 5.12 or later) if the verifier "
			       "refused the rings";
	err = tool_run_events(o, &te);
	if (go_fd >= 0)
		close(go_fd); /* the command sees EOF and does not run */
	if (child > 0) {
		int st, ended_first = child_exited;

		if (!ended_first)
			kill(child, SIGTERM);
		if (waitpid(child, &st, 0) == child && ended_first && !err)
			err = command_status(st);
	}
	if (usyms)
		usyms_free(usyms);
	return err;
}
