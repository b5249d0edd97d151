/* What the stack tools (profile, offcputime, wakeuptime, offwaketime)
 * share on the user side: the common options and their checks, the BPF
 * knobs and filter maps those options set, the "... for N secs." / "Hit
 * Ctrl-C" wait, and the report at exit (read and sort the counts map,
 * print each record multi-line or as summed folded lines, report missed
 * stacks, write the --svg flame graph).
 *
 * A tool keeps its own option table and help text (they differ in words),
 * its record layout and its header line; its option callback handles its
 * own keys and passes the rest to stacktool_parse.
 *
 * BPF side conventions (tools/include/stacks.bpf.h): the stack map is
 * "stackmap"; the knobs filter_pid, filter_tid, user_threads_only,
 * kernel_threads_only, user_stacks_only, kernel_stacks_only (__u8). */
#ifndef COREBOX_TOOLS_STACKTOOL_H
#define COREBOX_TOOLS_STACKTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/common/common.h"
#include "tools/stack/flamegraph.h"
#include "tools/stack/stacks.h"

/* Keys of the shared long options; a tool numbers its own from
 * STACKTOOL_KEY_NEXT. */
#define STACKTOOL_KEY_STORAGE OPT_LONG_ONLY(1)
#define STACKTOOL_KEY_DEPTH OPT_LONG_ONLY(2)
#define STACKTOOL_KEY_SVG OPT_LONG_ONLY(3)
#define STACKTOOL_KEY_NEXT OPT_LONG_ONLY(4)

#define STACKTOOL_MAX_IDS 30  /* -p/-t lists: at most this many (the BPF filter maps) */
#define STACKTOOL_COMM_LEN 16 /* a task's comm in a BPF record */

struct stacktool_env {
	const struct tool_help *help;    /* tool name for every message */
	uint32_t pids[STACKTOOL_MAX_IDS], tids[STACKTOOL_MAX_IDS];
	int npids, ntids, max_ids;
	const char *pid_str, *tid_str;   /* -p/-t arguments as given */
	bool user_threads, kernel_threads; /* -u, -k */
	bool user_only, kernel_only;       /* -U, -K */
	bool delimited, folded, verbose;   /* -d, -f, -v */
	unsigned long long min_us, max_us; /* -m, -M */
	long storage, depth, duration;     /* --stack-storage-size, --perf-max-stack-depth, [duration] */
	const char *svg;                   /* --svg FILE */
	FILE *svg_file;                    /* opened as the option is parsed: a bad
					    * path fails before any tracing */
	int npos;
	/* Where the "Tracing ..." banner's tail goes: STACKTOOL_BANNER_OUT
	 * (stdout, bcc), _ERR (stderr: libbpf-tools prints none on stdout),
	 * _NONE (the tool printed its whole banner, as libbpf-tools does). */
	unsigned char banner;
};
enum { STACKTOOL_BANNER_OUT, STACKTOOL_BANNER_ERR, STACKTOOL_BANNER_NONE };

#define STACKTOOL_ENV_INIT(h, max)                                                        \
	.help = (h), .max_ids = (max), .min_us = 1, .max_us = ~0ULL, .storage = 1024,     \
	.depth = 127, .duration = -1

/* The shared options: -p/-t PID,... lists, -u -k -U -K -d -f -v,
 * -m/-M US, --svg, --stack-storage-size, --perf-max-stack-depth and the
 * duration positional.  0, or 1 for a key it does not know (opt_parse). */
int stacktool_parse(struct stacktool_env *e, int key, const char *arg);

/* Usage checks (exit 2 with the usual message). */
void stacktool_check_threads(const struct stacktool_env *e); /* -p, -t, -u, -k */
void stacktool_check_stacks(const struct stacktool_env *e);  /* -U, -K */
void stacktool_check_block(const struct stacktool_env *e);   /* -m <= -M */

/* "user", "kernel" or "user + kernel" (which stacks -U/-K leave). */
const char *stacktool_stack_kind(const struct stacktool_env *e);

/* Before load: the filter and stack knobs the options asked for, and the
 * stack map's size and depth. */
void stacktool_set_knobs(struct obj *o, const struct stacktool_env *e);
/* After load: put the -p and -t ids in their filter maps.  0, or -1
 * after a message. */
int stacktool_fill_filters(struct obj *o, const struct stacktool_env *e, const char *pid_map,
			   const char *tid_map);

/* Unless folded, end the header line the tool began (" for N secs." or
 * "... Hit Ctrl-C to end."); then wait for the duration or a signal. */
void stacktool_wait(const struct stacktool_env *e);

/* NUL-terminated copy of a STACKTOOL_COMM_LEN comm field; returns buf. */
const char *stacktool_comm(char buf[STACKTOOL_COMM_LEN + 1], const char *comm);
/* The same for a text line: escaped as every text column (out_escaped). */
#define STACKTOOL_COMM_TEXT (4 * STACKTOOL_COMM_LEN + 1)
const char *stacktool_comm_text(char buf[STACKTOOL_COMM_TEXT], const char *comm);

/* The report at exit.  Records of the counts map are sorted by the u64
 * at the start of each value (descending or not); the value shown is
 * that u64 / value_div; records whose value is 0 are left out. */
struct stacktool_report {
	const char *map;       /* the counts map */
	const char *what;      /* "cannot read the WHAT" */
	size_t key_size, value_size;
	bool descending;
	uint64_t value_div;    /* 0: 1 */
	unsigned flags;        /* STACKS_* besides those of -d, -U, -K */
	unsigned verbose_flags; /* STACKS_* added by -v */
	struct flamegraph_opts fg;
	/* One record as a folded line (into line, reset by the callee) or
	 * multi-line on stdout. */
	void (*fold)(struct stacks *s, const void *key, const void *val, uint64_t value,
		     struct strbuf *line);
	void (*print)(struct stacks *s, const void *key, const void *val, uint64_t value);
	/* -j: the record's fields ("k":v, each followed by a comma) for the
	 * JSON report; "value" and "folded" are added after them.  NULL:
	 * only those two. */
	void (*json)(struct stacks *s, const void *key, const void *val, uint64_t value,
		     struct strbuf *obj);
};

/* 0, or 1 (the tool's exit status) after a message. */
int stacktool_report(struct obj *o, const struct stacktool_env *e, const struct stacktool_report *r);

#endif
