/* Map a whole file read-only, for elf_open() on binaries and libraries. */
#include "elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

int elf_map_file(const char *path, const void **data, size_t *size)
{
	struct stat stbuf;
	void *p;
	int fd, err;

	*data = NULL;
	*size = 0;
	fd = open_regular(path, &stbuf); /* never blocks on a FIFO */
	if (fd < 0)
		return fd;
	/* mmap of 0 bytes fails with a confusing EINVAL: say what it is. */
	if (stbuf.st_size == 0) {
		err = err_set(EINVAL, "%s is empty", path);
		goto out;
	}
	if ((uint64_t)stbuf.st_size > SIZE_MAX) {
		err = err_set(EFBIG, "%s is too large to map", path);
		goto out;
	}
	p = mmap(NULL, (size_t)stbuf.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		err = err_sys(errno, "mmap %s", path);
		goto out;
	}
	*data = p;
	*size = (size_t)stbuf.st_size;
	err = 0;
out:
	close(fd);
	return err;
}

void elf_unmap_file(const void *data, size_t size)
{
	if (data)
		munmap((void *)data, size);
}
