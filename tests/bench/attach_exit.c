/* Time from exec of a tool to its "attached" banner, and from SIGINT to
 * its exit.
 * Usage: attach_exit PATTERN TOOL [ARGS...]
 * Starts TOOL with stdout and stderr on a pipe, waits (at most 60 s) for
 * a line containing PATTERN, sends SIGINT and reaps it; prints
 * "ATTACH_MS EXIT_MS" (or "timeout"). */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int fds[2];
	char buf[65536];
	size_t len = 0;
	double t0, t1, t2;
	pid_t tool;

	if (argc < 3)
		return 2;
	if (pipe(fds) < 0)
		return 1;
	t0 = ms_now();
	tool = fork();
	if (tool == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(argv[2], argv + 2);
		_exit(127);
	}
	close(fds[1]);
	while (ms_now() - t0 < 60000) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fds[0], buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = 0;
		if (strstr(buf, argv[1])) {
			t1 = ms_now();
			usleep(200000); /* let it settle: the exit is what is timed */
			fcntl(fds[0], F_SETFL, O_NONBLOCK);
			t2 = ms_now();
			kill(tool, SIGINT);
			/* drain its report so a full pipe never holds it */
			for (;;) {
				int st;

				while (read(fds[0], buf, sizeof(buf)) > 0)
					;
				if (waitpid(tool, &st, WNOHANG) == tool)
					break;
				if (ms_now() - t2 > 30000)
					kill(tool, SIGKILL); /* a tool that missed its SIGINT: reaped, timed as 30 s+ */
				usleep(1000);
			}
			printf("%.0f %.0f\n", t1 - t0, ms_now() - t2);
			return 0;
		}
		if (len > sizeof(buf) / 2)
			len = 0;
	}
	kill(tool, SIGKILL);
	waitpid(tool, NULL, 0);
	printf("timeout\n");
	return 1;
}
