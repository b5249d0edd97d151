/* pidpersec e2e helper: fork N children, each exiting at once, one after
 * the other (each reaped before the next), then print "done". */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n;

	if (argc != 2 || sscanf(argv[1], "%d", &n) != 1 || n < 1) {
		fprintf(stderr, "usage: forks N\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (p == 0)
			_exit(0);
		waitpid(p, NULL, 0);
	}
	printf("done\n");
	return 0;
}
