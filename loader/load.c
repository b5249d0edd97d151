/* obj_load: the kernel-facing half of the pipeline, in libbpf's order:
 * kernel BTF (only if needed) -> attach targets -> externs -> CO-RE ->
 * program BTF -> maps -> per program: link subprograms, patch, load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "btf/relo_core.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

static bool needs_kernel_btf(const struct obj *o)
{
	for (size_t i = 0; i < o->nr_progs; i++)
		if (o->progs[i].autoload && prog_needs_kernel_btf(&o->progs[i]))
			return true;
	for (size_t i = 0; i < o->nr_exts; i++)
		if (!o->exts[i].is_kconfig)
			return true;
	return o->has_ext && o->ext.nr_core;
}

static uint32_t find_int4(const struct btf *btf)
{
	for (uint32_t id = 1; id < btf_nr_types(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (t && btf_kind(t) == BTF_KIND_INT && t->size == 4)
			return id;
	}
	return 0;
}

/* Extern declarations are not something the kernel takes in program BTF:
 * extern VARs become allocated ones, typeless ones become ints, the
 * .kconfig DATASEC gets the loader's layout, and .ksyms (which may list
 * FUNCs) is rewritten as a struct of ints (same record size), the way
 * libbpf does for kernels without DATASEC. */
static void sanitize_extern_btf(struct obj *o)
{
	uint32_t int4 = find_int4(o->btf);

	for (uint32_t id = 1; id < btf_nr_types(o->btf); id++) {
		struct btf_type *t = btf_type_mut(o->btf, id);
		const char *name;

		if (!t)
			continue;
		if (btf_kind(t) == BTF_KIND_VAR) {
			struct btf_var *v = btf_var_info(t);

			if (v->linkage == 2 /* BTF_VAR_GLOBAL_EXTERN */)
				v->linkage = BTF_VAR_GLOBAL_ALLOCATED;
			if (int4 && btf_type_size(o->btf, t->type) <= 0)
				t->type = int4;
			continue;
		}
		if (btf_kind(t) != BTF_KIND_DATASEC)
			continue;
		name = btf_name(o->btf, t);
		if (!strcmp(name, ".ksyms") && int4) {
			struct btf_member *m = btf_members(t);
			uint32_t n = btf_vlen(t);

			t->info = (BTF_KIND_STRUCT << 24) | n;
			t->size = 4 * n;
			for (uint32_t k = 0; k < n; k++) {
				m[k].name_off = 0;
				m[k].type = int4;
				m[k].offset = k * 32;
			}
		} else if (!strcmp(name, ".kconfig")) {
			struct btf_var_secinfo *vs = btf_secinfos(t);
			uint32_t end = 0;

			for (uint32_t k = 0; k < btf_vlen(t); k++) {
				for (size_t e = 0; e < o->nr_exts; e++)
					if (o->exts[e].btf_id == vs[k].type && o->exts[e].is_kconfig) {
						vs[k].offset = o->exts[e].kconfig_off;
						vs[k].size = o->exts[e].size;
					}
				if (vs[k].offset + vs[k].size > end)
					end = vs[k].offset + vs[k].size;
			}
			t->size = end ? end : 1;
		}
	}
}

/* Upload the program BTF so the verifier can show source lines and
 * accept func_info; a kernel that refuses it just gets no BTF. */
static void load_prog_btf(struct obj *o)
{
	const void *raw;
	size_t size;
	char *log = NULL;
	int fd;

	if (!o->btf || !probe_btf_func())
		return;
	sanitize_extern_btf(o);
	raw = btf_raw(o->btf, &size);
	fd = bpf_btf_load(raw, size, &log);
	if (fd < 0) {
		/* not fatal: programs load without BTF (no source lines) */
		if (o->verbose)
			fprintf(stderr, "%s: kernel refused program BTF (%s)%s%s\n", o->name, err_msg(),
				log ? ":\n" : "", log ? log : "");
		free(log);
		err_clear();
		return;
	}
	free(log);
	o->btf_fd = fd;
}

/* The verifier log's last lines, to tell the user why. */
static void log_tail(const char *log, char *out, size_t size, int lines)
{
	const char *end, *p;
	int n = 0;

	out[0] = 0;
	if (!log || !*log)
		return;
	end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (p = end; p > log; p--)
		if (p[-1] == '\n' && ++n >= lines)
			break;
	snprintf(out, size, "%.*s", (int)(end - p), p);
}

static int load_prog(struct obj *o, struct prog *p)
{
	struct bpf_prog_spec s = {
		.name = p->name,
		.type = p->type,
		.expected_attach_type = p->expected_attach_type,
		.insns = p->insns,
		.insn_cnt = (uint32_t)p->cnt,
		.license = o->license,
		.kern_version = o->kern_version,
		.flags = p->sleepable ? BPF_F_SLEEPABLE : 0,
		.attach_btf_id = p->attach_btf_id,
	};
	char *log = NULL, tail[2048];
	int fd;

	if (o->btf_fd >= 0 && p->nr_func_info) {
		s.prog_btf_fd = o->btf_fd;
		s.func_info = p->func_info;
		s.func_info_cnt = p->nr_func_info;
		s.func_info_rec_size = o->ext.func_rec_size;
		s.line_info = p->line_info;
		s.line_info_cnt = p->nr_line_info;
		s.line_info_rec_size = o->ext.line_rec_size;
	}
	fd = bpf_prog_load(&s, &log);
	if (fd < 0 && s.prog_btf_fd) {
		/* a kernel that dislikes our func/line info: try without */
		free(log);
		log = NULL;
		s.prog_btf_fd = 0;
		s.func_info = s.line_info = NULL;
		s.func_info_cnt = s.line_info_cnt = 0;
		fd = bpf_prog_load(&s, &log);
	}
	if (fd < 0) {
		const char *hint = "";

		log_tail(log, tail, sizeof(tail), 12);
		if (log && strstr(log, "unknown#195896080"))
			hint = "\n(a CO-RE relocation found no match in this kernel's BTF: a field or type the program uses does not exist here)";
		else if (log && strstr(log, "unknown#195896081"))
			hint = "\n(the program uses a map or kernel symbol that was not created or resolved)";
		else if (fd == -EPERM && (p->kind == ATTACH_FENTRY || p->kind == ATTACH_FEXIT))
			hint = " (this kernel refuses trampoline programs: fentry/fexit are unavailable)";
		if (tail[0])
			err_set(-fd, "program %s (%s) was rejected by the kernel (%s); verifier log tail:\n%s%s",
				p->name, p->sec_name, strerror(-fd), tail, hint);
		else
			err_prefix(fd, "program %s (%s)%s", p->name, p->sec_name, hint);
		free(log);
		return fd;
	}
	free(log);
	p->fd = fd;
	return 0;
}

static void add_name(char ***names, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && !strncmp((*names)[i], s, len))
			return;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[*n] = xmalloc(len + 1);
	memcpy((*names)[*n], s, len);
	(*names)[*n][len] = 0;
	(*n)++;
}

/* Every kernel type name this object will look up (CO-RE root types by
 * essential name, tp_btf typedefs, fentry functions, typed ksyms), found
 * in one pass instead of indexing 100k+ names: start-up time. */
static void prepare_kernel_names(struct obj *o)
{
	char **names = NULL, buf[200];
	size_t n = 0;

	for (uint32_t s = 0; o->has_ext && s < o->ext.nr_core; s++) {
		const struct btf_ext_sec *es = &o->ext.core[s];

		for (uint32_t r = 0; r < es->nr; r++) {
			const struct core_relo *rec =
				(const void *)((const char *)es->recs + (size_t)r * es->rec_size);
			const struct btf_type *t = btf_type_by_id(o->btf, rec->type_id);
			const char *name, *flavor = NULL, *f;
			size_t len;

			/* the CO-RE engine searches by the root type's own name */
			if (!t || !*(name = btf_name(o->btf, t)))
				continue;
			/* essential name: drop the last ___flavor */
			for (f = strstr(name, "___"); f; f = strstr(f + 1, "___"))
				flavor = f;
			len = flavor ? (size_t)(flavor - name) : strlen(name);
			add_name(&names, &n, name, len);
		}
	}
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];

		if (!p->autoload || !p->target)
			continue;
		if (p->kind == ATTACH_TP_BTF)
			snprintf(buf, sizeof(buf), "btf_trace_%s", p->target);
		else if (p->kind == ATTACH_FENTRY || p->kind == ATTACH_FEXIT)
			snprintf(buf, sizeof(buf), "%s", p->target);
		else if (p->kind == ATTACH_ITER)
			snprintf(buf, sizeof(buf), "bpf_iter_%s", p->target);
		else
			continue;
		add_name(&names, &n, buf, strlen(buf));
	}
	if (n) { /* the CO-RE engine's pointer-size probe */
		static const char *const longs[] = { "long", "long int", "unsigned long", "long unsigned int" };

		for (size_t i = 0; i < ARRAY_SIZE(longs); i++)
			add_name(&names, &n, longs[i], strlen(longs[i]));
	}
	if (n) { /* the CO-RE engine's pointer-size probe */
		static const char *const longs[] = { "long", "long int", "unsigned long", "long unsigned int" };

		for (size_t i = 0; i < ARRAY_SIZE(longs); i++)
			add_name(&names, &n, longs[i], strlen(longs[i]));
	}
	for (size_t i = 0; i < o->nr_exts; i++)
		if (!o->exts[i].is_kconfig)
			add_name(&names, &n, o->exts[i].name, strlen(o->exts[i].name));
	btf_find_prepare(o->kbtf.btf, (const char *const *)names, n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int obj_load(struct obj *o, const struct obj_opts *opts)
{
	int err = 0;

	if (o->loaded)
		return err_set(EBUSY, "%s: already loaded", o->name);
	o->verbose = opts ? opts->verbose : 0;
	if (needs_kernel_btf(o)) {
		if ((err = kernel_btf_ensure(o, opts)) < 0)
			return err;
		prepare_kernel_names(o);
	}
	for (size_t i = 0; i < o->nr_progs && !err; i++)
		if (o->progs[i].autoload)
			err = prog_resolve_btf_target(o, &o->progs[i]);
	if (!err)
		err = externs_resolve(o);
	if (!err)
		err = relocate_core(o);
	if (err)
		return err_prefix(err, "%s", o->name);
	load_prog_btf(o);
	if ((err = maps_create(o)) < 0)
		goto fail;
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];

		if (!p->autoload)
			continue;
		if ((err = relocate_prog(o, p)) < 0 || (err = load_prog(o, p)) < 0)
			goto fail;
	}
	o->loaded = true;
	/* The kernel BTF (megabytes) is not needed once programs are loaded. */
	if (o->kbtf_loaded) {
		kbtf_close(&o->kbtf);
		o->kbtf_loaded = false;
	}
	return 0;
fail:
	err_prefix(err, "%s", o->name);
	for (size_t i = 0; i < o->nr_progs; i++)
		if (o->progs[i].fd >= 0) {
			close(o->progs[i].fd);
			o->progs[i].fd = -1;
		}
	for (size_t i = 0; i < o->nr_maps; i++)
		if (o->maps[i].fd >= 0) {
			close(o->maps[i].fd);
			o->maps[i].fd = -1;
		}
	return err;
}
