/* VM check of bpflist -v, whose kprobe half needs a kernel with kprobes
 * (the build host has no kprobe_events): the check writes three kprobes
 * named as bcc names them for its own pid (p_/r_ FUNC _bcc_ PID) and one
 * named otherwise into tracefs' kprobe_events; bpflist -v must count
 * exactly the three for this process, then they are removed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "vm.h"

static int mounted_here;

static const char *kprobe_events(void)
{
	static const char *const paths[] = { "/sys/kernel/tracing/kprobe_events",
					     "/sys/kernel/debug/tracing/kprobe_events" };

	for (int i = 0; i < 2; i++)
		if (access(paths[i], W_OK) == 0)
			return paths[i];
	/* corebox mounts tracefs when it runs; this check may come first
	 * (then it unmounts it again: the later tools must mount it) */
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		mounted_here = 1;
		if (access(paths[0], W_OK) == 0)
			return paths[0];
	}
	return NULL;
}

static int kprobe_write(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, line, strlen(line)) == (ssize_t)strlen(line);
	close(fd);
	return ok ? 0 : -1;
}

static void test_bpflist_kprobes(const char *test, const char *disable)
{
	char v[] = "-v", *argv[] = { "corebox", "bpflist", v, NULL };
	char names[4][64], line[352];
	const char *ke = kprobe_events();
	const char *fn[4] = { "vfs_read", "vfs_read", "vfs_write", "vfs_read" };
	int pid = (int)getpid(), made = 0, rc, rows = 0;
	unsigned long count = 0;
	struct tool_run t;

	if (!ke) {
		result(test, 0, "no writable kprobe_events: %s", strerror(errno));
		if (mounted_here && umount("/sys/kernel/tracing") == 0)
			mounted_here = 0;
		return;
	}
	snprintf(names[0], sizeof(names[0]), "p_vfs_read_bcc_%d", pid);
	snprintf(names[1], sizeof(names[1]), "r_vfs_read_bcc_%d", pid);
	snprintf(names[2], sizeof(names[2]), "p_vfs_write_bcc_%d", pid);
	snprintf(names[3], sizeof(names[3]), "cbxvm_plain_%d", pid); /* not bcc's: not counted */
	for (int i = 0; i < 4; i++) {
		snprintf(line, sizeof(line), "%c:kprobes/%s %s\n", names[i][0] == 'r' ? 'r' : 'p', names[i], fn[i]);
		if (kprobe_write(ke, line) < 0) {
			result(test, 0, "cannot add '%s' to %s: %s", names[i], ke, strerror(errno));
			goto remove;
		}
		made++;
	}
	if (tool_start(&t, test, argv, disable, "COUNT") < 0)
		goto remove;
	rc = tool_stop(&t);
	/* "PID    COMM             TYPE    COUNT": this process's kprobe row */
	for (const char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		int p;
		char comm[32], type[32];
		unsigned long n;

		if (sscanf(s, "%d %31s %31s %lu", &p, comm, type, &n) == 4 && p == pid && !strcmp(type, "kprobe")) {
			rows++;
			count = n;
		}
	}
	result(test, rows == 1 && count == 3 && rc == 0,
	       "3 bcc-named kprobes (and 1 other) for pid %d in %s: %d row(s), count %lu; exit %d", pid, ke, rows,
	       count, rc);
	if (!last_ok)
		dump_output(test);
remove:
	for (int i = 0; i < made; i++) {
		snprintf(line, sizeof(line), "-:kprobes/%s\n", names[i]);
		kprobe_write(ke, line);
	}
	if (mounted_here && umount("/sys/kernel/tracing") == 0)
		mounted_here = 0;
}

VM_TEST_ONCE("bpflist.kprobes", test_bpflist_kprobes);
