/* One option parser for every applet: short and long options like the
 * originals (argp/argparse), help generated from the same table.
 *
 * -h/--help/-? prints the help to stdout and exits 0, --usage the usage
 * line, -V/--version the version; a bad option or a bad argument prints
 * one line that names it plus "Try 'NAME --help'" and exits 2.
 * The options every tool shares are parsed here: -v/--verbose and
 * --btf FILE into tool_common (and --no-demangle for OPT_USTACKS tools); -j/--json (just --json where the tool has its own -j) and,
 * for OPT_PROM tools, --prom FILE into out_cfg (out.h). */
#ifndef COREBOX_OPT_H
#define COREBOX_OPT_H

#include <stdbool.h>
#include <stdint.h>

#define OPT_LONG_ONLY(n) (256 + (n)) /* key for an option without a short form */

struct opt {
	int key;          /* short option character, or OPT_LONG_ONLY(n) */
	const char *name; /* long name, or NULL */
	const char *arg;  /* argument name ("PID"), or NULL for a flag */
	const char *help;
};

/* tool_help.flags */
enum {
	OPT_PROM = 1 << 0,    /* a summarizing tool: --prom FILE (Prometheus text) */
	OPT_NO_JSON = 1 << 1, /* no -j/--json (commands with output of their own) */
	OPT_NO_VERBOSE = 1 << 2, /* no -v/--verbose (commands that load no BPF) */
	OPT_USTACKS = 1 << 3, /* names user functions: --no-demangle (tool_common) */
	OPT_EVENTS = 1 << 4,  /* an event tool (records start with struct event_head):
			       * --show-cgroup, a CGROUP text column */
};

/* A tool's --help.  Its name and one-line summary are those of the applet
 * line at the top of its source (tool_applet, tool_applet_summary): a tool
 * leaves name and summary NULL and writes them nowhere else. */
struct tool_help {
	const char *name;     /* NULL: tool_applet; a command's "corebox btf dump" */
	const char *usage;    /* "[-h] [-T] [-x] ..." after the name, or NULL (generated) */
	const char *summary;  /* NULL: the applet's summary as a sentence; or a longer
			       * paragraph in its place, where the tool has more to say */
	const char *examples; /* preformatted lines, may be NULL */
	const struct opt *opts; /* terminated by {0} */
	unsigned flags;       /* OPT_* */
};

/* Parse argv.  fn is called for each option (key, argument or NULL) and
 * for each positional argument (key 0).  fn returns 0, or non-zero after
 * printing nothing: opt_parse then reports "invalid argument" for that
 * option and exits 2.  fn NULL: the tool has no options or arguments of
 * its own.  Returns normally only on success. */
void opt_parse(int argc, char **argv, const struct tool_help *h,
	       int (*fn)(int key, const char *arg, void *ctx), void *ctx);

/* Strict number parsing for option arguments; on a bad value print
 * "NAME: invalid WHAT: 'ARG'" + hint and exit 2. */
long long opt_num(const struct tool_help *h, const char *what, const char *arg,
		  long long min, long long max);
/* The one positional number a tool takes (a threshold, a duration):
 * *npos counts the positionals, a second one is a usage error. */
long long opt_one_num(const struct tool_help *h, int *npos, const char *what, const char *arg,
		      long long min, long long max);
/* A PID or TID argument: a number naming a task that exists now (a typo
 * would otherwise trace nothing, silently); else a usage error. */
int opt_pid(const struct tool_help *h, const char *what, const char *arg);
/* Print "NAME: msg" + "Try 'NAME --help'" and exit 2. */
void opt_usage_error(const struct tool_help *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct tool_common {
	const char *btf_path; /* --btf FILE (or $COREBOX_BTF) */
	int verbose;          /* -v/--verbose: how many times */
	int no_demangle;      /* --no-demangle: C++/Rust names as in the binary */
};
extern struct tool_common tool_common;

/* "0.2-5-gabc1234" (git describe at build time) or the Makefile's version. */
extern const char corebox_version[];

#endif
