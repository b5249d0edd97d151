/* The main loop of the libbpf-tools interval tools (runqlat, runqlen,
 * cpudist, hardirqs, softirqs, biolatency, bitesize, biopattern,
 * cachestat): sleep INTERVAL seconds, print a report, COUNT times or
 * until Ctrl-C (which still prints the partial interval once).  One loop
 * so that every such tool stops, flushes and reports failures alike. */
#ifndef COREBOX_TOOLS_INTERVAL_H
#define COREBOX_TOOLS_INTERVAL_H

#include <stdbool.h>

#define INTERVAL_FOREVER 99999999L /* the originals' default interval and count */

struct interval {
	long seconds; /* INTERVAL_FOREVER: report at Ctrl-C only */
	long times;
	bool timestamp; /* -T: "HH:MM:SS" line before each report */
	bool rows;      /* a table tool (biopattern, cachestat): no empty line
			 * or time stamp line before a report, its rows carry
			 * the time themselves */
	bool keep_going; /* as the block and fs tools always did: a failed
			  * report ends the loop without its document, a
			  * failed document (Prometheus file) does not end
			  * it (exit status 1 at the end) */
};

/* Run the loop; each report is one out_doc (JSON document, Prometheus
 * file rewrite) that starts with an empty line (and the time stamp) in
 * text.  report() prints the report's body; it returns 0, or -1 after a
 * message (the loop then ends with status 1).  Returns the exit status. */
int interval_loop(const struct interval *iv, int (*report)(void *ctx), void *ctx);

/* Positional "[interval] [count]" (seconds >= 1, count >= 1): for the
 * tools' option callbacks; *npos counts the positionals seen. */
struct tool_help;
void interval_arg(const struct tool_help *h, struct interval *iv, int *npos, const char *arg);

/* The top-style tools' (biotop, tcptop) summary line, text only:
 * "HH:MM:SS loadavg: " and /proc/loadavg as it is (its newline included,
 * so an empty line follows, as libbpf-tools prints it). */
void interval_loadavg_line(void);

#endif
