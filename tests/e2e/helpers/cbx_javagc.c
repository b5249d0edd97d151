/* javagc's ground truth: linked to the stand-in libjvm.so
 * (cbx_libjvm.c), after SIGUSR1 it runs SLOW 20 ms collections through
 * gc__begin/gc__end, MEMP 20 ms ones through mem__pool__gc__begin/end and
 * FAST ones with no pause at all, then prints "done" and waits.
 * Usage: cbx_javagc SLOW MEMP FAST */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void cbx_gc(int kind, long ms);

static volatile sig_atomic_t go;
static void on_usr1(int s) { (void)s; go = 1; }

int main(int argc, char **argv)
{
	int slow = argc > 1 ? atoi(argv[1]) : 4, memp = argc > 2 ? atoi(argv[2]) : 3,
	    fast = argc > 3 ? atoi(argv[3]) : 10;

	signal(SIGUSR1, on_usr1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	for (int i = 0; i < slow; i++)
		cbx_gc(0, 20);
	for (int i = 0; i < memp; i++)
		cbx_gc(1, 20);
	for (int i = 0; i < fast; i++)
		cbx_gc(0, 0);
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}
