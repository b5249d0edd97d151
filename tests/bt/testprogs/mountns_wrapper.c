/* mountns_wrapper PROG: run testprogs/PROG from a mount namespace of its
 * own, where this program's folder is bind-mounted on
 * /tmp/bpftrace-unshare-mountns-test. That path exists only inside the
 * namespace, so a tracer outside reaches it through /proc/PID/root (as for
 * a program in a container). */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define PRIVATE_DIR "/tmp/bpftrace-unshare-mountns-test"

static int fail(const char *what)
{
	perror(what);
	return 1;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], exe[PATH_MAX + 64];
	ssize_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: mountns_wrapper TESTPROG\n");
		return 2;
	}
	if (unshare(CLONE_NEWNS) != 0)
		return fail("unshare(CLONE_NEWNS)");
	/* keep the bind mount below out of the parent namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return fail("make / private");
	if (mkdir(PRIVATE_DIR, 0770) != 0 && errno != EEXIST)
		return fail("mkdir " PRIVATE_DIR);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return fail("readlink /proc/self/exe");
	self[n] = 0;
	if (mount(dirname(self), PRIVATE_DIR, NULL, MS_BIND, NULL) != 0)
		return fail("bind mount on " PRIVATE_DIR);
	snprintf(exe, sizeof(exe), "%s/%s", PRIVATE_DIR, argv[1]);
	execl(exe, exe, (char *)NULL);
	return fail(exe);
}
