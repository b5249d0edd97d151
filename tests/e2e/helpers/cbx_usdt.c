/* tplist e2e helper: three USDT probe sites of provider cbxtp, in this
 * order in .note.stapsdt: alpha (two arguments) twice, then beta (none);
 * after the ready/go handshake (ready_go.h) it fires them once and
 * prints "done", so that a test can list them by file (-l) or by process
 * (-p) while it waits. */
#include <sys/sdt.h>

#include "ready_go.h"

int main(int argc, char **argv)
{
	volatile int a = argc, b = 7;

	(void)argv;
	ready_go();
	DTRACE_PROBE2(cbxtp, alpha, a, b);
	DTRACE_PROBE2(cbxtp, alpha, b, a);
	DTRACE_PROBE(cbxtp, beta);
	printf("done\n");
	return 0;
}
