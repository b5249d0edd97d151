/* bpftrace -v: what 0.17 prints for each program it attaches. */
#ifndef COREBOX_BPFTRACE_BT_VERBOSE_H
#define COREBOX_BPFTRACE_BT_VERBOSE_H

#include <stddef.h>
#include <stdio.h>

#include "tools/probe/bt.h"

struct prog;

/* "a:b:c" split in place into at most 4 parts, the text in double quotes
 * taken as it is, without them (bpftrace.c). */
int bt_split(char *s, char **part);

/* The block's name as 0.17 says it: its attach points, the short probe
 * types spelled out, a binary given by name as the file found (pid: -p),
 * joined by commas ("tracepoint:syscalls:sys_enter_read,interval:ms:100");
 * malloc'd, control bytes escaped. */
char *bt_verbose_name(const struct bt_probe *pr, int pid);
/* p (loaded with its verifier log kept) attached as name: its id and log
 * on out, "Attaching NAME" on stderr. */
void bt_verbose_prog(FILE *out, const struct prog *p, const char *name);

#endif
