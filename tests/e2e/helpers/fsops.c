/* e2e helper for fsslower: known file operations on FILE, after a go
 * signal (SIGUSR1):
 *   open(O_CREAT|O_TRUNC)                            O
 *   4 x pwrite of 4096 bytes at 0, 4096, 8192, 12288 W
 *   fsync                                            F (LL_MAX bytes)
 *   pread of 4096 at 8192 into a buffer whose page    R, slow: at least
 *     is registered with userfaultfd: the copy to     DELAY_MS
 *     user space faults and waits until a second
 *     thread fills the page after DELAY_MS
 *   pread of 4096 at 0 (a plain buffer)              R
 *   close
 * A read whose latency has a known lower bound, on any file system and
 * any kernel with userfaultfd (no FUSE, no device-mapper).  Prints
 * "ready PID" first, "done" at the end.
 *
 *   fsops FILE DELAY_MS */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int uffd;
static long delay_ms;
static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* Wait for the fault, sleep, then give the page (zeros). */
static void *handler(void *arg)
{
	struct uffd_msg msg;
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
	struct uffdio_zeropage zp;

	(void)arg;
	if (poll(&p, 1, 30000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	nanosleep(&ts, NULL);
	memset(&zp, 0, sizeof(zp));
	zp.range.start = msg.arg.pagefault.address & ~4095ULL;
	zp.range.len = 4096;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp) < 0)
		perror("UFFDIO_ZEROPAGE");
	return NULL;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	sigset_t block, old;
	char buf[4096], *slow;
	pthread_t th;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: fsops FILE DELAY_MS\n");
		return 2;
	}
	delay_ms = atol(argv[2]);
	memset(buf, 'x', sizeof(buf));
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) < 0) {
		perror("userfaultfd");
		return 1;
	}
	slow = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)slow;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (slow == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg) < 0) {
		perror("UFFDIO_REGISTER");
		return 1;
	}
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);

	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < 4; i++)
		if (pwrite(fd, buf, sizeof(buf), (off_t)i * 4096) != (ssize_t)sizeof(buf)) {
			perror("pwrite");
			return 1;
		}
	if (fsync(fd) < 0) {
		perror("fsync");
		return 1;
	}
	if (pthread_create(&th, NULL, handler, NULL)) {
		perror("pthread_create");
		return 1;
	}
	if (pread(fd, slow, 4096, 8192) != 4096) {
		perror("pread (slow)");
		return 1;
	}
	pthread_join(th, NULL);
	if (pread(fd, buf, 4096, 0) != 4096) {
		perror("pread");
		return 1;
	}
	close(fd);
	printf("done\n");
	fflush(stdout);
	return 0;
}
