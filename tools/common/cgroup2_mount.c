/* Where the cgroup v2 file system is mounted: read /proc/self/mounts in
 * one place (the -c hint, systrace's -G NAME and its cgroup id -> path
 * lookup all need it). */
#include "common.h"
#include "lib/scan.h"

#include <stdio.h>
#include <string.h>

int cgroup2_mounts(int (*fn)(const char *dir, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024], dev[256], dir[512], type[64];
	int r = 0;

	if (!f)
		return 0;
	while (!r && fgets(line, sizeof(line), f))
		if (str_scan(line, "%255s %511s %63s", dev, dir, type) == 3 && !strcmp(type, "cgroup2"))
			r = fn(dir, arg);
	fclose(f);
	return r;
}

struct first_mount {
	char *buf;
	size_t size;
};

static int take_first(const char *dir, void *arg)
{
	struct first_mount *m = arg;

	snprintf(m->buf, m->size, "%s", dir);
	return 1;
}

char *cgroup2_mount(char *buf, size_t size)
{
	struct first_mount m = { buf, size };

	return cgroup2_mounts(take_first, &m) ? buf : NULL;
}
