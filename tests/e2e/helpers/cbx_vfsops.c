/* e2e helper of the VFS tools (vfsstat, filetop, filelife, fsdist...):
 * after the ready/go handshake (ready_go.h), known file operations in DIR:
 *   open DIR/cbx_vfs_data (O_CREAT|O_TRUNC)          1 open (created)
 *   NW x write() of 100 bytes                         NW writes, 100*NW bytes
 *   NR x pread64() of 100 bytes at 0                  NR reads, 100*NR bytes
 *   NF x fsync()                                      NF fsyncs
 *   NO x open(O_RDONLY) + close of that file          NO more opens
 *   NC x mknod(DIR/cbx_node_I, S_IFREG) and
 *   NC x open(DIR/cbx_new_I, O_CREAT|O_EXCL) + write
 *        of I+1 bytes + close                         2*NC files created
 *   sleep LIFE_MS, then unlink the 2*NC files          and deleted
 * and print "done".  Sizes are chosen so the byte counts are exact.
 *
 *   cbx_vfsops DIR NW NR NF NO NC LIFE_MS */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "ready_go.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	char buf[100] = { 0 }, path[4096];
	long nw, nr, nf, no, nc, life;
	struct timespec ts;
	int fd;

	if (argc != 8) {
		fprintf(stderr, "usage: cbx_vfsops DIR NW NR NF NO NC LIFE_MS\n");
		return 2;
	}
	nw = atol(argv[2]), nr = atol(argv[3]), nf = atol(argv[4]);
	no = atol(argv[5]), nc = atol(argv[6]), life = atol(argv[7]);
	snprintf(path, sizeof(path), "%s/cbx_vfs_data", argv[1]);
	ready_go();
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("cbx_vfsops: open");
	for (long i = 0; i < nw; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			die("cbx_vfsops: write");
	for (long i = 0; i < nr; i++)
		if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			die("cbx_vfsops: pread");
	for (long i = 0; i < nf; i++)
		if (fsync(fd))
			die("cbx_vfsops: fsync");
	close(fd);
	for (long i = 0; i < no; i++) {
		if ((fd = open(path, O_RDONLY)) < 0)
			die("cbx_vfsops: reopen");
		close(fd);
	}
	for (long i = 0; i < nc; i++) {
		snprintf(path, sizeof(path), "%s/cbx_node_%ld", argv[1], i);
		if (mknod(path, S_IFREG | 0600, 0))
			die("cbx_vfsops: mknod");
		snprintf(path, sizeof(path), "%s/cbx_new_%ld", argv[1], i);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0)
			die("cbx_vfsops: create");
		if (write(fd, buf, (size_t)i + 1 > sizeof(buf) ? sizeof(buf) : (size_t)i + 1) < 0)
			die("cbx_vfsops: write new");
		close(fd);
	}
	ts.tv_sec = life / 1000;
	ts.tv_nsec = life % 1000 * 1000000;
	nanosleep(&ts, NULL);
	for (long i = 0; i < nc; i++) {
		snprintf(path, sizeof(path), "%s/cbx_node_%ld", argv[1], i);
		if (unlink(path))
			die("cbx_vfsops: unlink");
		snprintf(path, sizeof(path), "%s/cbx_new_%ld", argv[1], i);
		if (unlink(path))
			die("cbx_vfsops: unlink new");
	}
	printf("done\n");
	return 0;
}
