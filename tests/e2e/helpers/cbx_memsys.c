/* mmapsnoop/brkstack/shmsnoop ground truth: after SIGUSR1, map FILE
 * exactly N times (PROT_READ, MAP_PRIVATE, PAGES pages, offset 0), make
 * exactly M brk() calls from cbx_brk_marker() (a raw syscall instruction:
 * libc's wrappers have no frame pointer), then one shmget (SHM_BYTES),
 * shmat (read-only), shmdt, shmctl(IPC_RMID); print what it did and stay
 * alive until killed.  -O0 -fno-omit-frame-pointer.
 *   cbx_memsys FILE N PAGES M SHM_BYTES */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

__attribute__((noinline)) long cbx_brk_marker(long addr)
{
	long r;

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(r) : "0"((long)SYS_brk), "D"(addr) : "rcx", "r11", "memory");
#else
	r = syscall(SYS_brk, addr);
#endif
	return r;
}

int main(int argc, char **argv)
{
	int fd, n, m, id;
	long pages, shm_bytes;
	void *p;

	if (argc < 6)
		return 2;
	n = atoi(argv[2]);
	pages = atol(argv[3]);
	m = atoi(argv[4]);
	shm_bytes = atol(argv[5]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	signal(SIGUSR1, on_usr1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	for (int i = 0; i < n; i++)
		if (mmap(NULL, (size_t)pages * 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
			return 1;
	for (int i = 0; i < m; i++)
		cbx_brk_marker(0);
	id = shmget(IPC_PRIVATE, (size_t)shm_bytes, IPC_CREAT | 0600);
	p = shmat(id, NULL, SHM_RDONLY);
	shmdt(p);
	shmctl(id, IPC_RMID, NULL);
	printf("done shmid=%d shmaddr=%lx\n", id, (unsigned long)p);
	fflush(stdout);
	for (;;)
		pause();
}
