/* Read a whole BPF hash map (bpf_map_next_key + bpf_map_lookup) into one
 * array of records, sortable by a u64 counter in the value: the user side
 * of every stack tool (counts aggregated in the kernel, printed at exit). */
#ifndef COREBOX_STACK_MAPDUMP_H
#define COREBOX_STACK_MAPDUMP_H

#include <stddef.h>
#include <stdint.h>

struct map_dump {
	size_t n;              /* records */
	size_t key_size, value_size;
	size_t rec;            /* bytes per record: key, value, each 8-aligned */
	uint8_t *data;
};

/* Entries that vanish while iterating (deleted by the program) are skipped.
 * 0, or -errno with a message. */
int map_dump(int fd, size_t key_size, size_t value_size, struct map_dump *d);
void map_dump_free(struct map_dump *d);

static inline void *map_dump_key(const struct map_dump *d, size_t i)
{
	return d->data + i * d->rec;
}
static inline void *map_dump_value(const struct map_dump *d, size_t i)
{
	return d->data + i * d->rec + ((d->key_size + 7) & ~(size_t)7);
}

/* Sort by the u64 at value_off in each value (descending or ascending;
 * ties keep a stable order by key bytes). */
void map_dump_sort(struct map_dump *d, size_t value_off, int descending);

#endif
