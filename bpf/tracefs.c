/* tracefs location, without ever changing the host's mounts.
 *
 * An existing tracefs is used wherever it is mounted: /sys/kernel/tracing,
 * else any tracefs mount listed in /proc/self/mounts (a user's own, at any
 * path), else debugfs's tracing/ directory.  Only when nothing is mounted
 * does corebox mount tracefs itself, and then in a mount namespace of its
 * own: unshare(CLONE_NEWNS) once, / made recursively a slave so that
 * nothing propagates back, tracefs (else debugfs) mounted there.  That
 * namespace ends with the process, so there is nothing to unmount: an
 * earlier design mounted on the host and unmounted at exit, and the first
 * of two concurrent instances to exit pulled tracefs from under the other
 * (or unmounted a tracefs the user mounted meanwhile).
 *
 * Children forked after that (systrace COMMAND, memleak -c) inherit the
 * namespace: they see the same files (and the host's later mounts), but
 * mounts they make themselves do not reach the host.  Where unshare is refused (no
 * CAP_SYS_ADMIN, e.g. in a container) corebox stops with a clear error
 * rather than touch the host's mounts. */
#include "tracefs.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "err.h"
#include "lib/scan.h"

static const char tr[] = "/sys/kernel/tracing";
static const char dbgfs[] = "/sys/kernel/debug";
static const char dbg[] = "/sys/kernel/debug/tracing";

static const char *root;
static char found[256]; /* a tracefs mount point read from /proc/self/mounts */

/* A tracefs root is usable when its events/ directory is there. */
static int usable(const char *dir)
{
	char p[300];

	snprintf(p, sizeof(p), "%s/events", dir);
	return access(p, F_OK) == 0;
}

/* /proc/self/mounts writes space, tab, newline and backslash in paths as
 * \ooo octal escapes: decode in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* The first usable tracefs mount in /proc/self/mounts, into found[]. */
static const char *mounted_tracefs(void)
{
	char line[1024], dir[sizeof(line)], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	const char *hit = NULL;

	if (!f)
		return NULL;
	while (!hit && fgets(line, sizeof(line), f)) {
		if (str_scan(line, "%*s %1023s %63s", dir, type) != 2 || strcmp(type, "tracefs"))
			continue;
		unescape(dir);
		if (strlen(dir) < sizeof(found) && usable(dir))
			hit = strcpy(found, dir);
	}
	fclose(f);
	return hit;
}

/* Nothing mounted: a private mount namespace with tracefs (else debugfs)
 * mounted in it.  0, or an errno. */
static int mount_private(void)
{
	int e;

	if (unshare(CLONE_NEWNS) < 0)
		return errno;
	/* the namespace starts as a copy whose shared mounts would still
	 * propagate our mounts to the host's: make them slaves first - not
	 * private, so that mounts the host makes later (a file system a tool
	 * is to open or probe) still reach us */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return errno;
	if (mount("tracefs", tr, "tracefs", 0, NULL) == 0 && usable(tr)) {
		root = tr;
		return 0;
	}
	e = errno ? errno : ENOENT; /* tracefs's reason: the one to report */
	/* debugfs automounts tracefs under tracing/ when that is accessed */
	if (mount("debugfs", dbgfs, "debugfs", 0, NULL) == 0 && usable(dbg)) {
		root = dbg;
		return 0;
	}
	return e;
}

const char *tracefs_root(void)
{
	int e;

	if (root)
		return root;
	if (usable(tr)) /* the usual place: no need to read the mount table */
		return root = tr;
	if ((root = mounted_tracefs()))
		return root;
	if (usable(dbg))
		return root = dbg;
	e = mount_private();
	if (root)
		return root;
	err_set(e, "tracefs is not mounted and corebox cannot mount it in a private mount namespace "
		"(%s); try: mount -t tracefs tracefs %s", strerror(e), tr);
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
