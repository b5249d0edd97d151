/* Whole-map reads for the stack tools' user side. */
#include "tools/stack/mapdump.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sys.h"
#include "err.h"
#include "util.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)
/* bpf_map_get_next_key restarts from the first key when the current one
 * was deleted meanwhile: bound the walk so it always ends. */
#define MAX_WALK (1u << 24)

int map_dump(int fd, size_t key_size, size_t value_size, struct map_dump *d)
{
	size_t cap = 0;
	uint8_t *cur, *next;
	int err = 0, first = 1;

	memset(d, 0, sizeof(*d));
	if (!key_size || !value_size)
		return err_set(EINVAL, "map dump: key and value sizes must be non-zero");
	d->key_size = key_size;
	d->value_size = value_size;
	d->rec = ALIGN8(key_size) + ALIGN8(value_size);
	cur = xmalloc(key_size);
	next = xmalloc(key_size);
	for (size_t walk = 0; walk < MAX_WALK; walk++) {
		err = bpf_map_next_key(fd, first ? NULL : cur, next);
		if (err == -ENOENT) {
			err = 0;
			break;
		}
		if (err < 0)
			break;
		first = 0;
		if (d->n == cap) {
			cap = cap ? cap * 2 : 256;
			d->data = xrealloc(d->data, cap * d->rec);
		}
		memset(map_dump_key(d, d->n), 0, d->rec);
		memcpy(map_dump_key(d, d->n), next, key_size);
		err = bpf_map_lookup(fd, next, map_dump_value(d, d->n));
		if (err == 0)
			d->n++;
		else if (err != -ENOENT)
			break;
		err = 0;
		memcpy(cur, next, key_size);
	}
	err_clear();
	free(cur);
	free(next);
	if (err < 0) {
		map_dump_free(d);
		return err_sys(-err, "cannot read BPF map");
	}
	return 0;
}

void map_dump_free(struct map_dump *d)
{
	free(d->data);
	d->data = NULL;
	d->n = 0;
}

static const struct map_dump *sort_d;
static size_t sort_off;
static int sort_desc;

static int rec_cmp(const void *a, const void *b)
{
	uint64_t x, y;

	memcpy(&x, (const uint8_t *)a + ALIGN8(sort_d->key_size) + sort_off, 8);
	memcpy(&y, (const uint8_t *)b + ALIGN8(sort_d->key_size) + sort_off, 8);
	if (x != y)
		return (x < y) == !sort_desc ? -1 : 1;
	return memcmp(a, b, sort_d->key_size);
}

void map_dump_sort(struct map_dump *d, size_t value_off, int descending)
{
	if (d->n < 2 || value_off + 8 > d->value_size)
		return;
	sort_d = d;
	sort_off = value_off;
	sort_desc = descending;
	qsort(d->data, d->n, d->rec, rec_cmp);
}
