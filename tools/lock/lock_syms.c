/* See lock_syms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bpf/kallsyms.h"
#include "lock_syms.h"
#include "lib/scan.h"

struct by_name {
	const char *name;
	uint64_t addr;
	int found;
};

static int match_name(void *ctx, const struct kallsym *s)
{
	struct by_name *q = ctx;

	if (s->mod || strcmp(s->name, q->name) != 0)
		return 0;
	q->addr = s->addr;
	q->found = 1;
	return 1;
}

int lock_addr_of(const char *name, uint64_t *addr)
{
	struct by_name q = { name, 0, 0 };

	if (kallsyms_each(NULL, match_name, &q) == 0 && q.found && q.addr) {
		*addr = q.addr;
		return 0;
	}
	/* libbpf-tools: a name that is no symbol may be an address */
	if (str_scan(name, "0x%" SCNx64, addr) == 1 && *addr)
		return 0;
	return -ENOENT;
}

struct by_addr {
	uint64_t addr;
	char *buf;
	size_t size;
	int found;
};

static int match_addr(void *ctx, const struct kallsym *s)
{
	struct by_addr *q = ctx;

	if (s->addr != q->addr)
		return 0;
	snprintf(q->buf, q->size, "%s", s->name);
	q->found = 1;
	return 1;
}

const char *lock_name_at(uint64_t addr, char *buf, size_t size)
{
	struct by_addr q = { addr, buf, size, 0 };

	if (!addr || kallsyms_each(NULL, match_addr, &q) != 0 || !q.found)
		return "no-ksym";
	return buf;
}

bool lock_impl_frame(const char *func)
{
	/* the entry points and their slow paths, by the kernel's naming */
	static const char *const prefixes[] = {
		"mutex_lock", "__mutex_lock", "ww_mutex_lock", "__ww_mutex_lock",
		"down_read", "down_write", "__down_read", "__down_write", "rwsem_down",
		"__rwsem", "rt_mutex", "__rt_mutex", "rtlock", "rt_spin", "rt_read", "rt_write",
		"percpu_down", "__percpu_down", "percpu_rwsem", "__percpu_rwsem",
		"_raw_spin", "_raw_read", "_raw_write", "queued_", "do_raw_", "osq_lock",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(func, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}
