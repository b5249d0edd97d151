/* opensnoop e2e helper: open PATH read-only and print "PID FD ERRNO"
 * (FD -1 and the errno when the open fails).  With -g FIFO, first print
 * "PID" alone and block until something is written to FIFO, so a tracer
 * can be started with -p PID before the open happens. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *gate = NULL, *path;
	int fd, err;

	if (argc == 4 && !strcmp(argv[1], "-g")) {
		gate = argv[2];
		path = argv[3];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: open_file [-g FIFO] PATH\n");
		return 2;
	}
	if (gate) {
		char c;
		int g;

		printf("%d\n", (int)getpid());
		fflush(stdout);
		g = open(gate, O_RDONLY); /* blocks until a writer appears */
		if (g < 0)
			return 3;
		while (read(g, &c, 1) < 0 && errno == EINTR)
			;
		close(g);
	}
	fd = open(path, O_RDONLY);
	err = fd < 0 ? errno : 0;
	printf("%d %d %d\n", (int)getpid(), fd, err);
	fflush(stdout);
	return 0;
}
