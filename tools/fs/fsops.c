#include "fsops.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "lib/util.h"

static const struct fs_config fs_configs[] = {
	{ "btrfs", { "btrfs_file_read_iter", "btrfs_file_write_iter", "btrfs_file_open", "btrfs_sync_file", NULL },
	  { "btrfs", NULL } },
	{ "ext4", { "ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open", "ext4_sync_file",
		    "ext4_file_getattr" },
	  { "ext4", "ext3" } },
	{ "fuse", { "fuse_file_read_iter", "fuse_file_write_iter", "fuse_open", "fuse_fsync", "fuse_getattr" },
	  { "fuse", "fuseblk" } },
	{ "nfs", { "nfs_file_read", "nfs_file_write", "nfs_file_open", "nfs_file_fsync", "nfs_getattr" },
	  { "nfs", "nfs4" } },
	{ "xfs", { "xfs_file_read_iter", "xfs_file_write_iter", "xfs_file_open", "xfs_file_fsync", NULL },
	  { "xfs", NULL } },
	{ "f2fs", { "f2fs_file_read_iter", "f2fs_file_write_iter", "f2fs_file_open", "f2fs_sync_file", "f2fs_getattr" },
	  { "f2fs", NULL } },
	{ "bcachefs", { "bch2_read_iter", "bch2_write_iter", "bch2_open", "bch2_fsync", "bch2_getattr" },
	  { "bcachefs", NULL } },
	{ "zfs", { "zpl_iter_read", "zpl_iter_write", "zpl_open", "zpl_fsync", NULL }, { "zfs", NULL } },
};

const char *const fsops_names[FSOPS_MAX] = { "read", "write", "open", "fsync", "getattr" };
static const char *const prog_base[FSOPS_MAX] = { "file_read", "file_write", "file_open", "file_sync", "getattr" };

const struct fs_config *fs_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_configs); i++)
		if (strlen(fs_configs[i].fs) == len && !strncmp(fs_configs[i].fs, name, len))
			return &fs_configs[i];
	return NULL;
}

const struct fs_config *fs_of_applet(const char *name, const char *suffix)
{
	size_t n = name ? strlen(name) : 0, s = strlen(suffix);

	if (n > s && !strcmp(name + n - s, suffix))
		return fs_by_name(name, n - s);
	return NULL;
}

enum fs_path fs_choose_path(struct obj *o, const struct fs_config *fs, int nops)
{
	const char *names[FSOPS_MAX];
	uint64_t addrs[FSOPS_MAX];
	int n = 0, want = 0;

	for (int i = 0; i < nops; i++)
		if (fs->funcs[i]) {
			names[want++] = fs->funcs[i];
			n += obj_fentry_ok(o, fs->funcs[i]);
		}
	if (n == want)
		return FS_PATH_FENTRY;
	if (kfunc_have_kprobes() && ksym_addrs(names, want, addrs) == want)
		return FS_PATH_KPROBE;
	return FS_PATH_SYSCALLS;
}

static void set_progs(struct obj *o, const struct fs_config *fs, int nops, const char *entry, const char *exit,
		      bool on)
{
	for (int i = 0; i < nops; i++) {
		const char *sfx[2] = { entry, exit };

		for (int j = 0; j < 2; j++) {
			char name[32];
			struct prog *p;

			snprintf(name, sizeof(name), "%s_%s", prog_base[i], sfx[j]);
			p = obj_prog(o, name);
			prog_set_autoload(p, on && fs->funcs[i]);
			if (on && fs->funcs[i])
				prog_set_attach_target(p, fs->funcs[i]);
		}
	}
}

void fs_setup(struct obj *o, const struct fs_config *fs, int nops, enum fs_path path)
{
	set_progs(o, fs, nops, "fentry", "fexit", path == FS_PATH_FENTRY);
	set_progs(o, fs, nops, "entry", "exit", path == FS_PATH_KPROBE);
	if (path == FS_PATH_SYSCALLS) {
		char *n1 = obj_global(o, "fs_name1", FSOPS_TYPE_LEN);
		char *n2 = obj_global(o, "fs_name2", FSOPS_TYPE_LEN);

		if (n1)
			strncpy(n1, fs->types[0], FSOPS_TYPE_LEN - 1);
		if (n2 && fs->types[1])
			strncpy(n2, fs->types[1], FSOPS_TYPE_LEN - 1);
	}
}

void fs_print_path(const char *tool, const struct fs_config *fs, int nops, enum fs_path path)
{
	for (int i = 0; i < nops; i++)
		if (fs->funcs[i])
			fprintf(stderr, "%s: %s: %s on %s\n", tool, fsops_names[i],
				path == FS_PATH_FENTRY ? "fentry/fexit" : "kprobe/kretprobe", fs->funcs[i]);
}
