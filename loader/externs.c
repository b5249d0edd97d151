/* Externs: `extern ... __kconfig` values laid out in a read-only .kconfig
 * map, and `extern ... __ksym` kernel symbols (typeless: an address from
 * /proc/kallsyms; typed variables and kfuncs: a vmlinux BTF id). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bpf/kallsyms.h"
#include "bpf/probe.h"
#include "lib/err.h"
#include "lib/inflate.h"
#include "lib/util.h"
#include "obj_int.h"

/* The VAR/FUNC named name inside DATASEC sec; returns its id or 0. */
static uint32_t datasec_member(const struct btf *btf, const char *sec, const char *name,
			       uint32_t *size)
{
	int32_t ds = btf_find(btf, sec, BTF_KIND_DATASEC);
	const struct btf_type *t;
	const struct btf_var_secinfo *vs;

	if (ds < 0 || !(t = btf_type_by_id(btf, (uint32_t)ds)))
		return 0;
	vs = btf_secinfos(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *v = btf_type_by_id(btf, vs[i].type);

		if (v && !strcmp(btf_name(btf, v), name)) {
			*size = vs[i].size;
			return vs[i].type;
		}
	}
	return 0;
}

int externs_collect(struct obj *o)
{
	uint32_t kconfig_size = 0;

	for (size_t i = 0; i < o->symtab.count; i++) {
		const Elf64_Sym *s = elf_sym(&o->symtab, i);
		const char *name = elf_sym_name(&o->symtab, s);
		struct ext_var *e;
		uint32_t id, size = 0;
		int bind = ELF64_ST_BIND(s->st_info);

		if (s->st_shndx != SHN_UNDEF || !*name || (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		if (!o->btf)
			return err_set(EINVAL, "extern %s needs BTF (compile with -g)", name);
		o->exts = xrealloc(o->exts, (o->nr_exts + 1) * sizeof(*o->exts));
		e = &o->exts[o->nr_exts++];
		memset(e, 0, sizeof(*e));
		e->name = xstrdup(name);
		e->sym = i;
		e->weak = bind == STB_WEAK;
		if ((id = datasec_member(o->btf, ".kconfig", name, &size))) {
			const struct btf_type *v = btf_type_by_id(o->btf, id);
			int64_t sz = v ? btf_type_size(o->btf, v->type) : -1;
			uint32_t align;

			if (sz <= 0 || sz > 4096)
				return err_set(EINVAL, "kconfig extern %s has no usable size", name);
			align = sz >= 8 ? 8 : sz >= 4 ? 4 : sz >= 2 ? 2 : 1;
			kconfig_size = (kconfig_size + align - 1) / align * align;
			e->is_kconfig = true;
			e->btf_id = id;
			e->size = (uint32_t)sz;
			e->kconfig_off = kconfig_size;
			kconfig_size += (uint32_t)sz;
		} else if ((id = datasec_member(o->btf, ".ksyms", name, &size))) {
			e->btf_id = id;
		} else {
			return err_set(EINVAL, "extern %s is neither __kconfig nor __ksym", name);
		}
	}
	if (kconfig_size) {
		struct map *m;
		size_t pg = (size_t)sysconf(_SC_PAGESIZE);

		o->maps = xrealloc(o->maps, (o->nr_maps + 1) * sizeof(*o->maps));
		m = &o->maps[o->nr_maps++];
		memset(m, 0, sizeof(*m));
		m->obj = o;
		m->name = xstrdup(".kconfig");
		m->kind = MAP_KCONFIG;
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->value_size = kconfig_size;
		m->max_entries = 1;
		m->readonly = true;
		m->autocreate = true;
		m->fd = -1;
		m->image_size = (kconfig_size + pg - 1) / pg * pg;
		m->image = mmap(NULL, m->image_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (m->image == MAP_FAILED) {
			m->image = NULL;
			return err_sys(errno, "cannot map memory for .kconfig");
		}
	}
	return 0;
}

/* CONFIG_FOO=y|m|n|"str"|123 from /boot/config-$(uname -r) (plain text).
 * Returns the value text or NULL. */
static char *kconfig_text(void)
{
	struct utsname u;
	char path[300], *buf = NULL, *text = NULL;
	size_t len;

	if (uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		if (read_file(path, 16 << 20, &buf, NULL) == 0)
			return buf;
	}
	/* No /boot (rescue shells, embedded): the kernel's own copy
	 * (CONFIG_IKCONFIG_PROC). */
	if (read_file("/proc/config.gz", 16 << 20, &buf, &len) == 0) {
		gunzip(buf, len, &text, NULL, 16 << 20);
		free(buf);
	}
	err_clear();
	return text;
}

static const char *kconfig_lookup(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static void kconfig_store(struct ext_var *e, void *dst, const char *val)
{
	uint64_t v = 0;

	if (!val)
		return;
	if (*val == 'y')
		v = 1;
	else if (*val == 'm')
		v = 2;
	else if (*val == '"') {
		size_t i = 0;

		for (val++; *val && *val != '"' && *val != '\n' && i + 1 < e->size; val++)
			((char *)dst)[i++] = *val;
		return;
	} else
		v = strtoull(val, NULL, 0);
	memcpy(dst, &v, e->size < 8 ? e->size : 8); /* little-endian */
}

struct ksym_want {
	const char *name;
	uint64_t addr;
};

static int ksym_match(void *ctx, const struct kallsym *s)
{
	struct ksym_want *w = ctx;

	if (strcmp(s->name, w->name))
		return 0;
	w->addr = s->addr;
	return 1;
}

/* Address of a kernel symbol from /proc/kallsyms (0 if absent). */
static uint64_t kallsyms_addr(const char *name)
{
	struct ksym_want w = { name, 0 };

	if (kallsyms_each(NULL, ksym_match, &w) < 0)
		err_clear(); /* unreadable: as absent, the caller says which symbol */
	return w.addr;
}

int externs_resolve(struct obj *o)
{
	struct map *km = NULL;
	char *config = NULL;
	int err = 0;

	for (size_t i = 0; i < o->nr_maps; i++)
		if (o->maps[i].kind == MAP_KCONFIG)
			km = &o->maps[i];
	for (size_t i = 0; i < o->nr_exts && !err; i++) {
		struct ext_var *e = &o->exts[i];

		if (e->is_kconfig) {
			void *dst = (char *)km->image + e->kconfig_off;
			uint32_t v32;

			if (!strcmp(e->name, "LINUX_KERNEL_VERSION")) {
				memcpy(dst, &o->kern_version, e->size < 4 ? e->size : 4);
			} else if (!strcmp(e->name, "LINUX_HAS_BPF_COOKIE")) {
				v32 = probe_bpf_cookie();
				memcpy(dst, &v32, e->size < 4 ? e->size : 4);
			} else if (!strcmp(e->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
				v32 = kallsyms_addr("__x64_sys_bpf") || kallsyms_addr("__arm64_sys_bpf");
				memcpy(dst, &v32, e->size < 4 ? e->size : 4);
			} else if (!strncmp(e->name, "CONFIG_", 7)) {
				if (!config)
					config = kconfig_text();
				const char *val = config ? kconfig_lookup(config, e->name) : NULL;
				if (!val && !e->weak && config)
					err = err_set(ENOENT, "kernel config has no %s", e->name);
				kconfig_store(e, dst, val);
			} else if (!e->weak) {
				err = err_set(ENOENT, "unknown kconfig extern %s", e->name);
			}
			e->resolved = true;
			continue;
		}
		/* __ksym */
		const struct btf_type *t = btf_type_by_id(o->btf, e->btf_id);
		const struct btf_type *vt = NULL;

		if (t && btf_kind(t) == BTF_KIND_VAR)
			btf_skip_mods(o->btf, t->type, &vt);
		if (t && (btf_kind(t) == BTF_KIND_FUNC || (vt && btf_kind(vt) != BTF_KIND_UNKN))) {
			/* typed: needs the kernel's BTF id */
			const struct btf *kb = obj_sys_btf(o); /* ids the kernel understands */
			int kind = btf_kind(t) == BTF_KIND_FUNC ? BTF_KIND_FUNC : BTF_KIND_VAR;
			int32_t id = kb ? btf_find(kb, e->name, kind) : -ENOENT;

			if (id > 0) {
				e->kbtf_id = id;
				e->resolved = true;
			} else if (!e->weak) {
				err = err_set(ENOENT, "kernel symbol %s not found in kernel BTF", e->name);
			}
		} else {
			e->addr = kallsyms_addr(e->name);
			e->resolved = e->addr != 0;
			if (!e->resolved && !e->weak)
				err = err_set(ENOENT, "kernel symbol %s not found in /proc/kallsyms", e->name);
		}
	}
	free(config);
	return err;
}
