/* Attachment: loaded programs -> links (and their detachment).
 *
 * The mechanism is decided at run time: tp_btf programs that loaded as
 * raw_tp (target.c) attach as raw tracepoints; kprobes go through the
 * PMU, else kprobe_events;
 * perf-based attachments use bpf links when the kernel has them. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

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

static void legacy_gc(void)
{
	static bool gc_done;

	if (!gc_done) {
		/* probes left behind by a SIGKILLed corebox would collide */
		perf_kprobe_legacy_gc();
		gc_done = true;
	}
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
	legacy_gc();
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

/* uprobe/PATH:FUNC[+OFF] -> path and file offset */
static int uprobe_resolve(const struct prog *p, char *path, size_t path_size, uint64_t *file_off)
{
	const char *colon = strrchr(p->target, ':');
	char func[256];
	uint64_t off = 0, extra;
	const void *data;
	size_t size;
	int err;

	if (!colon || (size_t)(colon - p->target) >= path_size)
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
			err = elf_uprobe_func_offset(&ev, func, &off);
		elf_unmap_file(data, size);
		if (err < 0)
			return err_prefix(err, "program %s: %s", p->name, path);
	}
	*file_off = off + extra;
	return 0;
}

static int attach_uprobe(struct prog *p, bool ret)
{
	char path[512];
	uint64_t off;
	int pfd, err;

	if ((err = uprobe_resolve(p, path, sizeof(path), &off)) < 0)
		return err;
	if (p->uprobe_multi) { /* a link of one offset (see load.c) */
		uint64_t ref = p->ref_ctr_off;
		int fd = bpf_link_create_uprobe_multi(p->fd, path, &off, ref ? &ref : NULL, NULL, 1,
						      ret ? CB_BPF_F_UPROBE_MULTI_RETURN : 0, p->upid);

		if (fd < 0)
			return err_prefix(fd, "program %s", p->name);
		p->link_fd = fd;
		p->mech = ret ? "uretprobe_multi" : "uprobe_multi";
		return 0;
	}
	pfd = perf_open_uprobe_ref(path, off, ret, p->upid > 0 ? p->upid : -1, p->ref_ctr_off);
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
		if (!p->target)
			return 0; /* SEC("tracepoint"): attached by hand (prog_attach_perf_fd) */
		slash = strchr(p->target, '/');
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
			return 0; /* SEC("raw_tp"): attached by hand, or a tail-call target */
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
#elif defined(__arm__)
		/* no wrappers: sys_X takes the syscall's arguments itself */
		snprintf(name, sizeof(name), "sys_%s", p->target);
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

/* Programs with the same code (the same instructions, maps included) on
 * the same binary behave the same wherever they fire: memleak's nine
 * allocator returns, say.  They go through one uprobe_multi link, on the
 * first one's program, which detaches all of them after one grace period
 * instead of one each.  Any that fail to resolve or group are left to
 * prog_attach, which names the one at fault. */
struct uprobe_site {
	char path[512];
	uint64_t off;
	bool ok;
};

static bool same_uprobe_code(const struct prog *a, const struct prog *b)
{
	return a->kind == b->kind && a->upid == b->upid && a->cnt == b->cnt &&
	       !memcmp(a->insns, b->insns, a->cnt * sizeof(*a->insns));
}

static bool group_candidate(const struct prog *p)
{
	return p->autoload && p->fd >= 0 && p->uprobe_multi && p->target && p->link_fd < 0 && !p->grouped;
}

static void attach_uprobe_groups(struct obj *o)
{
	struct uprobe_site *site = NULL;
	uint64_t *offs = NULL, *refs = NULL;
	size_t n = 0;

	for (size_t i = 0; i < o->nr_progs; i++)
		n += group_candidate(&o->progs[i]);
	if (n < 2)
		return;
	site = xcalloc(o->nr_progs, sizeof(*site));
	offs = xmalloc(o->nr_progs * sizeof(*offs));
	refs = xmalloc(o->nr_progs * sizeof(*refs));
	for (size_t i = 0; i < o->nr_progs; i++)
		if (group_candidate(&o->progs[i]))
			site[i].ok = uprobe_resolve(&o->progs[i], site[i].path, sizeof(site[i].path), &site[i].off) == 0;
	err_clear();
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];
		bool ret = p->kind == ATTACH_URETPROBE, any_ref = p->ref_ctr_off != 0;
		size_t cnt = 1;
		int fd;

		if (!site[i].ok || !group_candidate(p))
			continue;
		offs[0] = site[i].off;
		refs[0] = p->ref_ctr_off;
		for (size_t j = i + 1; j < o->nr_progs; j++) {
			struct prog *q = &o->progs[j];

			if (site[j].ok && group_candidate(q) && same_uprobe_code(p, q) &&
			    !strcmp(site[i].path, site[j].path)) {
				offs[cnt] = site[j].off;
				refs[cnt++] = q->ref_ctr_off;
				any_ref |= q->ref_ctr_off != 0;
			}
		}
		if (cnt < 2)
			continue;
		fd = bpf_link_create_uprobe_multi(p->fd, site[i].path, offs, any_ref ? refs : NULL, NULL, (uint32_t)cnt,
						  ret ? CB_BPF_F_UPROBE_MULTI_RETURN : 0, p->upid);
		if (fd < 0) {
			err_clear();
			continue;
		}
		p->link_fd = fd;
		p->mech = ret ? "uretprobe_multi" : "uprobe_multi";
		for (size_t j = i + 1; j < o->nr_progs; j++) {
			struct prog *q = &o->progs[j];

			if (site[j].ok && group_candidate(q) && same_uprobe_code(p, q) &&
			    !strcmp(site[i].path, site[j].path)) {
				q->grouped = true; /* on p's link */
				q->mech = p->mech;
			}
		}
	}
	free(site);
	free(offs);
	free(refs);
}

int obj_attach(struct obj *o)
{
	if (!o->loaded)
		return err_set(EINVAL, "%s: attach before load", o->name);
	attach_uprobe_groups(o);
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];
		int err;

		if (!p->autoload || p->fd < 0 || p->grouped || p->link_fd >= 0)
			continue;
		err = prog_attach(p);
		if (err < 0) {
			/* all of them: a group's link is on its first program */
			for (size_t k = 0; k < o->nr_progs; k++)
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

static void extra_fd_add(struct prog *p, int fd)
{
	p->extra_fds = xrealloc(p->extra_fds, (p->nr_extra + 2) * sizeof(int));
	p->extra_fds[p->nr_extra++] = fd;
}

int prog_attach_kprobes(struct prog *p, const char *const *syms, const uint64_t *cookies, size_t n)
{
	size_t added = n;
	bool ret = !strncmp(p->sec_name, "kretprobe", 9);
	int fd;

	if (!p->obj->loaded || p->fd < 0)
		return err_set(EINVAL, "program %s: attach before load", p->name);
	if (p->expected_attach_type == BPF_TRACE_KPROBE_MULTI) {
		fd = bpf_link_create_kprobe_multi(p->fd, syms, cookies, (uint32_t)n, ret);
		if (fd >= 0)
			extra_fd_add(p, fd);
		p->mech = ret ? "kretprobe_multi" : "kprobe_multi";
	} else {
		legacy_gc();
		fd = p->perf_fd = perf_open_kprobes_legacy(syms, n, ret, p->legacy_event, sizeof(p->legacy_event), &added);
		if (fd >= 0)
			fd = perf_attach_bpf(fd, p->fd, 0, &p->link_fd);
		p->mech = "kprobe_legacy_multi";
	}
	if (fd < 0) {
		err_prefix(fd, "program %s", p->name);
		prog_detach(p);
		return fd;
	}
	return (int)added;
}

/* One uprobe_multi link for all n offsets: closing it unregisters them
 * all and waits for the grace periods once (~25 ms for 20 offsets here);
 * one perf uprobe per offset waits ~100 ms each, one after the other
 * under a global mutex, wherever they are closed from.  When the group
 * is refused, the offsets go one by one so the message names the one the
 * kernel will not take. */
int prog_attach_uprobes(struct prog *p, const char *path, const uint64_t *offsets, size_t n, int pid)
{
	bool ret = p->kind == ATTACH_URETPROBE;
	size_t done = p->nr_extra, i = 0;
	int fd;

	if (!p->obj->loaded || p->fd < 0)
		return err_set(EINVAL, "program %s: attach before load", p->name);
	if (p->kind != ATTACH_UPROBE && p->kind != ATTACH_URETPROBE)
		return err_set(EINVAL, "program %s is not a uprobe program", p->name);
	if (p->uprobe_multi && n > 1) {
		fd = bpf_link_create_uprobe_multi(p->fd, path, offsets, NULL, NULL, (uint32_t)n,
						  ret ? CB_BPF_F_UPROBE_MULTI_RETURN : 0, pid);
		if (fd >= 0) {
			extra_fd_add(p, fd);
			p->mech = ret ? "uretprobe_multi" : "uprobe_multi";
			return 0;
		}
	}
	for (i = 0; i < n; i++) {
		int link = -1, err;

		if (p->uprobe_multi) {
			fd = bpf_link_create_uprobe_multi(p->fd, path, &offsets[i], NULL, NULL, 1,
							  ret ? CB_BPF_F_UPROBE_MULTI_RETURN : 0, pid);
			if (fd < 0)
				goto fail;
			extra_fd_add(p, fd);
			continue;
		}
		fd = perf_open_uprobe(path, offsets[i], ret, pid > 0 ? pid : -1);
		if (fd < 0)
			goto fail;
		if ((err = perf_attach_bpf(fd, p->fd, 0, &link)) < 0) {
			close(fd);
			fd = err;
			goto fail;
		}
		extra_fd_add(p, link);
		extra_fd_add(p, fd);
	}
	p->mech = p->uprobe_multi ? (ret ? "uretprobe_multi" : "uprobe_multi") : ret ? "uretprobe" : "uprobe";
	return 0;
fail:
	/* this call's links go; earlier calls' stay */
	while (p->nr_extra > done)
		close(p->extra_fds[--p->nr_extra]);
	return err_prefix(fd, "program %s: %s offset 0x%llx", p->name, path, (unsigned long long)offsets[i]);
}

/* Detaching can wait for RCU grace periods in the kernel (20-100 ms per
 * uprobe_multi link, BPF trampoline, ...): hundreds of programs one
 * after the other would take seconds.  Closed from many tasks at once,
 * the waits overlap (perf events, which wait under one global mutex,
 * gain nothing but lose nothing).  The closers are clone()d children
 * sharing the fd table (CLONE_FILES: the last fput, and its wait, runs in
 * the task that closed) and memory; they only make close syscalls, in
 * order within a program (link, then its perf event). */
#define CLOSERS 32
#define CLOSER_STACK 16384

struct closer {
	int (*fds)[2];
	size_t n;
};

static int closer_main(void *arg)
{
	const struct closer *c = arg;

	for (size_t i = 0; i < c->n; i++)
		for (int k = 0; k < 2; k++)
			if (c->fds[i][k] >= 0)
				syscall(SYS_close, c->fds[i][k]);
	return 0;
}

void obj_detach_parallel(struct obj *o)
{
	size_t n = 0, per, covered = 0;
	int (*fds)[2], nkids = 0;
	pid_t kids[CLOSERS];
	struct closer work[CLOSERS];
	char *stacks;

	for (size_t i = 0; i < o->nr_progs; i++)
		n += (o->progs[i].link_fd >= 0 || o->progs[i].perf_fd >= 0) + o->progs[i].nr_extra;
	if (n < 8) /* not worth the tasks */
		return;
	fds = xmalloc(n * sizeof(*fds));
	n = 0;
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];

		if (p->link_fd >= 0 || p->perf_fd >= 0) {
			fds[n][0] = p->link_fd;
			fds[n++][1] = p->perf_fd;
		}
		for (size_t k = 0; k < p->nr_extra; k++) {
			fds[n][0] = p->extra_fds[k];
			fds[n++][1] = -1;
		}
	}
	stacks = mmap(NULL, CLOSERS * CLOSER_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	per = (n + CLOSERS - 1) / CLOSERS;
	for (size_t at = 0; stacks != MAP_FAILED && at < n && nkids < CLOSERS; at += per) {
		work[nkids].fds = fds + at;
		work[nkids].n = n - at < per ? n - at : per;
		kids[nkids] = clone(closer_main, stacks + (size_t)(nkids + 1) * CLOSER_STACK,
				    CLONE_VM | CLONE_FILES | SIGCHLD, &work[nkids]);
		if (kids[nkids] < 0)
			break;
		covered = at + work[nkids].n;
		nkids++;
	}
	for (int k = 0; k < nkids; k++)
		while (waitpid(kids[k], NULL, 0) < 0 && errno == EINTR)
			;
	/* what the children closed is closed for us too (one fd table): the
	 * first `covered` entries, in the order they were listed */
	n = 0;
	for (size_t i = 0; i < o->nr_progs && n < covered; i++) {
		struct prog *p = &o->progs[i];

		if ((p->link_fd >= 0 || p->perf_fd >= 0) && n++ < covered)
			p->link_fd = p->perf_fd = -1;
		for (size_t k = 0; k < p->nr_extra && n < covered; k++, n++)
			p->extra_fds[k] = -1;
	}
	if (stacks != MAP_FAILED)
		munmap(stacks, CLOSERS * CLOSER_STACK);
	free(fds);
}

void prog_detach(struct prog *p)
{
	if (p->link_fd >= 0)
		close(p->link_fd);
	if (p->perf_fd >= 0)
		close(p->perf_fd);
	p->link_fd = p->perf_fd = -1;
	p->mech = "";
	p->grouped = false; /* its uprobe goes with its group's first program */
	if (p->legacy_event[0]) {
		perf_kprobe_legacy_remove(p->legacy_event, p->legacy_retprobe);
		p->legacy_event[0] = 0;
	}
	for (size_t i = 0; i < p->nr_extra; i++)
		if (p->extra_fds[i] >= 0)
			close(p->extra_fds[i]);
	p->nr_extra = 0;
}
