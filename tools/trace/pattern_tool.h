/* What bcc's pattern tools (funccount, funclatency, stackcount) share on
 * the user side, so that the three spell it once: the options they have
 * alike (-p PID, -c CPU, -i SEC, the duration in seconds, -T, -r and the
 * one positional pattern), the checks after parsing, the pattern's parse,
 * one generated program's last steps, the report's first lines and the
 * interval loop ("Tracing N functions ...", a report every interval,
 * "Detaching..." after the last).
 *
 * Each tool keeps its option table and help text (their words differ),
 * its own options, the programs it generates and its report. */
#ifndef COREBOX_TRACE_PATTERN_TOOL_H
#define COREBOX_TRACE_PATTERN_TOOL_H

#include <stdbool.h>

#include "tools/probe/probe.h"

struct obj;
struct tool_help;

struct pattern_tool {
	const struct tool_help *help; /* its name for every message */
	int duration_key;             /* 'd', or 'D' where -d means something else */
	int pid, cpu;                 /* -p; -c (-1: every CPU) */
	long interval, duration;      /* -i, -d/-D: seconds */
	bool timestamp, regex;        /* -T, -r */
	const char *pattern;
};

/* The shared options, for the tool's option callback: 0, or 1 for a key
 * it does not know (opt_parse). */
int pattern_tool_opt(struct pattern_tool *t, int key, const char *arg);
/* After opt_parse: the pattern is required (a usage error); the interval
 * is the duration when only that is given, else "report at the end". */
void pattern_tool_check(struct pattern_tool *t);
/* Parse the pattern into s (a message with a caret on error: the exit
 * status 2 is returned), set ro's pid and regex, catch the signals that
 * end the loop.  0 on success. */
int pattern_tool_spec(const struct pattern_tool *t, struct spec *s, struct resolve_opts *ro);
/* End g's program (gen_end at out), add it to o for location l and free
 * g; debug: its size on stderr.  0, or the exit status after a message. */
int pattern_tool_prog(const struct pattern_tool *t, struct obj *o, const struct loc *l, const struct spec *s,
		      struct gen *g, int out, bool debug);
/* A report's start: the output document, an empty line (unless
 * !blank) and the -T time. */
void pattern_tool_report_begin(const struct pattern_tool *t, bool blank);

enum {
	PATTERN_QUIET = 1 << 0,         /* no "Tracing ..." or "Detaching..." (folded output) */
	PATTERN_STOP_ON_ERROR = 1 << 1, /* a failed report ends the loop */
};
/* "Tracing NFUNCS functions ...", then report(ctx) every interval until
 * Ctrl-C, the duration or a closed stdout.  Returns the exit status: 1
 * when a report failed (report returns < 0 after its message). */
int pattern_tool_loop(const struct pattern_tool *t, int nfuncs, unsigned flags, int (*report)(void *ctx), void *ctx);

#endif
