/* Locate tracefs, mounting it when a rescue host has nothing mounted:
 * /sys/kernel/tracing (mount tracefs there if absent), else
 * /sys/kernel/debug/tracing (mount debugfs).  Result cached. */
#ifndef COREBOX_TRACEFS_H
#define COREBOX_TRACEFS_H

/* Root path, or NULL with err_msg() set. */
const char *tracefs_root(void);
/* Build "ROOT/rel" into buf; returns buf or NULL. */
char *tracefs_path(char *buf, unsigned long size, const char *rel);

#endif
