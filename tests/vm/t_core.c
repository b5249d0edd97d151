/* The first tools' VM checks: execsnoop, opensnoop, syscount and
 * biolatency against ground truth the check creates (a marked exec, a
 * marked open, N getppid() calls, K O_DIRECT reads on a loop device). */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define SYSCOUNT_N 250
#define BIO_K 100
#define BIO_SLACK 20

/* ---- the smoke tests ---- */

static void test_execsnoop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "execsnoop", NULL };
	char marker[64], line[512];
	struct tool_run t;
	pid_t child;
	int rc, found = 0, pid = -1, ppid = -1, ret = -1;

	if (tool_start(&t, test, argv, disable, "PCOMM") < 0)
		return;
	snprintf(marker, sizeof(marker), "cbxvm_exec_%d", (int)getpid());
	child = fork();
	if (child == 0) {
		/* the arguments on this child's own stack: the tool reads them
		 * with bpf_probe_read_user, which cannot fault pages in, and a
		 * string literal's page is not mapped in a fresh child yet */
		char a0[] = "init", a1[] = "--marker", a2[64];
		char *av[] = { a0, a1, a2, NULL };

		snprintf(a2, sizeof(a2), "%s", marker);
		execv(self, av);
		_exit(127);
	}
	wait_bounded(child, 5000);
	rc = tool_stop(&t);
	for (char *s = out; s && (s = strstr(s, marker)); s++) {
		char *b = s;

		while (b > out && b[-1] != '\n')
			b--;
		snprintf(line, sizeof(line), "%.*s", (int)(strchr(s, '\n') ? strchr(s, '\n') - b : (long)strlen(b)), b);
		/* PCOMM PID PPID RET ARGS */
		if (sscanf(line, "%*s %d %d %d", &pid, &ppid, &ret) == 3 && pid == child && ppid == getpid() &&
		    ret == 0) {
			found = 1;
			break;
		}
	}
	result(test, found && rc == 0, "exec of %s (pid %d) %s; exit %d", marker, (int)child,
	       found ? "seen with the right PID/PPID/RET" : "NOT seen", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_opensnoop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "opensnoop", NULL };
	char path[64];
	struct tool_run t;
	int fd, rc, found = 0;

	snprintf(path, sizeof(path), "/cbxvm_open_%d_%llu", (int)getpid(), (unsigned long long)now_ms());
	if (tool_start(&t, test, argv, disable, "PATH") < 0)
		return;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	rc = tool_stop(&t);
	for (char *s = out; s && (s = strstr(s, path)); s++) {
		char *b = s;
		int pid = -1, ofd = -2, err = -1;

		while (b > out && b[-1] != '\n')
			b--;
		/* PID COMM FD ERR PATH */
		if (sscanf(b, "%d %*s %d %d", &pid, &ofd, &err) == 3 && pid == getpid() && ofd == fd && err == 0) {
			found = 1;
			break;
		}
	}
	result(test, found && rc == 0, "open of %s (fd %d) %s; exit %d", path, fd,
	       found ? "seen with the right PID/FD/ERR" : "NOT seen", rc);
	if (!last_ok)
		dump_output(test);
	if (fd >= 0)
		close(fd);
	unlink(path);
}

static void test_syscount(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "syscount", "-p", pidarg, NULL }, *s;
	int go[2], rc, st;
	unsigned long long count = 0;
	struct tool_run t;
	pid_t child;
	char c;

	if (pipe(go) < 0)
		return;
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			for (int i = 0; i < SYSCOUNT_N; i++)
				syscall(SYS_getppid);
		_exit(0);
	}
	close(go[0]);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Tracing syscalls") < 0) {
		close(go[1]);
		wait_bounded(child, 5000);
		return;
	}
	c = 1;
	if (write(go[1], &c, 1) != 1)
		st = -1;
	close(go[1]);
	st = wait_bounded(child, 10000);
	rc = tool_stop(&t);
	if ((s = strstr(out, "\ngetppid")))
		sscanf(s + 8, "%llu", &count);
	result(test, count == SYSCOUNT_N && rc == 0 && st == 0,
	       "-p %d: getppid counted %llu (made %d); exit %d", (int)child, count, SYSCOUNT_N, rc);
	if (!last_ok)
		dump_output(test);
}

int loop_dev = -1;

int setup_loop(void)
{
	char ko[600], dev[64];
	int fd, ctl, bfd, n;
	static char zero[1 << 16];
	struct loop_config cfg;

	if (access("/dev/loop-control", F_OK) != 0) {
		path_of(ko, sizeof(ko), "loop.ko");
		fd = open(ko, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			result("module", 0, "cannot open %s: %s", ko, strerror(errno));
			return -1;
		}
		if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST) {
			result("module", 0, "finit_module(%s): %s", ko, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
		result("module", 1, "loop.ko loaded with finit_module(2)");
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (n < 0) {
		result("loop", 0, "no free loop device: %s", strerror(errno));
		return -1;
	}
	bfd = open("/cbxvm_disk", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	for (int i = 0; bfd >= 0 && i < 128; i++) /* 8 MiB */
		if (write(bfd, zero, sizeof(zero)) != (ssize_t)sizeof(zero))
			break;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || bfd < 0) {
		result("loop", 0, "open %s: %s", dev, strerror(errno));
		return -1;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)bfd;
	if (ioctl(fd, LOOP_CONFIGURE, &cfg) < 0 && ioctl(fd, LOOP_SET_FD, bfd) < 0) {
		result("loop", 0, "LOOP_CONFIGURE/LOOP_SET_FD %s: %s", dev, strerror(errno));
		close(fd);
		close(bfd);
		return -1;
	}
	close(bfd);
	close(fd);
	return n;
}

static void test_biolatency(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "biolatency", "-D", NULL };
	char dev[64], sec[64], *s, *buf = NULL;
	struct tool_run t;
	unsigned long long sum = 0;
	int fd, rc, done = 0;

	if (loop_dev < 0) {
		result(test, 0, "no loop device");
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/loop%d", loop_dev);
	snprintf(sec, sizeof(sec), "disk = loop%d", loop_dev);
	if (tool_start(&t, test, argv, disable, "Tracing block device") < 0)
		return;
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd >= 0 && posix_memalign((void **)&buf, 4096, 4096) == 0)
		for (int i = 0; i < BIO_K; i++)
			done += pread(fd, buf, 4096, (off_t)i * 4096) == 4096;
	if (fd >= 0)
		close(fd);
	free(buf);
	rc = tool_stop(&t);
	if ((s = strstr(out, sec))) {
		char *e = strstr(s + 1, "disk = ");

		for (char *l = strchr(s, '\n'); l && (!e || l < e); l = strchr(l + 1, '\n')) {
			char *colon = strchr(l, ':');
			unsigned long long v;

			if (colon && strstr(l, "->") && strstr(l, "->") < colon &&
			    sscanf(colon + 1, "%llu", &v) == 1)
				sum += v;
		}
	}
	result(test, done == BIO_K && sum >= BIO_K && sum <= BIO_K + BIO_SLACK && rc == 0,
	       "-D: %d O_DIRECT reads on %s, histogram of loop%d counts %llu; exit %d", done, dev, loop_dev,
	       sum, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("execsnoop", test_execsnoop);
VM_TEST("opensnoop", test_opensnoop);
VM_TEST("syscount", test_syscount);
VM_TEST("biolatency", test_biolatency);
