/* Generated programs -> the loader's object model: one program per
 * location, loaded and attached through the same paths as the embedded
 * objects (loader/gen.c). */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "tools/probe/arch.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"

struct multi;
static struct multi *multi_of(struct obj *o, int i);
static size_t multi_attach_obj(struct obj *o, const char *tool, size_t *probes, int *first_err, char *first_msg,
			       size_t size);

void loc_section(const struct loc *l, char *buf, size_t size)
{
	const char *slash;

	switch (l->mech) {
	case M_TP: snprintf(buf, size, "tracepoint/%s", l->target); break;
	case M_RAW_TP:
		slash = strchr(l->target, '/');
		snprintf(buf, size, "raw_tp/%s", slash ? slash + 1 : l->target);
		break;
	case M_SYSCALL: snprintf(buf, size, "raw_tp"); break; /* a tail-call target */
	case M_FENTRY: snprintf(buf, size, "fentry/%s", l->target); break;
	case M_FEXIT: snprintf(buf, size, "fexit/%s", l->target); break;
	case M_KPROBE:
		if (l->off)
			snprintf(buf, size, "kprobe/%s+%llu", l->target, (unsigned long long)l->off);
		else
			snprintf(buf, size, "kprobe/%s", l->target);
		break;
	case M_KRETPROBE: snprintf(buf, size, "kretprobe/%s", l->target); break;
	case M_UPROBE: snprintf(buf, size, "uprobe/%s:0x%llx", l->target, (unsigned long long)l->off); break;
	case M_URETPROBE: snprintf(buf, size, "uretprobe/%s:0x%llx", l->target, (unsigned long long)l->off); break;
	case M_PERF: snprintf(buf, size, "perf_event"); break;
	case M_RUN: snprintf(buf, size, "raw_tp"); break;
	}
}

/* Syscall probes (M_SYSCALL).  Their programs load as tail-call
 * targets; one dispatcher program per direction attaches to
 * raw_syscalls:sys_enter/sys_exit and tail-calls the program of the
 * syscall number from a program array.  A second probe on the same
 * syscall (trace 'sys_read' 'sys_read "%d", arg3') goes to a second
 * layer: another array and dispatcher.  So 360 syscall events cost two
 * raw tracepoint links instead of 360 perf events, each of which waits for
 * an RCU grace period when it is closed. */
#define SC_LAYERS 8

struct sc_prog {
	int prog, nr, layer;
	bool exit;
};

static struct {
	struct obj *o;
	struct sc_prog *p;
	int n;
	int map[2][SC_LAYERS], disp[2][SC_LAYERS];
} sc;


static int sc_note(struct obj *o, const struct loc *l, int prog)
{
	int layer = 0;

	if (sc.o != o) {
		free(sc.p);
		memset(&sc, 0, sizeof(sc));
		sc.o = o;
	}
	for (int i = 0; i < sc.n; i++)
		if (sc.p[i].nr == l->sc_nr && sc.p[i].exit == l->is_return)
			layer++;
	if (layer >= SC_LAYERS)
		return err_set(E2BIG, "more than %d probes on syscall %s", SC_LAYERS, l->name);
	sc.p = xrealloc(sc.p, (size_t)(sc.n + 1) * sizeof(*sc.p));
	sc.p[sc.n++] = (struct sc_prog){ .prog = prog, .nr = l->sc_nr, .layer = layer, .exit = l->is_return };
	return 0;
}

/* The dispatchers and their arrays (before load). */
static int sc_dispatchers(struct obj *o)
{
	if (sc.o != o)
		return 0;
	for (int d = 0; d < 2; d++)
		for (int layer = 0; layer < SC_LAYERS; layer++) {
			int max = -1, map, idx;
			char name[32], sec[32];
			struct emit e;

			sc.map[d][layer] = sc.disp[d][layer] = -1;
			for (int i = 0; i < sc.n; i++)
				if (sc.p[i].exit == d && sc.p[i].layer == layer && sc.p[i].nr > max)
					max = sc.p[i].nr;
			if (max < 0)
				continue;
			snprintf(name, sizeof(name), "sc_%s_%d", d ? "exit" : "enter", layer);
			map = obj_new_map(o, name, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, (uint32_t)max + 1, 0);
			if (map < 0)
				return map;
			emit_init(&e);
			emit_mov(&e, R6, R1);
			if (d) { /* sys_exit(regs, ret): the number from the saved registers */
				unsigned size;
				int off = arch_syscall_nr_offset(ARCH_HOST, &size);

				emit_st(&e, 8, R10, -8, -1);
				emit_ldx(&e, 8, R3, R6, 0);
				emit_alui(&e, BPF_ADD, R3, off);
				emit_mov(&e, R1, R10);
				emit_alui(&e, BPF_ADD, R1, -8);
				emit_movi(&e, R2, (int32_t)size);
				emit_call(&e, BPF_FUNC_probe_read_kernel);
				emit_ldx(&e, (int)size, R3, R10, -8);
			} else { /* sys_enter(regs, id) */
				emit_ldx(&e, 8, R3, R6, 8);
			}
			emit_mov(&e, R1, R6);
			emit_ldmap(&e, R2, map);
			emit_call(&e, BPF_FUNC_tail_call);
			emit_movi(&e, R0, 0);
			emit_exit(&e);
			if (emit_finish(&e) < 0) {
				emit_free(&e);
				return -EINVAL;
			}
			snprintf(sec, sizeof(sec), "raw_tp/%s", d ? "sys_exit" : "sys_enter");
			idx = obj_new_prog(o, name, sec, e.insns, e.cnt, e.maps, e.nr_maps,
					   d ? "raw_syscalls:sys_exit" : "raw_syscalls:sys_enter");
			emit_free(&e);
			if (idx < 0)
				return idx;
			sc.map[d][layer] = map;
			sc.disp[d][layer] = idx;
		}
	return 0;
}

/* After load: every syscall program into its slot. */
static int sc_fill(struct obj *o)
{
	for (int i = 0; sc.o == o && i < sc.n; i++) {
		const struct sc_prog *p = &sc.p[i];
		int fd = map_fd(obj_map_at(o, (size_t)sc.map[p->exit][p->layer]));
		uint32_t key = (uint32_t)p->nr, val = (uint32_t)prog_fd(obj_prog_at(o, (size_t)p->prog));

		if (prog_fd(obj_prog_at(o, (size_t)p->prog)) < 0 || fd < 0)
			continue; /* refused at load (keep_going): counted as not attached */
		if (bpf_map_update(fd, &key, &val, 0) < 0)
			return err_sys(errno, "cannot put a syscall probe in its dispatch table");
	}
	return 0;
}

static bool sc_is_dispatcher(struct obj *o, int idx)
{
	for (int d = 0; sc.o == o && d < 2; d++)
		for (int l = 0; l < SC_LAYERS; l++)
			if (sc.disp[d][l] == idx)
				return true;
	return false;
}

/* A syscall program: its dispatcher's program index; -1 for others. */
static int sc_dispatcher_of(struct obj *o, int idx)
{
	for (int i = 0; sc.o == o && i < sc.n; i++)
		if (sc.p[i].prog == idx)
			return sc.disp[sc.p[i].exit][sc.p[i].layer];
	return -1;
}

int build_add(struct obj *o, const struct loc *l, struct gen *g, const char *label, int pid)
{
	struct emit *e = gen_emit(g);
	char sec[1200], name[16];
	int err, idx;
	static unsigned seq;

	if ((err = emit_finish(e)) < 0)
		return err;
	loc_section(l, sec, sizeof(sec));
	snprintf(name, sizeof(name), "cbx_%u", seq++);
	idx = obj_new_prog(o, name, sec, e->insns, e->cnt, e->maps, e->nr_maps, label);
	if (idx < 0)
		return idx;
	if (l->mech == M_SYSCALL && (err = sc_note(o, l, idx)) < 0)
		return err;
	if (l->user) {
		struct prog *p = obj_prog_at(o, (size_t)idx);

		if (pid > 0)
			prog_set_uprobe_pid(p, pid);
		if (l->ref_ctr)
			prog_set_ref_ctr(p, l->ref_ctr);
	}
	return idx;
}

/* Many probes: each holds a program, a perf event and a link. */
static void raise_nofile(size_t want)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < want + 64) {
		r.rlim_cur = r.rlim_max < want + 64 ? r.rlim_max : want + 64;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/* One program attached (0), or a failure noted in *first (-EMFILE: stop). */
static int attach_one(struct prog *p, const char *tool, int *first_err, char *first_msg, size_t size)
{
	if (prog_load_error(p)) { /* refused at load */
		if (!*first_err) {
			*first_err = -EINVAL;
			snprintf(first_msg, size, "%s", prog_load_error(p));
		}
		if (tool_common.verbose)
			tool_err(tool, "%s", prog_load_error(p));
		return -EINVAL;
	}
	if (prog_attach(p) == 0)
		return 0;
	if (!*first_err) {
		*first_err = -EINVAL;
		snprintf(first_msg, size, "%s", err_msg());
	}
	if (tool_common.verbose)
		tool_err(tool, "%s", err_msg());
	if (strstr(err_msg(), "Too many open files")) {
		tool_err(tool, "%s (raise the open-file limit: ulimit -n)", err_msg());
		return -EMFILE;
	}
	return -EINVAL;
}

/* obj_load names the object in its messages ("argdist: program ..."), and
 * the tools name their object after themselves: say the name once.  Such
 * a message is lib/err.c's, escaped there, a verifier log keeping its
 * lines: printed as it is (tool_err would escape those line ends). */
static void load_error(const char *tool)
{
	const char *m = err_msg();
	size_t n = strlen(tool);

	if (!strncmp(m, tool, n) && m[n] == ':' && m[n + 1] == ' ') {
		fflush(stdout);
		fprintf(stderr, "%s\n", m);
		return;
	}
	tool_err(tool, "%s", m);
}

uint32_t build_log_level;

int build_load(struct obj *o, const char *tool)
{
	/* one function the kernel will not let a program on (a deny list, a
	 * prototype its trampolines cannot take) costs that probe, not all */
	struct obj_opts opts = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose, .keep_going = true,
				 .log_level = build_log_level };
	size_t n = 0;
	int err;

	if ((err = sc_dispatchers(o)) < 0) {
		tool_err(tool, "%s", err_msg());
		return err;
	}
	while (obj_prog_at(o, n))
		n++;
	raise_nofile(n * 3);
	err = obj_load(o, &opts);
	if (!err)
		err = sc_fill(o);
	if (err < 0) {
		load_error(tool);
		return err;
	}
	return 0;
}

int build_load_attach(struct obj *o, const char *tool, const char *what, int *attached)
{
	int err = build_load(o, tool);

	return err < 0 ? err : build_attach(o, tool, what, attached);
}

#define NEWEST_FIRST                                                                                      \
	(1u << ATTACH_KPROBE | 1u << ATTACH_UPROBE | 1u << ATTACH_URETPROBE | 1u << ATTACH_USDT |        \
	 1u << ATTACH_FENTRY)

int build_attach(struct obj *o, const char *tool, const char *what, int *attached)
{
	size_t n = 0, probes = 0, ok = 0;
	int err, first_err = 0;
	char first_msg[512] = "";

	while (obj_prog_at(o, n))
		n++;
	/* the dispatchers first: a syscall probe is attached when its
	 * dispatcher is */
	for (size_t i = 0; i < n; i++)
		if (sc_is_dispatcher(o, (int)i) &&
		    attach_one(obj_prog_at(o, i), tool, &first_err, first_msg, sizeof(first_msg)) == -EMFILE)
			return -EMFILE;
	/* The kernel runs the programs on one kprobe, uprobe or fentry newest
	 * first and those on a tracepoint oldest first: the former are
	 * attached last to first, so every kind runs in the order given
	 * (bpftrace's blocks run in program order) */
	for (size_t k = 0; k < 2 * n; k++) {
		size_t i = k < n ? k : 2 * n - 1 - k;
		unsigned kind = prog_kind(obj_prog_at(o, i));
		int disp = sc_dispatcher_of(o, (int)i);

		/* Ctrl-C while attaching: each probe attached now costs the
		 * kernel's grace periods again at the detach (6.1: 70-170 ms
		 * each under emulation), so stop here */
		if (tool_exiting)
			break;
		if (sc_is_dispatcher(o, (int)i) || multi_of(o, (int)i) || (k < n) == !!(NEWEST_FIRST >> kind & 1))
			continue;
		probes++;
		if (disp >= 0) {
			if (prog_load_error(obj_prog_at(o, i)))
				attach_one(obj_prog_at(o, i), tool, &first_err, first_msg, sizeof(first_msg));
			else
				ok += prog_mechanism(obj_prog_at(o, (size_t)disp))[0] != 0;
			continue;
		}
		err = attach_one(obj_prog_at(o, i), tool, &first_err, first_msg, sizeof(first_msg));
		if (err == -EMFILE)
			return err;
		ok += err == 0;
	}
	ok += multi_attach_obj(o, tool, &probes, &first_err, first_msg, sizeof(first_msg));
	if (!ok && !tool_exiting) {
		tool_err(tool, "cannot attach %s: %s", what, first_msg);
		return first_err ? first_err : -ENOENT;
	}
	if (ok < probes && !tool_common.verbose && !tool_exiting)
		tool_err(tool, "warning: %zu of %zu probes could not be attached (first: %s)", probes - ok, probes,
			 first_msg);
	if (attached)
		*attached = (int)ok;
	return 0;
}

int build_finish(struct obj *o, int rc, const char *tool, const char *what, int *attached)
{
	probe_kernel_btf_release();
	if (!rc && build_load_attach(o, tool, what, attached) < 0)
		rc = 1;
	return rc;
}

int build_probe_error(const char *tool, const struct spec *s, struct gen *g)
{
	int pos = gen_errpos(g);

	if (pos >= 0) {
		spec_report(tool, s->text, pos, err_msg());
		return 2;
	}
	build_probe_msg(tool, s->text, err_msg());
	return 1;
}

/* The text is escaped here, before tool_err, which keeps newlines (for
 * its callers' multi-line messages): a newline typed into a probe must
 * not forge a second line, and msg (err_msg: escaped already) must not
 * be escaped twice. */
void build_probe_msg(const char *tool, const char *text, const char *msg)
{
	char shown[512];

	tool_err(tool, "probe '%s': %s", str_escape(shown, sizeof(shown), text, ""), msg);
}

/* ---- one program on many kernel functions ---- */

/* Every location a kernel function's entry (fentry or kprobe, no offset),
 * or every one its return (fexit, kretprobe: the kprobe_multi link's
 * return flag; in a legacy kretprobe bpf_get_func_ip gives the
 * function's entry too, as the kretprobe's kprobe is the one running):
 * the programs differ in nothing but which function they are on. */
static bool multi_fits(const struct loc *locs, int n)
{
	bool ret = locs[0].is_return;

	if (n < 2 || probe_disabled("kprobe"))
		return false;
	for (int i = 0; i < n; i++)
		if (locs[i].is_return != ret || locs[i].off ||
		    (ret ? locs[i].mech != M_FEXIT && locs[i].mech != M_KRETPROBE
			 : locs[i].mech != M_FENTRY && locs[i].mech != M_KPROBE))
			return false;
	return true;
}

/* A program on many kernel functions: its kprobe_multi and legacy
 * group variants (-1: none), the group's hash addr -> i, and what the
 * attach takes: the functions by name with their index (the init code
 * freed after boot left out) and every function's address. */
static struct multi {
	struct obj *o;
	int prog[2], ipmap;
	const char **syms;
	uint64_t *cookies, *addrs;
	size_t k;
} *mu;
static int nmu;

/* One variant's program into o (by_ip: the legacy group's). */
static int multi_gen(struct obj *o, struct multi *m, const struct loc *locs, const struct spec *s,
		     const struct cg_opts *co, bool by_ip, bool want_index, build_body_fn body, void *ctx)
{
	struct loc kl = locs[0];
	struct emit *e;
	struct gen *g;
	int out, idx = 0, err;

	if (by_ip && m->ipmap < 0 &&
	    (m->ipmap = obj_new_map(o, "cbx_ips", BPF_MAP_TYPE_HASH, 8, 4, (uint32_t)m->k + 1, 0)) < 0)
		return m->ipmap;
	kl.mech = kl.is_return ? M_KRETPROBE : M_KPROBE;
	g = gen_new(&kl, s, co);
	e = gen_emit(g);
	out = gen_begin(g);
	if (want_index) {
		idx = gen_stack(g, 8);
		emit_mov(e, R1, R6);
		emit_call(e, by_ip ? BPF_FUNC_get_func_ip : BPF_FUNC_get_attach_cookie);
		emit_stx(e, 8, R10, (int16_t)idx, R0);
		if (by_ip) {
			gen_lookup(g, m->ipmap, idx, out);
			emit_ldx(e, 4, R1, R0, 0);
			emit_stx(e, 4, R10, (int16_t)idx, R1);
		}
	}
	if ((err = body(o, g, out, idx, ctx)) >= 0) {
		gen_end(g, out);
		if ((err = emit_finish(e)) >= 0)
			err = m->prog[by_ip] = obj_new_prog(o, by_ip ? "cbx_group" : "cbx_multi",
							   by_ip ? (kl.is_return ? "kretprobe" : "kprobe")
								 : (kl.is_return ? "kretprobe.multi" : "kprobe.multi"),
							   e->insns, e->cnt, e->maps, e->nr_maps, s ? s->text : locs[0].name);
	}
	gen_free(g);
	return err;
}

/* A new record for o (addrs taken over: build_func_addrs(locs, n)). */
static struct multi *multi_new(struct obj *o, const struct loc *locs, int n, uint64_t *addrs)
{
	struct multi *m;

	mu = xrealloc(mu, (size_t)(nmu + 1) * sizeof(*mu));
	m = &mu[nmu++];
	*m = (struct multi){ o, { -1, -1 }, -1, xcalloc((size_t)n, sizeof(char *)), xcalloc((size_t)n, 8), addrs, 0 };
	/* not the init code freed after boot (kallsyms still lists it): the
	 * kernel refuses a kprobe_multi link with a function ftrace cannot
	 * trace.  By address: each function known and named once (two probes
	 * on one address would run the program twice). */
	for (int i = 0; i < n; i++)
		if (addrs[i] < addrs[n] || addrs[i] >= addrs[n + 1]) {
			m->syms[m->k] = locs[i].target;
			m->cookies[m->k++] = (uint64_t)i;
		}
	return m;
}

/* After load: the variant v attached (functions attached) or -errno. */
static int multi_attach(struct multi *m, int v)
{
	struct prog *p = obj_prog_at(m->o, (size_t)m->prog[v]);
	int err = 0;

	if (m->prog[v] < 0)
		return -ENOENT;
	if (prog_load_error(p))
		return err_set(EINVAL, "%s", prog_load_error(p));
	for (size_t i = 0; v && i < m->k && err >= 0; i++) {
		uint32_t c = (uint32_t)m->cookies[i];

		err = m->addrs[c] ? bpf_map_update(map_fd(obj_map_at(m->o, (size_t)m->ipmap)), &m->addrs[c], &c, BPF_NOEXIST)
				  : err_set(ENOENT, "no address for %s", m->syms[i]);
	}
	return err < 0 ? err : prog_attach_kprobes(p, m->syms, m->cookies, m->k);
}

/* The first variant the kernel takes, attached (functions, or -errno) */
static int multi_attach_any(struct multi *m, const char *tool)
{
	int r = -ENOENT;

	for (int v = 0; v < 2 && r < 0; v++)
		if (m->prog[v] >= 0 && (r = multi_attach(m, v)) < 0 && tool_common.verbose)
			tool_err(tool, "one program for all functions (%s): %s", v ? "kprobe group" : "kprobe_multi",
				 err_msg());
	return r;
}

/* build_multi_add's programs of o attached, one step each: how many;
 * *probes counts them, a failure noted in *first_err. */
static size_t multi_attach_obj(struct obj *o, const char *tool, size_t *probes, int *first_err, char *first_msg,
			       size_t size)
{
	size_t ok = 0;

	for (int r = 0; r < nmu && !tool_exiting; r++) {
		if (mu[r].o != o)
			continue;
		++*probes;
		if (multi_attach_any(&mu[r], tool) >= 0)
			ok++;
		else if (!*first_err) {
			*first_err = -EINVAL;
			snprintf(first_msg, size, "%s", err_msg());
		}
	}
	return ok;
}

static bool multi_fits_here(const struct loc *locs, int n, bool *kmulti, bool *group)
{
	if (!multi_fits(locs, n))
		return false;
	*kmulti = !probe_disabled("kprobe_multi");
	*group = !probe_disabled("kprobe_group") && probe_kprobe_legacy();
	/* a kernel without bpf_get_func_ip in kprobes (before 5.15) has no
	 * kprobe_multi links either (5.18): one program per function there,
	 * decided before anything is loaded (bpftrace's object is one) */
	return (*kmulti || *group) && probe_kprobe_func_ip();
}

/* Is program i of o a variant of a multi record (the record, else NULL)? */
static struct multi *multi_of(struct obj *o, int i)
{
	for (int r = 0; r < nmu; r++)
		if (mu[r].o == o && (mu[r].prog[0] == i || mu[r].prog[1] == i))
			return &mu[r];
	return NULL;
}

int build_multi_add(struct obj *o, const struct loc *locs, int n, const struct spec *s, const struct cg_opts *co,
		    build_body_fn body, void *ctx)
{
	bool kmulti, group;
	struct multi *m;
	int err = 0;

	if (!multi_fits_here(locs, n, &kmulti, &group))
		return 1;
	m = multi_new(o, locs, n, build_func_addrs(locs, n));
	if (kmulti)
		err = multi_gen(o, m, locs, s, co, false, true, body, ctx);
	if (group && err >= 0)
		err = multi_gen(o, m, locs, s, co, true, true, body, ctx);
	return err < 0 ? err : 0;
}

int build_multi_attached(struct obj *o, int nth)
{
	for (int r = 0; r < nmu; r++)
		for (int v = 0; mu[r].o == o && v < 2; v++)
			if (!nth && mu[r].prog[v] >= 0 && prog_mechanism(obj_prog_at(o, (size_t)mu[r].prog[v]))[0])
				return mu[r].prog[v];
			else if (v == 1 && mu[r].o == o)
				nth--;
	return -1;
}

uint64_t *build_func_addrs(const struct loc *locs, int n)
{
	const char **names = xcalloc((size_t)n + 2, sizeof(*names));
	uint64_t *addrs = xcalloc((size_t)n + 2, sizeof(*addrs));

	for (int i = 0; i < n; i++)
		names[i] = locs[i].target;
	names[n] = "_sinittext";
	names[n + 1] = "_einittext";
	ksym_addrs(names, n + 2, addrs);
	free(names);
	return addrs;
}

int build_count_body(struct obj *o, struct gen *g, int out, int idx, void *ctx)
{
	struct build_counts *c = ctx;
	struct emit *e = gen_emit(g);

	if ((c->counts = obj_new_map(o, "counts", BPF_MAP_TYPE_ARRAY, 4, 8, (uint32_t)c->n, 0)) < 0)
		return c->counts;
	gen_lookup(g, c->counts, idx, out);
	emit_movi(e, R1, 1);
	emit_xadd(e, 8, R0, 0, R1);
	return 0;
}

/* funccount's way: an object of its own per variant, loaded and
 * attached at once (NULL: nothing left behind). */
static struct obj *multi_try(const char *tool, const struct loc *locs, int n, const uint64_t *addrs,
			     const struct spec *s, const struct cg_opts *co, bool by_ip, bool want_index,
			     build_body_fn body, void *ctx, int *attached)
{
	struct obj_opts opts = { .verbose = tool_common.verbose };
	struct obj *o = obj_new(tool);
	uint64_t *own = xmalloc(((size_t)n + 2) * 8);
	struct multi *m = multi_new(o, locs, n, memcpy(own, addrs, ((size_t)n + 2) * 8));
	int err = multi_gen(o, m, locs, s, co, by_ip, want_index, body, ctx);

	if (err >= 0 && (err = obj_load(o, &opts)) == 0)
		err = *attached = multi_attach(m, by_ip);
	if (err < 0) {
		if (tool_common.verbose)
			tool_err(tool, "one program for all functions (%s): %s", by_ip ? "kprobe group" : "kprobe_multi",
				 err_msg());
		err_clear();
		obj_close(o);
		o = NULL;
		free(m->syms); /* (the last record: dropped) */
		free(m->cookies);
		free(m->addrs);
		nmu--;
	}
	return o;
}

struct obj *build_multi(const char *tool, const struct loc *locs, int n, const uint64_t *addrs0, const struct spec *s,
			const struct cg_opts *co, bool want_index, build_body_fn body, void *ctx, int *attached)
{
	uint64_t *addrs = NULL;
	struct obj *o = NULL;
	bool kmulti, group;

	if (!multi_fits_here(locs, n, &kmulti, &group))
		return NULL;
	if (!addrs0)
		addrs0 = addrs = build_func_addrs(locs, n);
	if (kmulti)
		o = multi_try(tool, locs, n, addrs0, s, co, false, want_index, body, ctx, attached);
	if (!o && group)
		o = multi_try(tool, locs, n, addrs0, s, co, true, want_index, body, ctx, attached);
	if (o)
		probe_kernel_btf_release();
	free(addrs);
	return o;
}
