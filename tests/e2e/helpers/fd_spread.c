/* e2e helper: PROCS processes one after another, each opening FILES files
 * with 200-byte names under DIR and exiting without closing them: every
 * open leaves a different (process, fd) -> path behind in a tracer that
 * remembers fd paths (systrace).   fd_spread DIR PROCS FILES */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char pad[201];

	if (argc != 4)
		return 2;
	memset(pad, 'p', 200);
	pad[200] = 0;
	for (int p = 0; p < atoi(argv[2]); p++) {
		pid_t c = fork();

		if (c == 0) {
			for (int f = 0; f < atoi(argv[3]); f++) {
				char path[512];

				snprintf(path, sizeof(path), "%s/%s_%d", argv[1], pad, f);
				if (open(path, O_RDONLY | O_CREAT, 0600) < 0)
					_exit(1);
			}
			_exit(0);
		}
		if (c < 0 || waitpid(c, NULL, 0) != c)
			return 1;
	}
	return 0;
}
