/* Kernel BTF: find it, map it, parse it.
 *
 * path NULL: /sys/kernel/btf/vmlinux (then the usual vmlinux locations
 * under /boot and /lib/modules/$(uname -r)).  A file may be raw BTF or an
 * ELF (e.g. vmlinux) with a .BTF section.  The file is mmap'd read-only
 * (MAP_PRIVATE: sysfs refuses MAP_SHARED) and borrowed by the btf, never
 * copied into the heap; kbtf_close() unmaps it.  When the kernel has no
 * BTF, the error says so and tells the user to pass --btf FILE. */
#ifndef COREBOX_KBTF_H
#define COREBOX_KBTF_H

#include <stddef.h>

struct btf;
struct kbtf {
	struct btf *btf;
	const void *map;  /* whole file mapping */
	size_t map_size;
	char path[256];
};

int kbtf_open(struct kbtf *k, const char *path);
void kbtf_close(struct kbtf *k);

#endif
