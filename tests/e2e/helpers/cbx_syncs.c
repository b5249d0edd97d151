/* syncsnoop e2e helper: after the ready/go handshake (ready_go.h), make
 * a known sequence of sync-family calls on FILE: N x sync, then fsync,
 * fdatasync, msync (of a shared mapping of it), sync_file_range and
 * syncfs, each once; print the call names in order, then "done". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ready_go.h"

int main(int argc, char **argv)
{
	char *map;
	int fd, n;

	if (argc != 3 || sscanf(argv[2], "%d", &n) != 1) {
		fprintf(stderr, "usage: cbx_syncs FILE N\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, 4096)) {
		perror("cbx_syncs: file");
		return 1;
	}
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("cbx_syncs: mmap");
		return 1;
	}
	ready_go();
	for (int i = 0; i < n; i++)
		sync();
	map[0] = 'x';
	if (fsync(fd) || fdatasync(fd) || msync(map, 4096, MS_SYNC) ||
	    sync_file_range(fd, 0, 4096, SYNC_FILE_RANGE_WRITE) || syncfs(fd)) {
		perror("cbx_syncs: a sync call failed");
		return 1;
	}
	for (int i = 0; i < n; i++)
		printf("sync\n");
	printf("fsync\nfdatasync\nmsync\nsync_file_range\nsyncfs\ndone\n");
	return 0;
}
