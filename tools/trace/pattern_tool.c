/* The user side bcc's pattern tools share (pattern_tool.h). */
#include "pattern_tool.h"

#include <limits.h>
#include <stdio.h>

#include "lib/err.h"
#include "tools/common/common.h"
#include "tools/probe/build.h"

int pattern_tool_opt(struct pattern_tool *t, int key, const char *arg)
{
	if (key == t->duration_key) {
		t->duration = (long)opt_num(t->help, "duration", arg, 1, INT_MAX);
		return 0;
	}
	switch (key) {
	case 'p': t->pid = opt_pid(t->help, "PID", arg); break;
	case 'c': t->cpu = (int)opt_num(t->help, "CPU", arg, 0, 4095); break;
	case 'i': t->interval = (long)opt_num(t->help, "interval", arg, 1, INT_MAX); break;
	case 'T': t->timestamp = true; break;
	case 'r': t->regex = true; break;
	case 0:
		if (t->pattern)
			opt_usage_error(t->help, "unrecognized argument: %s", arg);
		t->pattern = arg;
		break;
	default: return 1;
	}
	return 0;
}

void pattern_tool_check(struct pattern_tool *t)
{
	if (!t->pattern)
		opt_usage_error(t->help, "the following arguments are required: pattern");
	if (t->duration && !t->interval)
		t->interval = t->duration;
	if (!t->interval)
		t->interval = 99999999;
}

int pattern_tool_spec(const struct pattern_tool *t, struct spec *s, struct resolve_opts *ro)
{
	int errpos = 0;

	if (spec_parse_pattern(t->pattern, s, &errpos) < 0) {
		spec_report(tool_applet, t->pattern, errpos, err_msg());
		return 2;
	}
	tool_signals();
	ro->pid = t->pid;
	ro->regex = t->regex;
	return 0;
}

int pattern_tool_prog(const struct pattern_tool *t, struct obj *o, const struct loc *l, const struct spec *s,
		      struct gen *g, int out, bool debug)
{
	int rc = 0;

	gen_end(g, out);
	if (build_add(o, l, g, t->pattern, t->pid) < 0)
		rc = build_probe_error(tool_applet, s, g);
	else if (debug)
		fprintf(stderr, "%s: %zu instructions\n", l->name, gen_emit(g)->cnt);
	gen_free(g);
	return rc;
}

void pattern_tool_report_begin(const struct pattern_tool *t, bool blank)
{
	char ts[16];

	out_doc_begin();
	if (blank)
		out_text("\n");
	if (t->timestamp)
		out_text("%-8s\n", tool_hms(ts, sizeof(ts)));
}

int pattern_tool_loop(const struct pattern_tool *t, int nfuncs, unsigned flags, int (*report)(void *ctx), void *ctx)
{
	bool quiet = flags & PATTERN_QUIET;
	long elapsed = 0;
	int rc = 0;

	if (!quiet)
		out_info("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", nfuncs, t->pattern);
	tool_flush();
	for (;;) {
		bool last;

		tool_sleep_ms(t->interval * 1000);
		if (tool_stdout_gone())
			break;
		elapsed += t->interval;
		last = tool_exiting || (t->duration && elapsed >= t->duration);
		if (report(ctx) < 0) {
			rc = 1;
			if (flags & PATTERN_STOP_ON_ERROR)
				break;
		}
		if (last) {
			if (!quiet)
				out_text("Detaching...\n");
			break;
		}
	}
	return rc;
}
