/* Two processes of usdt_semaphore_test: this one and a forked child. */
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	if (fork() < 0)
		return 1;
	execv("./testprogs/usdt_semaphore_test", argv);
	return 1;
}
