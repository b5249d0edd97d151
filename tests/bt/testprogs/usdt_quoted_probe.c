/* A probe whose name, as written in the note, keeps its quotes:
 * test:"probe1", with argument 1. Busy loop. Any argument: exit 0. */
#include <sys/sdt.h>

int main(int argc, char **argv)
{
	int one = 1;

	(void)argv;
	if (argc > 1)
		return 0;
	for (;;)
		DTRACE_PROBE1(test, "probe1", one);
}
