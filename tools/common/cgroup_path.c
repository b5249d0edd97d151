/* cgroup id -> path, for the "cgroup" of events and the cgroup keys of
 * summaries.  The kernel hands out ids (bpf_get_current_cgroup_id: the
 * kernfs id of the task's cgroup v2 directory); users want the path
 * relative to the cgroup2 root, as /proc/PID/cgroup writes it.  The id is
 * what name_to_handle_at() returns for the directory (its file handle is
 * the 64-bit kernfs id; the inode number is only its low half where ino_t
 * is 32 bits), so the cgroup2 mount is walked once, each directory's id
 * taken, and the pairs kept in a hash table.  An id not found makes one
 * new walk (a cgroup created since), at most every 100 ms; an id still
 * unknown is not looked for again within a second (a cgroup already
 * removed: a stream of its events must not walk the tree each time). */
#include "common.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

#define CG_MAX_DIRS 65536 /* a walk stops there (memory stays bounded) */
#define CG_MAX_DEPTH 32

struct cg_entry {
	uint64_t id;       /* 0: free slot */
	char *path;        /* NULL: looked for, not found */
	uint64_t miss_ns;  /* when it was last not found */
};

static struct cg_entry *tab;
static size_t cap, used;
static uint64_t last_walk_ns;
static bool walked;

static size_t slot_of(uint64_t id)
{
	size_t i = (size_t)(id * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (tab[i].id && tab[i].id != id)
		i = (i + 1) & (cap - 1);
	return i;
}

static struct cg_entry *entry(uint64_t id)
{
	size_t i;

	if (used * 2 >= cap) { /* grow: load stays under one half */
		struct cg_entry *old = tab;
		size_t ocap = cap;

		cap = cap ? cap * 2 : 64;
		tab = xcalloc(cap, sizeof(*tab));
		for (size_t j = 0; j < ocap; j++)
			if (old[j].id)
				tab[slot_of(old[j].id)] = old[j];
		free(old);
	}
	i = slot_of(id);
	if (!tab[i].id) {
		tab[i].id = id;
		used++;
	}
	return &tab[i];
}

/* The directory's cgroup id: its file handle (kernfs: the 64-bit id),
 * else the inode number (the same on 64-bit kernels). */
static uint64_t dir_id(int dirfd, const char *name, const struct stat *st)
{
	_Alignas(struct file_handle) char buf[sizeof(struct file_handle) + 16];
	struct file_handle *fh = (struct file_handle *)buf;
	uint64_t id;
	int mnt;

	fh->handle_bytes = 16;
	if (name_to_handle_at(dirfd, name, fh, &mnt, 0) == 0 && fh->handle_bytes == 8) {
		memcpy(&id, fh->f_handle, 8);
		return id;
	}
	return (uint64_t)st->st_ino;
}

static void remember(uint64_t id, const char *path)
{
	struct cg_entry *e = entry(id);

	if (e->path && !strcmp(e->path, path))
		return;
	free(e->path); /* renamed since the last walk */
	e->path = xstrdup(path);
}

/* Walk the directory open at fd, named rel ("" for the root). */
static void walk(int fd, char *rel, size_t len, size_t cap_rel, int depth, unsigned *ndirs)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) && *ndirs < CG_MAX_DIRS) {
		struct stat st;
		size_t n = strlen(de->d_name);
		int sub;

		if (de->d_type != DT_DIR || de->d_name[0] == '.' || len + 1 + n + 1 > cap_rel)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		rel[len] = '/';
		memcpy(rel + len + 1, de->d_name, n + 1);
		remember(dir_id(dirfd(d), de->d_name, &st), rel);
		(*ndirs)++;
		if (depth < CG_MAX_DEPTH &&
		    (sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) >= 0)
			walk(sub, rel, len + 1 + n, cap_rel, depth + 1, ndirs);
		rel[len] = 0;
	}
	closedir(d);
}

static void walk_all(void)
{
	char mnt[512], rel[4096] = "";
	unsigned ndirs = 0;
	struct stat st;
	int fd;

	walked = true;
	last_walk_ns = now_ns();
	if (!cgroup2_mount(mnt, sizeof(mnt)) || (fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	if (fstat(fd, &st) == 0)
		remember(dir_id(AT_FDCWD, mnt, &st), "/");
	walk(fd, rel, 0, sizeof(rel), 0, &ndirs);
}

const char *cgroup_path_of(uint64_t id)
{
	struct cg_entry *e;
	uint64_t now;

	if (!id)
		return NULL;
	if (!walked)
		walk_all();
	e = entry(id);
	if (e->path)
		return e->path;
	now = now_ns();
	if (e->miss_ns && now - e->miss_ns < 1000000000ull)
		return NULL;
	if (now - last_walk_ns >= 100000000ull) {
		walk_all();
		e = entry(id); /* the table may have grown */
		if (e->path)
			return e->path;
	}
	e->miss_ns = now;
	return NULL;
}
