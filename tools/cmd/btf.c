/* command btf: dump BTF as a C header; write minimal BTF
 *
 *   corebox btf dump [FILE] [--types a,b,...]   C header (vmlinux.h)
 *   corebox btf min KERNEL_BTF -o OUT [OBJ...]  minimal BTF for CO-RE
 *
 * FILE may be raw BTF (/sys/kernel/btf/vmlinux) or an ELF file with a .BTF
 * section (vmlinux, a BPF object); without it, the kernel's BTF (--btf /
 * $COREBOX_BTF / the default search in loader/kbtf.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf/btf.h"
#include "btf/relo_core.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/inflate.h"
#include "lib/util.h"
#include "loader/kbtf.h"
#include "tools/common/bpfobjs.h"
#include "tools/common/opt.h"

#define KEY_TYPES 't'
#define KEY_OUT 'o'

static const struct opt no_opts[] = { { 0 } };

static const struct tool_help help = {
	.name = "corebox btf",
	.usage = "COMMAND [ARGS...]",
	.summary = "BTF utilities.  Commands:\n"
		   "  dump [FILE] [--types a,b,...]   print BTF as a compilable C header (vmlinux.h)\n"
		   "  min KERNEL_BTF -o OUT [OBJ...]  write the minimal BTF corebox's tools need\n"
		   "Run 'corebox btf COMMAND --help' for a command's options.",
	.examples = "  corebox btf dump > vmlinux.h                    # all kernel types\n"
		    "  corebox btf dump --types task_struct,pt_regs    # just these (and what they need)\n"
		    "  corebox btf dump prog.bpf.o                     # types of a BPF object\n"
		    "  corebox btf min /sys/kernel/btf/vmlinux -o k.btf   # for hosts without BTF\n",
	.opts = no_opts,
	.flags = OPT_NO_VERBOSE, /* loads no BPF */
};

static const struct opt dump_opts[] = {
	{ KEY_TYPES, "types", "LIST", "only these types (comma-separated names, \"struct foo\" to pick a kind)"
				      " plus everything they need" },
	{ 0 },
};

static const struct tool_help dump_help = {
	.name = "corebox btf dump",
	.usage = "[FILE] [--types a,b,...] [--btf FILE]",
	.summary = "Print BTF as a C header that compiles with clang -target bpf (like\n"
		   "'bpftool btf dump file FILE format c').  FILE is raw BTF or an ELF file with\n"
		   "a .BTF section; the default is the running kernel's BTF.",
	.examples = "  corebox btf dump > vmlinux.h\n"
		    "  corebox btf dump /sys/kernel/btf/vmlinux --types task_struct,\"struct pt_regs\"\n"
		    "  corebox btf dump tool.bpf.o\n",
	.opts = dump_opts,
	.flags = OPT_NO_VERBOSE, /* loads no BPF */
};

struct dump_args {
	const char *file;
	const char **types; /* NULL-terminated, or NULL for all */
	size_t nr_types;
	char **lists;       /* --types strings we split (freed at exit) */
	size_t nr_lists;
};

static void add_types(struct dump_args *a, const char *list)
{
	char *copy = xstrdup(list), *s, *save = NULL;

	a->lists = xrealloc(a->lists, (a->nr_lists + 1) * sizeof(*a->lists));
	a->lists[a->nr_lists++] = copy;
	if (!a->types) /* "--types ''" is an empty list, not "everything" */
		a->types = xcalloc(1, sizeof(*a->types));
	for (s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		a->types = xrealloc(a->types, (a->nr_types + 2) * sizeof(*a->types));
		a->types[a->nr_types++] = s;
		a->types[a->nr_types] = NULL;
	}
}

static int parse_dump(int key, const char *arg, void *ctx)
{
	struct dump_args *a = ctx;

	switch (key) {
	case 0:
		if (a->file)
			return 1; /* one FILE only */
		a->file = arg;
		return 0;
	case KEY_TYPES:
		add_types(a, arg);
		return 0;
	default:
		return 1;
	}
}

static int cmd_dump(int argc, char **argv)
{
	struct dump_args a = { 0 };
	static char buf[1 << 16];
	struct kbtf k;
	int err;
	size_t i;

	opt_parse(argc, argv, &dump_help, parse_dump, &a);
	err = kbtf_open(&k, a.file ? a.file : tool_common.btf_path);
	if (!err) {
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
		err = btf_dump_c(k.btf, stdout, a.types);
		kbtf_close(&k);
	}
	for (i = 0; i < a.nr_lists; i++)
		free(a.lists[i]);
	free(a.lists);
	free(a.types);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "corebox btf dump: %s\n", err_msg());
		return 1;
	}
	return 0;
}

/* ---- btf min ----------------------------------------------------------- */

static const struct opt min_opts[] = {
	{ KEY_OUT, "output", "OUT", "file to write (required)" },
	{ KEY_TYPES, "types", "LIST", "keep these types whole (comma-separated names, \"struct foo\" to pick a kind), "
				  "instead of what the built-in objects need when no OBJ is given" },
	{ 0 },
};

static const struct tool_help min_help = {
	.name = "corebox btf min",
	.usage = "KERNEL_BTF -o OUT [--types a,b,...] [OBJ...]",
	.summary = "Write a minimal BTF holding only the kernel types, members and enumerators that\n"
		   "the BPF objects relocate against (CO-RE), the btf_trace_* typedefs of their tp_btf\n"
		   "programs, the functions of their fentry/fexit programs and the types corebox's\n"
		   "tools look up directly: a few KB instead of the kernel's megabytes, for hosts\n"
		   "whose kernel has no BTF (run the tools there with --btf OUT).  KERNEL_BTF is the\n"
		   "target kernel's BTF (raw, or a vmlinux ELF with .BTF).  OBJ...: BPF objects\n"
		   "(default: every object built into corebox).",
	.examples = "  corebox btf min /sys/kernel/btf/vmlinux -o min.btf\n"
		    "  corebox btf min vmlinux-6.1 -o 6.1.btf        # on a build host, for another kernel\n"
		    "  corebox execsnoop --btf min.btf\n"
		    "  corebox btf min /sys/kernel/btf/vmlinux -o k.btf --types task_struct   # make vmlinux.btf\n",
	.opts = min_opts,
	.flags = OPT_NO_VERBOSE, /* loads no BPF */
};

/* The objects built into corebox (Makefile: build/bpfobjs.S). */
struct bpf_obj_ent {
	const char *name;
	const char *start, *end;
};
extern const struct bpf_obj_ent corebox_bpf_objs[];

/* Types corebox's tools read from the kernel BTF themselves (not through
 * CO-RE; see obj_kernel_btf() users in tools/), kept when minimizing for
 * the built-in objects.  full: every member or enumerator.  The "long"
 * ints (the CO-RE engine's pointer-size probe) are kept for any object. */
static const struct {
	const char *name;
	int kind;
	bool full, tools_only;
} direct_types[] = {
	{ "req_flag_bits", BTF_KIND_ENUM, true, true },             /* biolatency -F */
	{ "req_op", BTF_KIND_ENUM, true, true },                    /* biolatency -F */
	{ "btf_trace_block_rq_issue", BTF_KIND_TYPEDEF, false, true }, /* biolatency: rq argument */
	{ "long", BTF_KIND_INT, false, false },
	{ "long int", BTF_KIND_INT, false, false },
	{ "unsigned long", BTF_KIND_INT, false, false },
	{ "long unsigned int", BTF_KIND_INT, false, false },
};

struct min_args {
	const char *kernel;
	const char *out;
	const char **objs;
	size_t nr_objs;
	struct dump_args types; /* --types, split as for btf dump */
};

static int parse_min(int key, const char *arg, void *ctx)
{
	struct min_args *a = ctx;

	switch (key) {
	case 0:
		if (!a->kernel) {
			a->kernel = arg;
		} else {
			a->objs = xrealloc(a->objs, (a->nr_objs + 1) * sizeof(*a->objs));
			a->objs[a->nr_objs++] = arg;
		}
		return 0;
	case KEY_OUT:
		a->out = arg;
		return 0;
	case KEY_TYPES:
		add_types(&a->types, arg);
		return 0;
	default:
		return 1;
	}
}

struct min_stats {
	size_t objs, relos, poisoned, targets;
	double core_ms;
};

/* Keep a kernel type by name (any of kind); 1 if found. */
static int keep_named(struct btf_min *m, const struct btf *kb, const char *name, int kind, bool full)
{
	int32_t id = btf_find(kb, name, kind);

	if (id <= 0)
		return 0;
	return btf_min_type(m, (uint32_t)id, full) < 0 ? -1 : 1;
}

/* Keep a --types entry whole: every type btf dump --types would print for
 * it ("name": each struct, union, enum or typedef of that name; "struct
 * name" etc.: that kind only); an unknown name is an error, as there. */
struct listed {
	struct btf_min *m;
	const struct btf *kb;
	int kind; /* -1: any */
	int found, err;
};

static int keep_listed_id(uint32_t id, void *ctx)
{
	struct listed *l = ctx;
	int k = btf_kind(btf_type_by_id(l->kb, id));

	if (k != BTF_KIND_STRUCT && k != BTF_KIND_UNION && k != BTF_KIND_ENUM && k != BTF_KIND_ENUM64 &&
	    k != BTF_KIND_TYPEDEF && k != BTF_KIND_FWD)
		return 0; /* functions, variables, base types: not dumped by name */
	if (l->kind >= 0 && k != l->kind && !(l->kind == BTF_KIND_ENUM && k == BTF_KIND_ENUM64))
		return 0;
	l->found++;
	l->err = btf_min_type(l->m, id, true);
	return l->err;
}

static int keep_listed(struct btf_min *m, const struct btf *kb, const char *entry)
{
	static const struct {
		const char *prefix;
		int kind;
	} kinds[] = {
		{ "struct ", BTF_KIND_STRUCT }, { "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },     { "typedef ", BTF_KIND_TYPEDEF },
	};
	struct listed l = { m, kb, -1, 0, 0 };
	const char *name = entry;

	if (!*entry || *entry == '#') /* skipped, as btf dump skips them */
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(entry, kinds[i].prefix, strlen(kinds[i].prefix))) {
			name = entry + strlen(kinds[i].prefix);
			l.kind = kinds[i].kind;
		}
	btf_for_each_named(kb, name, keep_listed_id, &l);
	if (l.err)
		return l.err;
	if (!l.found)
		return err_set(ENOENT, "type '%s' not found in the kernel BTF", entry);
	return 0;
}

/* Attach targets named by a program section: tp_btf/X -> btf_trace_X,
 * fentry/fexit/X -> FUNC X, iter/X -> FUNC bpf_iter_X. */
static void keep_sec_target(struct btf_min *m, const struct btf *kb, const char *sec, struct min_stats *st)
{
	static const struct {
		const char *prefix, *fmt;
		int kind;
	} defs[] = {
		{ "tp_btf/", "btf_trace_%s", BTF_KIND_TYPEDEF },
		{ "fentry/", "%s", BTF_KIND_FUNC },
		{ "fexit/", "%s", BTF_KIND_FUNC },
		{ "fentry.s/", "%s", BTF_KIND_FUNC },
		{ "fexit.s/", "%s", BTF_KIND_FUNC },
		{ "fmod_ret/", "%s", BTF_KIND_FUNC },
		{ "iter/", "bpf_iter_%s", BTF_KIND_FUNC },
	};
	char name[256];

	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		size_t n = strlen(defs[i].prefix);

		if (strncmp(sec, defs[i].prefix, n) || !sec[n])
			continue;
		snprintf(name, sizeof(name), defs[i].fmt, sec + n);
		st->targets += keep_named(m, kb, name, defs[i].kind, false) > 0;
		return;
	}
}

/* Relocate every CO-RE record of one object against kb, recording what
 * each used; keep its programs' attach targets.  No syscalls. */
static int min_object(struct btf_min *m, const struct btf *kb, const char *name, const void *data, size_t size,
		      struct min_stats *st)
{
	struct elf_view ev;
	const Elf64_Shdr *sh;
	struct btf *local = NULL;
	struct btf_ext ext;
	struct core_ctx *ctx = NULL;
	bool has_ext = false;
	char *raw = NULL;
	const void *d;
	size_t n;
	uint64_t t0;
	int err;

	/* embedded objects are packed (Makefile: cbz), older builds' gzip'd */
	if ((err = bpf_obj_unpack(data, size, &raw, &size)))
		return err_prefix(err, "%s", name);
	if (raw)
		data = raw;
	if ((err = elf_open(&ev, data, size))) {
		free(raw);
		return err_prefix(err, "%s", name);
	}
	for (size_t i = 1; i < ev.shnum; i++) {
		const Elf64_Shdr *s = elf_shdr(&ev, i);

		if (s && s->sh_type == SHT_PROGBITS && (s->sh_flags & SHF_EXECINSTR))
			keep_sec_target(m, kb, elf_sec_name(&ev, s), st);
	}
	sh = elf_find_sec(&ev, ".BTF");
	if (!sh) {
		st->objs++;
		goto out; /* no BTF, no CO-RE */
	}
	if ((err = elf_sec_data(&ev, sh, &d, &n)) || !d) {
		err = err_prefix(err ? err : -EINVAL, "%s: .BTF", name);
		goto out;
	}
	if (!(local = btf_new(d, n, 0, NULL))) {
		err = err_prefix(-EINVAL, "%s: .BTF", name);
		goto out;
	}
	sh = elf_find_sec(&ev, ".BTF.ext");
	if (sh) {
		if ((err = elf_sec_data(&ev, sh, &d, &n)) || !d || (err = btf_ext_parse(&ext, d, n, local))) {
			err = err_prefix(err ? err : -EINVAL, "%s: .BTF.ext", name);
			goto out;
		}
		has_ext = true;
	}
	t0 = now_ns();
	for (uint32_t s = 0; has_ext && s < ext.nr_core; s++) {
		const struct btf_ext_sec *es = &ext.core[s];

		for (uint32_t r = 0; r < es->nr; r++) {
			struct core_relo rec;
			struct core_res res;

			memcpy(&rec, (const char *)es->recs + (size_t)r * es->rec_size, sizeof(rec));
			if (!ctx) {
				ctx = core_ctx_new(local, kb);
				if (!ctx) {
					err = -ENOMEM;
					goto out;
				}
				core_ctx_set_visit(ctx, btf_min_core_visit, m);
			}
			if ((err = core_calc(ctx, &rec, &res))) {
				err = err_prefix(err, "%s (section %s)", name, es->sec_name);
				goto out;
			}
			st->relos++;
			st->poisoned += res.poison;
		}
	}
	st->core_ms += (double)(now_ns() - t0) / 1e6;
	st->objs++;
out:
	core_ctx_free(ctx);
	if (has_ext)
		btf_ext_free(&ext);
	btf_free(local);
	free(raw);
	return err;
}

static int write_out(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const char *p = data;

	if (fd < 0)
		return err_sys(errno, "cannot create %s", path);
	while (size) {
		ssize_t w = write(fd, p, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			close(fd);
			return err_sys(e, "cannot write %s", path);
		}
		p += w;
		size -= (size_t)w;
	}
	if (close(fd) < 0)
		return err_sys(errno, "cannot write %s", path);
	return 0;
}

static int cmd_min(int argc, char **argv)
{
	struct min_args a = { 0 };
	struct min_stats st = { 0 };
	struct btf_min *m = NULL;
	struct kbtf k;
	uint32_t nr_types = 0;
	size_t size = 0, i;
	void *blob = NULL;
	int err;

	opt_parse(argc, argv, &min_help, parse_min, &a);
	if (!a.kernel)
		opt_usage_error(&min_help, "missing KERNEL_BTF (e.g. /sys/kernel/btf/vmlinux)");
	if (!a.out)
		opt_usage_error(&min_help, "missing -o OUT");
	err = kbtf_open(&k, a.kernel);
	if (err)
		goto out;
	m = btf_min_new(k.btf);
	for (i = 0; !err && i < a.nr_objs; i++) {
		char *data;
		size_t len;

		if ((err = read_file(a.objs[i], 256u << 20, &data, &len)))
			break;
		err = min_object(m, k.btf, a.objs[i], data, len, &st);
		free(data);
	}
	if (a.types.types) /* the input of a trimmed header (make vmlinux.btf) */
		btf_min_for_dump(m);
	for (i = 0; !err && i < a.types.nr_types; i++)
		err = keep_listed(m, k.btf, a.types.types[i]);
	/* the built-in objects' needs, unless OBJs or --types say what to keep */
	for (i = 0; !err && !a.nr_objs && !a.types.types && corebox_bpf_objs[i].name; i++) {
		const struct bpf_obj_ent *e = &corebox_bpf_objs[i];

		err = min_object(m, k.btf, e->name, e->start, (size_t)(e->end - e->start), &st);
	}
	for (i = 0; !err && i < ARRAY_SIZE(direct_types); i++)
		if (!a.types.types && (!a.nr_objs || !direct_types[i].tools_only) && keep_named(m, k.btf, direct_types[i].name, direct_types[i].kind, direct_types[i].full) < 0)
			err = -EINVAL;
	if (!err && !(blob = btf_min_write(m, &size, &nr_types)))
		err = -EINVAL;
	if (!err)
		err = write_out(a.out, blob, size);
	if (!err)
		fprintf(stderr,
			"%s: %zu bytes, %u types (from %s: %zu bytes, %u types); %zu CO-RE relocations"
			" (%zu unresolved) of %zu objects in %.1f ms, %zu attach targets\n",
			a.out, size, nr_types, k.path, k.map_size,
			btf_nr_types(k.btf) - 1, st.relos, st.poisoned, st.objs, st.core_ms, st.targets);
out:
	free(blob);
	btf_min_free(m);
	if (k.btf || k.map)
		kbtf_close(&k);
	free(a.objs);
	free(a.types.types);
	for (i = 0; i < a.types.nr_lists; i++)
		free(a.types.lists[i]);
	free(a.types.lists);
	if (err) {
		fprintf(stderr, "corebox btf min: %s\n", err_msg());
		return 1;
	}
	return 0;
}

static int parse_top(int key, const char *arg, void *ctx)
{
	(void)arg;
	(void)ctx;
	return key == 0; /* commands are handled before option parsing */
}

int btf_main(int argc, char **argv)
{
	if (argc >= 2 && argv[1][0] != '-') {
		if (!strcmp(argv[1], "dump"))
			return cmd_dump(argc - 1, argv + 1);
		if (!strcmp(argv[1], "min"))
			return cmd_min(argc - 1, argv + 1);
		opt_usage_error(&help, "unknown command '%s' (try 'dump' or 'min')", argv[1]);
	}
	opt_parse(argc, argv, &help, parse_top, NULL); /* --help, bad options */
	opt_usage_error(&help, "missing command (try 'corebox btf dump')");
	return 2;
}
