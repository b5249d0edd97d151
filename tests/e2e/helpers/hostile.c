/* hostile DIR: what the audit of issue 22 did to the text output, once:
 * names itself with a terminal escape and a newline (prctl PR_SET_NAME),
 * opens a path under DIR that holds a newline, ESC and a backslash, forks
 * a child that exits 7 under that name, then execs /bin/true through a
 * symlink whose name is the same escape (the new comm) with arguments that
 * hold a newline, an OSC title escape, a backslash and a double quote.
 * The e2e test (tests/e2e/hostile.sh) asserts the escaped forms. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME "\033]0;X\a\nz"       /* 9 bytes: a comm */
#define FILE_NAME "cbx\nfake\033[2J\\f" /* opened under DIR */

int main(int argc, char **argv)
{
	char path[4096], link[4096];
	pid_t pid;
	int fd;

	if (argc != 2)
		return 2;
	if (prctl(PR_SET_NAME, NAME) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", argv[1], FILE_NAME);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	if (fd < 0)
		return 1;
	close(fd);
	pid = fork();
	if (pid == 0)
		_exit(7);
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		return 1;
	snprintf(link, sizeof(link), "%s/%s", argv[1], NAME);
	unlink(link);
	if (symlink("/bin/true", link) < 0)
		return 1;
	execl(link, link, "a\nb", "\033]0;T\a", "back\\slash", "q\"uote", (char *)NULL);
	return 1;
}
