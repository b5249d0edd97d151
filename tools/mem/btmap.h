/* bpftrace-style map output for the book's .bt tools (faults, ffaults,
 * hfaults, brkstack): at the end, one "@[key]: count" line per entry,
 * ascending by count as bpftrace prints a map; a user stack key prints as
 * bpftrace's ustack (a newline, then each frame on its own line indented
 * eight spaces).  JSON: one report {"counts": [{..., "count": N}]}.
 * Folded (-f): "comm;root;...;leaf count" lines for flame graphs.
 *
 * The map is the object's "counts" (struct memcount_key -> u64), user
 * stacks in its "stackmap". */
#ifndef COREBOX_MEM_BTMAP_H
#define COREBOX_MEM_BTMAP_H

#include <stdbool.h>

struct obj;

enum btmap_key {
	BTMAP_USTACK_COMM, /* @[ustack, comm] */
	BTMAP_NAME,        /* @[name] */
	BTMAP_PID_COMM,    /* @[pid, comm] */
};

/* 0, or 1 (the tool's exit status) after a message. */
int btmap_print(struct obj *o, const char *tool, enum btmap_key kind, bool folded);

/* "Attaching N probe(s)..." as bpftrace starts (stderr under --json). */
void btmap_attaching(int probes);

#endif
