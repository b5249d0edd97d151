/* VM check of argdist on a kernel function, which the live build host
 * cannot trace (no kprobes, fentry refused): an entry probe counting
 * vfs_read()'s count argument and a return probe's histogram of its
 * return value, fentry/fexit as argdist chooses, kprobe/kretprobe in the
 * .fallback run.  Ground truth: a child preads 16 bytes exactly N times. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm.h"

#define AD_READS 40

static void pread_16_n_times(void)
{
	char buf[16];
	int fd = open(self, O_RDONLY | O_CLOEXEC);

	for (int i = 0; i < AD_READS && fd >= 0; i++)
		if (pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
			break;
	if (fd >= 0)
		close(fd);
}

/* The largest count of the "\tCOUNT      count = 16" rows (reports are
 * cumulative with -c: the last one holds every call). */
static unsigned long long count16_rows(void)
{
	unsigned long long best = 0, c;

	for (const char *s = out; s && (s = strstr(s, "\n\t")); s += 2)
		if (sscanf(s + 2, "%llu", &c) == 1 && strstr(s + 2, "count = 16\n") &&
		    strchr(s + 2, '\n') == strstr(s + 2, "count = 16\n") + 10 && c > best)
			best = c;
	return best;
}

/* The largest count of the histogram's "16 -> 31" rows. */
static unsigned long long hist16_rows(void)
{
	unsigned long long best = 0, c;

	for (const char *s = out; s && (s = strstr(s, " 16 -> 31 ")); s += 10)
		if (sscanf(s + 10, " : %llu", &c) == 1 && c > best)
			best = c;
	return best;
}

/* argdist -c -p CHILD -i 1 -C 'p::vfs_read(...):size_t:count' -H 'r::vfs_read():ssize_t:$retval':
 * the first report says it is attached (argdist prints no banner); then
 * the child reads, and the reports after that must count exactly N. */
static void test_argdist_kfunc(const char *test, const char *disable)
{
	char pidarg[16], c[] = "-c", i[] = "-i", one[] = "1", C[] = "-C", H[] = "-H",
		entry[] = "p::vfs_read(struct file *file, char *buf, size_t count):size_t:count",
		ret[] = "r::vfs_read():ssize_t:$retval";
	char *argv[] = { "corebox", "argdist", c, "-p", pidarg, i, one, C, entry, H, ret, NULL };
	struct tool_run t;
	int gate, done, rc, finished;
	unsigned long long n = 0, h = 0;
	uint64_t t0 = now_ms(), end;
	pid_t child = gated_child(&gate, &done, pread_16_n_times);

	if (child < 0) {
		result(test, 0, "cannot fork the reader");
		return;
	}
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "COUNT      EVENT") < 0) {
		close(gate);
		close(done);
		end_child(child);
		return;
	}
	open_gate(gate);
	finished = wait_done(done, 10000);
	/* a report (one a second) after the reads: bounded */
	end = now_ms() + 8000;
	while (now_ms() < end && ((n = count16_rows()) < AD_READS || (h = hist16_rows()) < AD_READS))
		if (!pump(t.fd, 200))
			break;
	rc = tool_stop(&t);
	end_child(child);
	n = count16_rows();
	h = hist16_rows();
	/* SIGINT ends argdist at once (bcc's quirk), with status 0 */
	result(test, finished && n == AD_READS && h == AD_READS && rc == 0,
	       "-p %d vfs_read: 'count = 16' counted %llu, $retval in 16 -> 31 %llu (made %d); exit %d (%.1f s)",
	       (int)child, n, h, AD_READS, rc, (double)(now_ms() - t0) / 1000.0);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("argdist.kfunc", test_argdist_kfunc);
