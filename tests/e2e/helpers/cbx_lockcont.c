/* klockstat e2e helper: after the ready/go handshake (ready_go.h), N
 * rounds that each contend the file's inode lock (i_rwsem) exactly once:
 * thread A writes FILE from a page registered with userfaultfd, so the
 * write stops in its page fault with the inode lock held; thread B then
 * writes one byte to FILE and waits on that lock (seen in state D); only
 * then is the fault resolved, A finishes and B gets the lock.  Prints
 * "round I B_TID" per round, then "done". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ready_go.h"

static int fd;
static char *page;
static volatile pid_t b_tid;

static void *writer_a(void *arg)
{
	(void)arg;
	if (pwrite(fd, page, 4096, 0) != 4096)
		perror("cbx_lockcont: A's write");
	return NULL;
}

static void *writer_b(void *arg)
{
	(void)arg;
	b_tid = (pid_t)syscall(SYS_gettid);
	if (pwrite(fd, "x", 1, 8192) != 1)
		perror("cbx_lockcont: B's write");
	return NULL;
}

/* Is thread tid asleep uninterruptibly (waiting on the rwsem)? */
static int sleeping(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	int d = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		d = p[2] == 'D';
	fclose(f);
	return d;
}

static int die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	int n, uffd;

	if (argc != 3 || sscanf(argv[2], "%d", &n) != 1) {
		fprintf(stderr, "usage: cbx_lockcont FILE N\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0)
		die("cbx_lockcont: open");
	if ((uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC)) < 0)
		die("cbx_lockcont: userfaultfd");
	struct uffdio_api api = { .api = UFFD_API };
	if (ioctl(uffd, UFFDIO_API, &api))
		die("cbx_lockcont: UFFDIO_API");
	ready_go();
	for (int i = 0; i < n; i++) {
		pthread_t a, b;
		struct uffd_msg msg;
		struct pollfd pfd = { uffd, POLLIN, 0 };

		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page == MAP_FAILED)
			die("cbx_lockcont: mmap");
		struct uffdio_register reg = { .range = { (unsigned long)page, 4096 },
					       .mode = UFFDIO_REGISTER_MODE_MISSING };
		if (ioctl(uffd, UFFDIO_REGISTER, &reg))
			die("cbx_lockcont: UFFDIO_REGISTER");
		pthread_create(&a, NULL, writer_a, NULL);
		/* A is in its fault, the inode lock held */
		if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			die("cbx_lockcont: no fault from A's write");
		b_tid = 0;
		pthread_create(&b, NULL, writer_b, NULL);
		for (int t = 0; !(b_tid && sleeping(b_tid)); t++) {
			if (t > 10000) {
				fprintf(stderr, "cbx_lockcont: B never waited\n");
				return 1;
			}
			usleep(1000);
		}
		struct uffdio_zeropage zp = { .range = { (unsigned long)page, 4096 } };
		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
			die("cbx_lockcont: UFFDIO_ZEROPAGE");
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		munmap(page, 4096);
		printf("round %d %d\n", i, (int)b_tid);
	}
	printf("done\n");
	return 0;
}
