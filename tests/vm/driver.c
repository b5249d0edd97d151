/* The /init of `make vmtest` (tests/vm/run.sh): PID 1 of a bare initramfs
 * that holds only this driver, /corebox, /mechtest, /mech.bpf.o and the
 * kernel's loop.ko.  It mounts /proc, /sys and /dev (nothing else: corebox
 * must mount tracefs itself), loads loop.ko with finit_module(2), runs the
 * mechanism test (/mechtest, three passes with different COREBOX_DISABLE
 * settings) and the tool smoke suite with its own ground truth (an exec of
 * a marked program, an open of a marked path, N getppid() calls in a known
 * process, K O_DIRECT reads on a loop device), then powers off.
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

#include "vm.h"

#define MECH_N 100

int fails, last_ok;
const char *dir = "";    /* "" in the VM: files at /corebox etc. */
const char *expect = ""; /* "auto": any mechanism is fine (own kernels) */
/* vmtest.nofentry: the kernel has no trampolines to attach fentry/fexit
 * with (arm64 before 6.4), kprobes are its best kfunc mechanism */
static int no_fentry;
char self[512];
char *out;               /* the running tool's output */
size_t out_len, out_cap;

void result(const char *test, int ok, const char *fmt, ...)
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

uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", *dir ? dir : "", name);
}

/* ---- waiting for children, bounded ---- */

int wait_bounded(pid_t pid, int ms)
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

/* The kernel's run statistics (kernel.bpf_stats_enabled) of the programs
 * loaded since `since`: their summed run time (ns) and runs, how many, how
 * many of them the JIT compiled. */
uint64_t prog_run_ns(uint64_t since, uint64_t *runs, int *progs, int *jited)
{
	uint64_t ns = 0;
	int id = 0;

	*runs = 0;
	*progs = *jited = 0;
	while ((id = next_id(BPF_PROG_GET_NEXT_ID, (uint32_t)id)) > 0) {
		struct bpf_prog_info pi;
		int fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, (uint32_t)id);

		if (fd < 0)
			continue;
		memset(&pi, 0, sizeof(pi));
		if (obj_info(fd, &pi, sizeof(pi)) == 0 && pi.load_time >= since) {
			ns += pi.run_time_ns;
			*runs += pi.run_cnt;
			++*progs;
			*jited += pi.jited_prog_len > 0;
		}
		close(fd);
	}
	return ns;
}

/* Print VMTEST-MECH for every program loaded since `since` (boot ns). */
void report_mechanisms(const char *test, uint64_t since)
{
	static struct { uint32_t prog; const char *mech; } links[1024]; /* static: many probes */
	int nl = 0, np = 0;
	int id = 0;

	while ((id = next_id(BPF_LINK_GET_NEXT_ID, (uint32_t)id)) > 0 && nl < 1024) {
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
int pump(int fd, int ms)
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
void dump_output(const char *test)
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

int tool_start(struct tool_run *t, const char *test, char *const argv[], const char *disable,
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
int tool_stop(struct tool_run *t)
{
	uint64_t end;
	int rc;

	usleep(300000); /* let the last events reach user space */
	kill(t->pid, SIGINT);
	/* a bound for a hung tool, not a deadline: a tool that names kernel
	 * addresses at exit scans /proc/kallsyms, and a TCG guest on a host
	 * at load 18 once took over 12 s for smpcalls' (exit -2 after 65 s) */
	end = now_ms() + 30000;
	while (now_ms() < end && pump(t->fd, 100))
		;
	rc = wait_bounded(t->pid, 2000);
	close(t->fd);
	return rc;
}

/* ---- gated children (vm.h) ---- */

/* A child that waits for the gate (a byte on a pipe), runs fn, says done
 * (a byte on another pipe) and then stays alive until killed (at most a
 * minute): the tools read its /proc/PID/maps when they print, after the
 * run.  Returns its pid; *gate and *done are the parent's ends. */
pid_t gated_child(int *gate, int *done, void (*fn)(void))
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
			alarm(60); /* no sleeping calls: a check may count them */
			for (;;)
				pause();
		}
		_exit(0);
	}
	close(g[0]);
	close(d[1]);
	*gate = g[1];
	*done = d[0];
	return child;
}

int start_with_child(struct tool_run *t, const char *test, char **argv, char *pidarg, const char *disable,
		     const char *ready, void (*fn)(void), pid_t *childp)
{
	int gate, done;
	pid_t child = gated_child(&gate, &done, fn);

	if (child < 0)
		return -1;
	*childp = child;
	snprintf(pidarg, 16, "%d", (int)child);
	if (tool_start(t, test, argv, disable, ready) < 0) {
		close(gate);
		close(done);
		end_child(child);
		return -1;
	}
	open_gate(gate);
	return wait_done(done, 10000);
}

int run_with_child(const char *test, char **argv, char *pidarg, const char *disable, const char *ready,
		   void (*fn)(void), pid_t *childp)
{
	struct tool_run t;
	int rc, finished = start_with_child(&t, test, argv, pidarg, disable, ready, fn, childp);

	if (finished < 0)
		return -1;
	rc = tool_stop(&t);
	end_child(*childp);
	return finished ? rc : -3;
}

/* The BPF links in the system (BPF_LINK_GET_NEXT_ID, 5.8+) */
int bpf_links(void)
{
	union bpf_attr a;
	int n = 0;

	memset(&a, 0, sizeof(a));
	while (n < 100000 && syscall(SYS_bpf, BPF_LINK_GET_NEXT_ID, &a, sizeof(a)) == 0) {
		n++;
		a.start_id = a.next_id;
	}
	return n;
}

int own_kprobe_events(pid_t pid)
{
	char needle[48], *buf = malloc(1 << 20);
	int fd, n = 0, mounted = 0;
	ssize_t len = 0, r;

	/* the driver mounts no tracefs (corebox mounts its own, privately) */
	if (access("/sys/kernel/tracing/kprobe_events", F_OK) != 0)
		mounted = mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0;
	fd = open("/sys/kernel/tracing/kprobe_events", O_RDONLY | O_CLOEXEC);
	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		if (mounted)
			umount("/sys/kernel/tracing");
		return -1;
	}
	while (len < (1 << 20) - 1 && (r = read(fd, buf + len, (size_t)((1 << 20) - 1 - len))) > 0)
		len += r;
	close(fd);
	if (mounted)
		umount("/sys/kernel/tracing");
	buf[len] = 0;
	snprintf(needle, sizeof(needle), "/corebox_%d_", (int)pid);
	for (const char *s = buf; (s = strstr(s, needle)); s++)
		n++;
	free(buf);
	return n;
}

int lines_with(const char *needle)
{
	int n = 0;

	for (const char *s = out; s && (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

void open_gate(int gate)
{
	char c = 1;

	if (write(gate, &c, 1) != 1)
		printf("# gate: %s\n", strerror(errno));
	close(gate);
}

/* Wait (up to ms) for the child's done byte: 1 when it came. */
int wait_done(int done, int ms)
{
	struct pollfd p = { .fd = done, .events = POLLIN };
	char c;
	int ok = poll(&p, 1, ms) == 1 && read(done, &c, 1) == 1;

	close(done);
	return ok;
}

void end_child(pid_t child)
{
	kill(child, SIGKILL);
	wait_bounded(child, 5000);
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

/* --only A,B or vmtest.only=A,B on the kernel command line (run.sh
 * --tests): just those checks (both modes), no mechanism runs; for
 * working on one check without the whole guest's minutes */
static char only[512]; /* (armhf's list in kernels.txt is ~280 bytes) */

int main(int argc, char **argv)
{
	int vm = getpid() == 1;
	ssize_t n;
	char cmd[1024] = "", *p;
	int fd;

	if (argc >= 3 && !strcmp(argv[1], "--marker"))
		return 0; /* the marked program of the execsnoop test */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
			expect = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			snprintf(only, sizeof(only), ",%s,", argv[++i]);
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
		if ((p = strstr(cmd, "vmtest.only=")))
			snprintf(only, sizeof(only), ",%.*s,", (int)strcspn(p + 12, " \n"), p + 12);
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
	/* a kernel without BTF: the guest may hold the tools' part of it, made
	 * elsewhere (run.sh btf=dbg), found as a user would pass it */
	if (strstr(cmd, "vmtest.nobtf")) { /* the kernel's BTF hidden: the no-BTF paths */
		setenv("COREBOX_SYSFS_BTF", "/nonexistent", 1);
		printf("VMTEST-BTF none (COREBOX_SYSFS_BTF=/nonexistent)\n");
	}
	if (vm && access("/btf", R_OK) == 0) {
		setenv("COREBOX_BTF", "/btf", 1);
		printf("VMTEST-BTF /btf (COREBOX_BTF)\n");
	}

	/* every loader mechanism: best path, then the fallbacks */
	if (!*only) {
		run_mechtest("best", "", "fentry", "tp_btf");
		run_mechtest("nofentry", "fentry,tp_btf", "kprobe", "raw_tp");
		run_mechtest("legacy", "fentry,kprobe_pmu,perf_link,uprobe_multi", "kprobe_legacy", "tp_btf");
	}

	/* the tools (every VM_TEST in tests/vm/t_*.c): as they choose, then
	 * with every fallback forced */
	static const struct { const char *suffix, *disable; } modes[] = {
		{ "", "" },
		{ ".fallback", "fentry,tp_btf,ringbuf,kprobe_pmu,perf_link,uprobe_multi" },
	};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		for (const struct vm_test *t = __start_vmtests; t < __stop_vmtests; t++) {
			char name[64];

			char key[72];

			snprintf(key, sizeof(key), ",%s,", t->name);
			if ((m && t->once) || (*only && !strstr(only, key)) || (t->once == 2 && !*only))
				continue;
			uint64_t t0 = now_ms();

			snprintf(name, sizeof(name), "%s%s", t->name, modes[m].suffix);
			t->fn(name, modes[m].disable);
			printf("VMTIME %s %.1f s\n", name, (now_ms() - t0) / 1000.0); /* where the guest's minutes go */
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
