/* wait4() for a child with a non-NULL rusage pointer. */
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	struct rusage ru;
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	return wait4(pid, NULL, 0, &ru) == pid ? 0 : 1;
}
