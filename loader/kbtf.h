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

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct kbtf {
	struct btf *btf;
	const void *map;  /* whole file mapping */
	size_t map_size;
	char path[256];
};

int kbtf_open(struct kbtf *k, const char *path);
/* kbtf_open that also finds the wanted names (btf_find_prepare_wanted):
 * during the parse for the kernel's own files, after it for others. */
struct btf_wanted;
int kbtf_open_wanted(struct kbtf *k, const char *path, const struct btf_wanted *want);
void kbtf_close(struct kbtf *k);

/* The running kernel's own BTF lives in /sys/kernel/btf (vmlinux, and one
 * split BTF file per module).  $COREBOX_SYSFS_BTF=DIR replaces that
 * directory and then also stands for the /boot and /lib/modules vmlinux
 * files (tests: DIR=/nonexistent is a kernel without BTF). */
const char *kbtf_sysfs_dir(void);
/* Open DIR/vmlinux only: the BTF whose ids the kernel understands
 * (tp_btf/fentry targets, typed ksyms).  -ENOENT when the kernel has none. */
int kbtf_open_sys(struct kbtf *k);
/* Was k opened from DIR/vmlinux? */
bool kbtf_is_sys(const struct kbtf *k);
/* A module's BTF: split BTF on base (the running kernel's vmlinux). */
int kbtf_open_split(struct kbtf *k, const char *path, const struct btf *base);
/* Module BTF files in DIR (everything but vmlinux), sorted by name:
 * malloc'd array of malloc'd names (none when DIR is missing). */
int kbtf_module_names(char ***names, size_t *n);
/* DIR/NAME into buf; -EINVAL for names with '/' or too long. */
int kbtf_module_path(char *buf, size_t size, const char *name);
/* fd of the kernel BTF object of module NAME (found by walking BTF ids;
 * attach_btf_obj_fd for programs attaching to module functions and
 * tracepoints), or a negative errno with a message. */
int kbtf_module_fd(const char *name);

#endif
