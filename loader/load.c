/* obj_load: the kernel-facing half of the pipeline, in libbpf's order:
 * kernel BTF (only if needed) -> attach targets -> externs -> CO-RE ->
 * program BTF -> maps -> per program: link subprograms, patch, load.
 *
 * Two kernel BTFs may be involved: the CO-RE target (--btf FILE, else the
 * kernel's) and the running kernel's own (/sys/kernel/btf/vmlinux), whose
 * ids the kernel wants for tp_btf/fentry targets and typed ksyms; they are
 * one and the same unless --btf is given.  Module BTFs (split on the
 * kernel's) are opened only when a type or target is not in vmlinux. */
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

/* Kernel BTF for something else than CO-RE: tp_btf/fentry/iter targets,
 * ksyms. */
static bool needs_kernel_btf_ids(const struct obj *o)
{
	for (size_t i = 0; i < o->nr_progs; i++)
		if (o->progs[i].autoload && prog_needs_kernel_btf(&o->progs[i]))
			return true;
	for (size_t i = 0; i < o->nr_exts; i++)
		if (!o->exts[i].is_kconfig)
			return true;
	return false;
}

static bool needs_kernel_btf(const struct obj *o)
{
	return needs_kernel_btf_ids(o) || core_needed(o);
}

/* Only for tp_btf targets (no ksym, no fentry, fexit or iterator) and,
 * with core_ok, CO-RE relocations: without kernel BTF those programs load
 * as raw_tp (prog_resolve_btf_target) and the relocations are tried
 * against the tracepoint formats (kbtf_tracefs.c). */
static bool kernel_btf_optional(const struct obj *o, bool core_ok)
{
	for (size_t i = 0; i < o->nr_progs; i++)
		if (o->progs[i].autoload && prog_needs_kernel_btf(&o->progs[i]) &&
		    o->progs[i].kind != ATTACH_TP_BTF)
			return false;
	for (size_t i = 0; i < o->nr_exts; i++)
		if (!o->exts[i].is_kconfig)
			return false;
	return core_ok || !core_needed(o);
}

/* No kernel BTF (and no --btf): carry on where nothing or only tracepoint
 * records need it, else keep the "no BTF, pass --btf" error. */
static int without_kernel_btf(struct obj *o)
{
	char why[512];

	if (kernel_btf_optional(o, false)) {
		err_clear(); /* tp_btf -> raw_tp */
		return 0;
	}
	snprintf(why, sizeof(why), "%s", err_msg());
	if (kernel_btf_optional(o, true) && kbtf_from_tracefs(o, &o->kbtf) == 0) {
		o->kbtf_loaded = o->kbtf_tracefs = true;
		err_clear();
		return 0;
	}
	return err_set(ENOENT, "%s", why);
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

/* ---- program BTF ---------------------------------------------------------- */

/* libbpf's bpf_object__sanitize_btf on a copy (loader-anchors.md §1.10):
 * kinds this kernel does not know become ones it does, keeping every type
 * id (map key/value ids, func_info) and record size valid.  The header is
 * rewritten to the 24 bytes every kernel knows, strings right after types. */
void *btf_sanitized(const struct btf *btf, unsigned missing, size_t *size)
{
	static const char placeholder[] = "enum64_placeholder";
	struct btf_header h, nh;
	const uint8_t *raw = btf_raw(btf, size), *types;
	uint32_t nr = btf_nr_types(btf), ph_id = 0;
	uint8_t *out, *ot;
	char *os;
	size_t extra_t = 0, extra_s = 0, total;

	memcpy(&h, raw, sizeof(h)); /* btf_new checked the header and bounds */
	types = raw + h.hdr_len + h.type_off;
	if (missing & BTF_MISSING_ENUM64)
		for (uint32_t id = 1; id < nr && !extra_t; id++)
			if (btf_kind(btf_type_by_id(btf, id)) == BTF_KIND_ENUM64) {
				extra_t = sizeof(struct btf_type) + 4;
				extra_s = sizeof(placeholder);
				ph_id = nr;
			}
	memset(&nh, 0, sizeof(nh));
	nh.magic = BTF_MAGIC;
	nh.version = BTF_VERSION;
	nh.hdr_len = sizeof(nh);
	nh.type_len = h.type_len + (uint32_t)extra_t;
	nh.str_off = nh.type_len;
	nh.str_len = h.str_len + (uint32_t)extra_s;
	total = sizeof(nh) + nh.type_len + nh.str_len;
	out = xmalloc(total);
	memcpy(out, &nh, sizeof(nh));
	ot = out + sizeof(nh);
	os = (char *)ot + nh.type_len;
	memcpy(ot, types, h.type_len);
	memcpy(os, raw + h.hdr_len + h.str_off, h.str_len);
	if (extra_t) {
		struct btf_type pt = { .name_off = h.str_len, .info = BTF_KIND_INT << 24, .size = 1 };
		uint32_t enc = 8; /* unsigned, 8 bits */

		memcpy(ot + h.type_len, &pt, sizeof(pt));
		memcpy(ot + h.type_len + sizeof(pt), &enc, 4);
		memcpy(os + h.str_len, placeholder, sizeof(placeholder));
	}

	for (uint32_t id = 1; id < nr; id++) {
		struct btf_type *t = (struct btf_type *)(ot + ((const uint8_t *)btf_type_by_id(btf, id) - types));
		int kind = btf_kind(t);
		uint32_t vlen = btf_vlen(t), j;

		if (((missing & BTF_MISSING_DATASEC) && kind == BTF_KIND_VAR) ||
		    ((missing & BTF_MISSING_DECL_TAG) && kind == BTF_KIND_DECL_TAG)) {
			/* 1-byte int: 4 would outgrow a smaller variable */
			uint32_t enc = 8;

			t->info = BTF_KIND_INT << 24;
			t->size = 1;
			memcpy(t + 1, &enc, 4);
		} else if ((missing & BTF_MISSING_DATASEC) && kind == BTF_KIND_DATASEC) {
			struct btf_var_secinfo *v = btf_secinfos(t);
			struct btf_member *m = btf_members(t);

			for (char *c = os + t->name_off; t->name_off < h.str_len && *c; c++)
				if (*c == '.' || *c == '?')
					*c = '_';
			t->info = (uint32_t)BTF_KIND_STRUCT << 24 | vlen;
			for (j = 0; j < vlen; j++) {
				struct btf_var_secinfo vi = v[j]; /* same bytes as m[j] */
				const struct btf_type *vt = btf_type_by_id(btf, vi.type);

				m[j].name_off = vt ? vt->name_off : 0; /* the variable's name */
				m[j].type = vi.type;
				m[j].offset = vi.offset * 8;
			}
		} else if (kind == BTF_KIND_DATASEC && t->name_off < h.str_len && os[t->name_off] == '?') {
			os[t->name_off] = '_';
		} else if ((missing & BTF_MISSING_FUNC) && kind == BTF_KIND_FUNC_PROTO) {
			t->info = (uint32_t)BTF_KIND_ENUM << 24 | vlen; /* params become enumerators */
			t->size = 4;
		} else if ((missing & BTF_MISSING_FUNC) && kind == BTF_KIND_FUNC) {
			t->info = (uint32_t)BTF_KIND_TYPEDEF << 24;
		} else if ((missing & BTF_MISSING_GLOBAL_FUNC) && kind == BTF_KIND_FUNC) {
			t->info = (uint32_t)BTF_KIND_FUNC << 24; /* linkage static */
		} else if ((missing & BTF_MISSING_FLOAT) && kind == BTF_KIND_FLOAT) {
			t->name_off = 0;
			t->info = (uint32_t)BTF_KIND_STRUCT << 24; /* same size, no members */
		} else if ((missing & BTF_MISSING_TYPE_TAG) && kind == BTF_KIND_TYPE_TAG) {
			t->name_off = 0;
			t->info = (uint32_t)BTF_KIND_CONST << 24;
		} else if ((missing & BTF_MISSING_ENUM64) && kind == BTF_KIND_ENUM) {
			t->info &= ~(1u << 31); /* signedness flag */
		} else if ((missing & BTF_MISSING_ENUM64) && kind == BTF_KIND_ENUM64) {
			struct btf_member *m = btf_members(t); /* 12-byte records, like btf_enum64 */

			t->info = (uint32_t)BTF_KIND_UNION << 24 | vlen;
			for (j = 0; j < vlen; j++) {
				m[j].type = ph_id;
				m[j].offset = 0;
			}
		}
	}
	*size = total;
	return out;
}

/* The BTF_MISSING_* kinds the program BTF uses: only those need the
 * kernel's support, so only those are ever probed. */
static unsigned btf_kinds_used(const struct btf *btf)
{
	unsigned used = 0;

	for (uint32_t id = 1; id < btf_nr_types(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		switch (t ? btf_kind(t) : 0) {
		case BTF_KIND_FUNC:
			used |= BTF_MISSING_FUNC | (btf_vlen(t) == BTF_FUNC_GLOBAL ? BTF_MISSING_GLOBAL_FUNC : 0);
			break;
		case BTF_KIND_VAR:
		case BTF_KIND_DATASEC:
			used |= BTF_MISSING_DATASEC;
			break;
		case BTF_KIND_FLOAT:
			used |= BTF_MISSING_FLOAT;
			break;
		case BTF_KIND_DECL_TAG:
			used |= BTF_MISSING_DECL_TAG;
			break;
		case BTF_KIND_TYPE_TAG:
			used |= BTF_MISSING_TYPE_TAG;
			break;
		case BTF_KIND_ENUM64:
			used |= BTF_MISSING_ENUM64;
			break;
		}
	}
	return used;
}

static const struct {
	unsigned bit;
	const char *feat;     /* COREBOX_DISABLE name */
	bool (*probe)(void);
} btf_kinds[] = {
	{ BTF_MISSING_FUNC, "btf_func", probe_btf_func },
	{ BTF_MISSING_GLOBAL_FUNC, "btf_global_func", probe_btf_global_func },
	{ BTF_MISSING_DATASEC, "btf_datasec", probe_btf_datasec },
	{ BTF_MISSING_FLOAT, "btf_float", probe_btf_float },
	{ BTF_MISSING_DECL_TAG, "btf_decl_tag", probe_btf_decl_tag },
	{ BTF_MISSING_TYPE_TAG, "btf_type_tag", probe_btf_type_tag },
	{ BTF_MISSING_ENUM64, "btf_enum64", probe_btf_enum64 },
};

/* Of the kinds used, those COREBOX_DISABLE switches off (no syscall) or,
 * with probe, those the kernel refuses (a BTF load each, once per
 * process). */
static unsigned btf_missing(unsigned used, bool probe)
{
	unsigned m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(btf_kinds); i++)
		if ((used & btf_kinds[i].bit) &&
		    (probe ? !btf_kinds[i].probe() : probe_disabled(btf_kinds[i].feat)))
			m |= btf_kinds[i].bit;
	return m;
}

/* The program BTF without the kinds in missing, loaded: fd or -errno. */
static int load_btf_without(struct obj *o, unsigned missing, char **log)
{
	size_t size;
	void *blob = btf_sanitized(o->btf, missing, &size);
	int fd;

	free(*log);
	*log = NULL;
	fd = bpf_btf_load(blob, size, log);
	free(blob);
	return fd;
}

/* Upload the program BTF (sanitized for this kernel) so maps get their
 * key/value types and programs their func_info and source lines; a kernel
 * that takes no BTF, or refuses ours, gets none: programs then load
 * without func_info (see needs_func_info).
 *
 * Start-up time: the BTF goes to the kernel as it is first (only the
 * kinds COREBOX_DISABLE switches off removed); a kernel that takes it
 * knows every kind it uses, and no feature probe runs.  Only a refusal
 * probes, and only the kinds the object uses, then tries again. */
static void load_prog_btf(struct obj *o)
{
	unsigned used, missing, probed;
	char *log = NULL;
	int fd;

	o->btf_note[0] = 0;
	if (!o->btf) {
		snprintf(o->btf_note, sizeof(o->btf_note), "the object has no BTF");
		return;
	}
	if (probe_disabled("btf")) {
		snprintf(o->btf_note, sizeof(o->btf_note), "this kernel takes no BTF");
		return;
	}
	sanitize_extern_btf(o);
	used = btf_kinds_used(o->btf);
	missing = btf_missing(used, false);
	fd = load_btf_without(o, missing, &log);
	if (fd < 0 && !probe_btf()) {
		free(log);
		err_clear();
		snprintf(o->btf_note, sizeof(o->btf_note), "this kernel takes no BTF");
		return;
	}
	if (fd < 0 && (probed = btf_missing(used, true)) != missing) {
		missing = probed;
		fd = load_btf_without(o, missing, &log);
	}
	if (fd < 0) {
		/* not fatal: programs load without BTF (no source lines) */
		snprintf(o->btf_note, sizeof(o->btf_note), "the kernel refused the program's BTF (%s)", err_msg());
		if (o->verbose) {
			/* the kernel's log quotes the object's type names */
			fprintf(stderr, "%s: kernel refused program BTF (%s)%s", o->name, err_msg(), log ? ":\n" : "");
			fputs_escaped(log ? log : "", "\n", stderr);
			fputc('\n', stderr);
		}
		free(log);
		err_clear();
		return;
	}
	free(log);
	o->btf_fd = fd;
	/* without FUNC the kernel takes no func_info (libbpf: FEAT_BTF_FUNC) */
	o->btf_no_func_info = (missing & BTF_MISSING_FUNC) != 0;
	if (o->btf_no_func_info)
		snprintf(o->btf_note, sizeof(o->btf_note), "this kernel's BTF has no functions (no func_info)");
}

/* A program that passes a callback (bpf_loop, bpf_for_each_map_elem,
 * timers...) to a helper: the verifier accepts those only with func_info. */
static bool needs_func_info(const struct prog *p)
{
	for (size_t i = 0; i + 1 < p->cnt; i++) {
		if (p->insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (p->insns[i].src_reg == BPF_PSEUDO_FUNC)
			return true;
		i++;
	}
	return false;
}

/* The instruction of the verifier log line "N: (85) call unknown#195896080"
 * last printed before "invalid func unknown#195896080", or -1. */
static long poisoned_insn(const char *log)
{
	const char *bad = log ? strstr(log, "invalid func unknown#195896080") : NULL;
	const char *p = log;
	long insn = -1;

	while (bad && p < bad) {
		const char *nl = strchr(p, '\n');
		const char *end = nl && nl < bad ? nl : bad;
		char *num_end;
		long n = strtol(p, &num_end, 10);

		if (num_end > p && *num_end == ':' && n >= 0) {
			const char *c = strstr(num_end, "call unknown#195896080");

			if (c && c < end)
				insn = n;
		}
		p = end + 1;
	}
	return insn;
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

/* uprobes attached by target (or by hand with prog_attach_uprobes) go
 * through uprobe_multi links (6.6+) when the kernel has them.  Detaching
 * 20 uprobes on 6.18 (2 CPUs): perf uprobes 1.7-2.3 s however they are
 * closed (each waits for grace periods under a global mutex); one-offset
 * links 1.0 s closed one by one, 75 ms closed from 20 tasks at once
 * (obj_close); one link of 20 offsets 23 ms (attach.c groups them). */
static void choose_uprobe_kind(struct prog *p)
{
	p->uprobe_multi = (p->kind == ATTACH_UPROBE || p->kind == ATTACH_URETPROBE) &&
			  (p->target || p->by_offsets) && !p->sleepable && probe_uprobe_multi();
	if (p->uprobe_multi)
		p->expected_attach_type = CB_BPF_TRACE_UPROBE_MULTI;
}

/* What load_prog and load_prog_kernel_core give the kernel for p. */
static struct bpf_prog_spec prog_spec(struct obj *o, struct prog *p)
{
	struct bpf_prog_spec s;

	choose_uprobe_kind(p);
	s = (struct bpf_prog_spec){
		.name = kernel_takes_names(o) ? p->name : NULL,
		.type = p->type,
		.expected_attach_type = p->expected_attach_type,
		.insns = p->insns,
		.insn_cnt = (uint32_t)p->cnt,
		.license = o->license,
		.kern_version = o->kern_version,
		.flags = p->sleepable ? BPF_F_SLEEPABLE : 0,
		.attach_btf_id = p->attach_btf_id,
		.log_level = o->log_level,
	};
	if (o->btf_fd >= 0 && p->nr_func_info && !o->btf_no_func_info) {
		s.prog_btf_fd = o->btf_fd;
		s.func_info = p->func_info;
		s.func_info_cnt = p->nr_func_info;
		s.func_info_rec_size = o->ext.func_rec_size;
		s.line_info = p->line_info;
		s.line_info_cnt = p->nr_line_info;
		s.line_info_rec_size = o->ext.line_rec_size;
	}
	if (p->attach_btf_obj_fd > 0)
		s.attach_btf_obj_fd = p->attach_btf_obj_fd;
	return s;
}

/* The kernel holds the code now: the relocated copy (hundreds of bytes
 * per program, hundreds of programs for a wildcard) goes, but for
 * uprobe_multi candidates, which attach compares code between. */
static void prog_loaded(struct prog *p, int fd)
{
	p->fd = fd;
	if (!p->uprobe_multi) {
		free(p->insns);
		free(p->segs);
		p->insns = NULL;
		p->segs = NULL;
		p->cap = p->nr_segs = 0;
	}
	free(p->core_relos);
	p->core_relos = NULL;
	p->nr_core_relos = 0;
}

/* p with its CO-RE records for the kernel to apply (kernel_core_wanted),
 * once, with no log: 1 when loaded; 0 sends the caller back to the
 * loader's own CO-RE (load_prog then retries and explains); < 0 is an
 * error that no relocation changes (out of file descriptors or memory),
 * reported as load_prog would, not hidden behind the fallback's own
 * need for vmlinux's BTF (one more fd). */
static int load_prog_kernel_core(struct obj *o, struct prog *p)
{
	struct bpf_prog_spec s = prog_spec(o, p);
	int fd;

	if (!s.func_info_cnt || p->uprobe_multi || o->log_level) /* (no log here) */
		return 0;
	s.core_relos = p->core_relos;
	s.core_relo_cnt = p->nr_core_relos;
	s.no_log = true;
	fd = bpf_prog_load(&s, NULL);
	if (fd == -EMFILE || fd == -ENFILE || fd == -ENOMEM) {
		err_clear();
		return err_sys(-fd, "cannot load program %s (%s)", p->name, p->label ? p->label : p->sec_name);
	}
	if (fd < 0) {
		if (o->verbose)
			fprintf(stderr, "%s: program %s: kernel-side CO-RE refused (%s), the loader relocates\n", o->name,
				p->name, err_msg());
		err_clear();
		return 0;
	}
	prog_loaded(p, fd);
	return 1;
}

static int load_prog(struct obj *o, struct prog *p)
{
	struct bpf_prog_spec s = prog_spec(o, p);
	char *log = NULL, tail[2048];
	bool callbacks = needs_func_info(p);
	int fd;

	if (callbacks && (o->btf_fd < 0 || o->btf_no_func_info || !p->nr_func_info))
		return err_set(ENOTSUP,
			       "program %s (%s) passes a callback to a helper (bpf_loop and the like), which the kernel"
			       " verifies only with BTF function info, but %s",
			       p->name, p->sec_name, o->btf_note[0] ? o->btf_note : "the object has no function info");
	fd = bpf_prog_load(&s, &log);
	if (fd < 0 && s.prog_btf_fd && !callbacks) {
		/* a kernel that dislikes our func/line info: try without */
		free(log);
		log = NULL;
		s.prog_btf_fd = 0;
		s.func_info = s.line_info = NULL;
		s.func_info_cnt = s.line_info_cnt = 0;
		fd = bpf_prog_load(&s, &log);
	}
	if (fd < 0 && p->kind == ATTACH_TP_BTF && p->attach_btf_obj_fd > 0) {
		/* a module tracepoint the kernel won't take as tp_btf: raw_tp */
		free(log);
		log = NULL;
		p->kind = ATTACH_RAW_TP;
		p->type = s.type = BPF_PROG_TYPE_RAW_TRACEPOINT;
		p->expected_attach_type = s.expected_attach_type = 0;
		p->attach_btf_id = s.attach_btf_id = 0;
		p->attach_btf_obj_fd = s.attach_btf_obj_fd = 0;
		fd = bpf_prog_load(&s, &log);
	}
	if (fd < 0 && p->uprobe_multi) {
		/* refused as uprobe_multi: a plain uprobe on a perf event */
		free(log);
		log = NULL;
		p->uprobe_multi = false;
		p->expected_attach_type = s.expected_attach_type = 0;
		fd = bpf_prog_load(&s, &log);
	}
	if (fd < 0) {
		const char *hint = "", *desc;
		long at = poisoned_insn(log);

		if (at >= 0 && (desc = prog_poison_desc(o, p, (size_t)at))) {
			err_set(EINVAL, "program %s: CO-RE relocation failed: %s (instruction %ld)", p->name, desc, at);
			free(log);
			return fd;
		}
		log_tail(log, tail, sizeof(tail), 12);
		if (log && strstr(log, "unknown#195896080"))
			hint = "\n(a CO-RE relocation found no match in this kernel's BTF: a field or type the program uses does not exist here)";
		else if (log && strstr(log, "unknown#195896081"))
			hint = "\n(the program uses a map or kernel symbol that was not created or resolved)";
		else if (fd == -EPERM && (p->kind == ATTACH_FENTRY || p->kind == ATTACH_FEXIT))
			hint = " (this kernel refuses trampoline programs: fentry/fexit are unavailable)";
		/* the verifier refuses with EACCES or EINVAL and says why in
		 * its log; anything else (EMFILE, ENOMEM, EPERM...) is not
		 * about the code, whatever the log holds */
		if (tail[0] && (fd == -EACCES || fd == -EINVAL))
			err_set_lines(-fd, "program %s (%s) was rejected by the verifier (%s); log tail:\n%s%s",
				      p->name, p->label ? p->label : p->sec_name, strerror(-fd), tail, hint);
		else if (fd == -EMFILE || fd == -ENFILE || fd == -ENOMEM)
			err_sys(-fd, "cannot load program %s (%s)", p->name, p->label ? p->label : p->sec_name);
		else
			err_prefix(fd, "program %s (%s)%s", p->name, p->label ? p->label : p->sec_name, hint);
		free(log);
		return fd;
	}
	if (o->log_level)
		p->vlog = log;
	else
		free(log);
	prog_loaded(p, fd);
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
 * essential name, tp_btf typedefs, fentry functions, typed ksyms), known
 * before the kernel BTF is opened, so that its parse finds them in the
 * same pass that indexes the types instead of indexing 100k+ names or
 * walking the types again: start-up time.  Names never looked up as a
 * FUNC (CO-RE roots, typedefs: names) are matched without reading the
 * FUNC types' names; functions and ksyms (fnames) against all.  anames:
 * the attach targets, looked up in the running kernel's own BTF. */
struct kernel_names {
	char **names, **fnames, **anames;
	size_t n, nf, na;
};

static void collect_kernel_names(struct obj *o, struct kernel_names *kn)
{
	char **names = NULL, **fnames = NULL, **anames = NULL, buf[200];
	size_t n = 0, nf = 0, na = 0;

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
		if (p->kind == ATTACH_TP_BTF) {
			snprintf(buf, sizeof(buf), "btf_trace_%s", p->target); /* a TYPEDEF */
			add_name(&names, &n, buf, strlen(buf));
		} else if (p->kind == ATTACH_FENTRY || p->kind == ATTACH_FEXIT || p->kind == ATTACH_ITER) {
			snprintf(buf, sizeof(buf), "%s%s", p->kind == ATTACH_ITER ? "bpf_iter_" : "", p->target);
			add_name(&fnames, &nf, buf, strlen(buf)); /* a FUNC */
		} else {
			continue;
		}
		add_name(&anames, &na, buf, strlen(buf));
	}
	if (n) { /* the CO-RE engine's pointer-size probe */
		static const char *const longs[] = { "long", "long int", "unsigned long", "long unsigned int" };

		for (size_t i = 0; i < ARRAY_SIZE(longs); i++)
			add_name(&names, &n, longs[i], strlen(longs[i]));
	}
	for (size_t i = 0; i < o->nr_exts; i++)
		if (!o->exts[i].is_kconfig)
			add_name(&fnames, &nf, o->exts[i].name, strlen(o->exts[i].name)); /* a VAR or FUNC */
	*kn = (struct kernel_names){ names, fnames, anames, n, nf, na };
}

static void kernel_names_free(struct kernel_names *kn)
{
	for (size_t i = 0; i < kn->n; i++)
		free(kn->names[i]);
	free(kn->names);
	for (size_t i = 0; i < kn->nf; i++)
		free(kn->fnames[i]);
	free(kn->fnames);
	for (size_t i = 0; i < kn->na; i++)
		free(kn->anames[i]);
	free(kn->anames);
}

/* Open the CO-RE target BTF finding the names as it parses; when --btf
 * gave another file than the kernel's own, prepare the attach targets
 * there too (one pass). */
static int open_kernel_btf(struct obj *o, const struct obj_opts *opts)
{
	struct kernel_names kn;
	int err;

	collect_kernel_names(o, &kn);
	err = kernel_btf_ensure_wanted(o, opts,
				       &(struct btf_wanted){ (const char *const *)kn.names, kn.n,
							     (const char *const *)kn.fnames, kn.nf });
	if (err >= 0 && kn.na && !kbtf_is_sys(&o->kbtf)) {
		const struct btf *sys = obj_sys_btf(o);

		if (sys)
			btf_find_prepare(sys, (const char *const *)kn.anames, kn.na);
		err_clear(); /* no kernel BTF: tp_btf becomes raw_tp later */
	}
	kernel_names_free(&kn);
	return err;
}

/* Kernel-side CO-RE (5.17+): given the program's BTF and its CO-RE
 * records, the kernel relocates the code itself against its own BTF,
 * with its own index of the types (candidates cached across loads), so
 * the loader need not map and walk vmlinux's 5 MB of BTF: the largest
 * part of a small tool's start (1.1-2.4 ms of ~5).  Only when the
 * running kernel's BTF is the target and CO-RE is all it is needed for
 * (no tp_btf/fentry targets, no ksyms); --btf, $COREBOX_SYSFS_BTF and
 * COREBOX_DISABLE=kernel_core keep the loader's own CO-RE.  The kernel
 * reads the records only along with func_info (check_core_relo runs in
 * check_btf_info), so a program without it never gets them; a kernel
 * that refuses a program so loaded (older than 5.17, a record it cannot
 * apply, a verifier error) sends the loader back to its own CO-RE for
 * that program and the rest, whose messages name what failed. */
static bool kernel_core_wanted(const struct obj *o, const struct obj_opts *opts)
{
	char vmlinux[300];

	if ((opts && opts->btf_path) || o->kbtf_loaded || !o->btf || o->ext.core_rec_size != sizeof(struct core_relo) ||
	    probe_disabled("kernel_core") || needs_kernel_btf_ids(o))
		return false;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", kbtf_sysfs_dir());
	return core_needed(o) && !strcmp(kbtf_sysfs_dir(), "/sys/kernel/btf") && !access(vmlinux, R_OK);
}

static int open_kernel_btf(struct obj *o, const struct obj_opts *opts);

/* The kernel BTF, when the object needs it, else the ways on without. */
static int kernel_btf_for_load(struct obj *o, const struct obj_opts *opts)
{
	uint64_t t0 = now_ns();
	int err;

	if (!needs_kernel_btf(o) || o->kbtf_loaded)
		return 0;
	if ((err = open_kernel_btf(o, opts)) < 0) {
		if (err != -ENOENT || (opts && opts->btf_path) || (err = without_kernel_btf(o)) < 0)
			return err;
	} else if (o->verbose)
		fprintf(stderr, "%s: kernel BTF %s: %.2f ms to open and find the names needed\n", o->name,
			o->kbtf.path, (double)(now_ns() - t0) / 1e6);
	return 0;
}

/* The loader's own CO-RE on every code section (back from kernel_core
 * too: the kernel BTF opened then). */
static int core_here(struct obj *o, const struct obj_opts *opts)
{
	uint64_t t0;
	int err;

	if (o->kernel_core) {
		o->kernel_core = false;
		if ((err = kernel_btf_for_load(o, opts)) < 0)
			return err;
	}
	t0 = now_ns();
	err = relocate_core(o);
	if (!err && o->verbose)
		fprintf(stderr, "%s: CO-RE relocations: %.2f ms\n", o->name, (double)(now_ns() - t0) / 1e6);
	return err;
}

static int load(struct obj *o, const struct obj_opts *opts);

int obj_load(struct obj *o, const struct obj_opts *opts)
{
	int err;

	if (o->loaded)
		return err_set(EBUSY, "%s: already loaded", o->name);
	err = load(o, opts);
	core_poisons_free(o);
	/* The kernel BTF (megabytes) is not needed once programs are loaded. */
	obj_kernel_btf_release(o);
	return err;
}

static int load(struct obj *o, const struct obj_opts *opts)
{
	int err = 0;

	o->verbose = opts ? opts->verbose : 0;
	o->log_level = opts ? opts->log_level : 0;
	o->kernel_core = kernel_core_wanted(o, opts);
	if (!o->kernel_core)
		err = kernel_btf_for_load(o, opts);
	for (size_t i = 0; i < o->nr_progs && !err; i++)
		if (o->progs[i].autoload)
			err = prog_resolve_btf_target(o, &o->progs[i]);
	if (!err)
		err = externs_resolve(o);
	if (!err && !o->kernel_core)
		err = core_here(o, opts);
	if (err)
		return err_prefix(err, "%s", o->name);
	load_prog_btf(o);
	/* no program BTF, or no FUNC in it: no func_info to carry the records */
	if (o->kernel_core && (o->btf_fd < 0 || o->btf_no_func_info) && (err = core_here(o, opts)) < 0)
		return err_prefix(err, "%s", o->name);
	if (o->kernel_core && o->verbose)
		fprintf(stderr, "%s: CO-RE relocations: applied by the kernel\n", o->name);
	if ((err = maps_create(o)) < 0)
		goto fail;
	{
		size_t tried = 0, refused = 0;

		for (size_t i = 0; i < o->nr_progs; i++) {
			struct prog *p = &o->progs[i];

			if (!p->autoload)
				continue;
			tried++;
			err = relocate_prog(o, p);
			if (!err && p->nr_core_relos) {
				if ((err = load_prog_kernel_core(o, p)) > 0)
					continue;
				/* refused: the loader's own CO-RE, which names what failed */
				if (!err && (err = core_here(o, opts)) < 0)
					goto fail;
				if (!err)
					err = relocate_prog(o, p);
			}
			if (err < 0 || (err = load_prog(o, p)) < 0) {
				if (!opts || !opts->keep_going)
					goto fail;
				/* keep going: this one stays unloaded */
				free(p->load_err);
				p->load_err = xstrdup(err_msg());
				p->autoload = false;
				refused++;
				err_clear();
			}
		}
		if (tried && refused == tried) { /* the first one's reason */
			for (size_t i = 0; i < o->nr_progs; i++)
				if (o->progs[i].load_err) {
					err = err_set_lines(EINVAL, "%s", o->progs[i].load_err); /* (escaped, its lines kept) */
					break;
				}
			goto fail;
		}
		err = 0;
	}
	o->loaded = true;
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
