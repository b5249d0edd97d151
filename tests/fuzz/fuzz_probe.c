/* libFuzzer harness: the dynamic-tracing tools' text inputs (probe
 * grammars, C expressions and types, tracepoint formats, -r patterns),
 * and the code generator on whatever parses, against a made-up location
 * (no kernel, no BTF: the kernel's BTF is switched off).  The five
 * tools' parsers: trace (selector 0), argdist (2), and funccount,
 * stackcount and funclatency (1, the pattern grammar); each parsed probe
 * is compiled as the tool compiles it: trace's and argdist's filter and
 * values, the pattern tools' prologue, count, log2 slot and stack
 * frame.
 *
 * Input: one selector byte, then the text (NUL-terminated copy). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/insn.h"
#include "err.h"
#include "tools/probe/match.h"
#include "tools/probe/probe.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("COREBOX_SYSFS_BTF", "/nonexistent", 1); /* no kernel BTF */
	return 0;
}

/* A syscall tracepoint's format, for args->FIELD and argN. */
static const char fmt_text[] =
	"name: sys_enter_openat\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:36;\tsize:16;\tsigned:0;\n";

/* Compile every expression of s against each kind of location. */
static void generate(const struct spec *s)
{
	static const enum mech mechs[] = { M_TP, M_RAW_TP, M_SYSCALL, M_FENTRY, M_KRETPROBE, M_UPROBE };
	struct cg_opts co = { .pid = 1, .uid = -1, .cpu = -1, .strsize = 16 };

	for (size_t m = 0; m < sizeof(mechs) / sizeof(mechs[0]); m++) {
		struct loc l = { .mech = mechs[m], .name = "f", .target = "cat/ev", .sc_nr = 257 };
		struct gen *g;
		struct ctype t;
		int out;

		l.syscall_tp = l.mech == M_SYSCALL;
		l.user = l.mech == M_UPROBE;
		l.nparams = 3;
		if (tp_format_parse(fmt_text, &l.fmt) < 0)
			err_clear();
		g = gen_new(&l, s, &co);
		out = gen_begin(g);
		if (s->pred.text && gen_filter(g, s->pred.text, s->pred.pos, out) < 0)
			err_clear();
		for (int i = 0; i < s->nargs; i++) {
			if ((i & 1 ? gen_string(g, s->args[i].text, s->args[i].pos, R10, -64, 32)
				   : gen_value(g, s->args[i].text, s->args[i].pos, &t)) < 0)
				err_clear();
		}
		if (!s->nargs) { /* a pattern tool's body: a count, a log2 slot */
			int key = gen_stack(g, 8), val = gen_stack(g, 16);

			emit_st(gen_emit(g), 4, R10, (int16_t)key, (int32_t)m);
			gen_hash_inc(g, 0, key, val);
			emit_ldx(gen_emit(g), 8, R1, R10, (int16_t)val);
			gen_log2l(g);
			gen_lookup(g, 1, key, out);
			gen_unstack(g, 16);
		}
		gen_end(g, out);
		if (emit_finish(gen_emit(g)) < 0)
			err_clear();
		gen_free(g);
		tp_format_free(&l.fmt);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec s;
	struct ctype t;
	struct tp_format f;
	struct node *n;
	char *text;
	int pos = 0;

	if (size < 1 || size > 4096)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	err_clear();
	switch (data[0] % 8) {
	case 0:
		if (spec_parse_trace(text, &s, &pos) == 0) {
			generate(&s);
			spec_free(&s);
		}
		break;
	case 1:
		if (spec_parse_pattern(text, &s, &pos) == 0) {
			generate(&s);
			spec_free(&s);
		}
		break;
	case 2:
		if (spec_parse_argdist(text, &s, &pos) == 0) {
			generate(&s);
			spec_free(&s);
		}
		break;
	case 3:
		if ((n = expr_parse(text, &pos))) {
			struct spec e = { .text = text, .type = 'p', .nargs = 1 };
			struct spec_expr a = { text, 0 };

			(void)expr_uses(n, "retval");
			expr_free(n);
			e.args = &a;
			generate(&e);
		}
		break;
	case 4:
		(void)ctype_parse(text, NULL, &t, NULL);
		break;
	case 5:
		if (tp_format_parse(text, &f) == 0)
			tp_format_free(&f);
		break;
	case 6: { /* PATTERN\nSUBJECT: the -r regex and the globs */
		char *nl = strchr(text, '\n');
		struct matcher m;

		if (nl)
			*nl = 0;
		if (match_compile(&m, text, true) == 0) {
			(void)match(&m, nl ? nl + 1 : "");
			match_free(&m);
		}
		(void)glob_match(text, nl ? nl + 1 : "");
		break;
	}
	default:
		(void)syscall_event_nr(text, &(bool){ false });
		break;
	}
	err_clear();
	free(text);
	return 0;
}
