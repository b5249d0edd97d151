/* e2e helper for cachestat and readahead: page cache work on a file.
 *
 *   pcache create FILE PAGES   write PAGES pages, fsync, drop them from the
 *                              page cache (POSIX_FADV_DONTNEED)
 *   pcache cold FILE           drop FILE's pages, then read it through
 *                              (sequential 64 KiB reads)
 *   pcache warm FILE           read it through (its pages cached)
 *   pcache dirty FILE PAGES    write PAGES new pages (not synced)
 * Prints the pages it read or wrote. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[65536];

int main(int argc, char **argv)
{
	long pages = argc > 3 ? atol(argv[3]) : 0, done = 0;
	const char *mode = argc > 2 ? argv[1] : "";
	ssize_t n;
	int fd;

	if (!strcmp(mode, "create") || !strcmp(mode, "dirty")) {
		fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		memset(buf, 'p', sizeof(buf));
		for (; done < pages; done++)
			if (write(fd, buf, 4096) != 4096) {
				perror("write");
				return 1;
			}
		if (!strcmp(mode, "create") && (fsync(fd) < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))) {
			perror("fsync/fadvise");
			return 1;
		}
	} else if (!strcmp(mode, "cold") || !strcmp(mode, "warm")) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		if (!strcmp(mode, "cold") && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
			perror("fadvise");
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			done += n / 4096;
		if (n < 0) {
			perror("read");
			return 1;
		}
	} else {
		fprintf(stderr, "usage: pcache create|cold|warm|dirty FILE [PAGES]\n");
		return 2;
	}
	close(fd);
	printf("%ld\n", done);
	return 0;
}
