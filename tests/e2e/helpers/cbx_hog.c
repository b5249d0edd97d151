/* Memory pressure for the reclaim and OOM tools, inside a memory cgroup:
 *   cbx_hog anon MB    touch MB of anonymous memory (over the limit: the
 *                      OOM killer takes this process)
 *   cbx_hog cache FILE MB   write MB to FILE then read it twice (page
 *                      cache over the limit: memory cgroup reclaim)
 * Prints "start PID" first. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 16];

	if (argc < 3)
		return 2;
	printf("start %d\n", (int)getpid());
	fflush(stdout);
	if (!strcmp(argv[1], "anon")) {
		long mb = atol(argv[2]);
		char *p = mmap(NULL, (size_t)mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		for (long i = 0; i < mb << 20; i += 4096)
			p[i] = 1;
		printf("survived\n");
		return 0;
	}
	if (!strcmp(argv[1], "cache") && argc > 3) {
		long mb = atol(argv[3]);
		int fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);

		if (fd < 0)
			return 1;
		memset(buf, 7, sizeof(buf));
		for (long i = 0; i < mb * 16; i++)
			if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
				return 1;
		fsync(fd);
		for (int pass = 0; pass < 2; pass++) {
			lseek(fd, 0, SEEK_SET);
			while (read(fd, buf, sizeof(buf)) > 0)
				;
		}
		close(fd);
		printf("done\n");
		return 0;
	}
	return 2;
}
