/* wakeuptime/offwaketime e2e helper: a reader/writer pipe pair.
 *   cbx_wake_pair GATE N
 * Prints the reader's pid and the writer's pid, waits for a line on the
 * fifo GATE, then the writer (comm "cbxwriter") writes one byte every
 * 100 ms, N times (default 10), and the reader (comm "cbxreader") blocks
 * reading them. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static void writer_loop(int fd, int n)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	for (int i = 0; i < n; i++) {
		nanosleep(&ts, NULL);
		if (write(fd, "x", 1) != 1)
			_exit(1);
	}
}

__attribute__((noinline)) static int reader_loop(int fd, int n)
{
	char c;
	int got = 0;

	while (got < n && read(fd, &c, 1) == 1)
		got++;
	return got;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 10, p[2], gate[2];
	pid_t child;
	char c;

	if (pipe(p) < 0 || pipe(gate) < 0)
		return 1;
	child = fork();
	if (child == 0) {
		prctl(PR_SET_NAME, "cbxwriter", 0, 0, 0);
		close(p[0]);
		close(gate[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(1);
		writer_loop(p[1], n);
		_exit(0);
	}
	prctl(PR_SET_NAME, "cbxreader", 0, 0, 0);
	close(p[1]);
	close(gate[0]);
	printf("%d %d\n", (int)getpid(), (int)child);
	fflush(stdout);
	if (argc > 1) {
		FILE *g = fopen(argv[1], "r");
		char line[16];

		if (!g || !fgets(line, sizeof(line), g))
			return 1;
		fclose(g);
	}
	if (write(gate[1], "g", 1) != 1)
		return 1;
	n = reader_loop(p[0], n);
	waitpid(child, NULL, 0);
	printf("%d\n", n);
	fflush(stdout);
	return 0;
}
