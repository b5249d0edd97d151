/* Probe -> locations: kernel functions (BTF + kallsyms), tracepoints
 * (tracefs), user functions (ELF symbols of a library found like bcc
 * does), USDT probes (.note.stapsdt), and the mechanism this kernel
 * allows for each (see probe.h). */
#include "probe.h"
#include "match.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "bpf/kallsyms.h"
#include "bpf/probe.h"
#include "bpf/tracefs.h"
#include "btf/btf.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/kbtf.h"
#include "tools/probe/arch.h"
#include "tools/probe/usdt.h"
#include "tools/common/common.h"
#include "tools/common/opt.h"

/* ---- kernel BTF ---- */

static struct kbtf kb;
static int kb_state; /* 0 unopened, 1 open, -1 none */
static struct btf *overlay; /* a program's own types over the kernel's */

void probe_set_btf_overlay(struct btf *btf)
{
	btf_free(overlay);
	overlay = btf;
}

const struct btf *probe_kernel_btf(void)
{
	if (overlay)
		return overlay;
	if (!kb_state) {
		kb_state = kbtf_open(&kb, tool_common.btf_path) == 0 ? 1 : -1;
		if (kb_state < 0)
			err_clear();
	}
	return kb_state > 0 ? kb.btf : NULL;
}

void probe_kernel_btf_release(void)
{
	probe_set_btf_overlay(NULL);
	ctype_set_local(NULL, NULL, 0);
	if (kb_state > 0)
		kbtf_close(&kb);
	kb_state = 0;
}

/* ---- matching ---- */

static bool has_wild(const char *s) { return strpbrk(s, glob_star_only ? "*" : "*?[") != NULL; }

static struct loc *add_loc(struct loc **locs, int *n)
{
	struct loc *l;

	*locs = xrealloc(*locs, (size_t)(*n + 1) * sizeof(**locs));
	l = &(*locs)[(*n)++];
	memset(l, 0, sizeof(*l));
	return l;
}

void locs_free(struct loc *l, int n)
{
	for (int i = 0; i < n; i++) {
		free(l[i].name);
		free(l[i].target);
		tp_format_free(&l[i].fmt);
		free(l[i].uargs);
		free(l[i].provider);
	}
	free(l);
}

/* ---- tracepoints ---- */

int syscall_event_nr(const char *ev, bool *exit)
{
	/* events named after the kernel's entry point where the syscall
	 * table's name differs */
	static const char *const alias[][2] = {
		{ "newstat", "stat" }, { "newfstat", "fstat" }, { "newlstat", "lstat" },
		{ "newuname", "uname" }, { "sendfile64", "sendfile" }, { "umount", "umount2" },
		{ "fadvise64_64", "fadvise64" },
	};
	const char *name;

	if (!strncmp(ev, "sys_enter_", 10))
		*exit = false;
	else if (!strncmp(ev, "sys_exit_", 9))
		*exit = true;
	else
		return -1;
	name = ev + (*exit ? 9 : 10);
	for (size_t i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(name, alias[i][0]) && syscall_nr(alias[i][1]) >= 0)
			return syscall_nr(alias[i][1]);
	return *name ? syscall_nr(name) : -1;
}

/* Is CAT/EV a dynamic event (kprobe, uprobe, synthetic, eprobe events
 * made through tracefs)?  Those are no kernel tracepoints: no raw_tp. */
static bool dynamic_event(const char *cat, const char *ev)
{
	static char *list;
	static int loaded;
	char path[512], needle[300];
	size_t len;

	if (!loaded) {
		loaded = 1;
		if (!tracefs_path(path, sizeof(path), "dynamic_events") || read_file(path, 1 << 22, &list, &len) < 0)
			list = NULL;
		err_clear();
	}
	if (!list)
		return false;
	snprintf(needle, sizeof(needle), ":%s/%s", cat, ev);
	for (const char *p = list; (p = strstr(p, needle)); p++)
		if (p[strlen(needle)] == ' ' || p[strlen(needle)] == '\n' || !p[strlen(needle)])
			return true;
	return false;
}

/* The cheapest way in for tracepoint CAT/EV: syscall events through the
 * raw_syscalls dispatcher, other kernel tracepoints as raw tracepoints
 * unless the probe reads the record's fields, else a perf tracepoint. */
static void tp_choose_mech(struct loc *l, const char *cat, const char *ev, const struct resolve_opts *o)
{
	bool exit;
	int nr;

	l->mech = M_TP;
	if (!probe_raw_tp())
		return;
	if (!strcmp(cat, "syscalls") && (nr = syscall_event_nr(ev, &exit)) >= 0) {
		l->mech = M_SYSCALL;
		l->sc_nr = nr;
		l->is_return = exit;
		return;
	}
	if (!o->fields && strcmp(cat, "syscalls") && strcmp(cat, "ftrace") && !dynamic_event(cat, ev))
		l->mech = M_RAW_TP;
}

/* The event's fields, unless the caller reads none of them (a count over
 * hundreds of syscalls then parses no format files). */
static int tp_fields(const struct resolve_opts *o, const char *cat, const char *ev, struct loc *l)
{
	return o->no_format ? 0 : tp_format_read(cat, ev, &l->fmt);
}

static int resolve_tp(const struct spec *s, const struct resolve_opts *o, struct loc **locs, int *n)
{
	char path[512], name[600];
	struct matcher mc, me;
	DIR *d, *d2;
	struct dirent *c, *e;
	int err;

	if (!has_wild(s->lib) && !has_wild(s->func) && !o->regex) {
		struct loc *l;

		if (!perf_tp_exists(s->lib, s->func))
			return err_set(ENOENT, "tracepoint %s:%s does not exist on this kernel", s->lib, s->func);
		l = add_loc(locs, n);
		tp_choose_mech(l, s->lib, s->func, o);
		snprintf(name, sizeof(name), "%s/%s", s->lib, s->func);
		l->target = xstrdup(name);
		snprintf(name, sizeof(name), "%s:%s", s->lib, s->func);
		l->name = xstrdup(o->pattern ? name : s->func);
		return tp_fields(o, s->lib, s->func, l);
	}
	if (!tracefs_path(path, sizeof(path), "events"))
		return -ENOENT;
	if ((err = match_compile(&mc, s->lib, o->regex)) < 0)
		return err;
	if ((err = match_compile(&me, s->func, o->regex)) < 0) {
		match_free(&mc);
		return err;
	}
	d = opendir(path);
	if (!d) {
		match_free(&mc);
		match_free(&me);
		return err_sys(errno, "cannot list %s", path);
	}
	while ((c = readdir(d))) {
		char sub[1024];

		if (c->d_name[0] == '.' || !match(&mc, c->d_name))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, c->d_name);
		if (!(d2 = opendir(sub)))
			continue;
		while ((e = readdir(d2))) {
			struct loc *l;

			if (e->d_name[0] == '.' || e->d_type == DT_REG || !match(&me, e->d_name))
				continue;
			if (!perf_tp_exists(c->d_name, e->d_name))
				continue;
			if (o->limit && *n >= o->limit) {
				closedir(d2);
				closedir(d);
				match_free(&mc);
				match_free(&me);
				return err_set(E2BIG, "maximum of %d probes allowed, pattern %s matches more", o->limit,
					       s->text);
			}
			l = add_loc(locs, n);
			tp_choose_mech(l, c->d_name, e->d_name, o);
			snprintf(name, sizeof(name), "%s/%s", c->d_name, e->d_name);
			l->target = xstrdup(name);
			snprintf(name, sizeof(name), "%s:%s", c->d_name, e->d_name);
			l->name = xstrdup(o->pattern ? name : e->d_name);
			if (tp_fields(o, c->d_name, e->d_name, l) < 0)
				err_clear(); /* counting needs no fields */
		}
		closedir(d2);
	}
	closedir(d);
	match_free(&mc);
	match_free(&me);
	if (!*n)
		return err_set(ENOENT, "no tracepoint matches %s:%s", s->lib, s->func);
	return 0;
}

/* ---- kernel functions ---- */

/* Function -> the tracepoint to use instead when it cannot be probed. */
static const struct { const char *func, *tp; } nearest_tp[] = {
	{ "__alloc_pages", "kmem:mm_page_alloc" }, { "alloc_pages", "kmem:mm_page_alloc" },
	{ "__kmalloc", "kmem:kmalloc" }, { "kmalloc", "kmem:kmalloc" }, { "kmem_cache_alloc", "kmem:kmem_cache_alloc" },
	{ "kfree", "kmem:kfree" }, { "kmem_cache_free", "kmem:kmem_cache_free" },
	{ "do_sys_open", "syscalls:sys_enter_openat" }, { "do_sys_openat2", "syscalls:sys_enter_openat" },
	{ "vfs_read", "syscalls:sys_enter_read" }, { "vfs_write", "syscalls:sys_enter_write" },
	{ "vfs_open", "syscalls:sys_enter_openat" }, { "do_unlinkat", "syscalls:sys_enter_unlinkat" },
	{ "submit_bio", "block:block_bio_queue" }, { "blk_account_io_start", "block:block_io_start" },
	{ "blk_mq_start_request", "block:block_rq_issue" }, { "schedule", "sched:sched_switch" },
	{ "finish_task_switch", "sched:sched_switch" }, { "try_to_wake_up", "sched:sched_wakeup" },
	{ "wake_up_new_task", "sched:sched_wakeup_new" }, { "do_exit", "sched:sched_process_exit" },
	{ "handle_mm_fault", "exceptions:page_fault_user" }, { "do_page_fault", "exceptions:page_fault_user" },
	{ "hugepage_madvise", "syscalls:sys_enter_madvise" }, { "do_madvise", "syscalls:sys_enter_madvise" },
	{ "tcp_sendmsg", "syscalls:sys_enter_sendto" }, { "tcp_v4_connect", "syscalls:sys_enter_connect" },
	{ "oom_kill_process", "oom:mark_victim" }, { "try_to_free_pages", "vmscan:mm_vmscan_direct_reclaim_begin" },
	{ "shrink_node", "vmscan:mm_vmscan_lru_shrink_inactive" }, { "do_mmap", "syscalls:sys_enter_mmap" },
	{ "kernel_clone", "sched:sched_process_fork" }, { "_do_fork", "sched:sched_process_fork" },
	{ "do_fork", "sched:sched_process_fork" }, { "do_execveat_common", "sched:sched_process_exec" },
	{ "filemap_add_folio", "filemap:mm_filemap_add_to_page_cache" }, { "ip_output", "net:net_dev_queue" },
	{ "dev_queue_xmit", "net:net_dev_queue" }, { ARCH_SYSCALL_PREFIX, "syscalls:sys_enter_" },
};

/* The tracepoint closest to function func ("" when none comes to mind). */
static void nearest_tracepoint(const char *func, char *out, size_t size)
{
	char path[512], rel[300];
	size_t best = 0;

	out[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(nearest_tp); i++) {
		size_t n = strlen(nearest_tp[i].func);

		if (!strncmp(func, nearest_tp[i].func, n) && n > best) {
			const char *colon = strchr(nearest_tp[i].tp, ':');

			if (!strcmp(nearest_tp[i].func, ARCH_SYSCALL_PREFIX)) {
				snprintf(out, size, "syscalls:sys_enter_%s", func + n);
				if (perf_tp_exists("syscalls", out + 9))
					best = n;
				else
					out[0] = 0;
				continue;
			}
			snprintf(rel, sizeof(rel), "%.*s", (int)(colon - nearest_tp[i].tp), nearest_tp[i].tp);
			if (perf_tp_exists(rel, colon + 1)) {
				snprintf(out, size, "%s", nearest_tp[i].tp);
				best = n;
			}
		}
	}
	if (out[0])
		return;
	/* a tracepoint of the same name in any category (tcp_retransmit_skb) */
	if (tracefs_path(path, sizeof(path), "events")) {
		DIR *d = opendir(path);
		struct dirent *c;

		while (d && (c = readdir(d))) {
			if (c->d_name[0] == '.')
				continue;
			if (perf_tp_exists(c->d_name, func)) {
				snprintf(out, size, "%.60s:%.130s", c->d_name, func);
				break;
			}
		}
		if (d)
			closedir(d);
	}
}

struct kallsyms_funcs {
	const struct matcher *m;
	const char *exact;
	char ***names;
	int *n;
};

static int kallsyms_func(void *ctx, const struct kallsym *s)
{
	struct kallsyms_funcs *kf = ctx;
	const char *name = s->name;
	char ***names = kf->names;
	int *n = kf->n;

	if (!kallsym_is_text(s) || s->nlen > 255)
		return 0;
	if (kf->exact ? strcmp(name, kf->exact) : !match(kf->m, name))
		return 0;
	if (strstr(name, ".cold") || !strncmp(name, "__SCT__", 7) || !strncmp(name, "_kbl_addr_", 10) ||
	    !strncmp(name, "__perf", 6) || !strncmp(name, "perf_", 5) || !strncmp(name, "__pfx_", 6) ||
	    !strncmp(name, "bpf_prog_", 9) || !strncmp(name, "__bpf_trace_", 12))
		return 0;
	for (int i = *n - 1; i >= 0 && i >= *n - 4; i--)
		if (!strcmp((*names)[i], name))
			return 0;
	*names = xrealloc(*names, (size_t)(*n + 1) * sizeof(**names));
	(*names)[(*n)++] = xstrdup(name);
	return kf->exact != NULL;
}

/* Streamed /proc/kallsyms: text symbols bcc would offer as kprobe targets. */
static int kallsyms_funcs(const struct matcher *m, const char *exact, char ***names, int *n)
{
	struct kallsyms_funcs kf = { m, exact, names, n };

	return kallsyms_each(NULL, kallsyms_func, &kf);
}

/* Is the kprobe blacklist or the ftrace filter list against name? */
static bool kprobe_refused(const char *name)
{
	static char *black;
	static int loaded;
	char needle[300];

	if (!loaded) {
		size_t len;

		loaded = 1;
		if (read_file("/sys/kernel/debug/kprobes/blacklist", 1 << 22, &black, &len) < 0) {
			black = NULL;
			err_clear();
		}
	}
	snprintf(needle, sizeof(needle), "\t%s\n", name);
	return black && strstr(black, needle);
}

static int func_proto(const struct btf *btf, const char *name, uint32_t *fid, int *nparams)
{
	int32_t id = btf ? btf_find(btf, name, BTF_KIND_FUNC) : -ENOENT;
	const struct btf_type *t, *p;

	if (id < 0)
		return -ENOENT;
	t = btf_type_by_id(btf, (uint32_t)id);
	p = t ? btf_type_by_id(btf, t->type) : NULL;
	if (!p || btf_kind(p) != BTF_KIND_FUNC_PROTO)
		return -ENOENT;
	*fid = t->type;
	*nparams = (int)btf_vlen(p);
	return (int)id;
}

/* Can a BPF trampoline take this prototype?  Not everywhere: a struct
 * returned or passed by value (6.1 refuses both: "return type STRUCT is
 * unsupported"), more than 6 arguments (the x86 trampoline's limit before
 * 6.6), variadic functions.  Those go to kprobes. */
static bool fentry_proto_ok(const struct btf *btf, uint32_t proto)
{
	const struct btf_type *p = btf_type_by_id(btf, proto), *t;
	const struct btf_param *pa;

	if (!p || btf_vlen(p) > 6)
		return false;
	if (p->type && btf_resolve(btf, p->type, &t) && t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION))
		return false;
	pa = btf_params(p);
	for (uint32_t i = 0; i < btf_vlen(p); i++) {
		if (!pa[i].type)
			return false; /* ... */
		if (btf_resolve(btf, pa[i].type, &t) && t &&
		    (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION))
			return false;
	}
	return true;
}

static int fentry_state; /* 0 unknown, 1 works, -1 refused */

static int resolve_kfunc(const struct spec *s, const struct resolve_opts *o, bool is_return, struct loc **locs,
			 int *n)
{
	const struct btf *btf;
	char **names = NULL, near[200];
	int nn = 0, err;
	bool kprobes = probe_kprobe_pmu() || probe_kprobe_legacy();
	struct matcher m;

	/* bcc's syscall shortcut: sys_NAME -> the syscall tracepoints */
	if (!has_wild(s->func) && !o->regex &&
	    (!strncmp(s->func, "sys_", 4) || !strncmp(s->func, "__x64_sys_", 10) || !strncmp(s->func, "__arm64_sys_", 12))) {
		const char *call = strstr(s->func, "sys_") + 4;
		char ev[300];

		snprintf(ev, sizeof(ev), "sys_%s_%s", is_return ? "exit" : "enter", call);
		if (perf_tp_exists("syscalls", ev)) {
			struct loc *l = add_loc(locs, n);
			char t[400];

			tp_choose_mech(l, "syscalls", ev, o);
			l->syscall_tp = true;
			l->is_return = is_return;
			snprintf(t, sizeof(t), "syscalls/%s", ev);
			l->target = xstrdup(t);
			l->name = xstrdup(s->func);
			return tp_fields(o, "syscalls", ev, l);
		}
	}
	if ((err = match_compile(&m, s->func, o->regex)) < 0)
		return err;
	err = kallsyms_funcs(&m, has_wild(s->func) || o->regex ? NULL : s->func, &names, &nn);
	match_free(&m);
	if (err < 0)
		return err;
	if (!nn) {
		nearest_tracepoint(s->func, near, sizeof(near));
		err = err_set(ENOENT, "no kernel function matches '%s'%s%s", s->func,
			      near[0] ? "; the nearest tracepoint is " : "", near);
		goto out;
	}
	btf = probe_kernel_btf();
	for (int i = 0; i < nn; i++) {
		uint32_t proto = 0;
		int np = 0, fid = func_proto(btf, names[i], &proto, &np);
		bool fentry = false;
		struct loc *l;

		if (fid > 0 && !strchr(names[i], '.') && fentry_proto_ok(btf, proto)) {
			if (!fentry_state)
				fentry_state = probe_fentry((uint32_t)fid) ? 1 : -1;
			fentry = fentry_state > 0;
		}
		if (!fentry && (!kprobes || kprobe_refused(names[i])))
			continue;
		if (o->limit && *n >= o->limit) {
			err = err_set(E2BIG, "maximum of %d probes allowed, pattern %s matches more", o->limit, s->func);
			goto out;
		}
		l = add_loc(locs, n);
		l->mech = fentry ? (is_return ? M_FEXIT : M_FENTRY) : (is_return ? M_KRETPROBE : M_KPROBE);
		l->is_return = is_return;
		l->name = xstrdup(names[i]);
		l->target = xstrdup(names[i]);
		l->off = s->offset;
		l->proto = proto;
		l->nparams = np;
		if (fentry && s->offset)
			l->mech = M_KPROBE; /* fentry has no offsets */
	}
	if (!*n) {
		nearest_tracepoint(s->func, near, sizeof(near));
		err = err_set(ENOTSUP, "cannot trace kernel function%s '%s': this kernel has no kprobes%s%s%s",
			      nn > 1 ? "s" : "", s->func,
			      fentry_state < 0 ? " and refuses fentry" : btf ? "" : " and no BTF for fentry",
			      near[0] ? "; the nearest tracepoint is " : "", near);
	}
out:
	for (int i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	return err;
}

/* ---- libraries and user functions ---- */

static bool is_elf_file(const char *path)
{
	unsigned char h[5];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = read(fd, h, 5) == 5 && !memcmp(h, "\177ELF", 4) && h[4] == ELFCLASS64;
	close(fd);
	return ok;
}

/* The first occurrence of the n-byte needle in buf[0..len), as memmem:
 * a plain scan (the magic below sits at offset 0 or after the old-format
 * table), not libc's two-way memmem (1.4 KB on arm64, only needed here). */
static char *find_bytes(char *buf, size_t len, const char *needle, size_t n)
{
	for (char *p = buf; (size_t)(p - buf) + n <= len; p++)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

/* glibc's /etc/ld.so.cache ("glibc-ld.so.cache1.1"): first entry named
 * lib<NAME>.so... that is a 64-bit ELF. */
static char *ldcache_find(const char *lib)
{
	char *buf, want[300], *found = NULL;
	size_t len, wl;
	const char *magic = "glibc-ld.so.cache1.1";
	uint32_t nlibs;

	if (read_file("/etc/ld.so.cache", 64u << 20, &buf, &len) < 0) {
		err_clear();
		return NULL;
	}
	wl = (size_t)snprintf(want, sizeof(want), "lib%s.so", lib);
	{
		/* the new format may follow an old-format table */
		char *p = find_bytes(buf, len, magic, strlen(magic));
		size_t base;

		if (!p || (size_t)(p - buf) + 48 > len)
			goto out;
		base = (size_t)(p - buf);
		memcpy(&nlibs, buf + base + 20, 4);
		for (uint32_t i = 0; i < nlibs; i++) {
			size_t e = base + 48 + (size_t)i * 24;
			uint32_t k, v;

			if (e + 24 > len)
				break;
			memcpy(&k, buf + e + 4, 4);
			memcpy(&v, buf + e + 8, 4);
			if (k >= len || v >= len || !memchr(buf + k, 0, len - k) || !memchr(buf + v, 0, len - v))
				continue;
			if (strncmp(buf + k, want, wl) || (buf[k + wl] && buf[k + wl] != '.'))
				continue;
			if (is_elf_file(buf + v)) {
				found = xstrdup(buf + v);
				break;
			}
		}
	}
out:
	free(buf);
	return found;
}

static char *maps_find(const char *lib, int pid)
{
	char path[64], line[4096], want[300], *found = NULL;
	FILE *f;
	size_t wl;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return NULL;
	wl = (size_t)snprintf(want, sizeof(want), "lib%s", lib);
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *b;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		b = strrchr(p, '/') + 1;
		if ((!strncmp(b, want, wl) && (b[wl] == '.' || b[wl] == '-')) || !strcmp(b, lib))
			found = xstrdup(p);
	}
	fclose(f);
	return found;
}

char *probe_find_library(const char *lib, int pid)
{
	char *r;

	if (strchr(lib, '/')) {
		char in_ns[4200];

		/* a path of -p's mount namespace (a container's), seen through
		 * /proc/PID/root: kept as it is, realpath would leave that root */
		if (access(lib, R_OK) != 0 && pid > 0 && *lib == '/' &&
		    snprintf(in_ns, sizeof(in_ns), "/proc/%d/root%s", pid, lib) < (int)sizeof(in_ns) &&
		    access(in_ns, R_OK) == 0)
			return xstrdup(in_ns);
		if (access(lib, R_OK) != 0) {
			err_sys(errno, "cannot read %s", lib);
			return NULL;
		}
		r = strncmp(lib, "/proc/", 6) ? realpath(lib, NULL) : NULL;
		return r ? r : xstrdup(lib);
	}
	if (pid > 0 && (r = maps_find(lib, pid)))
		return r;
	if ((r = ldcache_find(lib)))
		return r;
	{
		const char *path = getenv("PATH");
		char buf[4096];

		if (!path)
			path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
		while (*path) {
			size_t n = strcspn(path, ":");

			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, lib);
			if (n && access(buf, X_OK) == 0 && is_elf_file(buf))
				return xstrdup(buf);
			path += n + (path[n] == ':');
		}
	}
	err_set(ENOENT, "unable to find library %s", lib);
	return NULL;
}

/* File offset of virtual address v through the PT_LOAD holding it. */
static int vaddr_to_off(const struct elf_view *ev, uint64_t v, uint64_t *off)
{
	for (size_t i = 0; i < ev->phnum; i++) {
		const Elf64_Phdr *ph = &ev->phdrs[i];

		if (ph->p_type == PT_LOAD && v >= ph->p_vaddr && v < ph->p_vaddr + ph->p_memsz) {
			*off = v - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* A user binary mapped for its symbols or notes, with the probe's name
 * pattern compiled: what user functions and USDT probes both start from. */
struct ubin {
	char *path;
	const void *data;
	size_t size;
	struct elf_view ev;
	struct matcher m;
};

/* Map path (owned from here on: freed by ubin_close, or now on failure)
 * and compile s->func.  0 or -errno (named_err: the message names the
 * path when the file is no ELF or the pattern is bad). */
static int ubin_open(struct ubin *b, char *path, const struct spec *s, const struct resolve_opts *o, bool named_err)
{
	int err;

	b->path = path;
	if (!path)
		return -ENOENT;
	if ((err = elf_map_file(path, &b->data, &b->size)) < 0) {
		free(path);
		return err;
	}
	if ((err = elf_open(&b->ev, b->data, b->size)) < 0 || (err = match_compile(&b->m, s->func, o->regex)) < 0) {
		elf_unmap_file(b->data, b->size);
		if (named_err)
			err_prefix(err, "%s", path);
		free(path);
		return err;
	}
	return 0;
}

/* Unmap, free; returns err. */
static int ubin_close(struct ubin *b, int err)
{
	match_free(&b->m);
	elf_unmap_file(b->data, b->size);
	free(b->path);
	return err;
}

/* The separate debug file of binary ev at path, where gdb and bcc (and
 * so bpftrace) look for it (elf_debug_files).  Debian's libc6-dbg puts
 * there the static functions (malloc_consolidate...) that libc's .dynsym
 * lacks.  Malloc'd, or NULL. */
static int debug_readable(void *ctx, const char *cand, int check_crc, uint32_t crc)
{
	/* (bcc also checks the link's CRC; a stale file of that name next
	 * to the binary is not worth reading every byte of the file for) */
	if (access(cand, R_OK) < 0)
		return 0;
	*(char **)ctx = xstrdup(cand);
	return 1;
}

static char *debug_file(const struct elf_view *ev, const char *path)
{
	char *found = NULL;

	elf_debug_files(ev, path, debug_readable, &found);
	return found;
}

struct ufunc_scan {
	const struct spec *s;
	const struct resolve_opts *o;
	const struct ubin *b;
	bool is_return, thumb;
	struct loc **locs;
	int *n;
};

/* The functions of ev's symbol tables of type `type` matching the
 * pattern (addresses translated through the binary's own segments). */
static int ufunc_scan(struct ufunc_scan *w, const struct elf_view *ev, unsigned type)
{
	for (size_t i = 1; i < ev->shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(ev, i);
		struct elf_symtab st;

		if (sh->sh_type != type || elf_symtab(ev, sh, &st) < 0)
			continue;
		for (size_t k = 1; k < st.count; k++) {
			const Elf64_Sym *sym = elf_sym(&st, k);
			const char *name = elf_sym_name(&st, sym);
			uint64_t off;
			bool dup = false;
			struct loc *l;

			if ((ELF64_ST_TYPE(sym->st_info) != STT_FUNC && ELF64_ST_TYPE(sym->st_info) != STT_GNU_IFUNC) ||
			    sym->st_shndx == SHN_UNDEF || !sym->st_value || !*name || !match(&w->b->m, name))
				continue;
			/* bpftrace leaves out the .part.N clones a wildcard matches */
			if (w->o->every_name && has_wild(w->s->func) && strstr(name, ".part."))
				continue;
			/* a Thumb match is left out; only Thumb ones: said why */
			if (vaddr_to_off(&w->b->ev, sym->st_value, &off) < 0)
				continue;
			if (elf_uprobe_sym_ok(ev, sym, name) < 0) {
				w->thumb = true;
				continue;
			}
			/* bcc: one location per address; bpftrace: per name (sorted
			 * and made unique at the end) */
			for (int j = 0; j < *w->n && !w->o->every_name; j++)
				if ((*w->locs)[j].off == off + w->s->offset || !strcmp((*w->locs)[j].name, name))
					dup = true;
			if (dup)
				continue;
			if (w->o->limit && *w->n >= w->o->limit && !w->o->every_name)
				return -E2BIG;
			l = add_loc(w->locs, w->n);
			l->mech = w->is_return ? M_URETPROBE : M_UPROBE;
			l->is_return = w->is_return;
			l->user = true;
			l->name = xstrdup(name);
			l->target = xstrdup(w->b->path);
			l->off = off + w->s->offset;
		}
	}
	return 0;
}

static int loc_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct loc *)a)->name, ((const struct loc *)b)->name);
}

static int resolve_ufunc(const struct spec *s, const struct resolve_opts *o, bool is_return, struct loc **locs,
			 int *n)
{
	char *path;
	struct ubin b;
	struct ufunc_scan w = { s, o, &b, is_return, false, locs, n };
	int err;

	if (!*s->lib && o->pid > 0) {
		char exe[64];

		snprintf(exe, sizeof(exe), "/proc/%d/exe", o->pid);
		path = realpath(exe, NULL);
	} else {
		path = probe_find_library(s->lib, o->pid);
	}
	if ((err = ubin_open(&b, path, s, o, true)) < 0)
		return err;
	/* bcc: .symtab, else .dynsym; bpftrace: both and the debug file's */
	if ((err = ufunc_scan(&w, &b.ev, SHT_SYMTAB)) == 0 && (!*n || o->every_name))
		err = ufunc_scan(&w, &b.ev, SHT_DYNSYM);
	if (!err && o->every_name) {
		char *dpath = debug_file(&b.ev, b.path);
		/* (a Thumb refusal's reason outlives the debug file's errors) */
		char *thumb = w.thumb ? xstrdup(err_msg()) : NULL;
		const void *m;
		size_t msize;
		struct elf_view dv;

		if (dpath && elf_map_file(dpath, &m, &msize) == 0) {
			if (elf_open(&dv, m, msize) == 0)
				err = ufunc_scan(&w, &dv, SHT_SYMTAB);
			elf_unmap_file(m, msize);
		}
		err_clear();
		if (thumb)
			err_set(ENOTSUP, "%s", thumb);
		free(thumb);
		free(dpath);
		qsort(*locs, (size_t)*n, sizeof(**locs), loc_name_cmp);
		int u = 0;

		for (int i = 0; i < *n; i++) {
			if (u && !strcmp((*locs)[u - 1].name, (*locs)[i].name)) {
				free((*locs)[i].name);
				free((*locs)[i].target);
				continue;
			}
			(*locs)[u++] = (*locs)[i];
		}
		*n = u;
		if (o->limit && *n > o->limit)
			err = -E2BIG;
	}
	if (err == -E2BIG)
		err = err_set(E2BIG, "maximum of %d probes allowed, pattern %s matches more", o->limit, s->func);
	else if (!*n)
		err = w.thumb ? err_prefix(-ENOTSUP, "%s", path)
			      : err_set(ENOENT, "no function in %s matches '%s'", path, s->func);
	return ubin_close(&b, err);
}

/* The function of binary lib named name, or (name NULL) the one holding
 * virtual address addr: its name, address and size.  0 or -ENOENT. */
int probe_ufunc_find(const char *lib, int pid, const char *name, uint64_t addr, char *out, size_t size,
		     uint64_t *start, uint64_t *len)
{
	struct spec s = { .func = (char *)"*" };
	struct resolve_opts o = { 0 };
	struct ubin b;
	int err = -ENOENT;

	if (ubin_open(&b, probe_find_library(lib, pid), &s, &o, false) < 0)
		return -ENOENT;
	for (size_t i = 1; i < b.ev.shnum && err; i++) {
		const Elf64_Shdr *sh = elf_shdr(&b.ev, i);
		struct elf_symtab st;

		if ((sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) || elf_symtab(&b.ev, sh, &st) < 0)
			continue;
		for (size_t k = 1; k < st.count && err; k++) {
			const Elf64_Sym *sym = elf_sym(&st, k);
			const char *nm = elf_sym_name(&st, sym);

			if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF || !sym->st_value || !*nm ||
			    (name ? strcmp(nm, name) != 0
				  : addr < sym->st_value || addr - sym->st_value >= (sym->st_size ? sym->st_size : 1)))
				continue;
			snprintf(out, size, "%s", nm);
			*start = sym->st_value;
			*len = sym->st_size;
			err = 0;
		}
	}
	err_clear();
	return ubin_close(&b, err);
}

/* ---- USDT ---- */

/* Operands are decoded by tools/probe/arch.c, in the syntax of the
 * architecture corebox runs on (x86 "-4@-12(%rbp)", arm64 "-4@[x29, -12]"). */
static void usdt_from_arch(const struct arch_usdt_arg *x, struct usdt_arg *a)
{
	memset(a, 0, sizeof(*a));
	a->size = (uint8_t)x->size;
	a->sign = x->is_signed;
	a->reg = (int16_t)x->reg_off;
	a->idx = (int16_t)x->idx_reg_off;
	a->val = x->val_off;
	a->kind = x->kind == ARCH_USDT_CONST ? UA_CONST : x->kind == ARCH_USDT_REG ? UA_REG : UA_MEM;
	if (x->kind == ARCH_USDT_SIB)
		a->scale = (uint8_t)(1u << x->scale_shift);
}

int usdt_arg_parse(const char *s, struct usdt_arg *a)
{
	struct arch_usdt_arg x;
	const char *p = s;
	int err = arch_usdt_arg_parse(ARCH_HOST, &p, &x);

	if (err)
		return err;
	if (*p)
		return err_set(EINVAL, "USDT argument '%s': one argument expected", s);
	usdt_from_arch(&x, a);
	return 0;
}

/* The probe's argument string into l->uargs; an operand corebox cannot
 * read becomes size 0 (reading that argument fails at compile time).
 * Arguments are separated by blanks, but arm64's "[x1, 8]" holds one. */
static void usdt_args(struct loc *l, const char *args)
{
	const char *p = args;

	for (;;) {
		struct arch_usdt_arg x;
		struct usdt_arg *a;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return;
		l->uargs = xrealloc(l->uargs, (size_t)(l->nuargs + 1) * sizeof(*l->uargs));
		a = &l->uargs[l->nuargs++];
		if (arch_usdt_arg_parse(ARCH_HOST, &p, &x) == 0) {
			usdt_from_arch(&x, a);
			continue;
		}
		memset(a, 0, sizeof(*a));
		a->kind = UA_CONST;
		a->reg = a->idx = -1;
		err_clear();
		for (int depth = 0; *p && (depth || (*p != ' ' && *p != '\t')); p++)
			depth += (*p == '[') - (*p == ']');
	}
}

struct usdt_want {
	const struct spec *s;
	const struct resolve_opts *o;
	struct ubin *b;
	struct loc **locs;
	int *n;
};

static int usdt_loc(void *ctx, const struct usdt_note *note)
{
	struct usdt_want *w = ctx;
	struct loc *l;
	uint64_t off, soff = 0;

	if (!match(&w->b->m, note->name) || (w->s->provider && !glob_match(w->s->provider, note->provider)))
		return 0;
	if (vaddr_to_off(&w->b->ev, note->pc, &off) < 0)
		return 0;
	/* a Thumb site refuses the probe: leaving it out would count some sites only */
	if (usdt_uprobe_ok(&w->b->ev, w->b->path, note, off) < 0)
		return -ENOTSUP;
	if (note->sema && vaddr_to_off(&w->b->ev, note->sema, &soff) < 0)
		soff = 0;
	if (w->o->limit && *w->n >= w->o->limit)
		return err_set(E2BIG, "maximum of %d probes allowed", w->o->limit);
	l = add_loc(w->locs, w->n);
	l->mech = M_UPROBE;
	l->user = true;
	l->usdt = true;
	l->name = xstrdup(note->name);
	l->provider = xstrdup(note->provider);
	l->target = xstrdup(w->b->path);
	l->off = off;
	l->ref_ctr = soff;
	usdt_args(l, note->args);
	return 0;
}

static int resolve_usdt(const struct spec *s, const struct resolve_opts *o, struct loc **locs, int *n)
{
	char *path = probe_find_library(s->lib, o->pid);
	struct ubin b;
	struct usdt_want w = { s, o, &b, locs, n };
	int err;

	if ((err = ubin_open(&b, path, s, o, false)) < 0)
		return err;
	if ((err = usdt_notes(&b.ev, b.path, usdt_loc, &w)) < 0)
		return ubin_close(&b, err);
	if (!*n)
		err = err_set(ENOENT, "no USDT probe in %s matches '%s'", b.path, s->func);
	return ubin_close(&b, err);
}

int probe_resolve(const struct spec *s, const struct resolve_opts *o, bool is_return, struct loc **locs, int *n)
{
	int err;

	*locs = NULL;
	*n = 0;
	if (s->type == 't')
		err = resolve_tp(s, o, locs, n);
	else if (s->type == 'u')
		err = resolve_usdt(s, o, locs, n);
	else if (!*s->lib)
		err = resolve_kfunc(s, o, is_return, locs, n);
	else
		err = resolve_ufunc(s, o, is_return, locs, n);
	if (err < 0) {
		locs_free(*locs, *n);
		*locs = NULL;
		*n = 0;
	}
	return err;
}
