/* The memory tools' VM checks, each against ground truth it creates in a
 * forked child of this driver (named with prctl so its comm is known):
 *   memleak      K allocations leaked from a known function of this
 *                (static, musl) driver: uprobes on its own malloc;
 *   oomkill, drsnoop -M, vmscan   a child over a cgroup v2 memory.max:
 *                the memcg reclaims, then OOM-kills it;
 *   drsnoop      a child that outgrows the VM's memory: direct reclaim,
 *                then a global OOM kill (once);
 *   compactsnoop a write to compact_memory: one event per populated zone;
 *   extfrag -I   equal to the kernel's debugfs extfrag_index, read before
 *                and after with the same result;
 *   faults       P pages touched; ffaults: a mapped block device's pages;
 *   hfaults      two huge pages faulted (hugetlb_fault by fentry/kprobe);
 *   swapin       swap on the loop device, a child pushed to swap by its
 *                cgroup and read back: the tool's count against the
 *                kernel's pswpin;
 *   numamove     runs (one node here: zero, said once);
 *   mmapsnoop, brkstack, shmsnoop   N mmaps, M brk calls, a shm sequence.
 * Mechanisms are reported per test (VMTEST-MECH). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm.h"

/* Each result line ends with the check's duration (the VM's time budget). */
static uint64_t t0;
#define RESULT(test, ok, fmt, ...) \
	result(test, ok, fmt " (%.1f s)", ##__VA_ARGS__, (double)(now_ms() - t0) / 1000.0)

/* ---- children ---------------------------------------------------------- */

/* The workload of the next gated child (vm.h): fn(arg), under comm. */
static void (*w_fn)(long);
static long w_arg;
static const char *w_comm;

static void w_run(void)
{
	prctl(PR_SET_NAME, w_comm, 0, 0, 0);
	w_fn(w_arg);
}

/* The common shape of a check: a gated child named comm that runs
 * fn(arg), the tool (argv, which may point at pid) started and ready, the
 * child's work (bounded by work_ms), the tool's output for pump_ms more,
 * SIGINT.  The tool's exit status, or INT_MIN when something did not
 * start (a FAIL line was printed); *work: 1 when the child said done
 * (0: it died, an OOM victim say, or ran out of time). */
static int run_on_child(const char *test, const char *disable, char *const argv[], const char *ready,
			char pid[16], const char *comm, void (*fn)(long), long arg, int work_ms, int pump_ms,
			int *work)
{
	struct tool_run t;
	uint64_t end;
	int gate, done, rc;
	pid_t child;

	w_fn = fn;
	w_arg = arg;
	w_comm = comm;
	child = gated_child(&gate, &done, w_run);
	if (child < 0) {
		result(test, 0, "fork: %s", strerror(errno));
		return INT_MIN;
	}
	snprintf(pid, 16, "%d", (int)child);
	if (tool_start(&t, test, argv, disable, ready) < 0) {
		close(gate);
		close(done);
		end_child(child);
		return INT_MIN;
	}
	open_gate(gate);
	*work = wait_done(done, work_ms);
	for (end = now_ms() + (uint64_t)pump_ms; now_ms() < end;)
		pump(t.fd, 100);
	rc = tool_stop(&t);
	end_child(child);
	return rc;
}

/* Lines of the tool's output containing every one of the strings. */
static int count_lines(const char *a, const char *b, const char *c)
{
	int n = 0;

	for (char *s = out; s && *s;) {
		char *nl = strchr(s, '\n'), line[1024];
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), s);
		if (strstr(line, a) && (!b || strstr(line, b)) && (!c || strstr(line, c)))
			n++;
		s += len + (nl != NULL);
	}
	return n;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/* The whole file (proc files come a page per read) into buf. */
static int read_str(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = 0;
	return len > 0 ? 0 : -1;
}

static long long vmstat(const char *key)
{
	static char buf[16384];
	char *p;
	size_t n = strlen(key);

	if (read_str("/proc/vmstat", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

/* ---- cgroup v2 with the memory controller ------------------------------ */

static char cgdir[128];

/* /sys/fs/cgroup/cbxmem with memory.max (and swap.max): 0 or -1. */
static int memcg(const char *max, const char *swap_max)
{
	static int mounted;
	char path[192];

	if (!mounted) {
		mkdir("/sys/fs/cgroup", 0755);
		if (mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL) < 0 && errno != EBUSY)
			return -1;
		mounted = 1;
	}
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	snprintf(cgdir, sizeof(cgdir), "/sys/fs/cgroup/cbxmem");
	rmdir(cgdir);
	if (mkdir(cgdir, 0755) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/memory.max", cgdir);
	if (write_str(path, max) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/memory.swap.max", cgdir);
	write_str(path, swap_max);
	return 0;
}

static void memcg_join(void)
{
	char path[192], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgdir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_str(path, pid);
}

/* ---- the workloads (run in the children) ------------------------------- */

#define LEAK_K 29
#define LEAK_SIZE 3709
/* volatile: the compiler may not drop an allocation nothing reads */
static void *volatile kept[LEAK_K];

__attribute__((noinline)) void cbxvm_leak(long k)
{
	for (long i = 0; i < k && i < LEAK_K; i++)
		kept[i] = malloc(LEAK_SIZE);
}

static void w_leak(long k)
{
	cbxvm_leak(k);
	for (int i = 0; i < 50; i++) { /* allocations that are freed */
		void *volatile p = malloc(1777);

		free(p);
	}
}

/* anonymous memory, touched (MB); in the cgroup when arg < 0 */
static void w_anon(long mb)
{
	char *p;

	if (mb < 0) {
		memcg_join();
		mb = -mb;
	}
	p = mmap(NULL, (size_t)mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (long i = 0; i < mb << 20; i += 4096)
		p[i] = 1;
}

/* more than the VM has: direct reclaim, then the OOM killer.  Huge
 * pages where the kernel gives them: 512 times fewer faults to emulate */
static void w_flood(long unused)
{
	(void)unused;
	write_str("/proc/self/oom_score_adj", "1000");
	for (int i = 0; i < 256; i++) { /* up to 4 GiB in 16 MiB steps */
		char *p = mmap(NULL, 16 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return;
		madvise(p, 16 << 20, MADV_HUGEPAGE);
		for (long j = 0; j < 16 << 20; j += 4096)
			p[j] = 1;
	}
}

static void w_compact(long unused)
{
	(void)unused;
	write_str("/proc/sys/vm/compact_memory", "1");
}

#define TOUCH_P 200
static void w_touch(long p)
{
	volatile char *m = mmap(NULL, (size_t)p * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return;
	for (long i = 0; i < p; i++)
		m[i * 4096] = 1;
}

/* read each page of the loop device through a shared file mapping */
static void w_mapdev(long unused)
{
	char dev[64];
	int fd;
	volatile char *m;
	unsigned sum = 0;

	(void)unused;
	snprintf(dev, sizeof(dev), "/dev/loop%d", loop_dev);
	fd = open(dev, O_RDONLY);
	if (fd < 0)
		return;
	m = mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return;
	for (long i = 0; i < 1 << 20; i += 4096)
		sum += (unsigned char)m[i];
	(void)sum;
}

static void w_huge(long n)
{
	char *p = mmap(NULL, (size_t)n << 21, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (long i = 0; i < n; i++)
		p[i << 21] = 1;
}

/* pushed to swap by the cgroup's limit, then read back */
static void w_swap(long mb)
{
	volatile char *p;
	unsigned sum = 0;

	memcg_join();
	p = mmap(NULL, (size_t)mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	/* not zero: 6.12+ keeps zero-filled pages out of swap (its zeromap)
	 * and reads them back without I/O */
	for (long i = 0; i < mb << 20; i += 4096)
		p[i] = (char)(1 + (i >> 12) % 251);
	for (long i = 0; i < mb << 20; i += 4096)
		sum += (unsigned char)p[i];
	(void)sum;
}

#define SYS_N 5
#define SYS_PAGES 3
#define SYS_M 9
#define SYS_SHM 24690
static void w_syscalls(long unused)
{
	int fd = open(self, O_RDONLY), id;
	void *p;

	(void)unused;
	for (int i = 0; i < SYS_N && fd >= 0; i++)
		mmap(NULL, SYS_PAGES * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	for (int i = 0; i < SYS_M; i++)
		syscall(SYS_brk, 0);
	id = shmget(IPC_PRIVATE, SYS_SHM, IPC_CREAT | 0600);
	p = shmat(id, NULL, SHM_RDONLY);
	shmdt(p);
	shmctl(id, IPC_RMID, NULL);
}

/* ---- the checks ------------------------------------------------------------ */

static void test_memleak(const char *test, const char *disable)
{
	char pid[16], want[64];
	char *argv[] = { "corebox", "memleak", "-p", pid, "-o", "0", "1", NULL };
	int rc, ok, st;

	t0 = now_ms();
	/* two one-second reports after the leak */
	rc = run_on_child(test, disable, argv, "Attaching to pid", pid, "cbxvm_leak", w_leak, LEAK_K, 10000, 2500, &st);
	if (rc == INT_MIN)
		return;
	snprintf(want, sizeof(want), "%d bytes in %d allocations from stack", LEAK_K * LEAK_SIZE, LEAK_K);
	ok = st == 1 && count_lines(want, NULL, NULL) >= 1 && count_lines("] cbxvm_leak+0x", NULL, NULL) >= 1 &&
	     !count_lines("50 allocations", NULL, NULL) && rc == 0;
	RESULT(test, ok, "-p %s (static musl malloc in this driver): '%s' from cbxvm_leak %s; exit %d", pid, want,
	       ok ? "seen, the freed ones not" : "NOT seen as expected", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_memleak_kernel(const char *test, const char *disable)
{
	t0 = now_ms();
	char *argv[] = { "corebox", "memleak", "-v", "-o", "0", "1", "1", NULL };
	struct tool_run t;
	int rc, stacks;

	if (tool_start(&t, test, argv, disable, "Attaching to kernel allocators") < 0)
		return;
	{
		uint64_t end = now_ms() + 30000; /* every kernel allocation traced: slow under emulation */

		while (now_ms() < end && !count_lines("Top ", "outstanding", NULL))
			if (!pump(t.fd, 100))
				break;
	}
	rc = tool_stop(&t);
	stacks = count_lines(" bytes in ", "allocations from stack", NULL);
	RESULT(test, stacks > 0 && count_lines("\t0 [<ffff", NULL, NULL) > 0 && (rc == 0 || rc == -1),
	       "kernel allocators: %d stacks with kernel frames; exit %d", stacks, rc);
	if (!last_ok)
		dump_output(test);
}

/* oomkill + drsnoop -M + vmscan share one workload: 64 MiB in a cgroup
 * limited to 8 MiB (memcg reclaim, then the OOM kill) */
static void test_memcg(const char *test, const char *disable, const char *tool)
{
	char *oom[] = { "corebox", "oomkill", NULL };
	char *dr[] = { "corebox", "drsnoop", "-M", NULL };
	char *vm[] = { "corebox", "vmscan", "-j", "1", NULL };
	char **argv = !strcmp(tool, "oomkill") ? oom : !strcmp(tool, "drsnoop") ? dr : vm;
	const char *ready = argv == oom ? "Tracing OOM kills" : argv == dr ? "TIME" : "Attaching";
	char pid[16], victim[96];
	int rc, ok, st;

	t0 = now_ms();
	if (memcg("8M", "0") < 0) {
		RESULT(test, 0, "cannot create a cgroup v2 with memory.max: %s", strerror(errno));
		return;
	}
	/* the victim never says done; its kill reaches the tool meanwhile */
	rc = run_on_child(test, disable, argv, ready, pid, "cbxvm_hog", w_anon, -64, 20000, 1500, &st);
	rmdir(cgdir);
	if (rc == INT_MIN)
		return;
	if (argv == oom) {
		snprintf(victim, sizeof(victim), "OOM kill of PID %s (\"cbxvm_hog\"), ", pid);
		ok = count_lines(victim, " pages", "loadavg: ") == 1;
		RESULT(test, ok && rc == 0, "the memcg OOM kill of cbxvm_hog (pid %s) %s%s; exit %d", pid,
		       ok ? "named" : "NOT named", ok && count_lines(victim, "pages RSS", NULL) ? " (pages: victim RSS)"
									  : " (pages: oc->totalpages)", rc);
	} else if (argv == dr) {
		int n = count_lines(" cbxvm_hog ", pid, "memcg");

		RESULT(test, n > 0 && rc == 0, "-M: %d memcg reclaim events of cbxvm_hog (tid %s); exit %d", n, pid, rc);
	} else {
		int n = 0;

		for (char *p = out; p && (p = strstr(p, "\"memcg_reclaim_ns\":")); p++)
			n += atoll(p + 19) > 0;
		RESULT(test, n > 0 && rc == 0, "memory cgroup reclaim time > 0 in %d interval(s); exit %d", n, rc);
	}
	if (!last_ok)
		dump_output(test);
}

static void test_oomkill(const char *test, const char *disable) { test_memcg(test, disable, "oomkill"); }
static void test_drsnoop_memcg(const char *test, const char *disable) { test_memcg(test, disable, "drsnoop"); }
static void test_vmscan(const char *test, const char *disable) { test_memcg(test, disable, "vmscan"); }

/* global pressure: direct reclaim by the flooding child, then its OOM kill */
static void test_drsnoop_direct(const char *test, const char *disable)
{
	char pid[16], *argv[] = { "corebox", "drsnoop", "-e", NULL };
	int rc, n, st;

	t0 = now_ms();
	rc = run_on_child(test, disable, argv, "TIME", pid, "cbxvm_flood", w_flood, 0, 60000, 0, &st);
	if (rc == INT_MIN)
		return;
	n = count_lines(" cbxvm_flood ", pid, NULL);
	RESULT(test, n > 0 && rc == 0, "direct reclaim by cbxvm_flood (tid %s) out of the VM's memory: %d events "
	       "(with FREE(KB)); exit %d", pid, n, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_compactsnoop(const char *test, const char *disable)
{
	char pid[16], field[24], buddy[4096], *argv[] = { "corebox", "compactsnoop", "-K", NULL };
	int rc, n, st, zones = 0;

	t0 = now_ms();
	if (read_str("/proc/buddyinfo", buddy, sizeof(buddy)) == 0)
		for (char *p = buddy; (p = strstr(p, "Node ")); p++)
			zones++;
	rc = run_on_child(test, disable, argv, "STATUS", pid, "cbxvm_compact", w_compact, 0, 30000, 0, &st);
	if (rc == INT_MIN)
		return;
	snprintf(field, sizeof(field), " %s ", pid);
	n = count_lines("cbxvm_compact", field, " SYNC ");
	/* -K: the stack up to compact_node; the 32-bit arm kernel (Thumb-2, no
	 * frame pointers) gives BPF only the first frame, compact_zone */
#if defined(__arm__)
	const char *frame = "compact_zone";
#else
	const char *frame = "compact_node";
#endif
	RESULT(test, n == zones && count_lines(frame, NULL, NULL) > 0 && rc == 0,
	       "compact_memory written by pid %s: %d events (%d populated zones), -K stacks; exit %d", pid, n, zones,
	       rc);
	if (!last_ok)
		dump_output(test);
}

/* The kernel's own extfrag_index (debugfs) against extfrag -I, when
 * /proc/buddyinfo and the index are the same before and after. */
static void test_extfrag(const char *test, const char *disable)
{
	t0 = now_ms();
	static char k1[8192], k2[8192], b1[4096], b2[4096];
	char *argv[] = { "corebox", "extfrag", "-I", NULL };
	int same = 0, match = 0, lines = 0;

	mkdir("/sys/kernel/debug", 0755);
	mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	for (int i = 0; i < 10 && !same; i++) {
		struct tool_run t;

		read_str("/proc/buddyinfo", b1, sizeof(b1));
		read_str("/sys/kernel/debug/extfrag/extfrag_index", k1, sizeof(k1));
		if (tool_start(&t, test, argv, disable, "Fragmentation index") < 0)
			return;
		while (pump(t.fd, 200))
			;
		wait_bounded(t.pid, 5000);
		close(t.fd);
		read_str("/proc/buddyinfo", b2, sizeof(b2));
		read_str("/sys/kernel/debug/extfrag/extfrag_index", k2, sizeof(k2));
		same = !strcmp(b1, b2) && !strcmp(k1, k2) && k1[0];
	}
	if (!same) {
		RESULT(test, 0, "the kernel's extfrag_index was %s",
		       k1[0] ? "never still across a run (10 tries)" : "not readable (debugfs)");
		return;
	}
	for (char *s = k1; *s;) { /* every kernel line appears in the tool's output */
		char *nl = strchr(s, '\n'), line[512];
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		snprintf(line, sizeof(line), "%.*s\n", (int)len, s);
		lines++;
		match += strstr(out, line) != NULL;
		s += len + (nl != NULL);
	}
	RESULT(test, lines > 0 && match == lines, "extfrag -I equals debugfs extfrag/extfrag_index line for line "
	       "(%d of %d zones)", match, lines);
	if (!last_ok) {
		printf("VMTEST-LOG %s kernel: %s\n", test, k1);
		dump_output(test);
	}
}

static void test_faults(const char *test, const char *disable)
{
	char pid[16], *argv[] = { "corebox", "faults", "-p", pid, NULL };
	long long sum = 0;
	int rc, st;

	t0 = now_ms();
	rc = run_on_child(test, disable, argv, "Attaching 1 probe", pid, "cbxvm_touch", w_touch, TOUCH_P, 10000, 0, &st);
	if (rc == INT_MIN)
		return;
	for (char *p = out; p && (p = strstr(p, ", cbxvm_touch]: ")); p++)
		sum += atoll(p + 16);
	RESULT(test, sum >= TOUCH_P && sum <= TOUCH_P + 30 && rc == 0,
	       "%lld page faults of cbxvm_touch (touched %d new pages); exit %d", sum, TOUCH_P, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_ffaults(const char *test, const char *disable)
{
	char pid[16], name[32], *argv[] = { "corebox", "ffaults", "-v", "-p", pid, NULL };
	int rc, st, named, unnamed;

	t0 = now_ms();
	if (loop_dev < 0) {
		RESULT(test, 0, "no loop device");
		return;
	}
	rc = run_on_child(test, disable, argv, "Attaching 1 probe", pid, "cbxvm_mapdev", w_mapdev, 0, 10000, 0, &st);
	if (rc == INT_MIN)
		return;
	snprintf(name, sizeof(name), "@[loop%d]: ", loop_dev);
	named = count_lines(name, NULL, NULL);
	unnamed = count_lines("@[]: ", NULL, NULL);
	/* a block device's page cache belongs to the bdev inode, which has no
	 * name: the tracepoint (6.10+) only reaches that inode */
	RESULT(test, (named || (unnamed && count_lines("filemap:mm_filemap_fault", NULL, NULL))) && rc == 0,
	       "faults on a mapping of /dev/loop%d counted %s; exit %d", loop_dev,
	       named ? "by its name" : unnamed ? "as @[] (the tracepoint sees the nameless bdev inode)" : "NOT", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_hfaults(const char *test, const char *disable)
{
	char pid[16], want[64], *argv[] = { "corebox", "hfaults", "-p", pid, NULL }, *p;
	long long n = 0;
	int rc, st;

	t0 = now_ms();
	write_str("/proc/sys/vm/nr_hugepages", "4");
	rc = run_on_child(test, disable, argv, "Tracing Huge Page faults", pid, "cbxvm_huge", w_huge, 2, 10000, 0, &st);
	write_str("/proc/sys/vm/nr_hugepages", "0");
	if (rc == INT_MIN)
		return;
	snprintf(want, sizeof(want), "@[%s, cbxvm_huge]: ", pid);
	if ((p = strstr(out, want)))
		n = atoll(p + strlen(want));
	RESULT(test, n >= 2 && n <= 4 && rc == 0, "%lld hugetlb faults of cbxvm_huge (2 huge pages touched); exit %d", n,
	       rc);
	if (!last_ok)
		dump_output(test);
}

/* A version-1 swap header on the loop device ("SWAPSPACE2" at the end of
 * the first page), as mkswap writes it. */
static int make_swap(const char *dev)
{
	static char page[4096];
	uint32_t v[3];
	struct stat st;
	int fd = open(dev, O_RDWR | O_CLOEXEC);
	off_t size;

	if (fd < 0)
		return -1;
	size = lseek(fd, 0, SEEK_END);
	memset(page, 0, sizeof(page));
	v[0] = 1;                          /* version */
	v[1] = (uint32_t)(size / 4096 - 1); /* last_page */
	v[2] = 0;                          /* nr_badpages */
	memcpy(page + 1024, v, sizeof(v));
	memcpy(page + 4096 - 10, "SWAPSPACE2", 10);
	if (fstat(fd, &st) < 0 || pwrite(fd, page, sizeof(page), 0) != (ssize_t)sizeof(page)) {
		close(fd);
		return -1;
	}
	fsync(fd);
	close(fd);
	return 0;
}

static void test_swapin(const char *test, const char *disable)
{
	char pid[16], dev[64], want[64], *argv[] = { "corebox", "swapin", "-T", "-p", pid, "1", NULL };
	long long before, after, n = 0;
	int rc, st;

	t0 = now_ms();
	if (loop_dev < 0) {
		RESULT(test, 0, "no loop device");
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/loop%d", loop_dev);
	if (make_swap(dev) < 0 || swapon(dev, 0) < 0) {
		RESULT(test, 0, "swapon %s: %s", dev, strerror(errno));
		return;
	}
	if (memcg("3M", "max") < 0) {
		RESULT(test, 0, "cannot create a cgroup v2 with memory.max: %s", strerror(errno));
		swapoff(dev);
		return;
	}
	/* swap-ins from the device, and from zswap's compressed cache when the
	 * kernel keeps one (Debian's 6.12 does): each is a swap_read_folio() */
	before = vmstat("pswpin") + (vmstat("zswpin") > 0 ? vmstat("zswpin") : 0);
	rc = run_on_child(test, disable, argv, "Counting swap ins", pid, "cbxvm_swap", w_swap, 6, 30000, 2500, &st);
	after = vmstat("pswpin") + (vmstat("zswpin") > 0 ? vmstat("zswpin") : 0);
	rmdir(cgdir);
	swapoff(dev);
	if (rc == INT_MIN)
		return;
	snprintf(want, sizeof(want), "cbxvm_swap       %-7s ", pid);
	for (char *p = out; (p = strstr(p, want)); p++)
		n += atoll(p + strlen(want));
	/* each swap_read_folio reads one page here (no large swap folios) */
	RESULT(test, n > 0 && n <= after - before && n * 10 >= (after - before) * 9 && rc == 0,
	       "swap-ins of cbxvm_swap: %lld counted, pswpin+zswpin grew by %lld; exit %d", n, after - before, rc);
	if (!last_ok) {
		static char vs[16384];

		dump_output(test);
		if (read_str("/proc/vmstat", vs, sizeof(vs)) == 0)
			for (char *p = vs; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
				if (!strncmp(p, "pswp", 4) || !strncmp(p, "zswp", 4) || !strncmp(p, "swap_ra", 7))
					printf("VMTEST-LOG %s %.*s\n", test, (int)strcspn(p, "\n"), p);
	}
}

static void test_numamove(const char *test, const char *disable)
{
	t0 = now_ms();
	char *argv[] = { "corebox", "numamove", NULL };
	struct tool_run t;
	int rc, rows;

	if (tool_start(&t, test, argv, disable, "NUMA_migrations_ms") < 0)
		return;
	{
		uint64_t end = now_ms() + 2500;

		while (now_ms() < end)
			pump(t.fd, 100);
	}
	rc = tool_stop(&t);
	rows = count_lines(":", "                  0", NULL);
	RESULT(test, rows >= 1 && count_lines("one NUMA node", NULL, NULL) == 1 && rc == 0,
	       "one node: %d rows of zeros, the note once; exit %d", rows, rc);
	if (!last_ok)
		dump_output(test);
}

/* mmapsnoop, brkstack and shmsnoop on one workload each */
static void test_syscalls(const char *test, const char *disable)
{
	static const char *const tools[] = { "mmapsnoop", "brkstack", "shmsnoop" };
	static const char *const ready[] = { "FILE", "Attaching 1 probe", "ARGs" };
	const char *name = strrchr(self, '/') ? strrchr(self, '/') + 1 : self;
	int got[3] = { 0 }, rcs[3] = { 0 }, st;
	char pid[16];

	t0 = now_ms();
	for (int i = 0; i < 3; i++) {
		char *argv[] = { "corebox", (char *)tools[i], "-p", pid, NULL };

		rcs[i] = run_on_child(test, disable, argv, ready[i], pid, "cbxvm_sys", w_syscalls, 0, 10000, 0, &st);
		if (rcs[i] == INT_MIN)
			return;
		if (i == 0) {
			got[0] = count_lines(" R--  -P--  0        12       ", name, "cbxvm_sys");
		} else if (i == 1) { /* every brk() of the child: it allocates nothing else */
			for (char *p = strstr(out, ", cbxvm_sys]: "); p; p = strstr(p + 1, ", cbxvm_sys]: "))
				got[1] += atoi(p + 14);
		} else {
			got[2] = count_lines("cbxvm_sys", "SHMGET", "size: 24690") + count_lines("cbxvm_sys", "SHMAT", "SHM_RDONLY") +
				 count_lines("cbxvm_sys", "SHMDT", NULL) + count_lines("cbxvm_sys", "SHMCTL", "IPC_RMID");
		}
		if (got[i] != (i == 0 ? SYS_N : i == 1 ? SYS_M : 4) || rcs[i])
			dump_output(test);
	}
	RESULT(test, got[0] == SYS_N && got[1] == SYS_M && got[2] == 4 && !rcs[0] && !rcs[1] && !rcs[2],
	       "mmapsnoop %d of %d mmaps of %s, brkstack %d of %d brk calls, shmsnoop %d of 4 shm calls; exits %d %d %d",
	       got[0], SYS_N, name, got[1], SYS_M, got[2], rcs[0], rcs[1], rcs[2]);
}

VM_TEST("memleak", test_memleak);
VM_TEST_ONCE("memleak.kernel", test_memleak_kernel);
VM_TEST("oomkill", test_oomkill);
VM_TEST("drsnoop.memcg", test_drsnoop_memcg);
VM_TEST("vmscan", test_vmscan);
VM_TEST_ONCE("drsnoop.direct", test_drsnoop_direct);
VM_TEST("compactsnoop", test_compactsnoop);
VM_TEST_ONCE("extfrag", test_extfrag);
VM_TEST_ONCE("faults", test_faults);
VM_TEST("ffaults", test_ffaults);
VM_TEST("hfaults", test_hfaults);
VM_TEST("swapin", test_swapin);
VM_TEST_ONCE("numamove", test_numamove);
VM_TEST("syscalls", test_syscalls);
