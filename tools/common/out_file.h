/* Files the output layer replaces whole (--prom FILE): the new contents go
 * to a temporary file in the target's directory, renamed over the target,
 * so a reader (node_exporter's textfile collector) sees the old file or
 * the new one, never half of one.
 *
 * The target often lives in a directory others can write to (/tmp, a
 * shared textfile directory), so nothing found there is trusted:
 *  - the target must be a regular file or not exist: a device, FIFO,
 *    socket or directory of that name is refused, never replaced by a
 *    regular file (an audit turned /dev/full into one); checked before
 *    tracing starts and again before every rename;
 *  - the temporary name is unpredictable (mkostemp: DIR/.NAME.XXXXXX, a
 *    dot name the textfile collector skips) and created with
 *    O_CREAT|O_EXCL|O_NOFOLLOW: a symlink planted there is not followed,
 *    a file planted there is not reused;
 *  - the temporary file does not outlive the write: every failure unlinks
 *    it, and SIGINT, SIGTERM, SIGHUP and SIGQUIT are held back while it
 *    exists, so a tool killed by one (Ctrl-C with no handler) dies after
 *    the rename or the unlink, not between. */
#ifndef COREBOX_TOOLS_OUT_FILE_H
#define COREBOX_TOOLS_OUT_FILE_H

#include <signal.h>
#include <stdio.h>

struct out_file {
	const char *path; /* the target */
	char *tmp;        /* the temporary file's name (malloc'd) */
	FILE *f;
	sigset_t saved;   /* the signal mask to restore */
};

/* Before the tool starts: 0 when path can be replaced (it is a regular
 * file or does not exist, and a file can be created and removed in its
 * directory), else -errno with a message (err_msg). */
int out_file_check(const char *path);
/* Open a new temporary file for path (of->f): 0, or -errno with a
 * message (err_msg).  Its mode is the one a plain fopen() would give
 * (0666 less the umask): the reader is often another user. */
int out_file_begin(struct out_file *of, const char *path);
/* Flush, fsync, check the target is still replaceable, rename it over the
 * target.  0, or -errno with a message; the temporary file is gone either
 * way. */
int out_file_commit(struct out_file *of);
/* Throw the temporary file away. */
void out_file_abort(struct out_file *of);

#endif
