/* corebox btf: BTF utilities.
 *
 *   corebox btf dump [FILE] [--types a,b,...]   C header (vmlinux.h)
 *
 * FILE may be raw BTF (/sys/kernel/btf/vmlinux) or an ELF file with a .BTF
 * section (vmlinux, a BPF object); without it, the kernel's BTF (--btf /
 * $COREBOX_BTF / the default search in loader/kbtf.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/kbtf.h"
#include "opt.h"

#define KEY_TYPES 't'

static const struct opt no_opts[] = { { 0 } };

static const struct tool_help help = {
	.name = "corebox btf",
	.usage = "COMMAND [ARGS...]",
	.summary = "BTF utilities.  Commands:\n"
		   "  dump [FILE] [--types a,b,...]   print BTF as a compilable C header (vmlinux.h)\n"
		   "Run 'corebox btf COMMAND --help' for a command's options.",
	.examples = "  corebox btf dump > vmlinux.h                    # all kernel types\n"
		    "  corebox btf dump --types task_struct,pt_regs    # just these (and what they need)\n"
		    "  corebox btf dump prog.bpf.o                     # types of a BPF object\n",
	.opts = no_opts,
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
			opt_usage_error(&help, "'btf min' is not implemented yet");
		opt_usage_error(&help, "unknown command '%s' (only 'dump' for now)", argv[1]);
	}
	opt_parse(argc, argv, &help, parse_top, NULL); /* --help, bad options */
	opt_usage_error(&help, "missing command (try 'corebox btf dump')");
	return 2;
}
