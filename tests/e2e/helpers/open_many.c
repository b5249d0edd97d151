/* e2e helper: open (and close) PATH N times as fast as it can, to
 * overflow a tracer's event buffer.   open_many PATH N */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc == 3 ? atol(argv[2]) : 0;

	for (long i = 0; i < n; i++) {
		int fd = open(argv[1], O_RDONLY);

		if (fd >= 0)
			close(fd);
	}
	return argc == 3 ? 0 : 2;
}
