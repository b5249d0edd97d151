/* Maps: BTF-defined maps from .maps, one array map per global-data
 * section (.rodata*, .data*, .bss*), their creation, and global variable
 * access for the tools. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

static struct map *add_map(struct obj *o, const char *name, enum map_kind kind)
{
	struct map *m;

	o->maps = xrealloc(o->maps, (o->nr_maps + 1) * sizeof(*o->maps));
	m = &o->maps[o->nr_maps++];
	memset(m, 0, sizeof(*m));
	m->obj = o;
	m->name = xstrdup(name);
	m->kind = kind;
	m->autocreate = true;
	m->fd = -1;
	return m;
}

/* __uint(name, N) is encoded as "int (*name)[N]": the value is the
 * array's element count. */
static int map_def_uint(const struct btf *btf, const struct btf_member *mb, const char *map,
			const char *field, uint32_t *out)
{
	const struct btf_type *t = btf_type_by_id(btf, mb->type);
	const struct btf_type *arr;

	if (!t || btf_kind(t) != BTF_KIND_PTR)
		return err_set(EINVAL, "map %s: %s is not declared with __uint()", map, field);
	btf_skip_mods(btf, t->type, &arr);
	if (!arr || btf_kind(arr) != BTF_KIND_ARRAY)
		return err_set(EINVAL, "map %s: %s is not declared with __uint()", map, field);
	*out = btf_array_info(arr)->nelems;
	return 0;
}

/* key/value given as types: "T *key". */
static int map_def_type(const struct btf *btf, const struct btf_member *mb, const char *map,
			const char *field, uint32_t *id, uint32_t *size)
{
	const struct btf_type *t = btf_type_by_id(btf, mb->type);
	int64_t sz;

	if (!t || btf_kind(t) != BTF_KIND_PTR)
		return err_set(EINVAL, "map %s: %s is not declared with __type()", map, field);
	sz = btf_type_size(btf, t->type);
	if (sz <= 0 || sz > UINT32_MAX)
		return err_set(EINVAL, "map %s: %s type has no usable size", map, field);
	if (*size && *size != (uint32_t)sz)
		return err_set(EINVAL, "map %s: %s_size %u conflicts with its type's size %lld", map,
			       field, *size, (long long)sz);
	*id = t->type;
	*size = (uint32_t)sz;
	return 0;
}

static int parse_map_def(struct obj *o, struct map *m, uint32_t type_id)
{
	const struct btf_type *t;
	const struct btf_member *mb;

	btf_resolve(o->btf, type_id, &t);
	if (!t || btf_kind(t) != BTF_KIND_STRUCT)
		return err_set(EINVAL, "map %s: definition is not a struct", m->name);
	mb = btf_members(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++, mb++) {
		const char *f = btf_str(o->btf, mb->name_off);
		uint32_t v = 0, unused = 0;
		int err = 0;

		if (!f)
			return err_set(EINVAL, "map %s: member %u has a bad name", m->name, i);
		if (!strcmp(f, "type"))
			err = map_def_uint(o->btf, mb, m->name, f, &m->type);
		else if (!strcmp(f, "max_entries"))
			err = map_def_uint(o->btf, mb, m->name, f, &m->max_entries);
		else if (!strcmp(f, "map_flags"))
			err = map_def_uint(o->btf, mb, m->name, f, &m->flags);
		else if (!strcmp(f, "key_size")) {
			err = map_def_uint(o->btf, mb, m->name, f, &v);
			if (!err && m->key_size && m->key_size != v)
				err = err_set(EINVAL, "map %s: key_size conflicts with key type", m->name);
			m->key_size = v;
		} else if (!strcmp(f, "value_size")) {
			err = map_def_uint(o->btf, mb, m->name, f, &v);
			if (!err && m->value_size && m->value_size != v)
				err = err_set(EINVAL, "map %s: value_size conflicts with value type", m->name);
			m->value_size = v;
		} else if (!strcmp(f, "key"))
			err = map_def_type(o->btf, mb, m->name, f, &m->btf_key_id, &m->key_size);
		else if (!strcmp(f, "value"))
			err = map_def_type(o->btf, mb, m->name, f, &m->btf_value_id, &m->value_size);
		else if (!strcmp(f, "map_extra")) {
			err = map_def_uint(o->btf, mb, m->name, f, &v);
			m->map_extra = v;
		} else if (!strcmp(f, "pinning") || !strcmp(f, "numa_node"))
			err = map_def_uint(o->btf, mb, m->name, f, &unused);
		else
			return err_set(ENOTSUP, "map %s: unsupported map attribute '%s'", m->name, f);
		if (err)
			return err;
	}
	if (!m->type)
		return err_set(EINVAL, "map %s: no map type", m->name);
	return 0;
}

/* Find the VAR named name in DATASEC ".maps"; returns its type id. */
static int32_t maps_var_type(const struct obj *o, const char *name)
{
	int32_t ds = btf_find(o->btf, ".maps", BTF_KIND_DATASEC);
	const struct btf_type *t;
	const struct btf_var_secinfo *vs;

	if (ds < 0 || !(t = btf_type_by_id(o->btf, (uint32_t)ds)))
		return -ENOENT;
	vs = btf_secinfos(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *v = btf_type_by_id(o->btf, vs[i].type);

		if (v && btf_kind(v) == BTF_KIND_VAR && !strcmp(btf_name(o->btf, v), name))
			return (int32_t)v->type;
	}
	return -ENOENT;
}

static bool is_data_sec(const char *n)
{
	return !strncmp(n, ".rodata", 7) || !strncmp(n, ".data", 5) || !strncmp(n, ".bss", 4);
}

static int add_data_map(struct obj *o, size_t sec, const Elf64_Shdr *sh, const char *sname)
{
	char kname[16];
	struct map *m;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const void *data;
	size_t size;
	int err;

	if ((err = elf_sec_data(&o->ev, sh, &data, &size)) < 0)
		return err;
	if (size > (1u << 30))
		return err_set(EFBIG, "section %s is %zu bytes", sname, size);
	/* kernel name: up to 8 chars of the object name + the section name */
	snprintf(kname, sizeof(kname), "%.8s%s", o->name, sname);
	m = add_map(o, sname, MAP_DATA);
	m->sec = sec;
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = (uint32_t)size;
	m->max_entries = 1;
	m->readonly = !strncmp(sname, ".rodata", 7);
	m->image_size = (size + pg - 1) / pg * pg;
	m->image = mmap(NULL, m->image_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m->image == MAP_FAILED) {
		m->image = NULL;
		return err_sys(errno, "cannot map memory for %s", sname);
	}
	if (data)
		memcpy(m->image, data, size);
	return 0;
}

int maps_collect(struct obj *o)
{
	const Elf64_Shdr *maps_sh = elf_find_sec(&o->ev, ".maps");
	int err;

	if (maps_sh) {
		o->maps_sec = elf_sec_idx(&o->ev, maps_sh);
		if (!o->btf)
			return err_set(EINVAL, ".maps needs BTF (compile with -g)");
		for (size_t i = 0; i < o->symtab.count; i++) {
			const Elf64_Sym *s = elf_sym(&o->symtab, i);
			const char *name = elf_sym_name(&o->symtab, s);
			struct map *m;
			int32_t tid;

			if (s->st_shndx != o->maps_sec || ELF64_ST_TYPE(s->st_info) == STT_SECTION || !*name)
				continue;
			tid = maps_var_type(o, name);
			if (tid < 0)
				return err_set(EINVAL, "map %s has no BTF definition in .maps", name);
			m = add_map(o, name, MAP_USER);
			m->sec = o->maps_sec;
			m->sec_off = s->st_value;
			if ((err = parse_map_def(o, m, (uint32_t)tid)) < 0)
				return err;
		}
	}
	for (size_t i = 1; i < o->ev.shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(&o->ev, i);
		const char *n = elf_sec_name(&o->ev, sh);

		if ((sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_NOBITS) ||
		    (sh->sh_flags & SHF_EXECINSTR) || !sh->sh_size || !is_data_sec(n))
			continue;
		if ((err = add_data_map(o, i, sh, n)) < 0)
			return err;
	}
	return 0;
}

struct map *map_by_sec(struct obj *o, size_t sec, uint64_t off)
{
	for (size_t i = 0; i < o->nr_maps; i++) {
		struct map *m = &o->maps[i];

		if (m->kind == MAP_KCONFIG || m->sec != sec)
			continue;
		if (m->kind == MAP_DATA || m->sec_off == off)
			return m;
	}
	return NULL;
}

struct map *obj_map(const struct obj *o, const char *name)
{
	for (size_t i = 0; i < o->nr_maps; i++)
		if (!strcmp(o->maps[i].name, name))
			return &o->maps[i];
	err_set(ENOENT, "%s: no map named %s", o->name, name);
	return NULL;
}

#define MAP_SETTER(field)                                                                   \
	int map_set_##field(struct map *m, uint32_t v)                                      \
	{                                                                                   \
		if (m->fd >= 0)                                                             \
			return err_set(EBUSY, "map %s: cannot change " #field " after load", m->name); \
		m->field = v;                                                               \
		return 0;                                                                   \
	}
MAP_SETTER(type)
MAP_SETTER(max_entries)
MAP_SETTER(key_size)
MAP_SETTER(value_size)
MAP_SETTER(flags)

int map_set_autocreate(struct map *m, bool on)
{
	if (m->fd >= 0)
		return err_set(EBUSY, "map %s: already created", m->name);
	m->autocreate = on;
	return 0;
}

int map_fd(const struct map *m) { return m->fd; }
uint32_t map_type(const struct map *m) { return m->type; }
uint32_t map_key_size(const struct map *m) { return m->key_size; }
uint32_t map_value_size(const struct map *m) { return m->value_size; }
uint32_t map_max_entries(const struct map *m) { return m->max_entries; }

struct map *obj_map_at(const struct obj *o, size_t i) { return i < o->nr_maps ? &o->maps[i] : NULL; }
const char *map_name(const struct map *m) { return m->name; }
bool map_is_global_data(const struct map *m) { return m->kind != MAP_USER; }
uint32_t map_btf_key_type(const struct map *m) { return m->btf_key_id; }
const struct btf *obj_btf(const struct obj *o) { return o->btf; }

/* Global-data maps have no key/value types of their own: their value is
 * the section's DATASEC. */
uint32_t map_btf_value_type(const struct map *m)
{
	int32_t id;

	if (m->kind == MAP_USER || !m->obj || !m->obj->btf)
		return m->btf_value_id;
	id = btf_find(m->obj->btf, m->name, BTF_KIND_DATASEC);
	return id > 0 ? (uint32_t)id : 0;
}

void *obj_global(struct obj *o, const char *name, size_t size)
{
	for (size_t i = 0; i < o->symtab.count; i++) {
		const Elf64_Sym *s = elf_sym(&o->symtab, i);
		struct map *m;

		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT || strcmp(elf_sym_name(&o->symtab, s), name))
			continue;
		m = map_by_sec(o, s->st_shndx, 0);
		if (!m || m->kind != MAP_DATA || !m->image)
			continue;
		if (s->st_size != size || s->st_value > m->value_size ||
		    s->st_size > m->value_size - s->st_value) {
			err_set(EINVAL, "%s: global %s is %llu bytes, the tool expects %zu", o->name, name,
				(unsigned long long)s->st_size, size);
			return NULL;
		}
		return (char *)m->image + s->st_value;
	}
	err_set(ENOENT, "%s: no global variable %s", o->name, name);
	return NULL;
}

static bool map_takes_btf(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return true;
	default:
		return false;
	}
}

static uint32_t round_pow2(uint32_t v)
{
	uint32_t r = 1;

	while (r < v && r < (1u << 31))
		r <<= 1;
	return r;
}

static uint64_t round8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

static uint64_t pow2_64(uint64_t v)
{
	uint64_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

/* What the kernel allocates for a map of this shape (as create_one would
 * make it), roughly: element headers, buckets, per-CPU copies.  Hash maps
 * count every element they may hold (preallocated or not). */
uint64_t map_mem_estimate(const struct map *m)
{
	uint64_t n = m->max_entries, k = round8(m->key_size), v = round8(m->value_size);
	uint64_t ncpu = cpus_possible() > 0 ? (uint64_t)cpus_possible() : 1, pg = (uint64_t)sysconf(_SC_PAGESIZE);

	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
		return n * v;
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return n * v * ncpu;
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
		return pow2_64(n) * 16 + n * (48 + k + v);
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return pow2_64(n) * 16 + n * (56 + k + v * ncpu);
	case BPF_MAP_TYPE_STACK_TRACE:
		return pow2_64(n) * 8 + n * (32 + v);
	case BPF_MAP_TYPE_RINGBUF:
		return pow2_64(n < pg ? pg : n) + 2 * pg;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		return ncpu * 8; /* one slot per CPU (create_one); the buffers are the reader's */
	case BPF_MAP_TYPE_LPM_TRIE:
		return n * (40 + k + v);
	default:
		return n * (8 + k + v);
	}
}

bool kernel_takes_names(const struct obj *o)
{
	/* names came in 4.15, program BTF in 4.18: a kernel that took the
	 * object's BTF takes names, without a probe (a program load) */
	return o->btf_fd >= 0 || probe_prog_name();
}

static int create_one(struct obj *o, struct map *m)
{
	struct bpf_map_spec s = {
		.name = m->kind == MAP_USER ? m->name : NULL,
		.type = m->type,
		.key_size = m->key_size,
		.value_size = m->value_size,
		.max_entries = m->max_entries,
		.flags = m->flags,
		.map_extra = m->map_extra,
	};
	char kname[16];
	int fd;

	if (m->kind != MAP_USER) {
		snprintf(kname, sizeof(kname), "%.8s%s", o->name, m->name);
		s.name = kname;
	}
	if (!kernel_takes_names(o))
		s.name = NULL;
	switch (m->type) {
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		if (!s.max_entries || (int)s.max_entries > cpus_possible())
			s.max_entries = (uint32_t)cpus_possible();
		s.key_size = s.value_size = 4;
		break;
	case BPF_MAP_TYPE_RINGBUF: {
		uint32_t pg = (uint32_t)sysconf(_SC_PAGESIZE);

		s.max_entries = round_pow2(s.max_entries < pg ? pg : s.max_entries);
		s.key_size = s.value_size = 0;
		break;
	}
	case BPF_MAP_TYPE_CGROUP_ARRAY:
		s.key_size = s.value_size = 4;
		break;
	}
	if (m->kind != MAP_USER) {
		if (m->readonly)
			s.flags |= BPF_F_RDONLY_PROG;
		if (probe_mmapable_array())
			s.flags |= BPF_F_MMAPABLE;
	}
	if (o->btf_fd >= 0 && m->btf_value_id && map_takes_btf(m->type)) {
		s.btf_fd = o->btf_fd;
		s.btf_key_type_id = m->btf_key_id;
		s.btf_value_type_id = m->btf_value_id;
	}
	fd = bpf_map_create(&s);
	if (fd < 0 && s.btf_fd) {
		s.btf_fd = 0;
		s.btf_key_type_id = s.btf_value_type_id = 0;
		fd = bpf_map_create(&s);
	}
	if (fd < 0)
		return err_prefix(fd, "map %s", m->name);
	m->fd = fd;
	m->max_entries = s.max_entries;
	m->key_size = s.key_size;
	m->value_size = s.value_size;
	if (m->kind == MAP_USER)
		return 0;

	/* global data: fill, freeze read-only ones, then map the kernel's
	 * copy over the image so tool pointers see live values */
	uint32_t zero = 0;
	int err = bpf_map_update(fd, &zero, m->image, 0);

	if (err < 0)
		return err_prefix(err, "map %s: initial value", m->name);
	if (m->readonly && (err = bpf_map_freeze(fd)) < 0)
		return err_prefix(err, "map %s: freeze", m->name);
	if (s.flags & BPF_F_MMAPABLE) {
		void *p = mmap(m->image, m->image_size, m->readonly ? PROT_READ : PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_FIXED, fd, 0);

		if (p == MAP_FAILED)
			return err_sys(errno, "map %s: mmap", m->name);
		m->live_mmap = true;
	}
	return 0;
}

int maps_create(struct obj *o)
{
	for (size_t i = 0; i < o->nr_maps; i++) {
		struct map *m = &o->maps[i];
		int err;

		if (!m->autocreate)
			continue;
		if ((err = create_one(o, m)) < 0)
			return err;
	}
	return 0;
}

void maps_destroy(struct obj *o)
{
	for (size_t i = 0; i < o->nr_maps; i++) {
		struct map *m = &o->maps[i];

		if (m->image)
			munmap(m->image, m->image_size);
		if (m->fd >= 0)
			close(m->fd);
		free(m->name);
		free(m->rec_types);
	}
	free(o->maps);
	o->maps = NULL;
	o->nr_maps = 0;
}
