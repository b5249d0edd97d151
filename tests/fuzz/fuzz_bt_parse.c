/* libFuzzer harness: bpftrace program text (tools/probe/bt_*.c): the
 * parser, the semantic pass and the code generator on whatever checks,
 * every probe compiled against a made-up syscall tracepoint location (no
 * kernel, no BTF).  Input: the program text (NUL-terminated copy). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/insn.h"
#include "err.h"
#include "loader/obj.h"
#include "tools/probe/bt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("COREBOX_SYSFS_BTF", "/nonexistent", 1); /* no kernel BTF */
	return 0;
}

static const char fmt_text[] =
	"name: sys_enter_read\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:40;\tsize:16;\tsigned:0;\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_prog p;
	struct loc l = { .mech = M_TP, .name = "sys_enter_read", .target = "syscalls/sys_enter_read", .syscall_tp = true };
	const struct loc **locs;
	char *text;
	static char *params[] = { "42", "word" };

	if (size > 8192)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	err_clear();
	if (tp_format_parse(fmt_text, &l.fmt) < 0)
		err_clear();
	/* the ranges errors are reported with (0.17's column skew), any offset */
	for (int at = 0; at <= (int)size; at += 1 + (int)size / 8)
		(void)bt_col_skew(text, bt_loc_begin(text, at), at);
	if (bt_parse(text, &p) == 0) {
		p.helper_check = (int)(size % 3); /* -k / -kk checks in the generated code */
		p.params = params;
		p.nparams = 2;
		locs = calloc((size_t)p.np, sizeof(*locs));
		for (int i = 0; i < p.np; i++)
			locs[i] = &l;
		if (bt_check(&p, locs) == 0) {
			struct obj *o = obj_new("fuzz");
			struct bt_maps m;

			p.uses_kstack = p.uses_ustack = true;
			if (bt_new_maps(&p, o, &m, true) == 0)
				for (int i = 0; i < p.np; i++) {
					struct cg_opts co = { .uid = -1, .cpu = -1, .strsize = 64 };
					struct gen *g = gen_new(&l, NULL, &co);

					if (bt_gen_probe(&p, i, g, &m, i & 1, "tracepoint:syscalls:sys_enter_read", "f") < 0 ||
					    emit_finish(gen_emit(g)) < 0)
						err_clear();
					gen_free(g);
				}
			obj_close(o);
		}
		err_clear();
		free(locs);
	}
	err_clear();
	bt_prog_free(&p);
	tp_format_free(&l.fmt);
	free(text);
	return 0;
}
