/* Kernel BTF: find the file, map it, parse it in place (see kbtf.h). */
#include "kbtf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "btf/btf.h"
#include "elf/elf.h"
#include "err.h"
#include "util.h"

/* Map a whole file read-only.  sysfs only allows PROT_READ + MAP_PRIVATE
 * and reports the real size for /sys/kernel/btf/vmlinux. */
static int map_file(const char *path, const void **map, size_t *size)
{
	struct stat st;
	void *p;
	int fd = open_regular(path, &st); /* a FIFO must not hang us */

	if (fd < 0)
		return fd;
	if (st.st_size <= 0) {
		close(fd);
		return err_set(EINVAL, "%s is empty", path);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		/* sysfs BTF is mmap-able only since 6.16 (ENODEV before): read
		 * it into anonymous memory, so kbtf_close() still munmaps */
		size_t got = 0;
		ssize_t n = 0;

		p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		while (p != MAP_FAILED && got < (size_t)st.st_size &&
		       ((n = read(fd, (char *)p + got, (size_t)st.st_size - got)) > 0 || (n < 0 && errno == EINTR)))
			got += n > 0 ? (size_t)n : 0;
		if (p != MAP_FAILED && got < (size_t)st.st_size) {
			int e = n < 0 ? errno : EIO;

			munmap(p, (size_t)st.st_size);
			close(fd);
			return err_sys(e, "cannot read %s", path);
		}
		if (p != MAP_FAILED)
			mprotect(p, (size_t)st.st_size, PROT_READ);
	}
	close(fd);
	if (p == MAP_FAILED)
		return err_sys(errno, "cannot map %s", path);
	*map = p;
	*size = (size_t)st.st_size;
	return 0;
}

/* .BTF of a 32-bit ELF file (a 32-bit ARM vmlinux): its section table
 * read in place, every offset checked (not widened: a vmlinux with DWARF
 * is hundreds of MB). */
static int locate_btf32(const char *path, const void *map, size_t size, const void **btf, size_t *btf_size)
{
	const uint8_t *d = map;
	const Elf32_Ehdr *eh = map;
	const Elf32_Shdr *sh, *strs;

	if (size < sizeof(*eh) || eh->e_shentsize != sizeof(*sh) || eh->e_shoff % 4 || eh->e_shoff > size ||
	    eh->e_shnum > (size - eh->e_shoff) / sizeof(*sh) || eh->e_shstrndx >= eh->e_shnum)
		return err_set(EINVAL, "%s: malformed 32-bit ELF section table", path);
	sh = (const Elf32_Shdr *)(d + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
		return err_set(EINVAL, "%s: malformed 32-bit ELF section names", path);
	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size || strs->sh_size - sh[i].sh_name < 5 ||
		    memcmp(d + strs->sh_offset + sh[i].sh_name, ".BTF", 5))
			continue;
		if (sh[i].sh_type == SHT_NOBITS || sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			return err_set(EINVAL, "%s: .BTF lies outside the file", path);
		*btf = d + sh[i].sh_offset;
		*btf_size = sh[i].sh_size;
		return 0;
	}
	return err_set(ENOENT, "%s: ELF file without a .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF?)",
		       path);
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
	if (size > EI_CLASS && ((const uint8_t *)map)[EI_CLASS] == ELFCLASS32)
		return locate_btf32(path, map, size, btf, btf_size);
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

/* The kernel's own /sys/kernel/btf files: it verified them (vmlinux at
 * boot, modules at load), so their parse skips what it checked.  Not a
 * --btf file, a vmlinux under /boot, or a $COREBOX_SYSFS_BTF stand-in. */
static bool kernel_made(const char *path)
{
	return !getenv("COREBOX_SYSFS_BTF") && !strncmp(path, "/sys/kernel/btf/", 16);
}

static int open_one(struct kbtf *k, const char *path, const struct btf *base, const struct btf_wanted *want)
{
	const void *data;
	size_t size;
	int err;

	if ((err = map_file(path, &k->map, &k->map_size)))
		return err_prefix(err, "kernel BTF");
	snprintf(k->path, sizeof(k->path), "%s", path);
	if ((err = locate_btf(path, k->map, k->map_size, &data, &size)))
		goto fail;
	if (kernel_made(path)) {
		k->btf = btf_new_kernel_prepared(data, size, base, want);
	} else {
		k->btf = btf_new(data, size, 0, base);
		if (k->btf)
			btf_find_prepare_wanted(k->btf, want);
	}
	if (!k->btf) {
		err = err_prefix(-EINVAL, "%s", path);
		goto fail;
	}
	return 0;
fail:
	kbtf_close(k);
	return err;
}

const char *kbtf_sysfs_dir(void)
{
	const char *d = getenv("COREBOX_SYSFS_BTF");

	return d && *d ? d : "/sys/kernel/btf";
}

static void sysfs_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", kbtf_sysfs_dir(), name);
}

bool kbtf_is_sys(const struct kbtf *k)
{
	char p[512];

	sysfs_path(p, sizeof(p), "vmlinux");
	return k->btf && !strcmp(k->path, p);
}

int kbtf_open_sys(struct kbtf *k)
{
	char p[512];

	memset(k, 0, sizeof(*k));
	sysfs_path(p, sizeof(p), "vmlinux");
	if (access(p, R_OK))
		return err_set(ENOENT, "the running kernel has no BTF (no %s)", p);
	return open_one(k, p, NULL, NULL);
}

int kbtf_open_split(struct kbtf *k, const char *path, const struct btf *base)
{
	memset(k, 0, sizeof(*k));
	return open_one(k, path, base, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kbtf_module_names(char ***names, size_t *n)
{
	DIR *d = opendir(kbtf_sysfs_dir());
	struct dirent *de;

	*names = NULL;
	*n = 0;
	if (!d)
		return 0; /* no sysfs BTF: no modules either */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), cmp_str);
	return 0;
}

int kbtf_module_path(char *buf, size_t size, const char *name)
{
	if (!name || !*name || strchr(name, '/') || snprintf(buf, size, "%s/%s", kbtf_sysfs_dir(), name) >= (int)size)
		return err_set(EINVAL, "bad module name '%s'", name ? name : "");
	return 0;
}

int kbtf_module_fd(const char *name)
{
	uint32_t id = 0;
	int err;

	/* walk the kernel's BTF objects for the one named after the module */
	while ((err = bpf_btf_next_id(id, &id)) == 0) {
		struct bpf_btf_info info;
		char bname[64];
		uint32_t len = sizeof(info);
		int fd = bpf_btf_fd_by_id(id);

		if (fd < 0)
			continue; /* gone meanwhile */
		memset(&info, 0, sizeof(info));
		memset(bname, 0, sizeof(bname));
		info.name = (uint64_t)(uintptr_t)bname;
		info.name_len = sizeof(bname);
		if (bpf_obj_info(fd, &info, &len) == 0 && info.kernel_btf && !strcmp(bname, name)) {
			err_clear();
			return fd;
		}
		close(fd);
	}
	err_clear();
	return err_set(ENOENT, "no kernel BTF object for module %s", name);
}

int kbtf_open(struct kbtf *k, const char *path)
{
	return kbtf_open_wanted(k, path, NULL);
}

int kbtf_open_wanted(struct kbtf *k, const char *path, const struct btf_wanted *want)
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
		return open_one(k, path, NULL, want);
	sysfs_path(p, sizeof(p), "vmlinux");
	if (!access(p, R_OK))
		return open_one(k, p, NULL, want);
	/* $COREBOX_SYSFS_BTF (tests) stands for all of the kernel's own BTF */
	if (!getenv("COREBOX_SYSFS_BTF") && uname(&u) == 0) {
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
			/* formats use the release once or twice */
			snprintf(p, sizeof(p), fmts[i], u.release, u.release);
			if (!access(p, R_OK))
				return open_one(k, p, NULL, want);
		}
	}
	sysfs_path(p, sizeof(p), "vmlinux");
	return err_set(ENOENT, "this kernel has no BTF (no %s, no vmlinux under /boot or /lib/modules):"
			       " pass --btf FILE or set COREBOX_BTF=FILE (raw BTF or a vmlinux with .BTF;"
			       " 'corebox btf min' makes a small one)", p);
}

void kbtf_close(struct kbtf *k)
{
	btf_free(k->btf);
	if (k->map)
		munmap((void *)k->map, k->map_size);
	memset(k, 0, sizeof(*k));
}
