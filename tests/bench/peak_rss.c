/* Peak RSS of a command: runs it (stdout to /dev/null) and prints
 * "KIB" from wait4's ru_maxrss.  A small C parent (not Python): a forked
 * child counts the parent's pages until it execs.
 * Usage: peak_rss CMD [ARGS...] */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int st;
	pid_t p;

	if (argc < 2)
		return 2;
	p = fork();
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (p < 0 || wait4(p, &st, 0, &ru) < 0)
		return 1;
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
