/* memleak's ground truth: after SIGUSR1 (or at once with "now"), leak
 * exactly K allocations of LEAK bytes from cbx_leak_marker() and make N
 * allocations of FREED bytes from cbx_freed_marker() that are all freed;
 * print "done" and stay alive (the tool reads its symbols) until killed.
 * Build with -O0 -fno-omit-frame-pointer: the stacks walk frame pointers.
 *   cbx_leak K LEAK N FREED [now] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static void *kept[100000];

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

__attribute__((noinline)) void cbx_leak_marker(int k, size_t size)
{
	for (int i = 0; i < k && i < 100000; i++)
		kept[i] = malloc(size);
}

__attribute__((noinline)) void cbx_freed_marker(int n, size_t size)
{
	for (int i = 0; i < n; i++) {
		void *p = malloc(size);

		free(p);
	}
}

int main(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	signal(SIGUSR1, on_usr1);
	if (argc > 5)
		go = 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	cbx_leak_marker(atoi(argv[1]), (size_t)atol(argv[2]));
	cbx_freed_marker(atoi(argv[3]), (size_t)atol(argv[4]));
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
