/* e2e helper for biolatency: K O_DIRECT 4 KiB reads of a block device at
 * distinct offsets (every third 4 KiB block), so each read is one block
 * request.
 *
 *   dio_read DEVICE K */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long k = argc > 2 ? atol(argv[2]) : 200, i;
	void *buf;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: dio_read DEVICE [K]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (posix_memalign(&buf, 4096, 4096))
		return 1;
	for (i = 0; i < k; i++) {
		if (pread(fd, buf, 4096, (off_t)i * 3 * 4096) != 4096) {
			perror("pread");
			return 1;
		}
	}
	close(fd);
	printf("read %ld\n", k);
	return 0;
}
