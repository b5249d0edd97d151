/* statsnoop e2e helper: after the ready/go handshake (ready_go.h), make
 * a known sequence of stat-family calls on paths under DIR through
 * syscall(2) (so the C library cannot turn one into another): N x stat of
 * DIR/file, lstat of DIR/missing (ENOENT), fstatat, statx and statfs of
 * DIR/file, each where this architecture has the call.  Then print each
 * call as the tool shows it, "RET ERR PATH" (RET -1 and the errno on
 * failure), and "done". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ready_go.h"

static char lines[64][4200];
static int nlines;

static void note(long ret, const char *path)
{
	if (nlines < 64)
		snprintf(lines[nlines++], sizeof(lines[0]), "%d %d %s", ret < 0 ? -1 : (int)ret,
			 ret < 0 ? errno : 0, path);
}

int main(int argc, char **argv)
{
	char file[4096], missing[4096];
	struct stat st;
	struct statfs sf;
	struct statx sx;
	int n;

	if (argc != 3 || sscanf(argv[2], "%d", &n) != 1 || n > 32) {
		fprintf(stderr, "usage: stats DIR N (N <= 32)\n");
		return 2;
	}
	snprintf(file, sizeof(file), "%s/file", argv[1]);
	snprintf(missing, sizeof(missing), "%s/missing", argv[1]);
	ready_go();
#ifdef SYS_stat
	for (int i = 0; i < n; i++)
		note(syscall(SYS_stat, file, &st), file);
#else
	for (int i = 0; i < n; i++)
		note(syscall(SYS_newfstatat, AT_FDCWD, file, &st, 0), file);
#endif
#ifdef SYS_lstat
	note(syscall(SYS_lstat, missing, &st), missing);
#else
	note(syscall(SYS_newfstatat, AT_FDCWD, missing, &st, AT_SYMLINK_NOFOLLOW), missing);
#endif
	note(syscall(SYS_newfstatat, AT_FDCWD, file, &st, 0), file);
	note(syscall(SYS_statx, AT_FDCWD, file, 0, STATX_BASIC_STATS, &sx), file);
	note(syscall(SYS_statfs, file, &sf), file);
	for (int i = 0; i < nlines; i++)
		printf("%s\n", lines[i]);
	printf("done\n");
	return 0;
}
