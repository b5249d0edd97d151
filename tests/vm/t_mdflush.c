/* VM check of mdflush on a real md array: md has no tracepoint for its
 * flushes, so mdflush needs fentry or a kprobe on md_flush_request, which
 * the build host lacks (and it has no md).  The guest loads the kernel's
 * own md-mod.ko and raid1.ko (run.sh puts them beside loop.ko), builds a
 * RAID1 of two loop devices without mdadm -- the ioctls of `mdadm
 * --build`: no superblock, marked clean, so no resync writes -- and a
 * child fsyncs /dev/md0 exactly K times: each fsync is one empty
 * REQ_PREFLUSH bio, one md_flush_request call, one line of mdflush. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/major.h>
#include <linux/raid/md_p.h>
#include <linux/raid/md_u.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vm.h"

#define MD_FLUSHES 5
#define MD_DEV "/dev/md0"

static int md_load(const char *name, char *why, size_t size)
{
	char ko[600];
	int fd, r;

	path_of(ko, sizeof(ko), name);
	if ((fd = open(ko, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(why, size, "no %.100s in the guest (%s)", ko, strerror(errno));
		return -1;
	}
	r = (int)syscall(SYS_finit_module, fd, "", 0);
	if (r != 0 && errno != EEXIST)
		snprintf(why, size, "finit_module(%.100s): %s", ko, strerror(errno));
	close(fd);
	return r != 0 && errno != EEXIST ? -1 : 0;
}

/* A fresh 4 MiB file on a free loop device: its dev_t, or 0. */
static dev_t md_loop(const char *file, char *why, size_t size)
{
	static char zero[1 << 16];
	char dev[64];
	struct loop_config cfg;
	struct stat st;
	int ctl, n, fd, bfd;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	n = ctl < 0 ? -1 : ioctl(ctl, LOOP_CTL_GET_FREE);
	if (ctl >= 0)
		close(ctl);
	if (n < 0) {
		snprintf(why, size, "no free loop device: %s", strerror(errno));
		return 0;
	}
	bfd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	for (int i = 0; bfd >= 0 && i < 64; i++)
		if (write(bfd, zero, sizeof(zero)) != (ssize_t)sizeof(zero))
			break;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (uint32_t)bfd;
	if (fd < 0 || bfd < 0 || (ioctl(fd, LOOP_CONFIGURE, &cfg) < 0 && ioctl(fd, LOOP_SET_FD, bfd) < 0) ||
	    fstat(fd, &st) < 0) {
		snprintf(why, size, "%s on %s: %s", file, dev, strerror(errno));
		st.st_rdev = 0;
	}
	if (bfd >= 0)
		close(bfd);
	if (fd >= 0)
		close(fd);
	return st.st_rdev;
}

/* md0 as RAID1 of two loop devices (once): 1, or 0 with why set. */
static int md_state = -1;
static char md_why[256];

static int setup_md(void)
{
	mdu_array_info_t a;
	mdu_param_t run;
	dev_t d[2];
	int fd, fdn;

	if (md_state >= 0)
		return md_state;
	md_state = 0;
	if (md_load("md-mod.ko", md_why, sizeof(md_why)) < 0 || md_load("raid1.ko", md_why, sizeof(md_why)) < 0)
		return 0;
	if (!(d[0] = md_loop("/cbxvm_md_a", md_why, sizeof(md_why))) ||
	    !(d[1] = md_loop("/cbxvm_md_b", md_why, sizeof(md_why))))
		return 0;
	/* md0 made by md's new_array parameter (devtmpfs then has the
	 * node); else the node and the open that makes the array */
	if ((fdn = open("/sys/module/md_mod/parameters/new_array", O_WRONLY | O_CLOEXEC)) >= 0) {
		if (write(fdn, "md0", 3) != 3)
			printf("# new_array md0: %s\n", strerror(errno));
		close(fdn);
	}
	if (access(MD_DEV, F_OK) != 0)
		mknod(MD_DEV, S_IFBLK | 0600, makedev(MD_MAJOR, 0));
	if ((fd = open(MD_DEV, O_RDWR | O_CLOEXEC)) < 0) {
		snprintf(md_why, sizeof(md_why), "open %s: %s", MD_DEV, strerror(errno));
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.level = 1;
	a.raid_disks = a.nr_disks = a.active_disks = a.working_disks = 2;
	a.not_persistent = 1;
	a.state = 1 << MD_SB_CLEAN;
	if (ioctl(fd, SET_ARRAY_INFO, &a) < 0) {
		snprintf(md_why, sizeof(md_why), "SET_ARRAY_INFO (raid1, 2 disks, no superblock): %s", strerror(errno));
		close(fd);
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		mdu_disk_info_t disk = { .number = i, .major = (int)major(d[i]), .minor = (int)minor(d[i]),
					 .raid_disk = i, .state = (1 << MD_DISK_SYNC) | (1 << MD_DISK_ACTIVE) };

		if (ioctl(fd, ADD_NEW_DISK, &disk) < 0) {
			snprintf(md_why, sizeof(md_why), "ADD_NEW_DISK %u:%u: %s", major(d[i]), minor(d[i]),
				 strerror(errno));
			close(fd);
			return 0;
		}
	}
	memset(&run, 0, sizeof(run));
	if (ioctl(fd, RUN_ARRAY, &run) < 0) {
		snprintf(md_why, sizeof(md_why), "RUN_ARRAY: %s", strerror(errno));
		close(fd);
		return 0;
	}
	close(fd);
	return md_state = 1;
}

static void fsync_md_k_times(void)
{
	int fd = open(MD_DEV, O_WRONLY | O_CLOEXEC);

	for (int i = 0; i < MD_FLUSHES && fd >= 0; i++)
		if (fsync(fd) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

/* mdflush: one line "TIME PID COMM md0" per fsync of the child's. */
static void test_mdflush(const char *test, const char *disable)
{
	char pidarg[16], want[64], *argv[] = { "corebox", "mdflush", NULL };
	uint64_t t0 = now_ms();
	int rc, all;
	pid_t child;

	if (!setup_md()) {
		result(test, 0, "no md array: %s", md_why);
		return;
	}
	if ((rc = run_with_child(test, argv, pidarg, disable, "DEVICE", fsync_md_k_times, &child)) == -1)
		return;
	snprintf(want, sizeof(want), "%-7d ", (int)child);
	all = lines_with(" md0\n");
	/* the child's lines: its pid column, then comm, then md0 */
	int mine = 0;

	for (const char *s = out; s && (s = strstr(s, want)); s += strlen(want)) {
		const char *nl = strchr(s, '\n');

		if (nl && nl - s > 4 && !strncmp(nl - 4, " md0", 4))
			mine++;
	}
	result(test, mine == MD_FLUSHES && all == MD_FLUSHES && rc == 0,
	       "RAID1 of 2 loop devices, %d fsyncs of %s by pid %d: %d line(s) of it, %d for md0 in all; exit %d (%.1f s)",
	       MD_FLUSHES, MD_DEV, (int)child, mine, all, rc, (double)(now_ms() - t0) / 1000.0);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("mdflush", test_mdflush);
