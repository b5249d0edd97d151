/* faults/ffaults ground truth: after SIGUSR1, touch exactly P new pages of
 * anonymous memory from cbx_touch_marker() (one write each: P page
 * faults), then, with FILE, read one byte of each of its pages through a
 * private mapping (faults on the file); print "done" and stay alive.
 * -O0 -fno-omit-frame-pointer.
 *   cbx_touch P [FILE] */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

__attribute__((noinline)) void cbx_touch_marker(volatile char *p, long n)
{
	for (long i = 0; i < n; i++)
		p[i * 4096] = 1;
}

int main(int argc, char **argv)
{
	long p = argc > 1 ? atol(argv[1]) : 0;
	volatile char *mem;
	unsigned sum = 0;

	mem = mmap(NULL, (size_t)p * 4096 + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	signal(SIGUSR1, on_usr1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	cbx_touch_marker(mem, p);
	if (argc > 2) {
		int fd = open(argv[2], O_RDONLY);
		struct stat st;
		volatile char *f;

		if (fd < 0 || fstat(fd, &st) < 0)
			return 1;
		f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (f == MAP_FAILED)
			return 1;
		for (off_t o = 0; o < st.st_size; o += 4096)
			sum += (unsigned char)f[o];
	}
	printf("done %u\n", sum);
	fflush(stdout);
	for (;;)
		pause();
}
