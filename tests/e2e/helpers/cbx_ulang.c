/* uobjnew -l c / ucalls -S helper: after the go signal, K mallocs of S
 * bytes (freed at once) and K getppid syscalls, then "done" and a wait
 * to be killed (the alarm ends it after 60 s). */
#include <stdlib.h>
#include <sys/syscall.h>
#include "ready_go.h"

int main(int argc, char **argv)
{
	int k = argc > 2 ? atoi(argv[1]) : 0;
	size_t s = argc > 2 ? (size_t)atol(argv[2]) : 0;
	void *volatile p;

	ready_go();
	for (int i = 0; i < k; i++) {
		p = malloc(s);
		free(p);
		syscall(SYS_getppid);
	}
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
