/* What bcc's language tools ucalls, uobjnew and ustat (tools/lib/) share:
 * the runtimes' USDT probes, finding them in a process, the programs'
 * common steps (zeroed keys, strings read from probe arguments) and
 * the summary maps read back.  Each tool keeps its options, its
 * programs and its report. */
#ifndef COREBOX_TRACE_ULANG_H
#define COREBOX_TRACE_ULANG_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/probe/build.h"

struct tool_help;

/* A runtime and its probes (bcc's names).  Argument numbers are USDT
 * argN (0: none); a counted string's length is the next argument (the
 * JVM's strings are not NUL-terminated). */
struct ulang {
	const char *name;
	const char *entry, *ret; /* ucalls: method entry and return */
	uint8_t cls, meth;       /* ucalls: class (or file) and method arguments */
	bool counted;
	const char *comm;        /* ustat: process names, space-separated */
	const char *stat;        /* ustat: "PROBE=C ..." with C a category digit (no =C: the gate) */
	const char *gate;        /* a probe whose semaphore must be set for the method probes to fire */
	const char *objnew;      /* uobjnew: its probes, space-separated */
};
extern const struct ulang ulangs[];

/* The language of -l arg (or, arg NULL, of the applet's name less
 * suffix: pythoncalls -> python) among choices ("java perl ... none"): the table's
 * entry, NULL for "none" or, without either, bcc's detection from
 * process pid's executable and maps.  Bad names are usage errors. */
const struct ulang *ulang_pick(const struct tool_help *h, const char *arg, const char *suffix, const char *choices,
			       int pid, const char **name);

/* The next space-separated word of *p into w (n bytes with its NUL,
 * longer ones cut), *p moved past it: false when there is none. */
bool ulang_word(const char **p, char *w, size_t n);

/* The sites of trace-syntax probe text ("t:raw_syscalls:sys_enter",
 * "p:c:malloc") in process pid (0: any), appended to *locs (n: their
 * count).  0, or -1 with the message set (err_msg). */
int ulang_resolve(const char *text, int pid, struct loc **locs, int *n);

/* Every site of USDT probe name in the files process pid maps,
 * appended to *locs (n: their count).  0, or -errno. */
int ulang_usdt(int pid, const char *name, struct loc **locs, int *n);

/* The same, required: 0, or 1 after a message (none found: is the
 * process a lang runtime built with USDT probes?). */
int ulang_need(int pid, const char *name, const char *lang, struct loc **locs, int *n);

/* A program that does nothing at each site of u's gate probe in process
 * pid: attached, its semaphore opens the runtime's tracing path.  0 or
 * 1 after a message. */
int ulang_gate(struct obj *o, const struct ulang *u, int pid);

/* Program pieces; stack offsets are frame offsets (gen_stack). */
struct gen *ulang_gen(const struct loc *l, int pid);
void ulang_zero(struct gen *g, int off, int size);
/* USDT argument arg as a string at off (max bytes with its NUL); counted:
 * its length is argument arg+1.  0 or -errno. */
int ulang_str(struct gen *g, int arg, bool counted, int off, int max);
/* gen_end, add to o for l, free g: 0 or 1 after a message (err < 0:
 * the error compiling it, reported; g is only freed). */
int ulang_prog(struct obj *o, const struct loc *l, struct gen *g, int out, int pid, int err);

enum { MAX_ENTRIES = 10240 }; /* bcc's BPF_HASH size */

/* Read and clear a summary map: *keys and *vals malloc'd (the caller
 * frees both); the number of entries, or -1 after a message. */
long ulang_drain(struct obj *o, int map, uint32_t ksize, void **keys, uint64_t (**vals)[2]);

/* A report's row: its name and two counters. */
struct ulang_row {
	char name[168];
	uint64_t v[2];
};
/* bcc's report: an empty line, t's header, the rows in ascending order
 * of v[sort] (the last top when top is set; the rest are left out of
 * the text but counted in the Prometheus series), each row's cells
 * from fill (v[0]: its name).  Frees rows.  0, or -1 after a message. */
union out_val;
int ulang_report(const struct out_table *t, struct ulang_row *rows, size_t n, int sort, long top,
		 void (*fill)(union out_val *v, const struct ulang_row *r));

/* The positionals pid [interval], for opt_parse's callback. */
int ulang_pos(const struct tool_help *h, const char *arg, int *npos, int *pid, long *interval);
/* report(o) after each interval (0: at Ctrl-C only) until Ctrl-C or a
 * closed output: 0, or 1 when a report failed. */
int ulang_loop(struct obj *o, long interval, int (*report)(struct obj *o));

#endif
