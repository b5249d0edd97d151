/* mountsnoop e2e helper: in a mount namespace of its own (private, so
 * nothing reaches the host), after the ready/go handshake (ready_go.h),
 * mount a tmpfs named cbx_mN with data size=Nk on DIR and unmount it, N
 * times; then one mount that fails (DIR/missing: ENOENT) and one umount
 * that fails (DIR is no longer a mount point: EINVAL); then the same
 * tmpfs through the new mount API: fsopen, fsconfig (size, then create),
 * fsmount, move_mount onto DIR, and umount.  Prints "fds FSFD MNTFD" (the
 * descriptors those calls returned) and "done". */
#define _GNU_SOURCE /* unshare */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ready_go.h"

int main(int argc, char **argv)
{
	char name[32], data[32], missing[4096];
	int n;

	if (argc != 3 || sscanf(argv[2], "%d", &n) != 1) {
		fprintf(stderr, "usage: mounts DIR N\n");
		return 2;
	}
	if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("mounts: private mount namespace");
		return 1;
	}
	ready_go();
	for (int i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "cbx_m%d", i);
		snprintf(data, sizeof(data), "size=%dk", i * 64);
		if (mount(name, argv[1], "tmpfs", MS_NOSUID | MS_NODEV, data) || umount2(argv[1], 0)) {
			perror("mounts: tmpfs");
			return 1;
		}
	}
	snprintf(missing, sizeof(missing), "%s/missing", argv[1]);
	if (!mount("cbx_bad", missing, "tmpfs", 0, NULL) || !umount2(argv[1], MNT_DETACH)) {
		fprintf(stderr, "mounts: a call that should fail did not\n");
		return 1;
	}
	/* the new mount API, through syscall(2): older C libraries lack the wrappers */
	long fsfd = syscall(SYS_fsopen, "tmpfs", 1 /* FSOPEN_CLOEXEC */), mfd = -1;
	if (fsfd < 0 || syscall(SYS_fsconfig, fsfd, 1 /* SET_STRING */, "size", "1m", 0) ||
	    syscall(SYS_fsconfig, fsfd, 6 /* CMD_CREATE */, NULL, NULL, 0) ||
	    (mfd = syscall(SYS_fsmount, fsfd, 1 /* FSMOUNT_CLOEXEC */, 0x4 /* MOUNT_ATTR_NODEV */)) < 0 ||
	    syscall(SYS_move_mount, mfd, "", AT_FDCWD, argv[1], 0x4 /* MOVE_MOUNT_F_EMPTY_PATH */) ||
	    close((int)mfd) || umount2(argv[1], 0)) { /* (the open mount fd keeps it busy) */
		perror("mounts: the new mount API");
		return 1;
	}
	printf("fds %ld %ld\ndone\n", fsfd, mfd);
	return 0;
}
