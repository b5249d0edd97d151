/* VM checks of the block, file system and page cache tools: biosnoop,
 * biopattern, bitesize (O_DIRECT reads this driver makes on the shared
 * loop device), fsslower/ext4slower, cachestat, readahead (an ext4 image
 * that run.sh made with mkfs.ext4, on a second loop device, ext4.ko and
 * its dependencies loaded from the initramfs when the kernel has them as
 * modules).  Ground truth is what this driver did: offsets, sizes, the
 * operations on a file, pages read and written.  The kernel is quiet
 * (nothing else runs), so counts are checked tightly.
 *
 * Variants beyond the driver's two (as chosen, every fallback forced):
 * fsslower.syscalls and cachestat.tracepoints force the paths of kernels
 * without fentry and kprobes. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define NO_KFUNCS "fentry,kprobe_pmu,kprobe" /* the paths of kernels without fentry and kprobes */

/* ---- shared pieces ---- */

/* O_DIRECT reads of size bytes at off, off + step, ...; the number done. */
static int dio_reads(const char *dev, int k, long size, long long off, long long step)
{
	void *buf = NULL;
	int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC), done = 0;

	if (fd < 0 || posix_memalign(&buf, 4096, (size_t)size)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	for (int i = 0; i < k; i++, off += step)
		done += pread(fd, buf, (size_t)size, off) == size;
	close(fd);
	free(buf);
	return done;
}

/* The next line of out after *pos (NUL-terminated copy), 0 at the end. */
static int next_line(size_t *pos, char *line, size_t size)
{
	const char *s = out ? out + *pos : "", *nl;
	size_t n;

	if (!out || *pos >= out_len)
		return 0;
	nl = strchr(s, '\n');
	n = nl ? (size_t)(nl - s) : strlen(s);
	snprintf(line, size, "%.*s", (int)n, s);
	*pos += n + (nl != NULL);
	return 1;
}

static int ext4_state = -1; /* -1 not tried, 0 unusable, 1 mounted */
static char ext4_mnt[600], ext4_dev[64];

/* A run on a host (driver --dir DIR) leaves nothing mounted or attached. */
static void ext4_cleanup(void)
{
	int fd;

	umount(ext4_mnt);
	rmdir(ext4_mnt);
	if ((fd = open(ext4_dev, O_RDONLY | O_CLOEXEC)) >= 0) {
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
}

static int fs_has(const char *name)
{
	char buf[4096], want[64];
	int fd = open("/proc/filesystems", O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	snprintf(want, sizeof(want), "\t%s\n", name);
	return strstr(buf, want) != NULL;
}

static int load_module(const char *name)
{
	char ko[600];
	int fd, r;

	path_of(ko, sizeof(ko), name);
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = (int)syscall(SYS_finit_module, fd, "", 0);
	r = r == 0 || errno == EEXIST ? 0 : -errno;
	close(fd);
	return r;
}

/* The ext4 image on a loop device, mounted (once). */
static int setup_ext4(void)
{
	static const char *const mods[] = { "crc16.ko", "mbcache.ko", "jbd2.ko", "crc32c_generic.ko", "ext4.ko" };
	char img[600], dev[64];
	struct loop_config cfg;
	int ctl, n, fd, bfd, r;

	if (ext4_state >= 0)
		return ext4_state;
	ext4_state = 0;
	if (!fs_has("ext4")) {
		for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
			if ((r = load_module(mods[i])) < 0 && strcmp(mods[i], "crc32c_generic.ko")) {
				result("ext4", 0, "cannot load %s: %s", mods[i], strerror(-r));
				return 0;
			}
		if (!fs_has("ext4")) {
			result("ext4", 0, "ext4 not in /proc/filesystems after loading its modules");
			return 0;
		}
	}
	path_of(img, sizeof(img), "cbxvm_ext4.img");
	path_of(ext4_mnt, sizeof(ext4_mnt), "cbxvm_ext4");
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	bfd = open(img, O_RDWR | O_CLOEXEC);
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	snprintf(ext4_dev, sizeof(ext4_dev), "%s", dev);
	fd = n < 0 ? -1 : open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || bfd < 0) {
		result("ext4", 0, "image %s or loop device %s: %s", img, dev, strerror(errno));
		return 0;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)bfd;
	r = ioctl(fd, LOOP_CONFIGURE, &cfg) < 0 && ioctl(fd, LOOP_SET_FD, bfd) < 0;
	close(fd);
	close(bfd);
	mkdir(ext4_mnt, 0755);
	if (r || mount(dev, ext4_mnt, "ext4", 0, NULL) < 0) {
		result("ext4", 0, "cannot mount %s (ext4 image on %s): %s", img, dev, strerror(errno));
		return 0;
	}
	if (getpid() != 1)
		atexit(ext4_cleanup);
	result("ext4", 1, "%s on %s mounted at %s", img, dev, ext4_mnt);
	ext4_state = 1;
	return 1;
}

/* The shared loop device (setup_loop) as a path into dev and, unless
 * NULL, as a disk name into name (32 bytes each): 0, or -1 after a FAIL
 * line when there is none. */
static int loop_names(const char *test, char *dev, char *name)
{
	if (loop_dev < 0) {
		result(test, 0, "no loop device");
		return -1;
	}
	snprintf(dev, 32, "/dev/loop%d", loop_dev);
	if (name)
		snprintf(name, 32, "loop%d", loop_dev);
	return 0;
}

/* ---- biosnoop ---- */

#define BS_K 20
#define BS_SIZE 8192

static void test_biosnoop(const char *test, const char *disable)
{
	char dev[32], name[32], line[512], *argv[] = { "corebox", "biosnoop", "-Q", "-d", name, NULL };
	char comm[64], disk[64], t[16];
	int pid, done, n = 0, good = 0, other = 0, rc, seen[BS_K] = { 0 };
	long long sector, bytes, i;
	struct tool_run tr;
	size_t pos = 0;

	if (loop_names(test, dev, name) < 0)
		return;
	if (tool_start(&tr, test, argv, disable, "LAT(ms)") < 0)
		return;
	done = dio_reads(dev, BS_K, BS_SIZE, 4096, 2 * BS_SIZE);
	rc = tool_stop(&tr);
	/* TIME(s) COMM PID DISK T SECTOR BYTES QUE(ms) LAT(ms) */
	while (next_line(&pos, line, sizeof(line)))
		if (sscanf(line, "%*f %63s %d %63s %15s %lld %lld", comm, &pid, disk, t, &sector, &bytes) == 6) {
			if (strcmp(disk, name)) {
				other++;
				continue;
			}
			if (pid != getpid())
				continue;
			/* one line per read (in any order: perf buffers are per CPU) */
			i = (sector * 512 - 4096) / (2 * BS_SIZE);
			if (t[0] == 'R' && bytes == BS_SIZE && i >= 0 && i < BS_K && sector == (4096 + i * 2 * BS_SIZE) / 512 &&
			    !seen[i]++)
				good++;
			n++;
		}
	result(test, done == BS_K && n == BS_K && good == BS_K && other == 0 && rc == 0,
	       "-Q -d %s: %d reads, %d lines of this pid (%d with T=R*, the sector and size read), %d of other disks; exit %d",
	       name, done, n, good, other, rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- biostacks ---- */

/* K reads of this process on the loop disk: its histograms (blocks of
 * "COMM PID DISK", frames, rows, an empty line) hold exactly K, under a
 * stack naming the block layer, whichever start the variant left. */
static void test_biostacks(const char *test, const char *disable)
{
	char dev[32], name[32], line[512], *argv[] = { "corebox", "biostacks", "-d", name, NULL };
	char comm[64], disk[64];
	int pid, done, rc, header = 0, mine = 0, blocks = 0, blk_frame = 0;
	unsigned long long lo, hi, cnt, n = 0;
	struct tool_run tr;
	size_t pos = 0;

	if (loop_names(test, dev, name) < 0)
		return;
	if (tool_start(&tr, test, argv, disable, "Tracing block I/O") < 0)
		return;
	done = dio_reads(dev, BS_K, 4096, 0, 3 * 4096);
	rc = tool_stop(&tr);
	while (next_line(&pos, line, sizeof(line))) {
		if (!line[0] || !strncmp(line, "Tracing block I/O", 17)) {
			header = 1;
			continue;
		}
		if (header) {
			header = 0;
			mine = sscanf(line, "%63s %d %63s", comm, &pid, disk) == 3 && pid == getpid() && !strcmp(disk, name);
			blocks += mine;
			continue;
		}
		if (!mine)
			continue;
		if (sscanf(line, "%llu -> %llu : %llu", &lo, &hi, &cnt) == 3)
			n += cnt;
		else if (!strcmp(line, "blk_mq_submit_bio") || !strcmp(line, "blk_account_io_start") ||
			 !strcmp(line, "submit_bio_noacct") || !strcmp(line, "blk_mq_insert_request") ||
			 !strcmp(line, "blk_mq_start_request"))
			blk_frame = 1;
	}
	result(test, done == BS_K && n == BS_K && blocks > 0 && blk_frame && rc == 0,
	       "-d %s: %d reads, %llu counted in %d histograms of this pid, block-layer frame %s; exit %d", name, done,
	       n, blocks, blk_frame ? "seen" : "missing", rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- biopattern ---- */

#define BP_K 40

static void test_biopattern(const char *test, const char *disable)
{
	char dev[32], name[32], line[512], want[64], *argv[] = { "corebox", "biopattern", "-d", name, NULL };
	char got[128] = "none";
	struct tool_run tr;
	size_t pos = 0;
	int done, rc;

	if (loop_names(test, dev, name) < 0)
		return;
	if (tool_start(&tr, test, argv, disable, "KBYTES") < 0)
		return;
	/* sequential, then random (a gap after each read) */
	done = dio_reads(dev, BP_K, 4096, 0, 4096);
	done += dio_reads(dev, BP_K, 4096, 1 << 20, 8192);
	rc = tool_stop(&tr);
	while (next_line(&pos, line, sizeof(line))) {
		char d[64];
		long rnd, seq, cnt, kb;

		if (sscanf(line, "%63s %ld %ld %ld %ld", d, &rnd, &seq, &cnt, &kb) == 5 && !strcmp(d, name))
			snprintf(got, sizeof(got), "%ld %ld %ld %ld", rnd, seq, cnt, kb);
	}
	/* the first request primes: K random of 2K-1, K-1 sequential */
	snprintf(want, sizeof(want), "%d %d %d %d", BP_K * 100 / (2 * BP_K - 1), (BP_K - 1) * 100 / (2 * BP_K - 1),
		 2 * BP_K - 1, (2 * BP_K - 1) * 4);
	result(test, done == 2 * BP_K && !strcmp(got, want) && rc == 0,
	       "%d sequential then %d random reads on %s: %%RND %%SEQ COUNT KBYTES '%s' (want '%s'); exit %d", BP_K,
	       BP_K, name, got, want, rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- bitesize ---- */

static void test_bitesize(const char *test, const char *disable)
{
	char dev[32], line[512], comm[32], *argv[] = { "corebox", "bitesize", "-c", comm, NULL };
	char got[256] = "", *sec;
	struct tool_run tr;
	size_t pos = 0;
	int done, rc, in = 0, sections = 0;

	if (loop_names(test, dev, NULL) < 0)
		return;
	/* this driver's name (init in the VM) */
	if ((rc = open("/proc/self/comm", O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t n = read(rc, comm, sizeof(comm) - 1);

		comm[n > 0 ? n : 0] = 0;
		comm[strcspn(comm, "\n")] = 0;
		close(rc);
	}
	if (tool_start(&tr, test, argv, disable, "Tracing block device") < 0)
		return;
	done = dio_reads(dev, 20, 4096, 0, 8192);
	done += dio_reads(dev, 8, 16384, 1 << 20, 32768);
	rc = tool_stop(&tr);
	while (next_line(&pos, line, sizeof(line))) {
		unsigned long lo, hi, cnt;

		if ((sec = strstr(line, "Process Name = "))) {
			sections++;
			in = !strcmp(sec + 15, comm);
		} else if (in && sscanf(line, "%lu -> %lu : %lu", &lo, &hi, &cnt) == 3 && cnt) {
			size_t l = strlen(got);

			snprintf(got + l, sizeof(got) - l, "%lu:%lu ", lo, cnt);
		}
	}
	result(test, done == 28 && !strcmp(got, "4:20 16:8 ") && sections == 1 && rc == 0,
	       "-c %s: 20 reads of 4 KiB, 8 of 16 KiB: non-zero rows '%s' (want '4:20 16:8 '), %d sections; exit %d",
	       comm, got, sections, rc);
	if (!last_ok)
		dump_output(test);
}

/* ---- fsslower ---- */

#define FS_DELAY_MS 300

static int uffd;

static void *uffd_handler(void *arg)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct timespec ts = { FS_DELAY_MS / 1000, (FS_DELAY_MS % 1000) * 1000000L };
	struct uffdio_zeropage zp;
	struct uffd_msg msg;

	(void)arg;
	if (poll(&p, 1, 30000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	nanosleep(&ts, NULL);
	memset(&zp, 0, sizeof(zp));
	zp.range.start = msg.arg.pagefault.address & ~4095ULL;
	zp.range.len = 4096;
	ioctl(uffd, UFFDIO_ZEROPAGE, &zp);
	return NULL;
}

/* The child's work: open, 4 writes, fsync, a read held back by
 * userfaultfd, a read; exit status 0 when all went through. */
static int fs_ops(const char *path)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	char buf[4096], *slow;
	pthread_t th;
	int fd, ok = 1;

	memset(buf, 'x', sizeof(buf));
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	slow = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)slow;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) < 0 || slow == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		return 3;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return 4;
	for (int i = 0; i < 4; i++)
		ok &= pwrite(fd, buf, sizeof(buf), (off_t)i * 4096) == (ssize_t)sizeof(buf);
	ok &= fsync(fd) == 0;
	if (pthread_create(&th, NULL, uffd_handler, NULL))
		return 5;
	ok &= pread(fd, slow, 4096, 8192) == 4096;
	pthread_join(th, NULL);
	ok &= pread(fd, buf, 4096, 0) == 4096;
	close(fd);
	return ok ? 0 : 6;
}

static void fsslower_run(const char *test, const char *disable, const char *tool)
{
	char path[700], pidarg[16], line[512], got[256] = "", how[200] = "?";
	char *argv[] = { "corebox", (char *)tool, "-v", "-p", pidarg, "0", NULL };
	int go[2], st, rc, slow_ms = -1;
	struct tool_run tr;
	size_t pos = 0;
	pid_t child;
	char c = 0;

	if (!setup_ext4()) {
		result(test, 0, "no ext4 file system to trace");
		return;
	}
	snprintf(path, sizeof(path), "%s/ops.dat", ext4_mnt);
	if (pipe(go) < 0)
		return;
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(fs_ops(path));
	}
	close(go[0]);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&tr, test, argv, disable, "FILENAME") < 0) {
		close(go[1]);
		wait_bounded(child, 5000);
		return;
	}
	if (write(go[1], &c, 1) != 1)
		c = 1;
	close(go[1]);
	st = wait_bounded(child, 20000);
	rc = tool_stop(&tr);
	/* TIME COMM PID T BYTES OFF_KB LAT(ms) FILENAME; -v: the way in */
	while (next_line(&pos, line, sizeof(line))) {
		char t[8], bytes[32], file[64];
		long long off;
		double lat;
		int pid;

		if (strstr(line, "tracing the system calls"))
			snprintf(how, sizeof(how), "syscalls (%s)", strstr(line, "raw_tp") ? "raw_tp" : "tp_btf");
		else if (strstr(line, ": read: "))
			snprintf(how, sizeof(how), "%s", strstr(line, ": read: ") + 8);
		if (sscanf(line, "%*s %*s %d %7s %31s %lld %lf %63s", &pid, t, bytes, &off, &lat, file) == 6 &&
		    pid == child && !strcmp(file, "ops.dat")) {
			size_t l = strlen(got);

			snprintf(got + l, sizeof(got) - l, "%s %s %lld|", t, bytes, off);
			if (t[0] == 'R' && off == 8)
				slow_ms = (int)lat;
		}
	}
	result(test,
	       !strcmp(got, "O 0 0|W 4096 0|W 4096 4|W 4096 8|W 4096 12|F LL_MAX 0|R 4096 8|R 4096 0|") &&
		       slow_ms >= FS_DELAY_MS && st == 0 && rc == 0,
	       "%s 0 -p: '%s', held-back read %d ms (>= %d), via %s; worker %d, exit %d", tool, got, slow_ms,
	       FS_DELAY_MS, how, st, rc);
	if (!last_ok)
		dump_output(test);
	unlink(path);
}

/* ---- fsdist ---- */

static void test_ext4dist(const char *test, const char *disable);

/* the syscall path, raw tracepoints (as on a kernel without fentry,
 * kprobes and tp_btf) */
static void test_ext4dist_syscalls(const char *test, const char *disable)
{
	(void)disable;
	test_ext4dist(test, NO_KFUNCS ",tp_btf");
}

static char fsdist_path[700];

static void fsdist_ops(void)
{
	fs_ops(fsdist_path);
}

/* ext4dist -m -p CHILD: the child's 2 reads (one held back >= 300 ms: in
 * 256 -> 511 msecs), 4 writes, 1 open, 1 fsync */
static void test_ext4dist(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", m[] = "-m", v[] = "-v", *argv[] = { "corebox", "ext4dist", v, m, p, pidarg, NULL };
	static const char *const ops[] = { "read", "write", "open", "fsync" };
	unsigned long long tot[4] = { 0 }, slow = 0;
	char line[512], how[80] = "?";
	size_t pos = 0;
	int op = -1, rc;
	pid_t child;

	if (!setup_ext4()) {
		result(test, 0, "no ext4 file system to trace");
		return;
	}
	snprintf(fsdist_path, sizeof(fsdist_path), "%s/dist.dat", ext4_mnt);
	if ((rc = run_with_child(test, argv, pidarg, disable, "Hit Ctrl-C", fsdist_ops, &child)) == -1)
		return;
	while (next_line(&pos, line, sizeof(line))) {
		unsigned long long lo, hi, cnt;
		char name[16];

		if (strstr(line, ": read: "))
			snprintf(how, sizeof(how), "%s", strstr(line, ": read: ") + 8);
		else if (strstr(line, "tracing") || strstr(line, "system calls"))
			snprintf(how, sizeof(how), "syscalls");
		if (sscanf(line, "operation = '%15[a-z]'", name) == 1) {
			op = -1;
			for (int i = 0; i < 4; i++)
				if (!strcmp(name, ops[i]))
					op = i;
		} else if (op >= 0 && sscanf(line, "%llu -> %llu : %llu", &lo, &hi, &cnt) == 3) {
			tot[op] += cnt;
			if (op == 0 && lo == 256)
				slow = cnt;
		}
	}
	result(test, tot[0] == 2 && tot[1] == 4 && tot[2] == 1 && tot[3] == 1 && slow == 1 && rc == 0,
	       "-m -p %d: read %llu (2; %llu in 256->511 ms, 1) write %llu (4) open %llu (1) fsync %llu (1) via %s; "
	       "exit %d",
	       (int)child, tot[0], slow, tot[1], tot[2], tot[3], how, rc);
	if (!last_ok)
		dump_output(test);
	unlink(fsdist_path);
}

static void test_ext4slower(const char *test, const char *disable)
{
	fsslower_run(test, disable, "ext4slower");
}

static void test_fsslower_syscalls(const char *test, const char *disable)
{
	(void)disable;
	fsslower_run(test, NO_KFUNCS, "ext4slower");
}

/* ---- cachestat, readahead ---- */

#define PC_N 2048 /* pages read */
#define PC_M 1024 /* pages written */

static char pcbuf[65536];

/* create: write pages, fsync, drop them from the cache; cold: drop,
 * read through; warm: read through; dirty: write pages, no sync.  The
 * pages done, or -1. */
static long pcache(const char *mode, const char *path, long pages)
{
	long done = 0;
	ssize_t n;
	int fd, w = mode[0] == 'c' && mode[1] == 'r' ? 1 : mode[0] == 'd';

	fd = open(path, w ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (w) {
		memset(pcbuf, 'p', sizeof(pcbuf));
		for (; done < pages; done++)
			if (write(fd, pcbuf, 4096) != 4096)
				break;
		if (mode[0] == 'c' && (fsync(fd) < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)))
			done = -1;
	} else {
		if (!strcmp(mode, "cold") && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
			done = -1;
		while (done >= 0 && (n = read(fd, pcbuf, sizeof(pcbuf))) > 0)
			done += n / 4096;
	}
	close(fd);
	return done;
}

static int within(long long v, long long want, long long slack)
{
	return v >= want - slack && v <= want + slack;
}

/* Read the tool's output for ms. */
static void pump_for(int fd, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;

	while (now_ms() < end)
		pump(fd, 50);
}

/* Sums of the cachestat rows in out[from, to): hits (or -1 when '-'),
 * misses, dirties; *accesses: the -v line. */
static void cachestat_sum(size_t from, size_t to, long long sum[3], int *rows, int *dash)
{
	char line[512];
	size_t pos = from;

	sum[0] = sum[1] = sum[2] = 0;
	while (pos < to && next_line(&pos, line, sizeof(line))) {
		char h[32], r[32];
		long long m, d;

		/* HITS MISSES DIRTIES HITRATIO BUFFERS_MB CACHED_MB */
		if (sscanf(line, "%31s %lld %lld %31s %*d %*d", h, &m, &d, r) != 4)
			continue;
		(*rows)++;
		sum[1] += m;
		sum[2] += d;
		if (!strcmp(h, "-") && !strcmp(r, "-"))
			(*dash)++;
		else
			sum[0] += atoll(h);
	}
}

/* Three phases, each followed by 1.5 s (the rows of a 1 s interval that
 * saw it are printed by then): a cold read of PC_N pages (misses), a warm
 * read (hits), PC_M pages written (dirties: one buffer per page). */
static void cachestat_run(const char *test, const char *disable)
{
	char data[700], fresh[700], how[128] = "?", *argv[] = { "corebox", "cachestat", "-v", "1", NULL };
	long long c[3], w[3], d[3];
	size_t m0, m1, m2, m3;
	long cold, warm, dirty;
	int dash = 0, rows = 0, rc;
	struct tool_run tr;
	char *a;

	if (!setup_ext4()) {
		result(test, 0, "no ext4 file system");
		return;
	}
	snprintf(data, sizeof(data), "%s/pc.dat", ext4_mnt);
	snprintf(fresh, sizeof(fresh), "%s/pc.new", ext4_mnt);
	if (pcache("create", data, PC_N) != PC_N) {
		result(test, 0, "cannot create %s", data);
		return;
	}
	sync();
	if (tool_start(&tr, test, argv, disable, "CACHED_MB") < 0)
		return;
	pump_for(tr.fd, 1500);
	m0 = out_len;
	cold = pcache("cold", data, 0);
	pump_for(tr.fd, 1500);
	m1 = out_len;
	warm = pcache("warm", data, 0);
	pump_for(tr.fd, 1500);
	m2 = out_len;
	dirty = pcache("dirty", fresh, PC_M);
	pump_for(tr.fd, 1500);
	m3 = out_len;
	rc = tool_stop(&tr);
	if ((a = strstr(out, "accesses: ")))
		snprintf(how, sizeof(how), "%.*s", (int)strcspn(a + 10, "\n"), a + 10);
	cachestat_sum(m0, m1, c, &rows, &dash);
	cachestat_sum(m1, m2, w, &rows, &dash);
	cachestat_sum(m2, m3, d, &rows, &dash);
	if (dash) /* hits unknown (no fentry, no kprobe): misses and dirties only */
		result(test, cold == PC_N && dirty == PC_M && dash == rows && within(c[1], PC_N, PC_N / 20 + 64) &&
				     within(d[2], PC_M, PC_M / 10 + 64) && rc == 0,
		       "HITS '-' on %d of %d rows; cold read of %d pages: misses %lld; %d pages written: dirties %lld; "
		       "accesses: %s; exit %d", dash, rows, PC_N, c[1], PC_M, d[2], how, rc);
	else
		result(test, cold == PC_N && warm == PC_N && dirty == PC_M && within(c[1], PC_N, PC_N / 20 + 64) &&
				     within(w[0], PC_N, PC_N / 20 + 64) && w[1] <= 64 && within(d[2], PC_M, PC_M / 10 + 64) &&
				     rc == 0,
		       "cold read of %d pages: misses %lld; warm read: hits %lld, misses %lld; %d pages written: "
		       "dirties %lld; accesses: %s; exit %d",
		       PC_N, c[1], w[0], w[1], PC_M, d[2], how, rc);
	if (!last_ok)
		dump_output(test);
	unlink(data);
	unlink(fresh);
}

static void test_cachestat(const char *test, const char *disable)
{
	cachestat_run(test, disable);
}

static void test_cachestat_tracepoints(const char *test, const char *disable)
{
	(void)disable;
	cachestat_run(test, NO_KFUNCS);
}

static void test_readahead(const char *test, const char *disable)
{
	char data[700], line[512], *argv[] = { "corebox", "readahead", "-v", NULL };
	long long unused = -1, total = -1, hist = 0;
	struct tool_run tr;
	size_t pos = 0;
	long cold;
	int rc;

	if (!setup_ext4()) {
		result(test, 0, "no ext4 file system");
		return;
	}
	snprintf(data, sizeof(data), "%s/ra.dat", ext4_mnt);
	if (pcache("create", data, PC_N) != PC_N) {
		result(test, 0, "cannot create %s", data);
		return;
	}
	sync();
	if (tool_start(&tr, test, argv, disable, "Tracing fs read-ahead") < 0)
		return;
	cold = pcache("cold", data, 0);
	rc = tool_stop(&tr);
	while (next_line(&pos, line, sizeof(line))) {
		unsigned long long lo, hi, cnt;

		if (sscanf(line, "Readahead unused/total pages: %lld/%lld", &unused, &total) == 2)
			continue;
		if (sscanf(line, "%llu -> %llu : %llu", &lo, &hi, &cnt) == 3)
			hist += (long long)cnt;
	}
	result(test, cold == PC_N && total - unused >= PC_N * 9 / 10 && hist == total - unused && rc == 0,
	       "cold sequential read of %d pages: unused/total %lld/%lld, histogram %lld (= used); exit %d", PC_N,
	       unused, total, hist, rc);
	if (!last_ok)
		dump_output(test);
	unlink(data);
}

VM_TEST("biosnoop", test_biosnoop);
VM_TEST("biostacks", test_biostacks);
VM_TEST("biopattern", test_biopattern);
VM_TEST("bitesize", test_bitesize);
VM_TEST("ext4slower", test_ext4slower);
VM_TEST_ONCE("ext4slower.syscalls", test_fsslower_syscalls);
VM_TEST("ext4dist", test_ext4dist);
VM_TEST_ONCE("ext4dist.syscalls", test_ext4dist_syscalls);
VM_TEST("cachestat", test_cachestat);
VM_TEST_ONCE("cachestat.tracepoints", test_cachestat_tracepoints);
VM_TEST("readahead", test_readahead);
