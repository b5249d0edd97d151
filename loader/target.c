/* Attach targets that live in kernel BTF, resolved before load: the
 * tp_btf tracepoint, fentry/fexit function or iterator a program names,
 * as an id in the running kernel's BTF or a module's (with that module's
 * BTF object fd); tp_btf falls back to raw_tp when the kernel refuses it.
 * Used by obj_load (load.c) and by tools choosing a variant beforehand. */
#include <errno.h>
#include <stdio.h>

#include "bpf/probe.h"
#include "lib/err.h"
#include "obj_int.h"

/* Attach ids come from the running kernel's own BTF (obj_sys_btf), never
 * from a --btf file: its ids mean nothing to the kernel. */
static int32_t tp_btf_id(const struct btf *sys, const char *tp)
{
	char name[160];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return sys ? btf_find(sys, name, BTF_KIND_TYPEDEF) : -ENOENT;
}

bool obj_tp_btf_ok(struct obj *o, const char *tp)
{
	int32_t id = tp_btf_id(obj_sys_btf(o), tp);

	err_clear();
	return id > 0 && probe_tp_btf((uint32_t)id);
}

/* A target missing from vmlinux may be in a module: its id there, with the
 * module's BTF object for attach_btf_obj_fd. */
static int32_t module_target(struct obj *o, struct prog *p, const char *name, int kind)
{
	struct kmod_btf *m;
	int32_t id = obj_kmod_find(o, name, kind, &m);

	if (id < 0)
		return id;
	if (m->fd <= 0 && (m->fd = kbtf_module_fd(m->name)) < 0) {
		m->fd = 0;
		return err_prefix(-ENOENT, "program %s: %s is in module %s", p->name, name, m->name);
	}
	p->attach_btf_obj_fd = m->fd;
	return id;
}

/* func in vmlinux, else in a loaded module's BTF (ext4_file_read_iter
 * when ext4 is a module). */
bool obj_fentry_ok(struct obj *o, const char *func)
{
	const struct btf *sys = obj_sys_btf(o);
	int32_t id = sys ? btf_find(sys, func, BTF_KIND_FUNC) : -ENOENT;
	struct prog probe = { .name = "probe" };
	bool ok;

	if (!sys) {
		err_prefix(-ENOENT, "fentry/fexit need the running kernel's BTF");
		return false;
	}
	if (id > 0) {
		if (!probe_fentry((uint32_t)id)) {
			err_set(ENOTSUP, "this kernel refuses fentry/fexit programs (BPF trampolines)");
			return false;
		}
		err_clear();
		return true;
	}
	/* a module's function (its BTF object for attach_btf_obj_fd) */
	ok = (id = module_target(o, &probe, func, BTF_KIND_FUNC)) > 0 &&
	     probe_fentry_module((uint32_t)id, probe.attach_btf_obj_fd);
	if (ok)
		err_clear();
	else if (id > 0)
		err_set(ENOTSUP, "this kernel refuses fentry/fexit programs (BPF trampolines)");
	else
		err_set(ENOENT, "no function %s in the running kernel's BTF", func);
	return ok;
}

/* tp_btf/fentry/fexit/iter: the target's id in kernel BTF; tp_btf turns
 * into raw_tp when the kernel can't take it. */
int prog_resolve_btf_target(struct obj *o, struct prog *p)
{
	const struct btf *sys;
	char name[160];
	int32_t id, any;

	if (!prog_needs_kernel_btf(p))
		return 0; /* perf_event, SEC("kprobe"), ...: no BTF target */
	if (!p->target || !*p->target)
		return err_set(EINVAL, "program %s: section %s names no target", p->name, p->sec_name);
	sys = obj_sys_btf(o); /* NULL: the kernel has none (tp_btf -> raw_tp below) */
	err_clear();
	p->attach_btf_obj_fd = 0;
	switch (p->kind) {
	case ATTACH_TP_BTF:
		id = tp_btf_id(sys, p->target);
		if (id > 0 && probe_tp_btf((uint32_t)id)) {
			p->attach_btf_id = (uint32_t)id;
			return 0;
		}
		any = id < 0 ? tp_btf_id(sys, "sys_enter") : -1;
		if (any > 0 && probe_tp_btf((uint32_t)any)) {
			/* a module's tracepoint (load falls back to raw_tp if refused) */
			snprintf(name, sizeof(name), "btf_trace_%s", p->target);
			id = module_target(o, p, name, BTF_KIND_TYPEDEF);
			err_clear();
			if (id > 0) {
				p->attach_btf_id = (uint32_t)id;
				return 0;
			}
			p->attach_btf_obj_fd = 0;
		}
		/* same context (u64 args): load it as a raw tracepoint */
		p->kind = ATTACH_RAW_TP;
		p->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
		p->expected_attach_type = 0;
		p->attach_btf_id = 0;
		return 0;
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		if (!sys)
			return err_set(ENOENT, "program %s: fentry/fexit need the running kernel's BTF (%s/vmlinux)",
				       p->name, kbtf_sysfs_dir());
		id = btf_find(sys, p->target, BTF_KIND_FUNC);
		if (id < 0 && (id = module_target(o, p, p->target, BTF_KIND_FUNC)) == -ENOENT && !err_msg()[0])
			return err_set(ENOENT, "program %s: kernel function %s not found in kernel or module BTF",
				       p->name, p->target);
		if (id < 0)
			return id;
		p->attach_btf_id = (uint32_t)id;
		return 0;
	case ATTACH_ITER:
		if (!sys)
			return err_set(ENOENT, "program %s: iterators need the running kernel's BTF (%s/vmlinux)",
				       p->name, kbtf_sysfs_dir());
		snprintf(name, sizeof(name), "bpf_iter_%s", p->target);
		id = btf_find(sys, name, BTF_KIND_FUNC);
		if (id < 0)
			return err_set(ENOENT, "program %s: no iterator %s in kernel BTF", p->name, p->target);
		p->attach_btf_id = (uint32_t)id;
		return 0;
	default:
		return 0;
	}
}

bool prog_needs_kernel_btf(const struct prog *p)
{
	return p->kind == ATTACH_TP_BTF || p->kind == ATTACH_FENTRY || p->kind == ATTACH_FEXIT ||
	       p->kind == ATTACH_ITER;
}
