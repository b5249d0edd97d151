/* VM check of ttysnoop (tty_write has no tracepoint: fentry or a kprobe,
 * which this machine's own kernel lacks): the driver opens a pty of its
 * own, and a child writes TTY_LINES numbered marker lines to its slave side;
 * ttysnoop on that /dev/pts/N must show every one of them. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm.h"

#define TTY_LINES 12

static int slave_fd = -1;

static void tty_work(void)
{
	char line[64];

	for (int i = 0; i < TTY_LINES; i++) {
		int n = snprintf(line, sizeof(line), "cbxvm-tty-%d-marker\n", i);

		if (write(slave_fd, line, (size_t)n) != n)
			_exit(1);
	}
}

/* a pty: master fd, slave path; -1 on failure */
static int open_pty(char *path, size_t size)
{
	int master;

	/* the guest's /dev is a bare devtmpfs: give it a devpts of its own
	 * (never on a host, which has one) */
	if (access("/dev/pts/ptmx", F_OK) < 0) {
		mkdir("/dev/pts", 0755);
		mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666");
	}
	master = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY);
	if (master < 0)
		master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0)
		return -1;
	if (grantpt(master) < 0 || unlockpt(master) < 0 || ptsname_r(master, path, size) != 0) {
		close(master);
		return -1;
	}
	return master;
}

static void test_ttysnoop(const char *test, const char *disable)
{
	char dev[64], pidarg[16], v[] = "-v", c[] = "-C", *argv[] = { "corebox", "ttysnoop", v, c, dev, NULL };
	char how[64] = "?";
	int master, found = 0, rc;
	const char *s;
	pid_t child;

	if ((master = open_pty(dev, sizeof(dev))) < 0 || (slave_fd = open(dev, O_RDWR | O_NOCTTY)) < 0) {
		result(test, 0, "cannot open a pty (%s)", master < 0 ? "ptmx" : dev);
		if (master >= 0)
			close(master);
		return;
	}
	rc = run_with_child(test, argv, pidarg, disable, "on tty_write", tty_work, &child);
	close(slave_fd);
	close(master);
	slave_fd = -1;
	if (rc == -1)
		return;
	for (int i = 0; i < TTY_LINES; i++) {
		char needle[64];

		snprintf(needle, sizeof(needle), "cbxvm-tty-%d-marker\n", i);
		found += lines_with(needle) == 1;
	}
	if ((s = strstr(out, " on tty_write"))) { /* -v: "ttysnoop: WAY on tty_write" */
		const char *b = s;

		while (b > out && b[-1] != ' ')
			b--;
		snprintf(how, sizeof(how), "%.*s", (int)(s - b), b);
	}
	result(test, found == TTY_LINES && rc == 0, "%d of the child's %d lines written to %s seen once, via %s; exit %d",
	       found, TTY_LINES, dev, how, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("ttysnoop", test_ttysnoop);
