/* VM checks of the process, syscall and network tools (exitsnoop,
 * threadsnoop, systrace, tcplife, tcpconnect, tcpconnlat, tcpstates,
 * tcpretrans) against ground truth the driver makes itself:
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
#include <linux/filter.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

/* The lines of the tool's output that contain needle, one at a time:
 * for (char *l = NULL; (l = next_line(l, needle, buf, size));) ... */
static char *next_line(char *from, const char *needle, char *buf, size_t size)
{
	char *s = from ? from : out;

	for (; s && (s = strstr(s, needle)); s++) {
		char *b = s, *e;

		while (b > out && b[-1] != '\n')
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

/* Wait until pid holds its BPF links (two: sys_enter, sys_exit): 0, or -1. */
static int wait_links(pid_t pid, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	char path[64], buf[256];

	while (now_ms() < end) {
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
		if (links >= 2) {
			sleep_ms(100);
			return 0;
		}
		sleep_ms(50);
	}
	return -1;
}

/* ---- exitsnoop ---------------------------------------------------------- */

static void test_exitsnoop(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "exitsnoop", NULL }, line[512];
	struct tool_run t;
	pid_t c0, c3, ck;
	int rc, seen = 0;

	if (tool_start(&t, test, argv, disable, "PCOMM") < 0)
		return;
	if ((c0 = fork()) == 0) {
		sleep_ms(200);
		_exit(0);
	}
	if ((c3 = fork()) == 0) {
		sleep_ms(400);
		_exit(3);
	}
	if ((ck = fork()) == 0) {
		sleep_ms(10000);
		_exit(0);
	}
	sleep_ms(600);
	kill(ck, SIGKILL);
	wait_bounded(c0, 5000);
	wait_bounded(c3, 5000);
	wait_bounded(ck, 5000);
	rc = tool_stop(&t);
	for (char *l = NULL; (l = next_line(l, " ", line, sizeof(line)));) {
		char comm[32], what[64] = "";
		int pid, ppid, tid, n;
		double age;

		/* PCOMM PID PPID TID AGE(s) EXIT_CODE */
		if (sscanf(line, "%31s %d %d %d %lf %n", comm, &pid, &ppid, &tid, &age, &n) != 5 || ppid != getpid())
			continue;
		snprintf(what, sizeof(what), "%s", line + n);
		if (pid == c0 && !strcmp(what, "0") && age >= 0.2)
			seen |= 1;
		if (pid == c3 && !strcmp(what, "code 3") && age >= 0.4)
			seen |= 2;
		if (pid == ck && !strncmp(what, "signal 9 (", 10) && age >= 0.6)
			seen |= 4;
	}
	result(test, seen == 7 && rc == 0, "exit 0 %s, exit 3 %s, SIGKILL %s (with ages); exit %d",
	       seen & 1 ? "shown" : "MISSING", seen & 2 ? "shown" : "MISSING", seen & 4 ? "shown" : "MISSING", rc);
	if (!last_ok)
		dump_output(test);
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
	struct tool_run t;
	struct gate g;
	pid_t child;
	int rc, n = 0, others = 0;

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
	if (tool_start(&t, test, argv, disable, "FUNC") < 0) {
		go(&g);
		wait_bounded(child, 5000);
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	rc = tool_stop(&t);
	for (char *l = NULL; (l = next_line(l, " ", line, sizeof(line)));) {
		long ms;
		int pid;

		if (sscanf(line, "%ld %d", &ms, &pid) != 2)
			continue;
		if (pid == child)
			n++;
		else
			others++;
	}
	result(test, n == THREADS_T && !others && rc == 0,
	       "-p: %d pthreads (static musl: clone path) -> %d lines, %d others; exit %d", THREADS_T, n, others, rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- systrace --------------------------------------------------------------- */

#define ST_N 300
#define ST_M 17
#define ST_K 3

static void sysmix(void)
{
	struct timespec ts = { 0, 50 * 1000000L };

	for (int i = 0; i < ST_N; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < ST_M; i++)
		syscall(SYS_close, -1);
	for (int i = 0; i < ST_K; i++)
		syscall(SYS_nanosleep, &ts, NULL);
	syscall(SYS_exit_group, 0);
}

/* "   name  calls errors ..." of a -s table */
static long count_of(const char *name, long *errors)
{
	char needle[64], line[512], n[64];
	long calls = -1, err = -1;

	snprintf(needle, sizeof(needle), "   %s ", name);
	for (char *l = NULL; (l = next_line(l, needle, line, sizeof(line)));)
		if (sscanf(line, "%63s %ld %ld", n, &calls, &err) == 3 && !strcmp(n, name))
			break;
	if (errors)
		*errors = err;
	return calls;
}

static int summary_exact(void)
{
	long e1, e2, e3;
	int rows = 0;

	/* every table row starts with three spaces and ends in "%": exactly three */
	for (char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char *e = strchr(s, '\n');

		rows += !strncmp(s, "   ", 3) && e && e > s && e[-1] == '%';
	}
	return count_of("getppid", &e1) == ST_N && e1 == 0 && count_of("close", &e2) == ST_M && e2 == ST_M &&
	       count_of("nanosleep", &e3) == ST_K && e3 == 0 && rows == 3;
}

static void test_systrace(const char *test, const char *disable)
{
	char pidarg[16], *argv_s[] = { "corebox", "systrace", "-s", "-p", pidarg, NULL };
	char *argv_d[] = { "corebox", "systrace", "--duration", "20", "-p", pidarg, NULL };
	struct tool_run t;
	struct gate g;
	pid_t child;
	int rc, ok_s = 0, lines = 0, sleeps = 0;

	/* -s: every call counted exactly */
	child = fork_waiting(&g);
	if (child == 0)
		sysmix();
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv_s, disable, "Tracing system calls") < 0) {
		go(&g);
		wait_bounded(child, 5000);
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	rc = tool_stop(&t);
	ok_s = summary_exact() && rc == 0;
	if (!ok_s)
		dump_output(test);

	/* --duration 20: exactly the K sleeps */
	child = fork_waiting(&g);
	if (child == 0)
		sysmix();
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	/* no header in this mode (perf trace prints calls only): wait for its links */
	if (tool_start(&t, test, argv_d, disable, "") < 0 || wait_links(t.pid, 30000) < 0) {
		go(&g);
		wait_bounded(child, 5000);
		if (t.pid > 0)
			tool_stop(&t);
		result(test, 0, "systrace --duration did not attach");
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	rc = tool_stop(&t) || rc;
	for (char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		if (!strchr(s, '('))
			continue;
		lines++;
		sleeps += !strncmp(strchr(s, ')') ? strchr(s, ')') : s, "): ", 3) && strstr(s, " nanosleep(") &&
			  strstr(s, " nanosleep(") < strchr(s, '\n');
	}
	result(test, ok_s && lines == ST_K && sleeps == ST_K && rc == 0,
	       "-s: getppid %d, close %d (errors), nanosleep %d %s; --duration 20: %d lines, %d nanosleep (want %d); exit %d",
	       ST_N, ST_M, ST_K, ok_s ? "exact" : "WRONG", lines, sleeps, ST_K, rc);
	if (!last_ok)
		dump_output(test);
}

/* cgroup v2 at /sys/fs/cgroup (mounted here if nothing is), a directory
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
	char path[600], s[32];
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

#define FL_F 6
#define FL_M 40

static void test_systrace_cgroup(const char *test, const char *disable)
{
	char cg[600], fl[16], *argv_c[] = { "corebox", "systrace", "-s", "-c", cg, NULL };
	char *argv_f[] = { "corebox", "systrace", "--flight", fl, "-c", cg, NULL }, line[512];
	struct tool_run t;
	struct gate g, g2;
	pid_t child;
	int rc, ok_c, closes = 0, writes = 0, next = 1000 + FL_M - FL_F + 1, order = 1;
	char head[128];

	if (!cgroup_dir("cbxvm_systrace", cg, sizeof(cg))) {
		result(test, 0, "no cgroup v2 directory: %s", strerror(errno));
		return;
	}
	/* -c: the cgroup holds only the child */
	child = fork_waiting(&g);
	if (child == 0)
		sysmix();
	cgroup_move(cg, child);
	if (tool_start(&t, test, argv_c, disable, "Tracing system calls") < 0) {
		go(&g);
		wait_bounded(child, 5000);
		rmdir(cg);
		return;
	}
	go(&g);
	wait_bounded(child, 10000);
	rc = tool_stop(&t);
	ok_c = summary_exact() && rc == 0;
	if (!ok_c)
		dump_output(test);

	/* --flight F: on SIGUSR1 the cgroup's last F calls: F-1 closes, the write */
	snprintf(fl, sizeof(fl), "%d", FL_F);
	if (pipe2(g2.fd, O_CLOEXEC) < 0) /* the tool must not hold the write end */
		return;
	child = fork_waiting(&g);
	if (child == 0) {
		char c;

		close(g2.fd[1]);
		for (int i = 0; i < FL_M; i++)
			syscall(SYS_close, 1000 + i);
		syscall(SYS_write, 1, "", 0);                       /* write(fd: 1, count: 0): the last call */
		syscall(SYS_read, g2.fd[0], &c, 1);                 /* still open at the dump */
		_exit(0);
	}
	close(g2.fd[0]);
	cgroup_move(cg, child);
	if (tool_start(&t, test, argv_f, disable, "Recording") < 0) {
		go(&g);
		close(g2.fd[1]);
		wait_bounded(child, 5000);
		rmdir(cg);
		return;
	}
	go(&g);
	sleep_ms(500);
	kill(t.pid, SIGUSR1);
	for (uint64_t end = now_ms() + 10000; now_ms() < end && !strstr(out, "write(");)
		pump(t.fd, 100);
	/* the child's calls: close(write end), the closes, the write */
	snprintf(head, sizeof(head), ": last %d of %d system calls", FL_F, FL_M + 2);
	for (char *l = NULL; (l = next_line(l, "): ", line, sizeof(line)));) {
		char *c = strstr(line, " close(fd: ");

		if (c && atoi(c + 11) == next) {
			closes++;
			next++;
		} else if (c) {
			order = 0;
		} else if (strstr(line, " write(fd: 1")) {
			writes++;
			order = order && closes == FL_F - 1;
		}
	}
	close(g2.fd[1]);
	wait_bounded(child, 5000);
	rc = tool_stop(&t);
	result(test, ok_c && strstr(out, head) && closes == FL_F - 1 && writes >= 1 && order && rc == 0,
	       "-c: the cgroup's one process counted exactly: %s; --flight %d on SIGUSR1: %d closes + %d write in order (%s); exit %d",
	       ok_c ? "yes" : "NO", FL_F, closes, writes, strstr(out, head) ? "header ok" : "NO header", rc);
	if (!last_ok)
		dump_output(test);
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
 * drops every segment for the first 700 ms, through a socket filter),
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
			sleep_ms(700);
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
	sleep_ms(300); /* the last state changes (FIN_WAIT2 -> CLOSE) */
	_exit(0);
}

/* One connection from a fresh network namespace; 0 and *c filled, or -1. */
static int tcp_connection(struct conn *c, int loss)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p) < 0)
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

/* Run tool argv (ready on `ready`) around one connection. */
static int tcp_run(const char *test, char *const argv[], const char *disable, const char *ready,
		   struct conn *c, int loss, int *rc)
{
	struct tool_run t;
	int r;

	if (tool_start(&t, test, argv, disable, ready) < 0)
		return -1;
	r = tcp_connection(c, loss);
	*rc = tool_stop(&t);
	if (r < 0)
		result(test, 0, "the loopback connection in a new network namespace failed");
	return r;
}

static void test_tcplife(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcplife", "-D", "7071", NULL }, line[512];
	char want[128];
	struct conn c;
	int rc, ok = 0;

	if (tcp_run(test, argv, disable, "PID", &c, 0, &rc) < 0)
		return;
	/* PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS */
	snprintf(want, sizeof(want), "127.0.0.1       %-5d 127.0.0.1       %-5d %-6.2f %-6.2f ", c.lport, TCP_PORT,
		 (double)TCP_BYTES / 1024, (double)TCP_REPLY / 1024);
	for (char *l = NULL; (l = next_line(l, want, line, sizeof(line)));)
		ok |= atoi(line) == c.pid;
	result(test, ok && rc == 0, "session %d -> %d of pid %d with TX_KB %.2f RX_KB %.2f %s; exit %d", c.lport,
	       TCP_PORT, (int)c.pid, (double)TCP_BYTES / 1024, (double)TCP_REPLY / 1024, ok ? "shown" : "NOT shown", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_tcpconnect(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpconnect", "-s", "-P", "7071", NULL }, line[512], want[128];
	struct conn c;
	int rc, ok = 0;

	if (tcp_run(test, argv, disable, "DPORT", &c, 0, &rc) < 0)
		return;
	/* PID COMM IP SADDR DADDR SPORT DPORT */
	snprintf(want, sizeof(want), " 4  127.0.0.1        127.0.0.1        %-5d %-5d", c.lport, TCP_PORT);
	for (char *l = NULL; (l = next_line(l, want, line, sizeof(line)));)
		ok |= atoi(line) == c.pid;
	result(test, ok && rc == 0, "connect of pid %d, sport %d, dport %d %s; exit %d", (int)c.pid, c.lport, TCP_PORT,
	       ok ? "shown" : "NOT shown", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_tcpconnlat(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpconnlat", "-L", NULL }, line[512], want[128];
	struct conn c;
	int rc, ok = 0;

	if (tcp_run(test, argv, disable, "LAT(ms)", &c, 0, &rc) < 0)
		return;
	/* PID COMM IP SADDR LPORT DADDR DPORT LAT(ms) */
	snprintf(want, sizeof(want), " 127.0.0.1        %-6d 127.0.0.1        %-5d ", c.lport, TCP_PORT);
	for (char *l = NULL; (l = next_line(l, want, line, sizeof(line)));)
		ok |= atoi(line) == c.pid;
	result(test, ok && rc == 0, "connect latency of pid %d (lport %d) %s; exit %d", (int)c.pid, c.lport,
	       ok ? "shown" : "NOT shown", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_tcpstates(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpstates", "-D", "7071", NULL }, line[512], sk[32] = "", seq[512] = "";
	static const char want[] =
		"SYN_SENT>ESTABLISHED ESTABLISHED>FIN_WAIT1 FIN_WAIT1>FIN_WAIT2 FIN_WAIT2>CLOSE ";
	struct conn c;
	int rc;

	if (tcp_run(test, argv, disable, "SKADDR", &c, 0, &rc) < 0)
		return;
	/* SKADDR PID COMM LADDR LPORT RADDR RPORT OLDSTATE -> NEWSTATE MS */
	for (char *l = NULL; (l = next_line(l, " -> ", line, sizeof(line)));) {
		char s[32], o[32], n[32];
		int lport;

		if (sscanf(line, "%31s %*d %*s %*s %d %*s %*d %31s -> %31s", s, &lport, o, n) != 4)
			continue;
		if (!sk[0] && lport == c.lport)
			snprintf(sk, sizeof(sk), "%s", s);
		if (sk[0] && !strcmp(s, sk) && strlen(seq) + strlen(o) + strlen(n) + 3 < sizeof(seq))
			snprintf(seq + strlen(seq), sizeof(seq) - strlen(seq), "%s>%s ", o, n);
	}
	result(test, !strcmp(seq, want) && rc == 0, "client socket of port %d: %s(want %s); exit %d", c.lport, seq,
	       want, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_tcpretrans(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "tcpretrans", NULL }, *argv_c[] = { "corebox", "tcpretrans", "-c", NULL };
	char line[512], want[128], le[32];
	struct conn c, c2;
	int rc, rc2, n = 0;
	long cnt = -1;

	if (tcp_run(test, argv, disable, "STATE", &c, 1, &rc) < 0)
		return;
	/* TIME PID IP LADDR:LPORT T> RADDR:RPORT STATE */
	snprintf(le, sizeof(le), "127.0.0.1:%d", c.lport);
	snprintf(want, sizeof(want), " %-20s R> 127.0.0.1:%d ", le, TCP_PORT);
	for (char *l = NULL; (l = next_line(l, want, line, sizeof(line)));)
		n++;
	if (tcp_run(test, argv_c, disable, "Tracing retransmits", &c2, 1, &rc2) < 0)
		return;
	snprintf(want, sizeof(want), "[127.0.0.1]#%d", c2.lport);
	for (char *l = NULL; (l = next_line(l, want, line, sizeof(line)));)
		if (strstr(line, " <-> [127.0.0.1]#7071 "))
			cnt = atol(strrchr(line, ' ') + 1);
	result(test, c.retrans > 0 && (unsigned)n == c.retrans && c2.retrans > 0 && cnt == (long)c2.retrans && !rc && !rc2,
	       "socket-filter loss: %d lines for the flow, kernel says %u; -c counted %ld, kernel says %u; exit %d/%d",
	       n, c.retrans, cnt, c2.retrans, rc, rc2);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("exitsnoop", test_exitsnoop);
VM_TEST("threadsnoop", test_threadsnoop);
VM_TEST("systrace", test_systrace);
VM_TEST("systrace.cgroup", test_systrace_cgroup);
VM_TEST("tcplife", test_tcplife);
VM_TEST("tcpconnect", test_tcpconnect);
VM_TEST("tcpconnlat", test_tcpconnlat);
VM_TEST("tcpstates", test_tcpstates);
VM_TEST("tcpretrans", test_tcpretrans);
