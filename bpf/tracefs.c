/* tracefs location: /sys/kernel/tracing (mounting tracefs there when it
 * is empty), else debugfs's tracing/ directory (mounting debugfs).  What
 * corebox mounted itself is unmounted when the process exits (atexit: the
 * tools close their objects - and remove legacy kprobe events - before
 * returning from main); a mount still in use is left alone. */
#include "tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "err.h"

static const char *root;

/* Mount points corebox mounted, in mount order (at most debugfs and the
 * tracefs automounted under it). */
static const char *ours[2];
static int nours;

/* A tracefs root is usable when its events/ directory is there. */
static int usable(const char *dir)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/events", dir);
	return access(p, F_OK) == 0;
}

static void unmount_ours(void)
{
	while (nours > 0)
		umount2(ours[--nours], UMOUNT_NOFOLLOW); /* EBUSY: in use elsewhere, keep it */
	root = NULL;
}

static void remember(const char *dir)
{
	if (!nours)
		atexit(unmount_ours);
	if (nours < (int)(sizeof(ours) / sizeof(ours[0])))
		ours[nours++] = dir;
}

const char *tracefs_root(void)
{
	static const char tr[] = "/sys/kernel/tracing";
	static const char dbgfs[] = "/sys/kernel/debug";
	static const char dbg[] = "/sys/kernel/debug/tracing";
	int e1 = 0, e2 = 0;

	if (root)
		return root;
	if (usable(tr))
		return root = tr;
	if (access(tr, F_OK) == 0) {
		if (mount("tracefs", tr, "tracefs", 0, NULL) == 0) {
			remember(tr);
			if (usable(tr))
				return root = tr;
		}
		e1 = errno;
	}
	if (usable(dbg))
		return root = dbg;
	/* debugfs automounts tracefs under tracing/ (a mount of its own,
	 * made by our access: unmounted before debugfs) */
	if (access(dbgfs, F_OK) == 0) {
		if (mount("debugfs", dbgfs, "debugfs", 0, NULL) == 0) {
			remember(dbgfs);
			if (usable(dbg)) {
				remember(dbg);
				return root = dbg;
			}
		}
		e2 = errno;
	}
	err_set(e1 ? e1 : e2 ? e2 : ENOENT,
		"tracefs not found at %s or %s and cannot be mounted (%s); "
		"try: mount -t tracefs tracefs %s", tr, dbg,
		e1 ? "mount failed" : "no mount point", tr);
	return NULL;
}

char *tracefs_path(char *buf, unsigned long size, const char *rel)
{
	const char *r = tracefs_root();
	int n;

	if (!r)
		return NULL;
	n = snprintf(buf, size, "%s/%s", r, rel);
	if (n < 0 || (unsigned long)n >= size) {
		err_set(ENAMETOOLONG, "tracefs path too long: %s/%s", r, rel);
		return NULL;
	}
	return buf;
}
