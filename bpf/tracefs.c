/* tracefs location: /sys/kernel/tracing (mounting tracefs there when it
 * is empty), else debugfs's tracing/ directory (mounting debugfs). */
#include "tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "err.h"

static const char *root;

/* A tracefs root is usable when its events/ directory is there. */
static int usable(const char *dir)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/events", dir);
	return access(p, F_OK) == 0;
}

const char *tracefs_root(void)
{
	static const char tr[] = "/sys/kernel/tracing";
	static const char dbg[] = "/sys/kernel/debug/tracing";
	int e1 = 0, e2 = 0;

	if (root)
		return root;
	if (usable(tr))
		return root = tr;
	if (access(tr, F_OK) == 0) {
		if (mount("tracefs", tr, "tracefs", 0, NULL) == 0 && usable(tr))
			return root = tr;
		e1 = errno;
	}
	if (usable(dbg))
		return root = dbg;
	/* debugfs automounts tracefs under tracing/ */
	if (access("/sys/kernel/debug", F_OK) == 0) {
		if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0 && usable(dbg))
			return root = dbg;
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
