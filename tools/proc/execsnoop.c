/* applet execsnoop: trace new processes via exec() syscalls
 * readme: every `exec()` with PID, PPID, return value and arguments
 *
 * libbpf-tools compatible flags and output. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "execsnoop.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(execsnoop);

#define KEY_MAX_ARGS OPT_LONG_ONLY(1)

static struct {
	int time;       /* -T */
	int timestamp;  /* -t */
	int fails;      /* -x */
	unsigned int uid;
	int quote;      /* -q */
	const char *name;
	const char *line;
	int print_uid;  /* -U */
	int max_args;
	const char *cgroup;
} env = {
	.uid = EXECSNOOP_INVALID_UID,
	.max_args = EXECSNOOP_DEFAULT_MAXARGS,
};

static const struct opt opts[] = {
	{ 'T', "time", NULL, "prefix each line with the wall-clock time (HH:MM:SS)" },
	{ 't', "timestamp", NULL, "prefix each line with seconds since the start" },
	{ 'x', "fails", NULL, "also show exec() calls that failed" },
	{ 'u', "uid", "UID", "only trace processes of this user id" },
	{ 'q', "quote", NULL, "put double quotes around every argument" },
	{ 'n', "name", "NAME", "only show commands whose name contains NAME" },
	{ 'l', "line", "LINE", "only show commands whose arguments contain LINE" },
	{ 'U', "print-uid", NULL, "add a UID column" },
	{ KEY_MAX_ARGS, "max-args", "MAX_ARGS", "arguments captured and shown, 1..60 (default 20)" },
	{ 'c', "cgroup", "PATH", "only trace processes in this cgroup (v2 directory)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-t] [-x] [-u UID] [-q] [-n NAME] [-l LINE] [-U] [-c CG]\n"
		 "                 [--max-args MAX_ARGS]",
	.examples = "  execsnoop            # every exec()\n"
		    "  execsnoop -x         # failed exec()s too\n"
		    "  execsnoop -T         # with a HH:MM:SS column\n"
		    "  execsnoop -U         # with a UID column\n"
		    "  execsnoop -u 1000    # only user id 1000\n"
		    "  execsnoop -t         # with seconds since start\n"
		    "  execsnoop -q         # \"quoted\" arguments\n"
		    "  execsnoop -n main    # only commands whose name contains \"main\"\n"
		    "  execsnoop -l tpkg    # only commands whose arguments contain \"tpkg\"\n"
		    "  execsnoop -c CG      # only processes in cgroup directory CG\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.time = 1; break;
	case 't': env.timestamp = 1; break;
	case 'x': env.fails = 1; break;
	case 'u':
		env.uid = (unsigned int)opt_num(&help, "UID", arg, 0, (long long)EXECSNOOP_INVALID_UID - 1);
		break;
	case 'q': env.quote = 1; break;
	case 'n': env.name = arg; break;
	case 'l': env.line = arg; break;
	case 'U': env.print_uid = 1; break;
	case KEY_MAX_ARGS:
		env.max_args = (int)opt_num(&help, "MAX_ARGS", arg, 1, EXECSNOOP_TOTAL_MAX_ARGS);
		break;
	case 'c': env.cgroup = arg; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

/* Does any captured argument contain s? */
static int args_contain(const struct execsnoop_event *e, unsigned int size, const char *s)
{
	unsigned int i = 0;

	while (i < size) {
		const char *a = e->args + i;
		size_t n = strnlen(a, size - i);
		char tmp[EXECSNOOP_ARGSIZE + 1];

		memcpy(tmp, a, n < EXECSNOOP_ARGSIZE ? n : EXECSNOOP_ARGSIZE);
		tmp[n < EXECSNOOP_ARGSIZE ? n : EXECSNOOP_ARGSIZE] = 0;
		if (strstr(tmp, s))
			return 1;
		i += (unsigned int)n + 1;
	}
	return 0;
}

/* Arguments as libbpf-tools prints them: each one followed by a space
 * (quoted: "arg" followed by a space, its double quotes as \"), then
 * " ..." if some were cut; the end of the line.  Each argument is
 * escaped on its own (out_escaped): an argument of printable text keeps
 * libbpf-tools' bytes, one with a newline or ESC cannot forge a line or
 * drive the terminal. */
static void text_args(FILE *f, const struct out_col *c, const union out_val *v)
{
	const char *p = v->strv.p, *end = p + v->strv.size;
	struct strbuf arg = { 0 }, safe = { 0 };
	int count = v->strv.n, done = 0;

	(void)c;
	if (env.quote)
		putc('"', f);
	while (p < end && done < count) {
		size_t n = strnlen(p, (size_t)(end - p));

		strbuf_reset(&arg);
		strbuf_reset(&safe);
		strbuf_addn(&arg, p, n);
		out_escaped(&safe, arg.s);
		for (const char *q = safe.s; *q; q++)
			if (env.quote && *q == '"')
				fputs("\\\"", f);
			else
				putc(*q, f);
		if (p + n == end)
			break; /* cut: no terminating NUL, no separator (libbpf-tools) */
		done++;
		if (env.quote) { /* the dangling quote of a cut list is libbpf-tools' too */
			fputs("\" ", f);
			if (done < count)
				putc('"', f);
		} else {
			putc(' ', f);
		}
		p += n + 1;
	}
	strbuf_free(&arg);
	strbuf_free(&safe);
	if (count == env.max_args + 1)
		fputs(" ...", f);
	putc('\n', f);
}

/* The columns of libbpf-tools' execsnoop (its quirks kept: -U's value has
 * no separator after it). */
enum { C_TIME, C_TS, C_UID, C_COMM, C_PID, C_PPID, C_RET, C_ARGS, C_MORE };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-9s" },
	[C_TS] = { "time_s", "TIME(s)", "%-8.3f", OUT_FLOAT, .hfmt = "%-8s " },
	[C_UID] = { "uid", "UID", "%-6d", OUT_INT, .hfmt = "%-6s " },
	[C_COMM] = { "comm", "PCOMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT },
	[C_PPID] = { "ppid", "PPID", "%-6d ", OUT_INT },
	[C_RET] = { "ret", "RET", "%3d ", OUT_INT },
	[C_ARGS] = { "args", "ARGS", NULL, OUT_STRV, .hfmt = "%s\n", .text = text_args },
	[C_MORE] = { "args_truncated", NULL, "%d", OUT_BOOL, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	const struct execsnoop_event *e = data;
	size_t hdr = offsetof(struct execsnoop_event, args);
	unsigned int asize;
	char comm[EV_COMM_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (size < hdr)
		return 0;
	asize = e->args_size;
	if (asize > size - hdr)
		asize = (unsigned int)(size - hdr);
	ev_comm(comm, e->comm);

	if (env.name && !strstr(comm, env.name))
		return 0;
	if (env.line && !args_contain(e, asize, env.line))
		return 0;

	v[C_TIME].s = env.time ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_TS].f = env.timestamp ? tool_elapsed() : 0;
	v[C_UID].i = (int)e->uid;
	v[C_COMM].s = comm;
	v[C_PID].i = e->pid;
	v[C_PPID].i = e->ppid;
	v[C_RET].i = e->retval;
	v[C_ARGS].strv.p = e->args;
	v[C_ARGS].strv.size = asize;
	v[C_ARGS].strv.n = e->args_count > env.max_args ? env.max_args : e->args_count;
	v[C_MORE].i = e->args_count == env.max_args + 1;
	/* text counts the "..." marker in; JSON gets the flag instead */
	if (!out_json())
		v[C_ARGS].strv.n = e->args_count;
	out_row(&table, v);
	return 0;
}

int execsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = "execsnoop", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();

	o = BPF_OBJ_OPEN(execsnoop);
	OBJ_SET(o, targ_uid, (unsigned int)env.uid);
	OBJ_SET(o, max_args, (int)env.max_args);
	OBJ_SET(o, ignore_failed, (int)!env.fails);
	OBJ_SET(o, filter_cg, (int)(env.cgroup != NULL));
	te.cgroup = env.cgroup;
	out_show(&table, C_TIME, env.time);
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_UID, env.print_uid);
	tool_elapsed(); /* -t counts from here */
	return tool_run_events(o, &te);
}
