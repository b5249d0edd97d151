/* Generated programs -> the loader's object model: one program per
 * location, loaded and attached through the same paths as the embedded
 * objects (loader/gen.c). */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "tools/common/common.h"

void loc_section(const struct loc *l, char *buf, size_t size)
{
	switch (l->mech) {
	case M_TP: snprintf(buf, size, "tracepoint/%s", l->target); break;
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
	}
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

int build_load_attach(struct obj *o, const char *tool, const char *what, int *attached)
{
	struct obj_opts opts = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
	size_t n = 0, ok = 0;
	int err, first_err = 0;
	char first_msg[512] = "";

	while (obj_prog_at(o, n))
		n++;
	raise_nofile(n * 3);
	err = obj_load(o, &opts);
	if (err < 0) {
		tool_err(tool, "%s", err_msg());
		return err;
	}
	for (size_t i = 0; i < n; i++) {
		struct prog *p = obj_prog_at(o, i);

		if (prog_attach(p) < 0) {
			if (!first_err) {
				first_err = -EINVAL;
				snprintf(first_msg, sizeof(first_msg), "%s", err_msg());
			}
			if (tool_common.verbose)
				tool_err(tool, "%s", err_msg());
			if (strstr(err_msg(), "Too many open files")) {
				tool_err(tool, "%s (raise the open-file limit: ulimit -n)", err_msg());
				return -EMFILE;
			}
			continue;
		}
		ok++;
	}
	if (!ok) {
		tool_err(tool, "cannot attach %s: %s", what, first_msg);
		return first_err ? first_err : -ENOENT;
	}
	if (ok < n && !tool_common.verbose)
		tool_err(tool, "warning: %zu of %zu probes could not be attached (first: %s)", n - ok, n, first_msg);
	if (attached)
		*attached = (int)ok;
	return 0;
}

int build_probe_error(const char *tool, const struct spec *s, struct gen *g)
{
	int pos = gen_errpos(g);

	if (pos >= 0) {
		spec_report(tool, s->text, pos, err_msg());
		return 2;
	}
	tool_err(tool, "probe '%s': %s", s->text, err_msg());
	return 1;
}
