/* Section names -> program types, attach targets and attachment.
 *
 * The mechanism is decided at run time: tp_btf programs load as raw_tp
 * when the kernel cannot attach tp_btf (same u64-args context; corebox
 * tools read kernel memory only through probe-read helpers, so the code
 * is valid either way); kprobes go through the PMU, else kprobe_events;
 * perf-based attachments use bpf links when the kernel has them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

struct sec_def {
	const char *prefix;   /* "name/" = prefix with a target; "name" = exact */
	enum attach_kind kind;
	uint32_t prog_type;
	uint32_t eat;         /* expected attach type */
	bool sleepable;
};

static const struct sec_def sec_defs[] = {
	{ "tracepoint/", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "tp/", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "raw_tracepoint/", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "raw_tp/", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "tp_btf/", ATTACH_TP_BTF, BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP },
	{ "fentry/", ATTACH_FENTRY, BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY },
	{ "fexit/", ATTACH_FEXIT, BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT },
	{ "fentry.s/", ATTACH_FENTRY, BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, true },
	{ "fexit.s/", ATTACH_FEXIT, BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, true },
	{ "kprobe/", ATTACH_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretprobe/", ATTACH_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "ksyscall/", ATTACH_KSYSCALL, BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretsyscall/", ATTACH_KRETSYSCALL, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe/", ATTACH_UPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe/", ATTACH_URETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "iter/", ATTACH_ITER, BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER },
	/* USDT: uprobe programs reading their arguments through the
	 * usdt.bpf.h maps; attaching them (notes, specs, cookies) is for the
	 * dynamic-tracing layer: for now they load and stay unattached */
	{ "usdt/", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt.s/", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0, true },
	/* no automatic attachment */
	{ "kprobe", ATTACH_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretprobe", ATTACH_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe", ATTACH_UPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe", ATTACH_URETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt.s", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0, true },
	{ "tracepoint", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "raw_tp", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "perf_event", ATTACH_NONE, BPF_PROG_TYPE_PERF_EVENT, 0 },
	{ "socket", ATTACH_NONE, BPF_PROG_TYPE_SOCKET_FILTER, 0 },
};

int prog_setup_type(struct prog *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(sec_defs); i++) {
		const struct sec_def *d = &sec_defs[i];
		size_t n = strlen(d->prefix);

		if (d->prefix[n - 1] == '/' ? strncmp(p->sec_name, d->prefix, n)
					    : strcmp(p->sec_name, d->prefix))
			continue;
		p->kind = d->kind;
		p->type = d->prog_type;
		p->expected_attach_type = d->eat;
		p->sleepable = d->sleepable;
		if (d->prefix[n - 1] == '/' && p->sec_name[n])
			p->target = xstrdup(p->sec_name + n);
		return 0;
	}
	return err_set(ENOTSUP, "program %s: unknown section name '%s'", p->name, p->sec_name);
}

int kernel_btf_ensure(struct obj *o, const struct obj_opts *opts)
{
	const char *path = opts ? opts->btf_path : NULL;
	int err;

	if (o->kbtf_loaded)
		return 0;
	if (!path && o->sys_loaded) {
		/* the kernel's own BTF, already open for attach checks */
		o->kbtf = o->sys;
		memset(&o->sys, 0, sizeof(o->sys));
		o->sys_loaded = false;
		o->kbtf_loaded = true;
		return 0;
	}
	err = kbtf_open(&o->kbtf, path);
	if (err < 0)
		return err;
	o->kbtf_loaded = true;
	return 0;
}

const struct btf *obj_kernel_btf(struct obj *o, const struct obj_opts *opts)
{
	return kernel_btf_ensure(o, opts) < 0 ? NULL : o->kbtf.btf;
}

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

bool obj_fentry_ok(struct obj *o, const char *func)
{
	const struct btf *sys = obj_sys_btf(o);
	int32_t id = sys ? btf_find(sys, func, BTF_KIND_FUNC) : -ENOENT;

	if (!sys)
		err_prefix(-ENOENT, "fentry/fexit need the running kernel's BTF");
	else if (id <= 0)
		err_set(ENOENT, "no function %s in the running kernel's BTF", func);
	else if (!probe_fentry((uint32_t)id))
		err_set(ENOTSUP, "this kernel refuses fentry/fexit programs (BPF trampolines)");
	else {
		err_clear();
		return true;
	}
	return false;
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

/* "FUNC+OFF" -> name and offset */
static void split_offset(const char *target, char *name, size_t size, uint64_t *off)
{
	const char *plus = strchr(target, '+');
	size_t n = plus ? (size_t)(plus - target) : strlen(target);

	if (n >= size)
		n = size - 1;
	memcpy(name, target, n);
	name[n] = 0;
	*off = plus ? strtoull(plus + 1, NULL, 0) : 0;
}

static int attach_kprobe(struct prog *p, const char *func, uint64_t off, bool ret)
{
	int pfd, err;

	if (probe_kprobe_pmu()) {
		pfd = perf_open_kprobe_pmu(func, off, ret);
		if (pfd >= 0) {
			err = perf_attach_bpf(pfd, p->fd, 0, &p->link_fd);
			if (err < 0) {
				close(pfd);
				return err;
			}
			p->perf_fd = pfd;
			p->mech = ret ? "kretprobe" : "kprobe";
			return 0;
		}
	}
	if (!probe_kprobe_legacy())
		return err_set(ENOTSUP, "program %s: kernel has no kprobe support (no kprobe PMU, no kprobe_events)",
			       p->name);
	static bool gc_done;

	if (!gc_done) {
		/* probes left behind by a SIGKILLed corebox would collide */
		perf_kprobe_legacy_gc();
		gc_done = true;
	}
	pfd = perf_open_kprobe_legacy(func, off, ret, p->legacy_event, sizeof(p->legacy_event));
	if (pfd < 0)
		return pfd;
	p->legacy_retprobe = ret;
	err = perf_attach_bpf(pfd, p->fd, 0, &p->link_fd);
	if (err < 0) {
		close(pfd);
		perf_kprobe_legacy_remove(p->legacy_event, ret);
		p->legacy_event[0] = 0;
		return err;
	}
	p->perf_fd = pfd;
	p->mech = ret ? "kretprobe_legacy" : "kprobe_legacy";
	return 0;
}

static int attach_uprobe(struct prog *p, bool ret)
{
	/* uprobe/PATH:FUNC[+OFF] */
	const char *colon = strrchr(p->target, ':');
	char path[512], func[256];
	uint64_t off = 0, extra;
	const void *data;
	size_t size;
	int pfd, err;

	if (!colon || (size_t)(colon - p->target) >= sizeof(path))
		return err_set(EINVAL, "program %s: uprobe target '%s' is not PATH:FUNCTION", p->name,
			       p->target);
	memcpy(path, p->target, (size_t)(colon - p->target));
	path[colon - p->target] = 0;
	split_offset(colon + 1, func, sizeof(func), &extra);
	if (func[0] >= '0' && func[0] <= '9') {
		off = strtoull(func, NULL, 0);
	} else {
		struct elf_view ev;

		if ((err = elf_map_file(path, &data, &size)) < 0)
			return err_prefix(err, "program %s", p->name);
		err = elf_open(&ev, data, size);
		if (!err)
			err = elf_func_file_offset(&ev, func, &off);
		elf_unmap_file(data, size);
		if (err < 0)
			return err_prefix(err, "program %s: %s", p->name, path);
	}
	pfd = perf_open_uprobe_ref(path, off + extra, ret, p->upid > 0 ? p->upid : -1, p->ref_ctr_off);
	if (pfd < 0)
		return pfd;
	err = perf_attach_bpf(pfd, p->fd, 0, &p->link_fd);
	if (err < 0) {
		close(pfd);
		return err;
	}
	p->perf_fd = pfd;
	p->mech = ret ? "uretprobe" : "uprobe";
	return 0;
}

static int attach_one(struct obj *o, struct prog *p)
{
	char name[256], cat[128];
	uint64_t off;
	const char *slash;
	int fd, err;

	switch (p->kind) {
	case ATTACH_NONE:
		return 0;
	case ATTACH_TRACEPOINT:
		slash = p->target ? strchr(p->target, '/') : NULL;
		if (!slash || (size_t)(slash - p->target) >= sizeof(cat))
			return err_set(EINVAL, "program %s: tracepoint '%s' is not CATEGORY/NAME", p->name,
				       p->target ? p->target : "");
		memcpy(cat, p->target, (size_t)(slash - p->target));
		cat[slash - p->target] = 0;
		fd = perf_tp_id(cat, slash + 1);
		if (fd < 0)
			return fd;
		fd = perf_open_tracepoint(fd);
		if (fd < 0)
			return fd;
		err = perf_attach_bpf(fd, p->fd, 0, &p->link_fd);
		if (err < 0) {
			close(fd);
			return err;
		}
		p->perf_fd = fd;
		p->mech = "tracepoint";
		return 0;
	case ATTACH_RAW_TP:
		if (!p->target)
			return err_set(EINVAL, "program %s: raw tracepoint has no name", p->name);
		fd = bpf_raw_tp_open(p->target, p->fd);
		if (fd < 0)
			return fd;
		p->link_fd = fd;
		p->mech = "raw_tp";
		return 0;
	case ATTACH_TP_BTF:
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		fd = bpf_link_create(p->fd, 0, p->expected_attach_type, 0, 0);
		if (fd < 0)
			fd = bpf_raw_tp_open(NULL, p->fd);
		if (fd < 0)
			return fd;
		p->link_fd = fd;
		p->mech = p->kind == ATTACH_TP_BTF ? "tp_btf" : p->kind == ATTACH_FENTRY ? "fentry" : "fexit";
		return 0;
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
		if (!p->target)
			return 0; /* SEC("kprobe"): attached by hand */
		split_offset(p->target, name, sizeof(name), &off);
		return attach_kprobe(p, name, off, p->kind == ATTACH_KRETPROBE);
	case ATTACH_KSYSCALL:
	case ATTACH_KRETSYSCALL:
		/* the syscall wrapper of the architecture we run on */
#if defined(__aarch64__)
		snprintf(name, sizeof(name), "__arm64_sys_%s", p->target);
#else
		snprintf(name, sizeof(name), "__x64_sys_%s", p->target);
#endif
		return attach_kprobe(p, name, 0, p->kind == ATTACH_KRETSYSCALL);
	case ATTACH_UPROBE:
	case ATTACH_URETPROBE:
		if (!p->target)
			return 0;
		return attach_uprobe(p, p->kind == ATTACH_URETPROBE);
	case ATTACH_ITER:
		fd = bpf_link_create(p->fd, 0, BPF_TRACE_ITER, 0, 0);
		if (fd < 0)
			return fd;
		p->link_fd = fd;
		p->mech = "iter";
		return 0;
	case ATTACH_USDT:
		return 0; /* hook for USDT attachment: loaded, not attached */
	}
	(void)o;
	return 0;
}

int prog_attach(struct prog *p)
{
	int err;

	if (!p->obj->loaded || p->fd < 0)
		return err_set(EINVAL, "program %s: attach before load", p->name);
	err = attach_one(p->obj, p);
	if (err < 0) {
		err_prefix(err, "cannot attach program %s (%s)", p->name, p->label ? p->label : p->sec_name);
		prog_detach(p);
	}
	return err;
}

int obj_attach(struct obj *o)
{
	if (!o->loaded)
		return err_set(EINVAL, "%s: attach before load", o->name);
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];
		int err;

		if (!p->autoload || p->fd < 0)
			continue;
		err = prog_attach(p);
		if (err < 0) {
			for (size_t k = 0; k < i; k++)
				prog_detach(&o->progs[k]);
			return err;
		}
	}
	return 0;
}

int prog_attach_perf_fd(struct prog *p, int perf_fd)
{
	int link = -1, err = perf_attach_bpf(perf_fd, p->fd, 0, &link);

	if (err < 0)
		return err_prefix(err, "program %s", p->name);
	p->extra_fds = xrealloc(p->extra_fds, (p->nr_extra + 2) * sizeof(int));
	p->extra_fds[p->nr_extra++] = link;
	p->mech = "perf_event";
	return 0;
}

void prog_detach(struct prog *p)
{
	if (p->link_fd >= 0)
		close(p->link_fd);
	if (p->perf_fd >= 0)
		close(p->perf_fd);
	p->link_fd = p->perf_fd = -1;
	p->mech = "";
	if (p->legacy_event[0]) {
		perf_kprobe_legacy_remove(p->legacy_event, p->legacy_retprobe);
		p->legacy_event[0] = 0;
	}
	for (size_t i = 0; i < p->nr_extra; i++)
		if (p->extra_fds[i] >= 0)
			close(p->extra_fds[i]);
	p->nr_extra = 0;
}
