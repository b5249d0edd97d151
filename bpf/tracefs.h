/* Locate tracefs: wherever it is mounted (/sys/kernel/tracing, any
 * tracefs mount in /proc/self/mounts, debugfs's tracing/), else mounted
 * by corebox in a private mount namespace of its own, so that the host's
 * mounts never change (see tracefs.c).  Result cached. */
#ifndef COREBOX_TRACEFS_H
#define COREBOX_TRACEFS_H

/* Root path, or NULL with err_msg() set. */
const char *tracefs_root(void);
/* Build "ROOT/rel" into buf; returns buf or NULL. */
char *tracefs_path(char *buf, unsigned long size, const char *rel);

#endif
