/* VM checks of the VFS tools on kernels with fentry (and kprobes in the
 * .fallback run): vfsstat, filelife, filetop, fileslower, vfscount,
 * dcsnoop, dcstat, whose function paths this machine's kernel cannot
 * run; the .syscalls checks force
 * the system-call paths with raw tracepoints (no tp_btf), as on a kernel
 * without BTF trampolines or kprobes.  Ground truth: a gated child makes
 * N_W writes and N_R preads of 100 bytes on one file, N_F fsyncs, then
 * creates N_C files by mknod and N_C by open(O_CREAT|O_EXCL), keeps them
 * LIFE_MS and unlinks them; for dcsnoop/dcstat, it makes and removes
 * N_C new names (each a dcache miss).  (fsdist/ext4dist: t_blockfs.c,
 * on ext4.) */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define N_W 40
#define N_R 30
#define N_F 3
#define N_C 3
#define LIFE_MS 100
#define NO_KFUNCS_RAW "fentry,kprobe_pmu,kprobe,tp_btf"

static void vfs_work(void)
{
	char path[700], buf[100] = { 0 };
	struct timespec ts = { 0, LIFE_MS * 1000000L };
	int fd;

	path_of(path, sizeof(path), "cbxvm_vfs.dat");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	for (int i = 0; i < N_W; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	for (int i = 0; i < N_R; i++)
		if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			break;
	for (int i = 0; i < N_F; i++)
		fsync(fd);
	close(fd);
	for (int i = 0; i < N_C; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cbxvm_node_%d", i);
		path_of(path, sizeof(path), name);
		mknod(path, S_IFREG | 0600, 0);
		snprintf(name, sizeof(name), "cbxvm_new_%d", i);
		path_of(path, sizeof(path), name);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
			close(fd);
	}
	nanosleep(&ts, NULL);
	for (int i = 0; i < N_C; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cbxvm_node_%d", i);
		path_of(path, sizeof(path), name);
		unlink(path);
		snprintf(name, sizeof(name), "cbxvm_new_%d", i);
		path_of(path, sizeof(path), name);
		unlink(path);
	}
}

/* "how" from a tool's -v line "TOOL: ..." (the first 60 bytes) */
static void how_of(const char *tool, char *how, size_t size)
{
	char needle[32];
	const char *s;

	snprintf(needle, sizeof(needle), "%s: ", tool);
	snprintf(how, size, "?");
	for (s = out; s && (s = strstr(s, needle)); s += strlen(needle))
		if (strncmp(s + strlen(needle), "kernel BTF", 10) && strncmp(s + strlen(needle), "CO-RE", 5)) {
			snprintf(how, size, "%.60s", s + strlen(needle));
			if (strchr(how, '\n'))
				*strchr(how, '\n') = 0;
			return;
		}
}

/* vfsstat 1 (system wide): the rates, added up, at least the child's
 * calls (opens: the data file and the N_C creating opens; mknod is no
 * open).  FSYNC only where the syscall path counts fsync(2): 6.12's
 * do_fsync has vfs_fsync inlined, so its fentry/kprobe sees no call. */
static void vfsstat_run(const char *test, const char *disable, int syscalls)
{
	char pidarg[16], one[] = "1", v[] = "-v", *argv[] = { "corebox", "vfsstat", v, one, NULL };
	unsigned long long sum[5] = { 0 };
	char how[64];
	const char *s;
	pid_t child;
	int rc;

	if ((rc = run_with_child(test, argv, pidarg, disable, "TIME", vfs_work, &child)) == -1)
		return;
	for (s = out; s && (s = strchr(s, '\n')); s++) {
		unsigned long long c[5];

		if (sscanf(s + 1, "%*2d:%*2d:%*2d: %llu %llu %llu %llu %llu", &c[0], &c[1], &c[2], &c[3], &c[4]) == 5)
			for (int i = 0; i < 5; i++)
				sum[i] += c[i];
	}
	how_of("vfsstat", how, sizeof(how));
	result(test,
	       sum[0] >= N_R && sum[1] >= N_W && (sum[2] >= N_F || !syscalls) && sum[3] >= 1 + N_C && sum[4] >= N_C &&
		       rc == 0,
	       "READ %llu (>= %d) WRITE %llu (>= %d) FSYNC %llu (>= %d%s) OPEN %llu (>= %d) CREATE %llu (>= %d) via "
	       "%s; exit %d",
	       sum[0], N_R, sum[1], N_W, sum[2], N_F, syscalls ? "" : " where do_fsync calls it", sum[3], 1 + N_C,
	       sum[4], N_C, how, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_vfsstat(const char *test, const char *disable)
{
	vfsstat_run(test, disable, 0);
}

static void test_vfsstat_syscalls(const char *test, const char *disable)
{
	(void)disable;
	vfsstat_run(test, NO_KFUNCS_RAW, 1);
}

/* filelife -p CHILD: exactly its 2 * N_C files, each at least LIFE_MS old */
static void test_filelife(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", v[] = "-v", *argv[] = { "corebox", "filelife", v, p, pidarg, NULL };
	int rows = 0, old = 0, rc;
	char how[64];
	const char *s;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "Hit Ctrl-C", vfs_work, &child)) == -1)
		return;
	for (s = out; s && (s = strchr(s, '\n')); s++) {
		char comm[32], file[64];
		double age;
		int pid;

		if (sscanf(s + 1, "%*s %d %31s %lf %63s", &pid, comm, &age, file) == 4 && pid == child &&
		    !strncmp(file, "cbxvm_n", 7)) {
			rows++;
			old += age >= LIFE_MS / 1000.0;
		}
	}
	how_of("filelife", how, sizeof(how));
	result(test, rows == 2 * N_C && old == rows && rc == 0,
	       "-p %d: %d files (made %d), %d at least %d ms old, via %s; exit %d", (int)child, rows, 2 * N_C, old,
	       LIFE_MS, how, rc);
	if (!last_ok)
		dump_output(test);
}

/* filetop -C -p CHILD 60: one report at SIGINT with the file's exact counts */
static void test_filetop(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", c[] = "-C", v[] = "-v", iv[] = "60";
	char *argv[] = { "corebox", "filetop", v, c, p, pidarg, iv, NULL };
	unsigned long long r = 0, w = 0, rkb = 0, wkb = 0;
	char how[64];
	const char *s;
	pid_t child;
	int rc, tid = 0;

	if ((rc = run_with_child(test, argv, pidarg, disable, "vfs_read, vfs_write", vfs_work, &child)) == -1)
		return;
	if ((s = strstr(out, " cbxvm_vfs.dat\n"))) {
		while (s > out && s[-1] != '\n')
			s--;
		sscanf(s, "%d %*s %llu %llu %llu %llu", &tid, &r, &w, &rkb, &wkb);
	}
	how_of("filetop", how, sizeof(how));
	result(test, tid == child && r == N_R && w == N_W && rkb == N_R * 100 / 1024 && wkb == N_W * 100 / 1024 && rc == 0,
	       "-p %d: cbxvm_vfs.dat tid %d READS %llu (%d) WRITES %llu (%d) R_Kb %llu W_Kb %llu via %s; exit %d",
	       (int)child, tid, r, N_R, w, N_W, rkb, wkb, how, rc);
	if (!last_ok)
		dump_output(test);
}

/* fileslower -p CHILD 0: its N_W writes and N_R reads of 100 bytes */
static void test_fileslower(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", v[] = "-v", zero[] = "0";
	char *argv[] = { "corebox", "fileslower", v, p, pidarg, zero, NULL };
	int r = 0, w = 0, rc;
	char how[64];
	const char *s;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "FILENAME", vfs_work, &child)) == -1)
		return;
	for (s = out; s && (s = strchr(s, '\n')); s++) {
		char d[4], file[64];
		int tid, bytes;

		if (sscanf(s + 1, "%*f %*s %d %3s %d %*f %63s", &tid, d, &bytes, file) == 4 && tid == child &&
		    bytes == 100 && !strcmp(file, "cbxvm_vfs.dat")) {
			r += d[0] == 'R';
			w += d[0] == 'W';
		}
	}
	how_of("fileslower", how, sizeof(how));
	result(test, r == N_R && w == N_W && rc == 0, "-p %d 0: %d reads (%d), %d writes (%d) via %s; exit %d",
	       (int)child, r, N_R, w, N_W, how, rc);
	if (!last_ok)
		dump_output(test);
}

/* vfscount (system wide): vfs_read/vfs_write at least the child's (no
 * vfs_fsync: 6.12's do_fsync has it inlined) */
static unsigned long long func_count(const char *func)
{
	char needle[64];
	unsigned long long c = 0;
	const char *s;

	snprintf(needle, sizeof(needle), " %s ", func);
	for (s = out; s && (s = strstr(s, needle)); s += strlen(needle)) {
		const char *e = strchr(s, '\n');

		if (e && e - s < 60 && sscanf(s + strlen(needle), "%llu", &c) == 1)
			break;
	}
	return c;
}

static void test_vfscount(const char *test, const char *disable)
{
	char pidarg[16], v[] = "-v", *argv[] = { "corebox", "vfscount", v, NULL }, dis[200];
	unsigned long long r, w;
	int rc, rows;
	pid_t child;

	/* the fallback run: one probe per function (no kprobe_multi link, no
	 * multi-probe legacy event) */
	snprintf(dis, sizeof(dis), "%s%s", disable ? disable : "",
		 disable && *disable ? ",kprobe_multi,kprobe_group" : "");
	if ((rc = run_with_child(test, argv, pidarg, dis, "Tracing...", vfs_work, &child)) == -1)
		return;
	r = func_count("vfs_read"), w = func_count("vfs_write");
	rows = lines_with(" vfs_");
	result(test, r >= N_R && w >= N_W && rows > 3 && strstr(out, "ADDR             FUNC") && rc == 0,
	       "vfs_read %llu (>= %d) vfs_write %llu (>= %d), %d rows; exit %d", r, N_R, w, N_W, rows, rc);
	if (!last_ok)
		dump_output(test);
}

/* vfscount.sigint: a hang check of the detach, not a timing test (the
 * bounds are generous hang bounds, far above what a working detach
 * takes).  Stopped with SIGINT once it traces, vfscount must print its
 * report, be gone within DETACH_BOUND_MS of it, and leave no
 * kprobe_events entry of its pid and no BPF link.  vfscount puts one
 * probe on all ~75 functions: a kprobe_multi link (6.12: ~80 ms from
 * SIGINT to exit under TCG), else one legacy kprobe event with a probe
 * per function (6.1: ~1.8 s; the kernel still disarms each probe and
 * waits a grace period for each).  One probe per function -- fentry
 * links, kprobe PMU events -- took 9-13 s on 6.1 (each waits out its
 * own grace periods, one after the other): that fails here.  The log
 * line gives the times. */
#define DETACH_BOUND_MS 5000
/* vfscount.early's SIGINT comes while it starts: the start-up (resolve,
 * load, attach: 2-4 s under TCG) runs to its end first */
#define START_BOUND_MS 30000

static void sigint_check(const char *test, const char *disable, const char *ready, int early_ms)
{
	char *argv[] = { "corebox", "vfscount", NULL }, dis[200];
	uint64_t t0, t_report = 0, t_end;
	struct tool_run t;
	int rc, left, links, eof = 0;

	/* the fallback run: one legacy kprobe event where 6.12 has kprobe_multi */
	snprintf(dis, sizeof(dis), "%s%s", disable ? disable : "", disable && *disable ? ",kprobe_multi" : "");
	links = bpf_links();
	if (tool_start(&t, test, argv, dis, ready) < 0)
		return;
	if (early_ms)
		usleep((useconds_t)early_ms * 1000);
	kill(t.pid, SIGINT);
	t0 = now_ms();
	while (now_ms() < t0 + START_BOUND_MS + DETACH_BOUND_MS && (eof = !pump(t.fd, 50)) == 0)
		if (!t_report && out && strstr(out, "ADDR "))
			t_report = now_ms();
	t_end = now_ms();
	if (!eof) { /* where it hangs: its kernel stack */
		char path[64], b[2048];
		int sfd;
		ssize_t k;

		snprintf(path, sizeof(path), "/proc/%d/stack", (int)t.pid);
		if ((sfd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
			k = read(sfd, b, sizeof(b) - 1);
			b[k > 0 ? k : 0] = 0;
			for (char *q = b; *q; q++)
				if (*q == '\n')
					*q = '|';
			printf("VMTEST-LOG %s stack %s\n", test, b);
			close(sfd);
		}
	}
	rc = wait_bounded(t.pid, eof ? 1000 : 0);
	close(t.fd);
	left = own_kprobe_events(t.pid);
	links = bpf_links() - links;
	printf("VMTEST-LOG %s SIGINT -> report %llu ms -> exit %llu ms\n", test,
	       t_report ? (unsigned long long)(t_report - t0) : 0ull, (unsigned long long)(t_end - t0));
	result(test, eof && rc == 0 && t_report && t_end - t_report <= DETACH_BOUND_MS && left == 0 && links <= 0,
	       "exit %d %llu ms after its report (bound %d ms)%s, %d kprobe_events entries and %d BPF links left", rc,
	       t_report ? (unsigned long long)(t_end - t_report) : 0ull, DETACH_BOUND_MS,
	       !eof ? ", NOT gone" : t_report ? "" : ", no report", left, links > 0 ? links : 0);
	if (!last_ok)
		dump_output(test);
}

static void test_vfscount_sigint(const char *test, const char *disable)
{
	sigint_check(test, disable, "Tracing...", 0);
}

/* the same with SIGINT 300 ms after the start, while it loads or attaches:
 * it prints its (empty) report, exits 0 and leaves nothing behind */
static void test_vfscount_sigint_early(const char *test, const char *disable)
{
	sigint_check(test, disable, "", 300);
}

/* dcache: N_C new names made with mknod (each a d_lookup that finds
 * nothing: filename_create), then unlinked; and N_C stats of a path
 * whose leading components are walked by lookup_fast (references) */
static void dc_work(void)
{
	char path[700], name[32];
	struct stat st;

	for (int i = 0; i < N_C; i++) {
		stat("/proc/self/status", &st);
		snprintf(name, sizeof(name), "cbxvm_dc_%d", i);
		path_of(path, sizeof(path), name);
		mknod(path, S_IFREG | 0600, 0);
		unlink(path);
	}
}

/* dcsnoop: a miss of each new name for the child's pid */
static void test_dcsnoop(const char *test, const char *disable)
{
	char pidarg[16], v[] = "-v", *argv[] = { "corebox", "dcsnoop", v, NULL };
	int found = 0, rc;
	char how[64];
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "TIME(s)", dc_work, &child)) == -1)
		return;
	for (int i = 0; i < N_C; i++) {
		char needle[64];
		const char *s;

		snprintf(needle, sizeof(needle), " M cbxvm_dc_%d\n", i);
		for (s = out; s && (s = strstr(s, needle)); s += strlen(needle)) {
			const char *b = s;
			int pid = 0;

			while (b > out && b[-1] != '\n')
				b--;
			if (sscanf(b, "%*f %d", &pid) == 1 && pid == child) {
				found++;
				break;
			}
		}
	}
	how_of("dcsnoop", how, sizeof(how));
	result(test, found == N_C && strstr(out, "TIME(s)     PID     COMM             T FILE") && rc == 0,
	       "misses of the child's %d new names: %d, via %s; exit %d", N_C, found, how, rc);
	if (!last_ok)
		dump_output(test);
}

/* dcstat 1: MISS/s added up at least the child's new names, REFS/s its
 * path walks */
static void test_dcstat(const char *test, const char *disable)
{
	char pidarg[16], v[] = "-v", one[] = "1", *argv[] = { "corebox", "dcstat", v, one, NULL };
	unsigned long long refs = 0, miss = 0;
	char how[64];
	const char *s;
	pid_t child;
	int rc;

	if ((rc = run_with_child(test, argv, pidarg, disable, "HIT%", dc_work, &child)) == -1)
		return;
	for (s = out; s && (s = strchr(s, '\n')); s++) {
		unsigned long long r, sl, m;

		if (sscanf(s + 1, "%*2d:%*2d:%*2d: %llu %llu %llu", &r, &sl, &m) == 3)
			refs += r, miss += m;
	}
	how_of("dcstat", how, sizeof(how));
	result(test, miss >= N_C && refs >= N_C && rc == 0, "REFS %llu (>= %d) MISS %llu (>= %d) via %s; exit %d",
	       refs, N_C, miss, N_C, how, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("vfsstat", test_vfsstat);
VM_TEST_ONCE("vfsstat.syscalls", test_vfsstat_syscalls);
/* the system-call paths with raw tracepoints (kernels without fentry,
 * kprobes and tp_btf) */
static void test_filelife_syscalls(const char *test, const char *disable)
{
	(void)disable;
	test_filelife(test, NO_KFUNCS_RAW);
}

static void test_filetop_syscalls(const char *test, const char *disable)
{
	(void)disable;
	test_filetop(test, NO_KFUNCS_RAW);
}

static void test_fileslower_syscalls(const char *test, const char *disable)
{
	(void)disable;
	test_fileslower(test, NO_KFUNCS_RAW);
}

VM_TEST("filelife", test_filelife);
VM_TEST_ONCE("filelife.syscalls", test_filelife_syscalls);
VM_TEST("filetop", test_filetop);
VM_TEST_ONCE("filetop.syscalls", test_filetop_syscalls);
VM_TEST("fileslower", test_fileslower);
VM_TEST_ONCE("fileslower.syscalls", test_fileslower_syscalls);
VM_TEST("vfscount", test_vfscount);
VM_TEST("vfscount.sigint", test_vfscount_sigint);
VM_TEST("vfscount.early", test_vfscount_sigint_early);
VM_TEST("dcsnoop", test_dcsnoop);
VM_TEST("dcstat", test_dcstat);
