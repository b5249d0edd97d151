/* An object's kernel BTFs, each opened on first use and released
 * together: the CO-RE target (--btf FILE, else the kernel's), the running
 * kernel's own (ids for tp_btf/fentry/iter targets and typed ksyms; the
 * same mapping as the CO-RE target unless --btf is given) and the
 * modules' split BTFs (only when a type or target is not in vmlinux).
 * kbtf.c finds and maps the files; this file decides which the object
 * holds and for how long. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

int kernel_btf_ensure(struct obj *o, const struct obj_opts *opts)
{
	return kernel_btf_ensure_wanted(o, opts, NULL);
}

int kernel_btf_ensure_wanted(struct obj *o, const struct obj_opts *opts, const struct btf_wanted *want)
{
	const char *path = opts ? opts->btf_path : NULL;
	int err;

	if (o->kbtf_loaded) {
		/* opened earlier (obj_kernel_btf): find the names in a pass of their own */
		btf_find_prepare_wanted(o->kbtf.btf, want);
		return 0;
	}
	if (!path && o->sys_loaded) {
		/* the kernel's own BTF, already open for attach checks */
		o->kbtf = o->sys;
		memset(&o->sys, 0, sizeof(o->sys));
		o->sys_loaded = false;
		o->kbtf_loaded = true;
		btf_find_prepare_wanted(o->kbtf.btf, want);
		return 0;
	}
	err = kbtf_open_wanted(&o->kbtf, path, want);
	if (err < 0)
		return err;
	o->kbtf_loaded = true;
	return 0;
}

const struct btf *obj_kernel_btf(struct obj *o, const struct obj_opts *opts)
{
	return kernel_btf_ensure(o, opts) < 0 ? NULL : o->kbtf.btf;
}

const struct btf *obj_sys_btf(struct obj *o)
{
	if (o->kbtf_loaded && kbtf_is_sys(&o->kbtf))
		return o->kbtf.btf;
	if (o->sys_loaded)
		return o->sys.btf;
	if (o->sys_failed) {
		err_set(ENOENT, "the running kernel has no BTF");
		return NULL;
	}
	if (kbtf_open_sys(&o->sys) < 0) {
		o->sys_failed = true;
		return NULL;
	}
	o->sys_loaded = true;
	return o->sys.btf;
}

static void load_modules(struct obj *o)
{
	const struct btf *base = obj_sys_btf(o);
	char **names, path[512];
	size_t n;

	o->mods_loaded = true;
	if (!base) {
		err_clear();
		return;
	}
	kbtf_module_names(&names, &n);
	o->mods = xcalloc(n ? n : 1, sizeof(*o->mods));
	for (size_t i = 0; i < n; i++) {
		struct kmod_btf *m = &o->mods[o->nr_mods];

		if (kbtf_module_path(path, sizeof(path), names[i]) == 0 &&
		    kbtf_open_split(&m->k, path, base) == 0) {
			m->name = names[i];
			o->nr_mods++;
			continue;
		}
		/* an unreadable module BTF is skipped, not fatal */
		if (o->verbose)
			fprintf(stderr, "%s: skipping module BTF %s: %s\n", o->name, names[i], err_msg());
		err_clear();
		free(names[i]);
	}
	free(names);
}

struct kmod_btf *obj_kmod(struct obj *o, size_t i)
{
	if (!o->mods_loaded)
		load_modules(o);
	return i < o->nr_mods ? &o->mods[i] : NULL;
}

int32_t obj_kmod_find(struct obj *o, const char *name, int kind, struct kmod_btf **mod)
{
	struct kmod_btf *m;

	for (size_t i = 0; (m = obj_kmod(o, i)); i++) {
		/* btf_find also searches the base (vmlinux): only own ids count */
		int32_t id = btf_find(m->k.btf, name, kind);

		if (id > 0 && (uint32_t)id >= btf_nr_types(obj_sys_btf(o))) {
			*mod = m;
			return id;
		}
	}
	return -ENOENT;
}

void obj_kernel_btf_release(struct obj *o)
{
	for (size_t i = 0; i < o->nr_mods; i++) {
		kbtf_close(&o->mods[i].k);
		if (o->mods[i].fd > 0)
			close(o->mods[i].fd);
		free(o->mods[i].name);
	}
	free(o->mods);
	o->mods = NULL;
	o->nr_mods = 0;
	o->mods_loaded = false;
	for (size_t i = 0; i < o->nr_progs; i++)
		o->progs[i].attach_btf_obj_fd = 0; /* closed with its module */
	if (o->sys_loaded)
		kbtf_close(&o->sys);
	o->sys_loaded = o->sys_failed = false;
	if (o->kbtf_loaded)
		kbtf_close(&o->kbtf);
	o->kbtf_loaded = o->kbtf_tracefs = false;
}
