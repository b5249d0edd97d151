/* VM checks of the process, syscall and network tools (exitsnoop,
 * threadsnoop, systrace, tcplife, tcpconnect, tcpconnlat, tcpstates,
 * tcpretrans, tcptop, bindsnoop) against ground truth the driver makes itself:
 *  - children that exit 0, exit 3 and are SIGKILLed at known ages;
 *  - a child that creates exactly T pthreads (static musl: the clone
 *    path; the initramfs has no libc to put a uprobe on);
 *  - a child making N getppid(), M close(-1) and K nanosleep(50 ms) with
 *    raw syscalls (exact -s counts, exactly K lines with --duration 20,
 *    a cgroup v2 directory holding only it for -c and --flight);
 *  - TCP: the guest has no ip command and no veth module, so a child
 *    unshares a network namespace of its own, brings its loopback up with
 *    an ioctl and connects to itself over 127.0.0.1 (server and client
 *    processes); packet loss for tcpretrans is a classic BPF socket filter
 *    on the server's socket that drops everything for a while (the kernel
 *    then retransmits on its RTO); the ground truth is the client's own
 *    TCP_INFO tcpi_total_retrans. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

/* The lines of a tool's output (base) that contain needle, one at a time:
 * for (char *l = NULL; (l = next_line(base, l, needle, buf, size));) ... */
static char *next_line(char *base, char *from, const char *needle, char *buf, size_t size)
{
	char *s = from ? from : base;

	for (; s && (s = strstr(s, needle)); s++) {
		char *b = s, *e;

		while (b > base && b[-1] != '\n')
			b--;
		e = strchr(s, '\n');
		snprintf(buf, size, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
		return e ? e : s + strlen(s);
	}
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A child blocked on a pipe until go(): fork_waiting(&g) returns 0 in the
 * child after the byte arrived, the child's pid in the parent. */
struct gate {
	int fd[2];
};

static pid_t fork_waiting(struct gate *g)
{
	pid_t pid;
	char c;

	if (pipe(g->fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(g->fd[1]);
		if (syscall(SYS_read, g->fd[0], &c, 1) != 1)
			_exit(126);
		return 0;
	}
	close(g->fd[0]);
	return pid;
}

static void go(struct gate *g)
{
	char c = 1;

	if (write(g->fd[1], &c, 1) != 1)
		perror("gate");
	close(g->fd[1]);
}

/* Wait (up to ms) until pid holds a BPF link: 0, or -1. */
static int wait_links(pid_t pid, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	char path[64], buf[256];

	for (;;) {
		int links = 0;

		for (int fd = 3; fd < 64; fd++) {
			int f;
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
			if ((f = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			n = read(f, buf, sizeof(buf) - 1);
			close(f);
			buf[n > 0 ? n : 0] = 0;
			links += strstr(buf, "link_id:") != NULL;
		}
		if (links) {
			if (ms)
				sleep_ms(100); /* and the rest of its links */
			return 0;
		}
		if (now_ms() >= end)
			return -1;
		sleep_ms(50);
	}
}

/* ---- several tools at once around one workload ----------------------------
 * Under qemu's software emulation loading a tool's BPF takes most of a
 * check's time: tools that can watch the same workload start together
 * and their loads overlap.  Each keeps its own output. */
struct mtool {
	char *const *argv;
	const char *ready;  /* text its output shows once it traces; NULL: its BPF links */
	pid_t pid;
	int fd, rc;
	char *buf;
	size_t len, cap;
};

static void madd(struct mtool *m, const char *b, size_t n)
{
	if (m->len + n + 1 > m->cap) {
		m->cap = (m->len + n + 1) * 2;
		m->buf = realloc(m->buf, m->cap);
	}
	memcpy(m->buf + m->len, b, n);
	m->len += n;
	m->buf[m->len] = 0;
}

/* Read what each has written within ms. */
static void mpump(struct mtool *m, int n, int ms)
{
	struct pollfd p[8];
	char b[4096];

	for (int i = 0; i < n && i < 8; i++)
		p[i] = (struct pollfd){ .fd = m[i].fd, .events = POLLIN };
	if (poll(p, (nfds_t)n, ms) <= 0)
		return;
	for (int i = 0; i < n && i < 8; i++)
		if (p[i].revents & (POLLIN | POLLHUP)) {
			ssize_t r = read(m[i].fd, b, sizeof(b));

			if (r > 0)
				madd(&m[i], b, (size_t)r);
		}
}

static void mdump(const char *test, struct mtool *m, int n)
{
	char *saved = out;

	for (int i = 0; i < n; i++) {
		printf("VMTEST-LOG %s --- %s:\n", test, m[i].argv[1]);
		out = m[i].buf ? m[i].buf : "";
		dump_output(test);
	}
	out = saved;
}

static void mstop(struct mtool *m, int n)
{
	uint64_t end;

	sleep_ms(150); /* the last events reach user space */
	for (int i = 0; i < n; i++)
		if (m[i].pid > 0)
			kill(m[i].pid, SIGINT);
	for (end = now_ms() + 5000; now_ms() < end;) {
		int open = 0;

		for (int i = 0; i < n; i++)
			if (m[i].pid > 0) {
				int st;

				if (waitpid(m[i].pid, &st, WNOHANG) == m[i].pid) {
					m[i].rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
					m[i].pid = 0;
				} else {
					open++;
				}
			}
		mpump(m, n, 50);
		if (!open)
			break;
	}
	for (int i = 0; i < n; i++) {
		if (m[i].pid > 0) {
			m[i].rc = wait_bounded(m[i].pid, 100);
			m[i].pid = 0;
		}
		if (m[i].fd >= 0) {
			mpump(&m[i], 1, 0);
			close(m[i].fd);
		}
	}
}

/* Start them all (COREBOX_DISABLE=disable) and wait until each traces: 0,
 * or -1 after a FAIL line (all stopped). */
static int mstart(const char *test, struct mtool *m, int n, const char *disable)
{
	char corebox[600];
	uint64_t since = boot_ns(), end = now_ms() + 60000;
	int started = 0;

	path_of(corebox, sizeof(corebox), "corebox");
	for (int i = 0; i < n; i++) {
		m[i].len = 0;
		m[i].rc = -1;
		m[i].pid = 0;
		m[i].fd = -1;
		madd(&m[i], "", 0);
	}
	/* one after the other: attaching to the same tracepoints from two
	 * CPUs at once has tripped the guests' text patching under TCG */
	for (int i = 0; i < n; i++, started++) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			break;
		m[i].pid = fork();
		if (m[i].pid == 0) {
			dup2(p[1], 1);
			dup2(p[1], 2);
			if (disable && *disable)
				setenv("COREBOX_DISABLE", disable, 1);
			else
				unsetenv("COREBOX_DISABLE");
			execv(corebox, m[i].argv);
			_exit(127);
		}
		close(p[1]);
		m[i].fd = p[0];
		while (now_ms() < end && !(m[i].ready ? strstr(m[i].buf, m[i].ready) != NULL
						     : wait_links(m[i].pid, 0) == 0))
			mpump(&m[i], 1, 50);
		if (now_ms() >= end)
			break;
		sleep_ms(100); /* every link of it */
	}
	if (started < n) {
		mstop(m, started + (started < n && m[started].pid > 0));
		result(test, 0, "%d of %d tools did not start (their output follows)", n - started, n);
		mdump(test, m, n);
		return -1;
	}
	report_mechanisms(test, since);
	return 0;
}

/* ---- exitsnoop ---------------------------------------------------------- */

static void test_exitsnoop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "exitsnoop", NULL }, line[512];
	struct mtool m[1] = { { .argv = argv, .ready = "PCOMM" } };
	pid_t c0, c3, ck;
	int seen = 0;

	if (mstart(test, m, 1, disable) < 0)
		return;
	if ((c0 = fork()) == 0) {
		sleep_ms(100);
		_exit(0);
	}
	if ((c3 = fork()) == 0) {
		sleep_ms(200);
		_exit(3);
	}
	if ((ck = fork()) == 0) {
		sleep_ms(10000);
		_exit(0);
	}
	sleep_ms(300);
	kill(ck, SIGKILL);
	wait_bounded(c0, 5000);
	wait_bounded(c3, 5000);
	wait_bounded(ck, 5000);
	mstop(m, 1);
	for (char *l = NULL; (l = next_line(m[0].buf, l, " ", line, sizeof(line)));) {
		char comm[32], what[64] = "";
		int pid, ppid, tid, n;
		double age;

		/* PCOMM PID PPID TID AGE(s) EXIT_CODE */
		if (sscanf(line, "%31s %d %d %d %lf %n", comm, &pid, &ppid, &tid, &age, &n) != 5 || ppid != getpid())
			continue;
		snprintf(what, sizeof(what), "%s", line + n);
		if (pid == c0 && !strcmp(what, "0") && age >= 0.1)
			seen |= 1;
		if (pid == c3 && !strcmp(what, "code 3") && age >= 0.2)
			seen |= 2;
		if (pid == ck && !strncmp(what, "signal 9 (", 10) && age >= 0.3)
			seen |= 4;
	}
	result(test, seen == 7 && m[0].rc == 0, "exit 0 %s, exit 3 %s, SIGKILL %s (with ages); exit %d",
	       seen & 1 ? "shown" : "MISSING", seen & 2 ? "shown" : "MISSING", seen & 4 ? "shown" : "MISSING",
	       m[0].rc);
	if (!last_ok)
		mdump(test, m, 1);
}

/* ---- threadsnoop ---------------------------------------------------------- */

#define THREADS_T 6

static void *thread_main(void *arg)
{
	sleep_ms(50);
	return arg;
}

static void test_threadsnoop(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "threadsnoop", "-p", pidarg, NULL }, line[512];
	struct mtool m[1] = { { .argv = argv, .ready = "TIME(ms)" } }; /* (FUNC is in a warning too) */
	struct gate g;
	pid_t child;
	int n = 0, others = 0;

	child = fork_waiting(&g);
	if (child == 0) {
		pthread_t th[THREADS_T];

		for (int i = 0; i < THREADS_T; i++)
			pthread_create(&th[i], NULL, thread_main, NULL);
		for (int i = 0; i < THREADS_T; i++)
			pthread_join(th[i], NULL);
		_exit(0);
	}
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (mstart(test, m, 1, disable) < 0) {
		go(&g);
		wait_bounded(child, 5000);
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	mstop(m, 1);
	for (char *l = NULL; (l = next_line(m[0].buf, l, " ", line, sizeof(line)));) {
		long ms;
		int pid;

		if (sscanf(line, "%ld %d", &ms, &pid) != 2)
			continue;
		if (pid == child)
			n++;
		else
			others++;
	}
	result(test, n == THREADS_T && !others && m[0].rc == 0,
	       "-p: %d pthreads (static musl: clone path) -> %d lines, %d others; exit %d", THREADS_T, n, others,
	       m[0].rc);
	if (!last_ok)
		mdump(test, m, 1);
}

/* ---- systrace --------------------------------------------------------------- */

#define ST_N 300
#define ST_M 17
#define ST_K 3

static void sysmix(void)
{
	/* the kernel's timespec of SYS_nanosleep: longs (a 32-bit libc's
	 * time64 struct timespec would read as 0 s 0 ns there) */
	struct { long tv_sec, tv_nsec; } ts = { 0, 50 * 1000000L };

	for (int i = 0; i < ST_N; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < ST_M; i++)
		syscall(SYS_close, -1);
	for (int i = 0; i < ST_K; i++)
		syscall(SYS_nanosleep, &ts, NULL);
	syscall(SYS_exit_group, 0);
}

/* "   name  calls errors ..." of a -s table */
static long count_of(char *text, const char *name, long *errors)
{
	char needle[64], line[512], n[64];
	long calls = -1, err = -1;

	snprintf(needle, sizeof(needle), "   %s ", name);
	for (char *l = NULL; (l = next_line(text, l, needle, line, sizeof(line)));)
		if (sscanf(line, "%63s %ld %ld", n, &calls, &err) == 3 && !strcmp(n, name))
			break;
	if (errors)
		*errors = err;
	return calls;
}

/* sysmix's calls, exactly, and nothing else */
static int summary_exact(char *text)
{
	long e1, e2, e3;
	int rows = 0;

	/* every table row starts with three spaces and ends in "%": exactly three */
	for (char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char *e = strchr(s, '\n');

		rows += !strncmp(s, "   ", 3) && e && e > s && e[-1] == '%';
	}
	return count_of(text, "getppid", &e1) == ST_N && e1 == 0 && count_of(text, "close", &e2) == ST_M &&
	       e2 == ST_M && count_of(text, "nanosleep", &e3) == ST_K && e3 == 0 && rows == 3;
}

/* -s and --duration 20 at once on one child */
static void test_systrace(const char *test, const char *disable)
{
	char pidarg[16], *argv_s[] = { "corebox", "systrace", "-s", "-p", pidarg, NULL };
	char *argv_d[] = { "corebox", "systrace", "--duration", "20", "-p", pidarg, NULL };
	struct mtool m[2] = { { .argv = argv_s, .ready = "Tracing system calls" },
			      { .argv = argv_d, .ready = NULL } }; /* perf trace prints calls only */
	struct gate g;
	pid_t child;
	int ok_s, lines = 0, sleeps = 0;

	child = fork_waiting(&g);
	if (child == 0)
		sysmix();
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (mstart(test, m, 2, disable) < 0) {
		go(&g);
		wait_bounded(child, 5000);
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	mstop(m, 2);
	ok_s = summary_exact(m[0].buf);
	for (char *s = m[1].buf; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char *e = strchr(s, '\n'), *n = strstr(s, " nanosleep(");

		if (!strstr(s, " ms): ") || (e && strstr(s, " ms): ") > e))
			continue;
		lines++;
		sleeps += n && (!e || n < e);
	}
	result(test, ok_s && lines == ST_K && sleeps == ST_K && !m[0].rc && !m[1].rc,
	       "-s: getppid %d, close %d (all errors), nanosleep %d %s; --duration 20: %d lines, %d nanosleep "
	       "(want %d); exit %d/%d",
	       ST_N, ST_M, ST_K, ok_s ? "exact" : "WRONG", lines, sleeps, ST_K, m[0].rc, m[1].rc);
	if (!last_ok)
		mdump(test, m, 2);
}

/* cgroup v2 at /sys/fs/cgroup (mounted here, in the VM, if nothing is), a directory
 * for one check: its path in buf, or NULL */
static const char *cgroup_dir(const char *name, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024], dev[256], dirp[512] = "", type[64];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %511s %63s", dev, dirp, type) == 3 && !strcmp(type, "cgroup2"))
			break;
		else
			dirp[0] = 0;
	if (f)
		fclose(f);
	if (!dirp[0]) {
		if (getpid() != 1)
			return NULL; /* a host run: mount nothing there */
		mkdir("/sys/fs/cgroup", 0755);
		if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL) < 0)
			return NULL;
		snprintf(dirp, sizeof(dirp), "/sys/fs/cgroup");
	}
	snprintf(buf, size, "%s/%s_%d", dirp, name, (int)getpid());
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return NULL;
	return buf;
}

static int cgroup_move(const char *cg, pid_t pid)
{
	char path[700], s[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(s, sizeof(s), "%d\n", (int)pid);
	n = write(fd, s, (size_t)n) == n ? 0 : -1;
	close(fd);
	return n;
}

/* Events name their cgroup (issue 21): a child in a cgroup of its own
 * exits, and exitsnoop -j gives its exit "cgroup": that directory's path
 * under the cgroup2 root; runqlat --cgroups -j (the woken task's cgroup,
 * read through CO-RE) has a histogram labelled with it. */
static void test_cgroup_events(const char *test, const char *disable)
{
	char cg[600], want[700], pidkey[32], line[1024];
	char *argv_e[] = { "corebox", "exitsnoop", "-j", NULL };
	char *argv_r[] = { "corebox", "runqlat", "--cgroups", "-j", NULL };
	struct mtool m[2] = { { .argv = argv_e, .ready = NULL }, { .argv = argv_r, .ready = "Tracing run queue" } };
	const char *rel;
	struct gate g;
	pid_t child;
	int ex = 0, rq;

	if (!cgroup_dir("cbxvm_events", cg, sizeof(cg)) || !(rel = strrchr(cg, '/'))) {
		result(test, 0, "no cgroup v2 directory: %s", strerror(errno));
		return;
	}
	child = fork_waiting(&g);
	if (child == 0) {
		for (int i = 0; i < 10; i++)
			sleep_ms(5); /* ten wakeups for runqlat */
		_exit(4);
	}
	cgroup_move(cg, child);
	if (mstart(test, m, 2, disable) < 0) {
		go(&g);
		wait_bounded(child, 5000);
		rmdir(cg);
		return;
	}
	go(&g);
	wait_bounded(child, 5000);
	sleep_ms(200);
	mstop(m, 2);
	snprintf(want, sizeof(want), "\"cgroup\":\"%s\"", rel);
	snprintf(pidkey, sizeof(pidkey), "\"pid\":%d,", (int)child);
	for (char *l = NULL; (l = next_line(m[0].buf, l, pidkey, line, sizeof(line)));)
		ex |= strstr(line, want) != NULL;
	rq = strstr(m[1].buf, want) != NULL;
	result(test, ex && rq && m[0].rc == 0 && m[1].rc == 0, "exitsnoop -j %s %s, runqlat --cgroups %s; exit %d %d",
	       want, ex ? "on the child's exit" : "MISSING", rq ? "labelled" : "MISSING", m[0].rc, m[1].rc);
	if (!last_ok)
		mdump(test, m, 2);
	rmdir(cg);
}

#define FL_F 6
#define FL_M 40

/* A cgroup holding one child: -c -s counts exactly its calls; --flight F
 * prints its last F on SIGUSR1 (both tools at once) */
static void test_systrace_cgroup(const char *test, const char *disable)
{
	char cg[600], fl[16], *argv_c[] = { "corebox", "systrace", "-s", "-c", cg, NULL };
	char *argv_f[] = { "corebox", "systrace", "--flight", fl, "-c", cg, NULL }, line[512], head[128];
	struct mtool m[2] = { { .argv = argv_c, .ready = "Tracing system calls" },
			      { .argv = argv_f, .ready = "Recording" } };
	struct gate g;
	pid_t child;
	int ok_c, closes = 0, writes = 0, next = 1000 + FL_M - FL_F + 1, order = 1, hold[2];
	long calls, errs;

	if (!cgroup_dir("cbxvm_systrace", cg, sizeof(cg))) {
		result(test, 0, "no cgroup v2 directory: %s", strerror(errno));
		return;
	}
	snprintf(fl, sizeof(fl), "%d", FL_F);
	if (pipe2(hold, O_CLOEXEC) < 0) /* the tools must not hold its write end */
		return;
	child = fork_waiting(&g);
	if (child == 0) {
		char c;

		close(hold[1]);
		for (int i = 0; i < FL_M; i++)
			syscall(SYS_close, 1000 + i);
		syscall(SYS_write, 1, "", 0);      /* write(fd: 1, count: 0): the last call */
		syscall(SYS_read, hold[0], &c, 1); /* still open at the dump */
		_exit(0);
	}
	close(hold[0]);
	cgroup_move(cg, child);
	if (mstart(test, m, 2, disable) < 0) {
		go(&g);
		close(hold[1]);
		wait_bounded(child, 5000);
		rmdir(cg);
		return;
	}
	go(&g);
	sleep_ms(200);
	kill(m[1].pid, SIGUSR1);
	for (uint64_t end = now_ms() + 10000; now_ms() < end && !strstr(m[1].buf, "write(");)
		mpump(&m[1], 1, 100);
	close(hold[1]);
	wait_bounded(child, 5000);
	mstop(m, 2);
	/* -s: the child's calls: close(write end) and FL_M closes (all EBADF but
	 * the first), the write, the read (ended by the closed pipe) */
	calls = count_of(m[0].buf, "close", &errs);
	ok_c = calls == FL_M + 1 && errs == FL_M && count_of(m[0].buf, "write", NULL) == 1 &&
	       count_of(m[0].buf, "read", NULL) == 1 && strstr(m[0].buf, " events, 100.0%");
	/* --flight: "last F of FL_M + 2" (the read was still open), F-1 closes and the write */
	snprintf(head, sizeof(head), ": last %d of %d system calls", FL_F, FL_M + 2);
	for (char *l = NULL; (l = next_line(m[1].buf, l, "): ", line, sizeof(line)));) {
		char *c = strstr(line, " close(fd: ");

		if (c && atoi(c + 11) == next) {
			closes++;
			next++;
		} else if (c) {
			order = 0;
		} else if (strstr(line, " write(fd: 1")) {
			writes++;
			order = order && closes == FL_F - 1;
			break; /* the first dump */
		}
	}
	result(test, ok_c && strstr(m[1].buf, head) && closes == FL_F - 1 && writes == 1 && order && !m[0].rc && !m[1].rc,
	       "-c -s: the cgroup's one process counted exactly: %s; --flight %d on SIGUSR1: %d closes + %d write "
	       "in order (%s); exit %d/%d",
	       ok_c ? "yes" : "NO", FL_F, closes, writes, strstr(m[1].buf, head) ? "header ok" : "NO header",
	       m[0].rc, m[1].rc);
	if (!last_ok)
		mdump(test, m, 2);
	rmdir(cg);
}

/* ---- TCP over loopback in a network namespace of its own ----------------- */

#define TCP_PORT 7071
#define TCP_BYTES 20000
#define TCP_REPLY 3000

struct conn {
	pid_t pid;           /* the client process */
	int lport;
	unsigned retrans;
	long sent, received;
};

static int lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	r = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (!r) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		r = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return r;
}

static void io_timeouts(int fd)
{
	struct timeval tv = { 10, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static long xfer(int fd, long n, int rd)
{
	static char buf[4096];
	long done = 0;

	while (rd || done < n) {
		ssize_t r = rd ? read(fd, buf, sizeof(buf))
			       : write(fd, buf, (size_t)(n - done) < sizeof(buf) ? (size_t)(n - done) : sizeof(buf));

		if (r <= 0)
			return r < 0 ? -1 : done;
		done += r;
	}
	return done;
}

/* In the namespace: the server process serves one connection (with loss:
 * drops every segment for the first 450 ms, through a socket filter),
 * this process is the client.  Reports a struct conn through fd. */
static void tcp_client_server(int report, int loss)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(TCP_PORT) };
	struct conn c = { .pid = getpid() };
	struct tcp_info ti;
	socklen_t len;
	int ls, s, one = 1;
	pid_t srv;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 4) < 0)
		_exit(20);
	srv = fork();
	if (srv == 0) {
		int cs = accept(ls, NULL, NULL);
		struct sock_filter drop[] = { { BPF_RET | BPF_K, 0, 0, 0 } };
		struct sock_fprog prog = { 1, drop };

		if (cs < 0)
			_exit(21);
		io_timeouts(cs);
		if (loss) { /* nothing gets in for a while: the client retransmits */
			setsockopt(cs, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
			sleep_ms(450); /* the RTO is 200 ms on loopback: one or two retransmits at least */
			setsockopt(cs, SOL_SOCKET, SO_DETACH_FILTER, NULL, 0);
		}
		xfer(cs, 0, 1);
		xfer(cs, TCP_REPLY, 0);
		close(cs);
		_exit(0);
	}
	close(ls);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	io_timeouts(s);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		_exit(22);
	if (loss)
		sleep_ms(100); /* the server's filter is on */
	c.sent = xfer(s, TCP_BYTES, 0);
	shutdown(s, SHUT_WR);
	c.received = xfer(s, 0, 1);
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &len);
	c.retrans = ti.tcpi_total_retrans;
	len = sizeof(a);
	getsockname(s, (struct sockaddr *)&a, &len);
	c.lport = ntohs(a.sin_port);
	close(s);
	waitpid(srv, NULL, 0);
	if (write(report, &c, sizeof(c)) != (ssize_t)sizeof(c))
		_exit(23);
	_exit(0); /* (the client's FIN_WAIT2 -> CLOSE came with the server's FIN) */
}

/* One connection from a fresh network namespace; 0 and *c filled, or -1. */
static int tcp_connection(struct conn *c, int loss)
{
	int p[2], st;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (unshare(CLONE_NEWNET) < 0 || lo_up() < 0)
			_exit(24);
		tcp_client_server(p[1], loss);
	}
	close(p[1]);
	st = read(p[0], c, sizeof(*c)) == (ssize_t)sizeof(*c) ? 0 : -1;
	close(p[0]);
	if (wait_bounded(pid, 15000) != 0)
		st = -1;
	return st;
}

/* tcplife, tcpconnect, tcpconnlat and tcpstates at once on one connection */
/* tp_only: tcpconnlat and tcpstates alone, the two that read nothing but
 * the sock:inet_sock_set_state record (they run without kernel BTF). */
static void tcp_tools(const char *test, const char *disable, int tp_only)
{
	char *a_life[] = { "corebox", "tcplife", "-D", "7071", NULL };
	char *a_conn[] = { "corebox", "tcpconnect", "-s", "-P", "7071", NULL };
	char *a_lat[] = { "corebox", "tcpconnlat", "-L", NULL };
	char *a_st[] = { "corebox", "tcpstates", "-D", "7071", NULL };
	struct mtool m[4] = { { .argv = a_life, .ready = "PID" }, { .argv = a_conn, .ready = "DPORT" },
			      { .argv = a_lat, .ready = "LAT(ms)" }, { .argv = a_st, .ready = "SKADDR" } };
	struct mtool *run = tp_only ? m + 2 : m;
	int nrun = tp_only ? 2 : 4;
	static const char want_st[] =
		"SYN_SENT>ESTABLISHED ESTABLISHED>FIN_WAIT1 FIN_WAIT1>FIN_WAIT2 FIN_WAIT2>CLOSE ";
	char line[512], want[160], sk[32] = "", seq[512] = "";
	char from[8][32], to[8][32];
	int life = 0, conn = 0, lat = 0, r, nst = 0, used[8] = { 0 };
	struct conn c;

	if (mstart(test, run, nrun, disable) < 0)
		return;
	r = tcp_connection(&c, 0);
	mstop(run, nrun);
	if (r < 0) {
		result(test, 0, "the loopback connection in a new network namespace failed");
		return;
	}
	/* tcplife: PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS */
	snprintf(want, sizeof(want), "127.0.0.1       %-5d 127.0.0.1       %-5d %-6.2f %-6.2f ", c.lport, TCP_PORT,
		 (double)TCP_BYTES / 1024, (double)TCP_REPLY / 1024);
	for (char *l = NULL; !tp_only && (l = next_line(m[0].buf, l, want, line, sizeof(line)));)
		life |= atoi(line) == c.pid;
	/* tcpconnect -s: PID COMM IP SADDR DADDR SPORT DPORT */
	snprintf(want, sizeof(want), " 4  127.0.0.1        127.0.0.1        %-5d %-5d", c.lport, TCP_PORT);
	for (char *l = NULL; !tp_only && (l = next_line(m[1].buf, l, want, line, sizeof(line)));)
		conn |= atoi(line) == c.pid;
	if (tp_only)
		life = conn = 1; /* not run */
	/* tcpconnlat -L: PID COMM IP SADDR LPORT DADDR DPORT LAT(ms) */
	snprintf(want, sizeof(want), " 127.0.0.1        %-6d 127.0.0.1        %-5d ", c.lport, TCP_PORT);
	for (char *l = NULL; (l = next_line(m[2].buf, l, want, line, sizeof(line)));)
		lat |= atoi(line) == c.pid;
	/* tcpstates: SKADDR PID COMM LADDR LPORT RADDR RPORT OLDSTATE -> NEWSTATE MS */
	for (char *l = NULL; (l = next_line(m[3].buf, l, " -> ", line, sizeof(line)));) {
		char s[32], o[32], n[32];
		int lport;

		if (sscanf(line, "%31s %*d %*s %*s %d %*s %*d %31s -> %31s", s, &lport, o, n) != 4)
			continue;
		if (!sk[0] && lport == c.lport)
			snprintf(sk, sizeof(sk), "%s", s);
		/* lport too: the socket's CLOSE>SYN_SENT comes before the bind
		 * (port 0) and is not one of the wanted transitions; when per-CPU
		 * buffers deliver it after the others it must not join the chain */
		if (sk[0] && !strcmp(s, sk) && lport == c.lport && nst < 8) {
			snprintf(from[nst], sizeof(from[nst]), "%s", o);
			snprintf(to[nst], sizeof(to[nst]), "%s", n);
			nst++;
		}
	}
	/* The chain of the socket's transitions from SYN_SENT, each one's old
	 * state the previous one's new state: with per-CPU perf buffers (the
	 * fallback run) events of different CPUs arrive in no order (6.12 once
	 * printed ESTABLISHED>FIN_WAIT1 last), as with libbpf-tools.  Every
	 * transition must be used once, none left over. */
	for (const char *cur = "SYN_SENT";;) {
		int i;

		for (i = 0; i < nst && (used[i] || strcmp(from[i], cur)); i++)
			;
		if (i == nst)
			break;
		used[i] = 1;
		snprintf(seq + strlen(seq), sizeof(seq) - strlen(seq), "%s>%s ", from[i], to[i]);
		cur = to[i];
	}
	/* (%.31s: the states are sscanf'd %31s; bounded, gcc sees the line fits) */
	for (int i = 0; i < nst; i++)
		if (!used[i])
			snprintf(seq + strlen(seq), sizeof(seq) - strlen(seq), "(extra %.31s>%.31s) ", from[i],
				 to[i]);
	result(test, life && conn && lat && !strcmp(seq, want_st) && !m[0].rc && !m[1].rc && !m[2].rc && !m[3].rc,
	       "pid %d %d -> %d: tcplife %s (TX_KB %.2f RX_KB %.2f), tcpconnect %s, tcpconnlat %s, tcpstates %s; "
	       "exit %d/%d/%d/%d",
	       (int)c.pid, c.lport, TCP_PORT, life ? "ok" : "MISSING", (double)TCP_BYTES / 1024,
	       (double)TCP_REPLY / 1024, conn ? "ok" : "MISSING", lat ? "ok" : "MISSING",
	       !strcmp(seq, want_st) ? "ok" : seq, m[0].rc, m[1].rc, m[2].rc, m[3].rc);
	if (!last_ok)
		mdump(test, run, nrun);
}

static void test_tcp(const char *test, const char *disable)
{
	tcp_tools(test, disable, 0);
}

static void test_tcp_tp(const char *test, const char *disable)
{
	tcp_tools(test, disable, 1);
}

/* tcptop's bytes (JSON rows, summed over the reports) of the rows that
 * hold `key` (e.g. "\"lport\":7071,") and, if given, `also` */
static void tcptop_bytes(const char *buf, const char *key, const char *also, long *tx, long *rx)
{
	*tx = *rx = 0;
	for (const char *s = buf; (s = strstr(s, key)); s++) {
		const char *b = s, *e = strchr(s, '}'), *r, *t, *a;

		while (b > buf && b[-1] != '{')
			b--;
		r = strstr(b, "\"rx_bytes\":");
		t = strstr(b, "\"tx_bytes\":");
		a = also ? strstr(b, also) : b;
		if (r && t && a && e && r < e && t < e && a < e) {
			*rx += atol(r + 11);
			*tx += atol(t + 11);
		}
	}
}

/* tcptop by fentry (the sock:sock_*_length tracepoints set aside) and, in
 * the fallback run, by kprobes; on 6.1, which lacks the tracepoints, the
 * same: the client's and the server's bytes exactly */
static void test_tcptop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcptop", "-j", "-C", "1", NULL }, dis[160];
	/* ready at the first report (kprobes by tracefs hold no BPF links) */
	struct mtool m[1] = { { .argv = argv, .ready = "{\"time\"" } };
	char key[32];
	long ctx, crx, stx, srx;
	struct conn c;
	int r;

	snprintf(dis, sizeof(dis), "%s%ssock_tp", disable ? disable : "", disable && *disable ? "," : "");
	if (mstart(test, m, 1, dis) < 0)
		return;
	r = tcp_connection(&c, 0);
	sleep_ms(2500); /* the next report */
	mstop(m, 1);
	if (r < 0) {
		result(test, 0, "the loopback connection in a new network namespace failed");
		return;
	}
	/* the client reads the reply after its socket closed (FIN_WAIT2 ->
	 * TIME_WAIT gives its port back): those bytes come under local port 0,
	 * as libbpf-tools shows them; so the client's rows by its pid */
	snprintf(key, sizeof(key), "\"pid\":%d,", (int)c.pid);
	tcptop_bytes(m[0].buf, key, "\"rport\":7071,", &ctx, &crx);
	tcptop_bytes(m[0].buf, "\"lport\":7071,", NULL, &stx, &srx);
	result(test, ctx == TCP_BYTES && crx == TCP_REPLY && srx == TCP_BYTES && stx == TCP_REPLY && !m[0].rc,
	       "client :%d tx %ld rx %ld, server :%d rx %ld tx %ld (want %d/%d); exit %d", c.lport, ctx, crx,
	       TCP_PORT, srx, stx, TCP_BYTES, TCP_REPLY, m[0].rc);
	if (!last_ok)
		mdump(test, m, 1);
}

/* bindsnoop: a child binds three sockets with known options (the option
 * bits are inet_sock bitfields before 6.6, inet_flags bits since): the
 * rows must show them as libbpf-tools' "FTNRr" */
static void test_bindsnoop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "bindsnoop", NULL }, line[512];
	struct mtool m[1] = { { .argv = argv, .ready = "PID" } };
	static const char *const want[3] = { "0 TCP F..R. 0 7072 0.0.0.0", "0 UDP ....r 0 7073 0.0.0.0",
					     "0 TCP .TN.. 0 0 0.0.0.0" };
	int got[3] = { 0 }, others = 0;
	pid_t child;

	if (mstart(test, m, 1, disable) < 0)
		return;
	child = fork();
	if (child == 0) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
		int one = 1, t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0),
		    n = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(t, SOL_IP, IP_FREEBIND, &one, sizeof(one));
		a.sin_port = htons(7072);
		if (bind(t, (struct sockaddr *)&a, sizeof(a)) < 0)
			_exit(1);
		setsockopt(u, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
		a.sin_port = htons(7073);
		if (bind(u, (struct sockaddr *)&a, sizeof(a)) < 0)
			_exit(2);
		setsockopt(n, SOL_IP, IP_TRANSPARENT, &one, sizeof(one));
		setsockopt(n, SOL_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
		a.sin_port = 0;
		if (bind(n, (struct sockaddr *)&a, sizeof(a)) < 0)
			_exit(3);
		_exit(0);
	}
	int st = wait_bounded(child, 5000);
	sleep_ms(300);
	mstop(m, 1);
	for (char *l = m[0].buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char comm[32], proto[8], opts[8], addr[64], row[128];
		int pid, ret, ifx, port;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
		if (sscanf(line, "%d %31s %d %7s %7s %d %d %63s", &pid, comm, &ret, proto, opts, &ifx, &port, addr) != 8 ||
		    pid != child)
			continue;
		snprintf(row, sizeof(row), "%d %s %s %d %d %s", ret, proto, opts, ifx, port, addr);
		int i;
		for (i = 0; i < 3 && strcmp(row, want[i]); i++)
			;
		if (i < 3)
			got[i]++;
		else
			others++;
	}
	result(test, st == 0 && got[0] == 1 && got[1] == 1 && got[2] == 1 && !others && !m[0].rc,
	       "child %d (exit %d): TCP F..R. 7072 %d, UDP ....r 7073 %d, TCP .TN.. 0 %d, other rows %d; exit %d",
	       (int)child, st, got[0], got[1], got[2], others, m[0].rc);
	if (!last_ok)
		mdump(test, m, 1);
}

/* tcpretrans -l (tail loss probes too: fentry, or kprobes in the fallback
 * run) and tcpretrans -c at once on one connection with loss */
static void test_tcpretrans(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpretrans", "-l", NULL }, *argv_c[] = { "corebox", "tcpretrans", "-c", NULL };
	struct mtool m[2] = { { .argv = argv, .ready = "STATE" }, { .argv = argv_c, .ready = "Tracing retransmits" } };
	char line[512], want[128], le[32];
	struct conn c;
	int n = 0, r;
	long cnt = -1;

	if (mstart(test, m, 2, disable) < 0)
		return;
	r = tcp_connection(&c, 1);
	mstop(m, 2);
	if (r < 0) {
		result(test, 0, "the loopback connection in a new network namespace failed");
		return;
	}
	/* TIME PID IP LADDR:LPORT T> RADDR:RPORT STATE */
	snprintf(le, sizeof(le), "127.0.0.1:%d", c.lport);
	snprintf(want, sizeof(want), " %-20s R> 127.0.0.1:%d ", le, TCP_PORT);
	for (char *l = NULL; (l = next_line(m[0].buf, l, want, line, sizeof(line)));)
		n++;
	/* -c: [addr]#port <-> [addr]#port count */
	snprintf(want, sizeof(want), "[127.0.0.1]#%d", c.lport);
	for (char *l = NULL; (l = next_line(m[1].buf, l, want, line, sizeof(line)));)
		if (strstr(line, " <-> [127.0.0.1]#7071 ") && strstr(line, want) == line)
			cnt = atol(strrchr(line, ' ') + 1);
	result(test, c.retrans > 0 && (unsigned)n == c.retrans && cnt == (long)c.retrans && !m[0].rc && !m[1].rc,
	       "socket-filter loss: the kernel counted %u retransmits; %d lines for the flow, -c counted %ld; exit %d/%d",
	       c.retrans, n, cnt, m[0].rc, m[1].rc);
	if (!last_ok)
		mdump(test, m, 2);
}

/* ---- tcpdrop: a cgroup's egress program drops a SYN ---- */

#define DROP_PORT 7072

static long bpf_sys(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* A cgroup_skb egress program that drops every packet and counts them in
 * map[0] (the kernel's own count of the drops): its fd, or -1. */
static int drop_counter_prog(int map)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -4, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1, .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{ 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 2, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1, .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 }, /* drop */
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_SKB;
	a.expected_attach_type = BPF_CGROUP_INET_EGRESS;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	a.license = (uint64_t)(uintptr_t)"GPL";
	return (int)bpf_sys(BPF_PROG_LOAD, &a);
}

/* In the cgroup, in a new network namespace: a listener and a connect to
 * it whose SYNs the egress program drops; after 1.5 s (the SYN and its
 * first retransmit) reports the client's port through fd. */
static void syn_dropper(const char *cg, int report)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(DROP_PORT) };
	socklen_t len = sizeof(a);
	int ls, s, one = 1, lport;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (cgroup_move(cg, getpid()) < 0 || unshare(CLONE_NEWNET) < 0 || lo_up() < 0)
		_exit(30);
	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 4) < 0)
		_exit(31);
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0 || (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0 && errno != EINPROGRESS))
		_exit(32);
	sleep_ms(1500);
	if (getsockname(s, (struct sockaddr *)&a, &len) < 0)
		_exit(33);
	lport = ntohs(a.sin_port);
	close(s);
	_exit(write(report, &lport, sizeof(lport)) == (ssize_t)sizeof(lport) ? 0 : 34);
}

/* tcpdrop: every SYN the program dropped (its count), from the client's
 * port to DROP_PORT, state SYN_SENT, flags SYN */
static void test_tcpdrop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpdrop", NULL }, cgbuf[256], want[64], src[32];
	struct mtool m[1] = { { .argv = argv, .ready = "STATE" } };
	const char *cg = cgroup_dir("cbx_tcpdrop", cgbuf, sizeof(cgbuf));
	union bpf_attr a;
	int map, prog = -1, cgfd = -1, p[2], lport = 0, rows = 0, other = 0, st = -1;
	uint64_t drops = 0;
	uint32_t key = 0;
	pid_t pid;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY, a.key_size = 4, a.value_size = 8, a.max_entries = 1;
	map = (int)bpf_sys(BPF_MAP_CREATE, &a);
	if (map >= 0)
		prog = drop_counter_prog(map);
	if (cg)
		cgfd = open(cg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgfd, a.attach_bpf_fd = (uint32_t)prog, a.attach_type = BPF_CGROUP_INET_EGRESS;
	if (!cg || map < 0 || prog < 0 || cgfd < 0 || bpf_sys(BPF_PROG_ATTACH, &a) < 0) {
		result(test, 0, "cannot set up the dropping cgroup (%s): %s", cg ? cg : "no cgroup2", strerror(errno));
		goto out;
	}
	if (mstart(test, m, 1, disable) < 0)
		goto detach;
	if (pipe2(p, O_CLOEXEC) == 0) {
		if ((pid = fork()) == 0) {
			close(p[0]);
			syn_dropper(cg, p[1]);
		}
		close(p[1]);
		st = read(p[0], &lport, sizeof(lport)) == (ssize_t)sizeof(lport) ? 0 : -1;
		close(p[0]);
		if (pid < 0 || wait_bounded(pid, 10000) != 0)
			st = -1;
	}
	mstop(m, 1);
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map, a.key = (uint64_t)(uintptr_t)&key, a.value = (uint64_t)(uintptr_t)&drops;
	bpf_sys(BPF_MAP_LOOKUP_ELEM, &a);
	/* TIME PID IP SADDR:SPORT > DADDR:DPORT STATE (FLAGS) */
	snprintf(src, sizeof(src), "127.0.0.1:%d", lport);
	snprintf(want, sizeof(want), "> 127.0.0.1:%d ", DROP_PORT);
	for (const char *l = m[0].buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n'), *w = strstr(l, want);

		if (!w || (e && w > e))
			continue;
		if (strstr(l, src) && strstr(w, " SYN_SENT (SYN)") && (!e || strstr(w, " SYN_SENT (SYN)") < e))
			rows++;
		else
			other++;
	}
	result(test, st == 0 && drops > 0 && rows == (int)drops && !other && m[0].rc == 0,
	       "SYNs to :%d dropped by a cgroup egress program: %llu (its count), %d rows from :%d SYN_SENT (SYN), "
	       "%d others; exit %d", DROP_PORT, (unsigned long long)drops, rows, lport, other, m[0].rc);
	if (!last_ok)
		mdump(test, m, 1);
detach:
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgfd, a.attach_bpf_fd = (uint32_t)prog, a.attach_type = BPF_CGROUP_INET_EGRESS;
	bpf_sys(BPF_PROG_DETACH, &a);
out:
	if (cgfd >= 0)
		close(cgfd);
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	if (cg)
		rmdir(cg);
}

VM_TEST("exitsnoop", test_exitsnoop);
VM_TEST("threadsnoop", test_threadsnoop);
VM_TEST("systrace", test_systrace);
VM_TEST("systrace.cgroup", test_systrace_cgroup);
VM_TEST("cgroup.events", test_cgroup_events);
VM_TEST("tcp", test_tcp);
VM_TEST("tcp.tp", test_tcp_tp);
VM_TEST("tcptop", test_tcptop);
VM_TEST("bindsnoop", test_bindsnoop);
VM_TEST("tcpretrans", test_tcpretrans);
VM_TEST("tcpdrop", test_tcpdrop);
