/* The /init of `make vmtest` (tests/vm/run.sh): PID 1 of a bare initramfs
 * that holds only this driver, /corebox, /mechtest, /mech.bpf.o and the
 * kernel's loop.ko.  It mounts /proc, /sys and /dev (nothing else: corebox
 * must mount tracefs itself), loads loop.ko with finit_module(2), runs the
 * mechanism test (/mechtest, three passes with different COREBOX_DISABLE
 * settings) and the tool smoke suite with its own ground truth (an exec of
 * a marked program, an open of a marked path, N getppid() calls in a known
 * process, K O_DIRECT reads on a loop device; a child spinning in known
 * functions for profile, one sleeping 6 x 50 ms in a known function for
 * offcputime: their user stacks walked by frame pointers and symbolized
 * from /init, kernel frames from kallsyms), then powers off.
 *
 * Every check prints one line on the console, parsed by run.sh:
 *   VMTEST <test> PASS|FAIL <detail>
 *   VMTEST-MECH <test> <program> <mechanism>    (read back from the kernel)
 *   VMTEST-DONE fails=N
 * Every child is bounded (killed after a timeout).  With qemu's
 * isa-debug-exit device (x86) the exit status says pass (1) or fail (3).
 *
 * Outside a VM (pid != 1) it runs the same suite on the host, for
 * debugging:  driver --dir DIR   (DIR holds corebox, mechtest, mech.bpf.o). */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <sys/io.h>
#endif
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MECH_N 100
#define SYSCOUNT_N 250
#define BIO_K 100
#define BIO_SLACK 20

static int fails, last_ok;
static const char *dir = "";    /* "" in the VM: files at /corebox etc. */
static const char *expect = ""; /* "auto": any mechanism is fine (own kernels) */
static int no_fentry;           /* vmtest.nofentry: the kernel has no trampolines to attach
				   fentry/fexit with (arm64 before 6.4), kprobes are its best */
static char self[512];
static char *out;               /* the running tool's output */
static size_t out_len, out_cap;

static void result(const char *test, int ok, const char *fmt, ...)
{
	va_list ap;

	fails += !ok;
	last_ok = ok;
	printf("VMTEST %s %s ", test, ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", *dir ? dir : "", name);
}

/* ---- waiting for children, bounded ---- */

static int wait_bounded(pid_t pid, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r < 0)
			return -1;
		if (now_ms() >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -2; /* timed out */
		}
		usleep(10000);
	}
}

/* ---- program -> mechanism, read back from the kernel ---- */

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static int next_id(int cmd, uint32_t id)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.start_id = id;
	return sys_bpf(cmd, &a) < 0 ? -1 : (int)a.next_id;
}

static int fd_by_id(int cmd, uint32_t id)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_id = id; /* same slot as link_id */
	return (int)sys_bpf(cmd, &a);
}

static int obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = len;
	a.info.info = (uint64_t)(uintptr_t)info;
	return (int)sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a);
}

static int legacy_kprobes_present(void)
{
	char buf[4096];
	int fd = open("/sys/kernel/tracing/kprobe_events", O_RDONLY), n;

	if (fd < 0)
		fd = open("/sys/kernel/debug/tracing/kprobe_events", O_RDONLY);
	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return strstr(buf, "corebox") != NULL;
}

/* Print VMTEST-MECH for every program loaded since `since` (boot ns). */
static void report_mechanisms(const char *test, uint64_t since)
{
	struct { uint32_t prog; const char *mech; } links[64];
	int nl = 0, np = 0;
	int id = 0;

	while ((id = next_id(BPF_LINK_GET_NEXT_ID, (uint32_t)id)) > 0 && nl < 64) {
		struct bpf_link_info li;
		int fd = fd_by_id(BPF_LINK_GET_FD_BY_ID, (uint32_t)id);

		if (fd < 0)
			continue;
		/* all zero: no name buffers (the union's layout differs per
		 * link type and kernel; a stray pointer gets EINVAL) */
		memset(&li, 0, sizeof(li));
		if (obj_info(fd, &li, sizeof(li)) == 0) {
			links[nl].prog = li.prog_id;
			links[nl].mech = li.type == BPF_LINK_TYPE_RAW_TRACEPOINT ? "raw_tp"
				       : li.type == BPF_LINK_TYPE_TRACING
					       ? (li.tracing.attach_type == BPF_TRACE_FENTRY  ? "fentry"
						  : li.tracing.attach_type == BPF_TRACE_FEXIT ? "fexit"
											      : "tracing")
				       : li.type == BPF_LINK_TYPE_PERF_EVENT ? "perf"
									      : "link";
			nl++;
		}
		close(fd);
	}
	id = 0;
	while ((id = next_id(BPF_PROG_GET_NEXT_ID, (uint32_t)id)) > 0) {
		struct bpf_prog_info pi;
		const char *m = NULL, *how = "";
		int fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, (uint32_t)id);

		if (fd < 0)
			continue;
		memset(&pi, 0, sizeof(pi));
		if (obj_info(fd, &pi, sizeof(pi)) < 0 || pi.load_time < since) {
			close(fd);
			continue;
		}
		close(fd);
		for (int i = 0; i < nl; i++)
			if (links[i].prog == pi.id)
				m = links[i].mech;
		if (m && !strcmp(m, "perf"))
			how = "+link", m = NULL;
		switch (pi.type) {
		case BPF_PROG_TYPE_TRACEPOINT:
			m = "tracepoint";
			break;
		case BPF_PROG_TYPE_RAW_TRACEPOINT:
			m = "raw_tp";
			break;
		case BPF_PROG_TYPE_TRACING:
			if (m && !strcmp(m, "raw_tp"))
				m = "tp_btf";
			break;
		case BPF_PROG_TYPE_KPROBE:
			m = legacy_kprobes_present() ? "kprobe_legacy" : "kprobe/uprobe";
			break;
		case BPF_PROG_TYPE_PERF_EVENT:
			m = "perf_event";
			break;
		}
		if (!m && !pi.name[0])
			continue; /* a feature probe's program, being freed */
		if (!m)
			m = "unattached";
		printf("VMTEST-MECH %s %s %s%s\n", test, pi.name[0] ? pi.name : "?", m,
		       pi.type == BPF_PROG_TYPE_TRACEPOINT || pi.type == BPF_PROG_TYPE_KPROBE ? how : "");
		np++;
	}
	if (!np)
		printf("VMTEST-MECH %s - none\n", test);
	fflush(stdout);
}

/* ---- running a tool with its output through a pipe ---- */

struct tool_run {
	pid_t pid;
	int fd;
	uint64_t since;
};

static void out_add(const char *b, size_t n)
{
	if (out_len + n + 1 > out_cap) {
		out_cap = (out_len + n + 1) * 2;
		out = realloc(out, out_cap);
	}
	memcpy(out + out_len, b, n);
	out_len += n;
	out[out_len] = 0;
}

/* Read what is there within ms; 0 at EOF. */
static int pump(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return 1;
	n = read(fd, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	out_add(buf, (size_t)n);
	return 1;
}

/* The tool's whole output (last 150 lines) for a failure's diagnosis. */
static void dump_output(const char *test)
{
	int lines = 0;
	char *s = out ? out : "";

	for (char *p = s; *p; p++)
		lines += *p == '\n';
	for (char *p = s; *p && lines > 150; p++)
		if (*p == '\n') {
			lines--;
			s = p + 1;
		}
	while (*s) {
		char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		printf("VMTEST-LOG %s %.*s\n", test, n, s);
		s += n + (nl != NULL);
	}
	fflush(stdout);
}

static int tool_start(struct tool_run *t, const char *test, char *const argv[], const char *disable,
		      const char *ready)
{
	char corebox[600];
	int p[2];
	uint64_t end;

	path_of(corebox, sizeof(corebox), "corebox");
	out_len = 0;
	if (out)
		out[0] = 0;
	if (pipe(p) < 0)
		return -1;
	t->since = boot_ns();
	t->pid = fork();
	if (t->pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		if (disable && *disable)
			setenv("COREBOX_DISABLE", disable, 1);
		else
			unsetenv("COREBOX_DISABLE");
		execv(corebox, argv);
		_exit(127);
	}
	close(p[1]);
	t->fd = p[0];
	end = now_ms() + 30000;
	while (!strstr(out ? out : "", ready) && now_ms() < end)
		if (!pump(t->fd, 100))
			break;
	if (!strstr(out ? out : "", ready)) {
		kill(t->pid, SIGKILL);
		wait_bounded(t->pid, 5000);
		close(t->fd);
		result(test, 0, "tool did not start (its output follows)");
		dump_output(test);
		return -1;
	}
	report_mechanisms(test, t->since);
	return 0;
}

/* SIGINT, collect the rest of the output (bounded), reap. */
static int tool_stop(struct tool_run *t)
{
	uint64_t end;
	int rc;

	usleep(300000); /* let the last events reach user space */
	kill(t->pid, SIGINT);
	end = now_ms() + 10000;
	while (now_ms() < end && pump(t->fd, 100))
		;
	rc = wait_bounded(t->pid, 2000);
	close(t->fd);
	return rc;
}

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

static int loop_dev = -1;

static int setup_loop(void)
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

/* ---- stack tools: user stacks walked by frame pointers (x86 rbp, arm64
 * x29/x30 frame records), user symbols from /init's symbol table, kernel
 * symbols from /proc/kallsyms.  run.sh builds /init with frame pointers. */

volatile unsigned long cbxvm_sink;

/* O0 (with -mno-omit-leaf-frame-pointer from run.sh): a frame record even
 * in the leaf, on x86 (gcc omits it there at -Os whatever the flags) and
 * on arm64 alike, so the walk reaches every caller */
#define CBXVM_FRAMED __attribute__((noinline, optimize("O0")))

CBXVM_FRAMED void cbxvm_prof_inner(void)
{
	for (int i = 0; i < 100000; i++)
		cbxvm_sink += (unsigned long)i * 7;
}

CBXVM_FRAMED void cbxvm_prof_outer(uint64_t end_ms)
{
	while (now_ms() < end_ms) {
		cbxvm_prof_inner();
		__asm__ __volatile__("" ::: "memory");
	}
}

CBXVM_FRAMED void cbxvm_offcpu_sleep(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* A child that waits for the gate (a byte on a pipe), runs fn, says done
 * (a byte on another pipe) and then stays alive until killed (at most a
 * minute): the tools read its /proc/PID/maps when they print, after the
 * run.  Returns its pid; *gate and *done are the parent's ends. */
static pid_t gated_child(int *gate, int *done, void (*fn)(void))
{
	int g[2], d[2];
	pid_t child;
	char c = 1;

	if (pipe2(g, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(d, O_CLOEXEC) < 0) {
		close(g[0]);
		close(g[1]);
		return -1;
	}
	child = fork();
	if (child == 0) {
		close(g[1]);
		close(d[0]);
		if (read(g[0], &c, 1) == 1) {
			fn();
			if (write(d[1], &c, 1) != 1)
				_exit(1);
			for (int i = 0; i < 600; i++)
				usleep(100000);
		}
		_exit(0);
	}
	close(g[0]);
	close(d[1]);
	*gate = g[1];
	*done = d[0];
	return child;
}

static void open_gate(int gate)
{
	char c = 1;

	if (write(gate, &c, 1) != 1)
		printf("# gate: %s\n", strerror(errno));
	close(gate);
}

/* Wait (up to ms) for the child's done byte: 1 when it came. */
static int wait_done(int done, int ms)
{
	struct pollfd p = { .fd = done, .events = POLLIN };
	char c;
	int ok = poll(&p, 1, ms) == 1 && read(done, &c, 1) == 1;

	close(done);
	return ok;
}

static void end_child(pid_t child)
{
	kill(child, SIGKILL);
	wait_bounded(child, 5000);
}

static void spin_1min(void)
{
	cbxvm_prof_outer(now_ms() + 60000);
}

#define OFFCPU_SLEEPS 6
CBXVM_FRAMED void cbxvm_offcpu_loop(void)
{
	for (int i = 0; i < OFFCPU_SLEEPS; i++)
		cbxvm_offcpu_sleep();
}

/* Is frame f one of the '|'-separated names in alts? */
static int frame_is(const char *f, const char *alts)
{
	size_t n = strlen(f);

	for (const char *a = alts; a && *a;) {
		const char *bar = strchr(a, '|');
		size_t len = bar ? (size_t)(bar - a) : strlen(a);

		if (len == n && !strncmp(a, f, n))
			return 1;
		a = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* Sum the counts of the multi-line stacks (frames "    name", leaf first,
 * then "    -  comm (pid)", then "        count") of pid whose frames
 * hold seq[0], seq[1], ... in this order (each "a|b": either name);
 * *other sums the stacks of any other pid. */
static unsigned long long stack_sum(int pid, const char *const *seq, int nseq, unsigned long long *other)
{
	unsigned long long sum = 0;
	char *s = out ? out : "";
	int matched = 0;

	*other = 0;
	while (*s) {
		char *nl = strchr(s, '\n'), line[256], comm[64];
		int n = nl ? (int)(nl - s) : (int)strlen(s), p = -1;
		unsigned long long v;

		snprintf(line, sizeof(line), "%.*s", n, s);
		if (!strncmp(line, "    -", 5) && sscanf(line, "    - %63s (%d)", comm, &p) == 2) {
			if (nl && sscanf(nl + 1, "%llu", &v) == 1) { /* the count, next line */
				if (p != pid)
					*other += v;
				else if (matched == nseq)
					sum += v;
			}
			matched = 0;
		} else if (!strncmp(line, "    ", 4)) {
			if (matched < nseq && frame_is(line + 4, seq[matched]))
				matched++;
		} else {
			matched = 0;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	return sum;
}

static void test_profile(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "profile", "-F", "99", "-p", pidarg, NULL };
	static const char *const chain[] = { "cbxvm_prof_inner", "cbxvm_prof_outer", "main" };
	unsigned long long sum, other;
	struct tool_run t;
	int gate, done, rc;
	pid_t child = gated_child(&gate, &done, spin_1min);

	if (child < 0)
		return;
	close(done);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Sampling at") < 0) {
		close(gate);
		end_child(child);
		return;
	}
	open_gate(gate);
	usleep(1500000);
	rc = tool_stop(&t);
	end_child(child);
	sum = stack_sum(child, chain, 3, &other);
	result(test, sum > 0 && other == 0 && rc == 0,
	       "-F 99 -p %d: %llu samples of the spinning child with the user stack main -> "
	       "cbxvm_prof_outer -> cbxvm_prof_inner, %llu of other processes; exit %d",
	       (int)child, sum, other, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_offcputime(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "offcputime", "-p", pidarg, NULL };
	/* kernel frames first (kallsyms), then the user ones (frame pointers;
	 * on x86 musl's frameless syscall code hides cbxvm_offcpu_sleep) */
	static const char *const chain[] = { "do_nanosleep|hrtimer_nanosleep", "cbxvm_offcpu_loop", "main" };
	unsigned long long sum, other;
	struct tool_run t;
	int gate, done, rc, slept;
	pid_t child = gated_child(&gate, &done, cbxvm_offcpu_loop);

	if (child < 0)
		return;
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Tracing off-CPU") < 0) {
		close(gate);
		close(done);
		end_child(child);
		return;
	}
	open_gate(gate);
	slept = wait_done(done, 10000);
	rc = tool_stop(&t);
	end_child(child);
	sum = stack_sum(child, chain, 3, &other);
	result(test, slept && sum >= OFFCPU_SLEEPS * 50000ull * 9 / 10 && other == 0 && rc == 0,
	       "-p %d: %llu us off CPU in stacks main -> cbxvm_offcpu_loop -> ... -> do_nanosleep "
	       "(slept %d x 50 ms%s), %llu us of other processes; exit %d",
	       (int)child, sum, OFFCPU_SLEEPS, slept ? "" : ": NOT finished", other, rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- the mechanism test ---- */

static void run_mechtest(const char *pass, const char *disable, const char *kfunc, const char *tp)
{
	char mt[600], obj[600];
	pid_t pid;
	int rc;

	path_of(mt, sizeof(mt), "mechtest");
	path_of(obj, sizeof(obj), "mech.bpf.o");
	if (!strcmp(expect, "auto"))
		kfunc = tp = "auto";
	else if (no_fentry && !strcmp(kfunc, "fentry"))
		kfunc = "kprobe";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (*disable)
			setenv("COREBOX_DISABLE", disable, 1);
		else
			unsetenv("COREBOX_DISABLE");
		execl(mt, "mechtest", "--obj", obj, "--pass", pass, "--kfunc", kfunc, "--tp", tp, (char *)NULL);
		_exit(127);
	}
	rc = wait_bounded(pid, 60000);
	if (rc != 0) {
		/* the failing checks printed their own lines; this one counts
		 * crashes and timeouts too */
		char name[64];

		snprintf(name, sizeof(name), "mech.%s.exit", pass);
		result(name, 0, "mechtest exited with %d%s", rc, rc == -2 ? " (timed out)" : "");
	}
}

static void vm_setup(void)
{
	mkdir("/dev", 0755);
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	if (fcntl(1, F_GETFD) < 0) {
		int fd = open("/dev/console", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
	}
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
}

static void vm_end(void)
{
	printf("VMTEST-DONE fails=%d\n", fails);
	fflush(stdout);
	tcdrain(1); /* the console's UART must have sent it all before the exit device ends qemu */
	usleep(200000);
	sync();
#if defined(__x86_64__)
	if (ioperm(0xf4, 4, 1) == 0) {
		unsigned char v = fails ? 1 : 0;

		__asm__ __volatile__("outb %0, %w1" : : "a"(v), "Nd"((unsigned short)0xf4));
	}
#endif
	/* arm64 (no exit device): PSCI power-off ends qemu with status 0;
	 * run.sh reads the verdict from the VMTEST-DONE line */
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int vm = getpid() == 1;
	ssize_t n;
	char cmd[1024] = "";
	int fd;

	if (argc >= 3 && !strcmp(argv[1], "--marker"))
		return 0; /* the marked program of the execsnoop test */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
			expect = argv[++i];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (vm)
		vm_setup();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	if ((fd = open("/proc/cmdline", O_RDONLY)) >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		cmd[n > 0 ? n : 0] = 0;
		close(fd);
		if (strstr(cmd, "vmtest.expect=auto"))
			expect = "auto";
		no_fentry = strstr(cmd, "vmtest.nofentry") != NULL;
	}
	{
		char rel[256] = "";

		fd = open("/proc/sys/kernel/osrelease", O_RDONLY);
		if (fd >= 0) {
			n = read(fd, rel, sizeof(rel) - 1);
			rel[n > 0 ? n : 0] = 0;
			if ((n = (ssize_t)strlen(rel)) && rel[n - 1] == '\n')
				rel[n - 1] = 0;
			close(fd);
		}
		printf("VMTEST-KERNEL %s\n", rel);
	}

	loop_dev = setup_loop();

	/* every loader mechanism: best path, then the fallbacks */
	run_mechtest("best", "", "fentry", "tp_btf");
	run_mechtest("nofentry", "fentry,tp_btf", "kprobe", "raw_tp");
	run_mechtest("legacy", "fentry,kprobe_pmu,perf_link", "kprobe_legacy", "tp_btf");

	/* the tools: as they choose, then with every fallback forced */
	static const struct { const char *suffix, *disable; } modes[] = {
		{ "", "" },
		{ ".fallback", "fentry,tp_btf,ringbuf,kprobe_pmu,perf_link" },
	};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		char name[64];

		snprintf(name, sizeof(name), "execsnoop%s", modes[m].suffix);
		test_execsnoop(name, modes[m].disable);
		snprintf(name, sizeof(name), "opensnoop%s", modes[m].suffix);
		test_opensnoop(name, modes[m].disable);
		snprintf(name, sizeof(name), "syscount%s", modes[m].suffix);
		test_syscount(name, modes[m].disable);
		snprintf(name, sizeof(name), "biolatency%s", modes[m].suffix);
		test_biolatency(name, modes[m].disable);
		snprintf(name, sizeof(name), "profile%s", modes[m].suffix);
		test_profile(name, modes[m].disable);
		snprintf(name, sizeof(name), "offcputime%s", modes[m].suffix);
		test_offcputime(name, modes[m].disable);
	}

	if (vm)
		vm_end();
	if (loop_dev >= 0) { /* host run: leave nothing behind */
		char dev[64];

		snprintf(dev, sizeof(dev), "/dev/loop%d", loop_dev);
		if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) >= 0) {
			ioctl(fd, LOOP_CLR_FD, 0);
			close(fd);
		}
	}
	unlink("/cbxvm_disk");
	printf("VMTEST-DONE fails=%d\n", fails);
	return fails ? 1 : 0;
}
