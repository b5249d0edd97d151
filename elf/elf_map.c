/* Map a whole file read-only, for elf_open() on binaries and libraries. */
#include "elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

int elf_map_fd(int fd, const char *path, const void **data, size_t *size)
{
	struct stat stbuf;
	void *p;
	int err;

	*data = NULL;
	*size = 0;
	if (fstat(fd, &stbuf) < 0)
		return err_sys(errno, "stat %s", path);
	/* mmap of 0 bytes fails with a confusing EINVAL: say what it is. */
	if (stbuf.st_size == 0)
		return err_set(EINVAL, "%s is empty", path);
	if ((uint64_t)stbuf.st_size > SIZE_MAX)
		return err_set(EFBIG, "%s is too large to map", path);
	p = mmap(NULL, (size_t)stbuf.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return err_sys(errno, "mmap %s", path);
	/* a 32-bit binary: seen through its widened 64-bit image (elf32.c) */
	if ((size_t)stbuf.st_size >= EI_NIDENT && !memcmp(p, ELFMAG, SELFMAG) &&
	    ((const uint8_t *)p)[EI_CLASS] == ELFCLASS32) {
		const void *w;
		size_t wsize;

		err = elf32_widen(fd, p, (size_t)stbuf.st_size, &w, &wsize);
		munmap(p, (size_t)stbuf.st_size);
		if (err < 0) {
			char why[160];

			snprintf(why, sizeof(why), "%s", err_msg());
			return err_set(-err, "%s: %s", path, why);
		}
		*data = w;
		*size = wsize;
		return 0;
	}
	*data = p;
	*size = (size_t)stbuf.st_size;
	return 0;
}

int elf_map_file(const char *path, const void **data, size_t *size)
{
	struct stat stbuf;
	int fd, err;

	*data = NULL;
	*size = 0;
	fd = open_regular(path, &stbuf); /* never blocks on a FIFO */
	if (fd < 0)
		return fd;
	err = elf_map_fd(fd, path, data, size);
	close(fd);
	return err;
}

void elf_unmap_file(const void *data, size_t size)
{
	if (data)
		munmap((void *)data, size);
}
