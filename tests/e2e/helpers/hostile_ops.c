/* hostile_ops DIR PORT: the hostile comm of tests/e2e/hostile.sh doing
 * what the event tools watch, so that each shows that name in a column.
 * It names itself "\e]0;X\a\nz" (an OSC title escape and a newline),
 * prints "ready" and waits; on SIGUSR1 it does, once, under that name:
 * file I/O on a path holding a newline, ESC and a backslash (create,
 * write, fsync, read, stat, mmap and a fault on it, unlink), sync(), brk, a TCP listener on
 * 127.0.0.1 with a connection to it (bind, listen, connect, accept,
 * send), a thread, a child signalled with SIGUSR2 that exits 7, a
 * capability check (a negative nice), a SysV shared memory segment, a
 * numeric-only getaddrinfo of a hostile host name, a tmpfs mounted on a
 * hostile directory name in a mount namespace of its own, a contended
 * futex, and 300 ms on and 300 ms off the CPU (profile, offcputime,
 * wakeuptime); then prints "done" and waits for SIGTERM.
 * Build with -pthread (threadsnoop and gethostlatency probe libc). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define NAME "\033]0;X\a\nz"
#define FILE_NAME "cbx\nfake\033[2J\\f"

static volatile sig_atomic_t go;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_usr1(int sig) { (void)sig; go = 1; }

static void *holder(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	(void)arg;
	for (int i = 0; i < 3; i++) { /* held while the main thread waits on it */
		pthread_mutex_lock(&lock);
		nanosleep(&ts, NULL);
		pthread_mutex_unlock(&lock);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void files(const char *dir)
{
	char path[4096], buf[4096];
	struct stat st;
	void *m;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, FILE_NAME);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0)
		return;
	memset(buf, 'x', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) < 0 || fsync(fd) < 0 || pread(fd, buf, sizeof(buf), 0) < 0)
		perror("hostile_ops: file");
	m = mmap(NULL, sizeof(buf), PROT_READ, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED) {
		(void)*(volatile char *)m; /* a file-backed page fault */
		munmap(m, sizeof(buf));
	}
	close(fd);
	stat(path, &st);
	usleep(100 * 1000); /* filelife: a life it can measure */
	unlink(path);
	sync();
}

static void tcp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), s;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* port 0: the kernel picks a free one */
	if (bind(l, (void *)&a, sizeof(a)) < 0 || listen(l, 4) < 0 || getsockname(l, (void *)&a, &len) < 0 ||
	    connect(c, (void *)&a, sizeof(a)) < 0) {
		perror("hostile_ops: tcp");
		goto out;
	}
	s = accept(l, NULL, NULL);
	if (s >= 0) {
		if (send(c, "hello", 5, 0) < 0 || recv(s, (char[8]){ 0 }, 8, 0) < 0)
			perror("hostile_ops: send");
		close(s);
	}
out:
	close(c);
	close(l);
}

static void child_signalled(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGUSR2, SIG_DFL);
		pause();
		_exit(7);
	}
	if (pid < 0)
		return;
	usleep(20 * 1000);
	kill(pid, SIGUSR2);
	waitpid(pid, NULL, 0);
	pid = fork();
	if (pid == 0)
		_exit(7);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* tmpfs on DIR/NAME in a mount namespace of a child's own */
static void mounts(const char *dir)
{
	char path[4096];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, NAME);
	mkdir(path, 0700);
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount("cbx\033[2J", path, "tmpfs", 0, "size=64k") == 0)
			umount(path);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	rmdir(path);
}

static void cpu(void)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			n++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 300 * 1000000L);
	for (int i = 0; i < 6; i++)
		usleep(50 * 1000);
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *res = NULL;
	pthread_t th;
	int id;

	if (argc != 2)
		return 2;
	if (prctl(PR_SET_NAME, NAME) < 0)
		return 1;
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, SIG_IGN);
	printf("ready\n");
	fflush(stdout);
	while (!go)
		pause();
	files(argv[1]);
	tcp();
	pthread_create(&th, NULL, holder, NULL);
	usleep(10 * 1000);
	for (int i = 0; i < 3; i++) { /* a contended lock: futex waits */
		pthread_mutex_lock(&lock);
		pthread_mutex_unlock(&lock);
		usleep(20 * 1000);
	}
	pthread_join(th, NULL);
	child_signalled();
	setpriority(PRIO_PROCESS, 0, -5);
	if (sbrk(4096) != (void *)-1) /* brk(2) both ways */
		sbrk(-4096);
	id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
	if (getaddrinfo("cbx\033]0;H\a.invalid", "80", &hints, &res) == 0)
		freeaddrinfo(res);
	mounts(argv[1]);
	cpu();
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
