/* Kernel BTF: find the file, map it, parse it in place (see kbtf.h). */
#include "kbtf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "btf/btf.h"
#include "elf/elf.h"
#include "err.h"

/* Map a whole file read-only.  sysfs only allows PROT_READ + MAP_PRIVATE
 * and reports the real size for /sys/kernel/btf/vmlinux. */
static int map_file(const char *path, const void **map, size_t *size)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return err_sys(e, "cannot stat %s", path);
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return err_set(EINVAL, "%s is %s", path, S_ISREG(st.st_mode) ? "empty" : "not a regular file");
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return err_sys(errno, "cannot map %s", path);
	*map = p;
	*size = (size_t)st.st_size;
	return 0;
}

/* The BTF bytes inside a mapped file: the whole file, or .BTF of an ELF. */
static int locate_btf(const char *path, const void *map, size_t size, const void **btf, size_t *btf_size)
{
	struct elf_view ev;
	const Elf64_Shdr *sh;
	int err;

	if (size < 4 || memcmp(map, ELFMAG, SELFMAG)) {
		*btf = map;
		*btf_size = size;
		return 0;
	}
	if ((err = elf_open(&ev, map, size)))
		return err_prefix(err, "%s", path);
	sh = elf_find_sec(&ev, ".BTF");
	if (!sh)
		return err_set(ENOENT, "%s: ELF file without a .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF?)",
			       path);
	if ((err = elf_sec_data(&ev, sh, btf, btf_size)))
		return err_prefix(err, "%s: .BTF", path);
	if (!*btf)
		return err_set(EINVAL, "%s: .BTF section has no data", path);
	return 0;
}

static int open_one(struct kbtf *k, const char *path)
{
	const void *data;
	size_t size;
	int err;

	if ((err = map_file(path, &k->map, &k->map_size)))
		return err;
	snprintf(k->path, sizeof(k->path), "%s", path);
	if ((err = locate_btf(path, k->map, k->map_size, &data, &size)))
		goto fail;
	k->btf = btf_new(data, size, 0, NULL);
	if (!k->btf) {
		err = err_prefix(-EINVAL, "%s", path);
		goto fail;
	}
	return 0;
fail:
	kbtf_close(k);
	return err;
}

int kbtf_open(struct kbtf *k, const char *path)
{
	static const char *const fmts[] = {
		"/boot/vmlinux-%s",
		"/lib/modules/%s/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/modules/%s/kernel/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
	};
	struct utsname u;
	char p[512];
	size_t i;

	memset(k, 0, sizeof(*k));
	if (path)
		return open_one(k, path);
	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		return open_one(k, "/sys/kernel/btf/vmlinux");
	if (uname(&u) == 0) {
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
			/* formats use the release once or twice */
			snprintf(p, sizeof(p), fmts[i], u.release, u.release);
			if (!access(p, R_OK))
				return open_one(k, p);
		}
	}
	return err_set(ENOENT, "kernel has no BTF (no /sys/kernel/btf/vmlinux): pass --btf FILE or set COREBOX_BTF");
}

void kbtf_close(struct kbtf *k)
{
	btf_free(k->btf);
	if (k->map)
		munmap((void *)k->map, k->map_size);
	memset(k, 0, sizeof(*k));
}
