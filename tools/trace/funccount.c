/* funccount: count calls of kernel functions, tracepoints, user functions
 * and USDT probes matching a pattern (bcc's flags and output), with
 * programs generated at run time: one per matched location, each adding
 * one to its own counter. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/trace/build.h"

static struct {
	int pid, cpu;
	long interval, duration;
	bool timestamp, regex, debug;
	const char *pattern;
} env = { .cpu = -1 };

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'i', "interval", "SEC", "summary interval, seconds" },
	{ 'd', "duration", "SEC", "total duration of trace, seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'r', "regexp", NULL, "use regular expressions. Default is \"*\" wildcards only." },
	{ 'D', "debug", NULL, "print the generated BPF program's size and sections" },
	{ 'c', "cpu", "CPU", "trace this CPU only" },
	{ 'v', "verbose", NULL, "show loader details and the verifier log" },
	{ 0 },
};

static const struct tool_help help = {
	.name = "funccount",
	.usage = "[-h] [-p PID] [-i INTERVAL] [-d DURATION] [-T] [-r] [-D] [-c CPU] pattern",
	.summary = "Count functions, tracepoints, and USDT probes.",
	.examples = "  funccount 'vfs_*'             # count kernel fns starting with \"vfs\"\n"
		    "  funccount -r '^vfs.*'         # same as above, using regular expressions\n"
		    "  funccount -Ti 5 'vfs_*'       # output every 5 seconds, with timestamps\n"
		    "  funccount -d 10 'vfs_*'       # trace for 10 seconds only\n"
		    "  funccount -p 185 'vfs_*'      # count vfs calls for PID 185 only\n"
		    "  funccount t:sched:sched_fork  # count calls to the sched_fork tracepoint\n"
		    "  funccount 't:syscalls:sys_enter_*'  # count every syscall entry tracepoint\n"
		    "  funccount -p 185 u:node:gc*   # count all GC USDT probes in node, PID 185\n"
		    "  funccount c:malloc            # count all malloc() calls in libc\n"
		    "  funccount ./test:read*        # count \"read*\" calls in the ./test binary\n"
		    "  funccount -c 1 'vfs_*'        # count vfs calls on CPU 1 only\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX); break;
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	case 'T': env.timestamp = true; break;
	case 'r': env.regex = true; break;
	case 'D': env.debug = true; break;
	case 'c': env.cpu = (int)opt_num(&help, "CPU", arg, 0, 4095); break;
	case 'v': tool_common.verbose = 1; break;
	case 0:
		if (env.pattern)
			opt_usage_error(&help, "unrecognized argument: %s", arg);
		env.pattern = arg;
		break;
	default: return 1;
	}
	return 0;
}

struct row {
	const char *name;
	uint64_t count;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->count < y->count ? -1 : x->count > y->count;
}

static void report(int fd, struct loc *locs, int n)
{
	struct row *rows = xcalloc((size_t)n, sizeof(*rows));
	int nr = 0;
	char ts[16];

	printf("\n");
	if (env.timestamp)
		printf("%-8s\n", tool_hms(ts, sizeof(ts)));
	printf("%-36s %8s\n", "FUNC", "COUNT");
	for (int i = 0; i < n; i++) {
		uint32_t k = (uint32_t)i;
		uint64_t v = 0, zero = 0;

		if (bpf_map_lookup(fd, &k, &v) < 0)
			err_clear();
		bpf_map_update(fd, &k, &zero, 0);
		if (v) {
			rows[nr].name = locs[i].name;
			rows[nr++].count = v;
		}
	}
	qsort(rows, (size_t)nr, sizeof(*rows), cmp_row);
	for (int i = 0; i < nr; i++)
		printf("%-36s %8llu\n", rows[i].name, (unsigned long long)rows[i].count);
	fflush(stdout);
	free(rows);
}

int funccount_main(int argc, char **argv)
{
	struct resolve_opts ro = { .tool = "funccount", .pattern = true, .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct spec s;
	struct loc *locs = NULL;
	struct obj *o;
	int n = 0, errpos = 0, counts, rc = 0, attached = 0;
	long elapsed = 0;
	const char *lim = getenv("BCC_PROBE_LIMIT");

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.pattern)
		opt_usage_error(&help, "the following arguments are required: pattern");
	if (env.duration && !env.interval)
		env.interval = env.duration;
	if (!env.interval)
		env.interval = 99999999;
	if (lim)
		ro.limit = atoi(lim) > 0 ? atoi(lim) : ro.limit;
	if (spec_parse_pattern(env.pattern, &s, &errpos) < 0) {
		spec_report("funccount", env.pattern, errpos, err_msg());
		return 2;
	}
	tool_signals();
	ro.pid = env.pid;
	ro.regex = env.regex;
	ro.verbose = tool_common.verbose;
	if (probe_resolve(&s, &ro, false, &locs, &n) < 0) {
		tool_err("funccount", "%s", err_msg());
		spec_free(&s);
		return 1;
	}
	co.pid = env.pid;
	co.cpu = env.cpu;
	o = obj_new("funccount");
	counts = obj_new_map(o, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, (uint32_t)n, 0);
	for (int i = 0; i < n && !rc; i++) {
		struct gen *g = gen_new(&locs[i], &s, &co);
		struct emit *e = gen_emit(g);
		int out = gen_begin(g), key = gen_stack(g, 8);

		emit_st(e, 4, R10, (int16_t)key, i);
		gen_lookup(g, counts, key, out);
		emit_movi(e, R1, 1);
		emit_xadd(e, 8, R0, 0, R1);
		gen_end(g, out);
		if (build_add(o, &locs[i], g, env.pattern, env.pid) < 0)
			rc = build_probe_error("funccount", &s, g);
		else if (env.debug)
			fprintf(stderr, "%s: %zu instructions\n", locs[i].name, e->cnt);
		gen_free(g);
	}
	probe_kernel_btf_release();
	if (!rc && build_load_attach(o, "funccount", env.pattern, &attached) < 0)
		rc = 1;
	if (rc)
		goto out;
	printf("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", attached, env.pattern);
	fflush(stdout);
	for (;;) {
		tool_sleep_ms(env.interval * 1000);
		elapsed += env.interval;
		if (tool_exiting || (env.duration && elapsed >= env.duration)) {
			report(map_fd(obj_map_at(o, (size_t)counts)), locs, n);
			printf("Detaching...\n");
			break;
		}
		report(map_fd(obj_map_at(o, (size_t)counts)), locs, n);
	}
out:
	obj_close(o);
	locs_free(locs, n);
	spec_free(&s);
	return rc;
}
