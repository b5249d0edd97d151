/* The main loop of the libbpf-tools interval tools (runqlat, runqlen,
 * cpudist, hardirqs, softirqs, biolatency style): sleep INTERVAL seconds,
 * print a report, COUNT times or until Ctrl-C (which still prints the
 * partial interval once). */
#ifndef COREBOX_TOOLS_INTERVAL_H
#define COREBOX_TOOLS_INTERVAL_H

#include <stdbool.h>

#define INTERVAL_FOREVER 99999999L /* the originals' default interval and count */

struct interval {
	long seconds; /* INTERVAL_FOREVER: report at Ctrl-C only */
	long times;
	bool timestamp; /* -T: "HH:MM:SS" line before each report */
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

#endif
