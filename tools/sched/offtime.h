/* What offcputime and offwaketime share on the user side, so that the
 * two spell it once: the option lines they word alike (bcc's words), the
 * --state option, the checks after parsing, and the start (the knobs,
 * load and attach, the -p/-t filter maps, the signals).  Each keeps its
 * -p/-t/-f/--svg lines and help text (their words differ), its record
 * layout and its header line.  (User side only: not for the .bpf.c.) */
#ifndef COREBOX_SCHED_OFFTIME_H
#define COREBOX_SCHED_OFFTIME_H

#include "tools/stack/stacktool.h"

#define OFFTIME_KEY_STATE STACKTOOL_KEY_NEXT

/* -u -k -U -K -d, in the originals' order */
#define OFFTIME_OPTS_KINDS                                                                                     \
	{ 'u', "user-threads-only", NULL, "user threads only (no kernel threads)" },                          \
	{ 'k', "kernel-threads-only", NULL, "kernel threads only (no user threads)" },                        \
	{ 'U', "user-stacks-only", NULL, "show stacks from user space only (no kernel space stacks)" },       \
	{ 'K', "kernel-stacks-only", NULL, "show stacks from kernel space only (no user space stacks)" },     \
	{ 'd', "delimited", NULL, "insert delimiter between kernel/user stacks" }

/* the stack map's size and depth, -m -M, --state, -v */
#define OFFTIME_OPTS_LIMITS                                                                                    \
	{ STACKTOOL_KEY_DEPTH, "perf-max-stack-depth", "N",                                                   \
	  "the limit for both kernel and user stack traces (default 127)" },                                  \
	{ STACKTOOL_KEY_STORAGE, "stack-storage-size", "N",                                                   \
	  "the number of unique stack traces that can be stored and displayed (default 1024)" },              \
	{ 'm', "min-block-time", "US",                                                                        \
	  "the amount of time in microseconds over which we store traces (default 1)" },                      \
	{ 'M', "max-block-time", "US",                                                                        \
	  "the amount of time in microseconds under which we store traces (default U64_MAX)" },               \
	{ OFFTIME_KEY_STATE, "state", "STATE",                                                                \
	  "filter on this thread state bitmask (eg, 2 == TASK_UNINTERRUPTIBLE) see include/linux/sched.h" },  \
	{ 'v', "verbose", NULL, "show raw addresses" }

/* --state STATE; -1: not given */
extern long long offtime_state;

/* The option callback: --state here, the rest to stacktool_parse. */
int offtime_parse(struct stacktool_env *e, int key, const char *arg);
/* After opt_parse: -p/-t/-u/-k, -U/-K and -m/-M usage checks. */
void offtime_check(const struct stacktool_env *e);
/* With the tool's own knobs set on o: the shared knobs, load and attach,
 * fill the "tgids" and "pids" filter maps, catch the signals.  0, or 1
 * (the exit status) after a message. */
int offtime_start(struct obj *o, const struct stacktool_env *e, const char *tool);

#endif
