/* The bpftrace front end (tools/probe/bt_*.c): program structure, both
 * dialects, the semantic pass's map/variable/printf types and errors with
 * their positions, and the code generator on a made-up tracepoint. */
#include <string.h>

#include "err.h"
#include "loader/obj.h"
#include "t.h"
#include "tools/probe/bt.h"

static const char fmt_text[] =
	"name: sys_enter_read\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:40;\tsize:16;\tsigned:0;\n";

static struct loc loc = { .mech = M_TP, .name = "sys_enter_read", .target = "syscalls/sys_enter_read" };

/* Parse and check text: 0, or the error's offset + 1 (negated). */
static int check(const char *text, struct bt_prog *p)
{
	const struct loc *locs[16];

	err_clear();
	if (bt_parse(text, p) < 0)
		return -(p->errpos + 1);
	for (int i = 0; i < p->np && i < 16; i++)
		locs[i] = &loc;
	if (p->np > 16 || bt_check(p, locs) < 0)
		return -(p->errpos + 1);
	return 0;
}

static const struct bt_map *map(const struct bt_prog *p, const char *name)
{
	for (int i = 0; i < p->nmaps; i++)
		if (!strcmp(p->maps[i].name, name))
			return &p->maps[i];
	return NULL;
}

/* Every probe compiles (no load). */
static bool compiles(struct bt_prog *p)
{
	struct obj *o = obj_new("t");
	struct bt_maps m;
	bool ok = bt_new_maps(p, o, &m, true) == 0;

	for (int i = 0; ok && i < p->np; i++) {
		struct cg_opts co = { .uid = -1, .cpu = -1, .strsize = 64 };
		struct gen *g = gen_new(&loc, NULL, &co);

		ok = bt_gen_probe(p, i, g, &m, true, "tracepoint:syscalls:sys_enter_read", "") == 0 &&
		     emit_finish(gen_emit(g)) == 0;
		if (!ok)
			printf("# %s\n", err_msg());
		gen_free(g);
	}
	obj_close(o);
	return ok;
}

/* Probe pi compiled as one program on many functions (bt_gen_body with
 * a names map, names: true) or as today: its probe_read_kernel calls
 * (-1: it does not compile). */
static int name_reads(struct bt_prog *p, bool names)
{
	struct obj *o = obj_new("t");
	struct cg_opts co = { .uid = -1, .cpu = -1, .strsize = 64 };
	struct gen *g = gen_new(&loc, NULL, &co);
	struct emit *e = gen_emit(g);
	int nm = obj_new_map(o, "cbx_names", BPF_MAP_TYPE_ARRAY, 4, 2 * (uint32_t)p->name_len, 2, 0);
	int out = gen_begin(g), idx = gen_stack(g, 8), n = -1;
	struct bt_maps m;

	if (bt_new_maps(p, o, &m, true) == 0 &&
	    bt_gen_body(p, 0, g, &m, true, "tracepoint:syscalls:sys_enter_read", "sys_enter_read", names ? nm : -1, idx,
			out) == 0) {
		gen_end(g, out);
		n = emit_finish(e) < 0 ? -1 : 0;
		for (size_t i = 0; n >= 0 && i < e->cnt; i++)
			n += e->insns[i].code == (BPF_JMP | BPF_CALL) && e->insns[i].imm == BPF_FUNC_probe_read_kernel;
	}
	if (n < 0)
		printf("# %s\n", err_msg());
	gen_free(g);
	obj_close(o);
	return n;
}

int main(void)
{
	struct bt_prog p;
	const struct bt_map *m;
	int r;

	if (tp_format_parse(fmt_text, &loc.fmt) < 0)
		return 1;

	r = check("#!/usr/bin/bpftrace\n// c\nBEGIN, END { printf(\"%d %s\\n\", 1, \"x\"); } /* x */", &p);
	T_OK(r == 0 && p.np == 1 && p.p[0].nap == 2 && !strcmp(p.p[0].ap[1].text, "END"),
	     "bt: #! line, comments, two attach points (%d)", r);
	T_OK(p.nacts == 1 && p.acts[0].kind == BA_PRINTF && p.acts[0].nargs == 2 && p.acts[0].args[1].vt == VT_STR,
	     "bt: printf action with an int and a string");
	T_OK(compiles(&p), "bt: BEGIN/END program compiles");
	bt_prog_free(&p);

	r = check("t:syscalls:sys_enter_read /args->fd == 3 && comm == \"dd\"/ { @h[comm, args.fd] = hist(args->count); "
		  "@l = lhist(args->count, 0, 100, 10); @c[tid]++; @s = sum(args->count); $x = 2; $x *= 3; "
		  "if ($x > 5) { @a = avg($x); } else if ($x) { @st = stats(1); } else { delete(@c[tid]); } "
		  "delete(@c, tid); @k[kstack(3), ustack] = count(); @str[pid] = comm; }",
		  &p);
	T_OK(r == 0, "bt: both dialects, hist/lhist/avg/stats, if/else if, compound assignment (%d: %s)", r,
	     r ? err_msg() : "");
	m = map(&p, "@h");
	T_OK(m && m->agg == AG_HIST && m->nkeys == 2 && m->keys[0].vt == VT_STR && m->keys[1].vt == VT_INT &&
		     m->key_size == 16 + 8 + 8,
	     "bt: @h keyed by (string, int) with its hist slot");
	m = map(&p, "@l");
	T_OK(m && m->agg == AG_LHIST && m->lmin == 0 && m->lmax == 100 && m->lstep == 10, "bt: lhist bounds");
	m = map(&p, "@c");
	T_OK(m && m->agg == AG_VALUE && m->nkeys == 1, "bt: @c[tid]++ is an integer map");
	m = map(&p, "@k");
	T_OK(m && m->keys[0].vt == VT_KSTACK && m->keys[0].depth == 3 && m->keys[1].vt == VT_USTACK,
	     "bt: stack keys with depth");
	m = map(&p, "@str");
	T_OK(m && m->agg == AG_VALUE && m->val.vt == VT_STR, "bt: a string-valued map");
	T_OK(compiles(&p), "bt: tracepoint program compiles");
	bt_prog_free(&p);

	/* what the book's scripts hold: #define, struct declarations, 1e6, unroll */
	r = check("#include <linux/sched.h>\n#define MAX_X 0x10\nstruct foo {\n int a; struct { int b; } c;\n};\n"
		  "BEGIN { $x = 2e3 / MAX_X; unroll(3) { @u++; } @n[ntop(2, 1)] = count(); exit(); }", &p);
	T_OK(r == 0 && p.ndefs == 1 && !strcmp(p.def_names[0], "MAX_X") && p.def_vals[0] == 16,
	     "bt: #define NAME INTEGER kept, struct declaration skipped (%d: %s)", r, r ? err_msg() : "");
	m = map(&p, "@n");
	T_OK(m && m->keys[0].vt == VT_INET && m->key_size == 24, "bt: an ntop() key holds family and 16 bytes");
	T_OK(p.np == 1 && p.p[0].body->next->kind == BS_UNROLL && p.p[0].body->next->op == 3, "bt: unroll(3)");
	T_OK(compiles(&p), "bt: that program compiles");
	bt_prog_free(&p);
	/* declared structs laid out as C does (bitfields in their unit),
	 * tuples with their own widths, struct values as shapes */
	r = check("struct S { char c; int i; short s; } struct T { unsigned a:4, b:8; short c; struct S in; long l; }\n"
		  "BEGIN { @t = ((int8)1, \"ab\", (2, 3)); @s = *(struct T *)0; $p = (struct S *)0; @p = $p + 1; "
		  "@z = sizeof(struct T); exit(); @never = 1; }", &p);
	T_OK(r == 0 && p.ntypes == 2, "bt: two struct declarations (%d: %s)", r, r ? err_msg() : "");
	m = map(&p, "@t");
	T_OK(m && m->val.vt == VT_AGG && m->val.size == 24 && p.shapes[m->val.depth].kind == 't' &&
		     p.shapes[m->val.depth].n == 3 && p.shapes[m->val.depth].f[0].t.size == 1 &&
		     p.shapes[m->val.depth].f[1].off == 1 && p.shapes[m->val.depth].f[2].off == 8,
	     "bt: tuple (int8, \"ab\", (int, int)): offsets 0, 1, 8; 24 bytes");
	m = map(&p, "@s");
	T_OK(m && m->val.vt == VT_AGG && m->val.size == 24 && p.shapes[m->val.depth].kind == 's' &&
		     p.shapes[m->val.depth].n == 3 && !strcmp(p.shapes[m->val.depth].f[0].name, "c") &&
		     p.shapes[m->val.depth].f[0].off == 2 && p.shapes[m->val.depth].f[1].off == 4 &&
		     p.shapes[m->val.depth].f[2].off == 16,
	     "bt: struct T value: c at 2 after the bitfields, in at 4, l at 16; 24 bytes");
	T_OK(compiles(&p), "bt: tuple and struct values compile (nothing after exit())");
	bt_prog_free(&p);
	r = check("BEGIN { @x = (1, \"a\"); @x = (2, \"abcdef\"); @k[(1, 2)] = 1; }", &p);
	T_OK(r < 0 && strstr(err_msg(), "tuple cannot be used as a map key"), "bt: a tuple key is refused as 0.17 does");
	m = map(&p, "@x");
	T_OK(m && m->val.vt == VT_AGG && p.shapes[m->val.depth].f[1].t.size == 7,
	     "bt: a map's tuple holds the longest string assigned");
	bt_prog_free(&p);
	{
		int end = 0, ep = 0;
		struct node *n = expr_parse_at("1e6 + 0x10", 0, EXPR_BT, &end, &ep);

		T_OK(n && n->kind == N_BINARY && n->a->num == 1000000 && n->b->num == 16, "bt: 1e6 is 1000000");
		expr_free(n);
		n = expr_parse_at("9e99", 0, EXPR_BT, &end, &ep);
		T_OK(!n, "bt: 9e99 is out of range");
		expr_free(n);
		n = expr_parse_at("0e99999999999999", 0, EXPR_BT, &end, &ep);
		T_OK(n && n->num == 0, "bt: 0e99999999999999 is 0, at once");
		expr_free(n);
	}

	r = check("BEGIN { @m[1, \"a\"] = 1; $h = has_key(@m, 2, \"b\"); if (has_key(@m, 1, \"a\")) { @y = $h; } }", &p);
	T_OK(r == 0 && compiles(&p), "bt: has_key(@m, k1, k2) compiles (%d: %s)", r, r ? err_msg() : "");
	bt_prog_free(&p);
	r = check("BEGIN { @m[1] = 1; @y = has_key(@m, 1, 2); }", &p);
	T_OK(r == 0 && !compiles(&p) && strstr(err_msg(), "does not match"), "bt: has_key with a wrong key count");
	bt_prog_free(&p);

	r = check("BEGIN { @s = sizeof(uint16) + sizeof(struct task_struct *) + sizeof(\"ab\") + sizeof(comm) + sizeof(pid); }", &p);
	T_OK(r == 0 && compiles(&p), "bt: sizeof of types, a pointer, a literal, comm, an integer (%d: %s)", r, r ? err_msg() : "");
	T_OK(r == 0 && p.p[0].body->rhs->b->kind == N_CALL && !p.p[0].body->rhs->b->cast_text &&
		     p.p[0].body->rhs->b->a->kind == N_IDENT && p.p[0].body->rhs->a->a->a->a->cast_text &&
		     !strcmp(p.p[0].body->rhs->a->a->a->a->cast_text, "uint16"),
	     "bt: sizeof(uint16) holds a type, sizeof(pid) an expression");
	bt_prog_free(&p);

	r = check("BEGIN { $t = strftime(\"%H\", nsecs); printf(\"%s %s\\n\", $t, strftime(\"%f\", 0)); @m = strftime(\"%H\", 1); }", &p);
	T_OK(r == 0 && compiles(&p) && p.nacts == 1 && p.acts[0].args[0].vt == VT_TIME && p.acts[0].args[1].vt == VT_TIME &&
		     p.ntfmts == 2 && p.acts[0].args[1].depth == 1 && map(&p, "@m")->val.vt == VT_TIME,
	     "bt: strftime values keep their format (one per text) for the user side (%d: %s)", r, r ? err_msg() : "");
	bt_prog_free(&p);
	r = check("BEGIN { printf(\"%d\\n\", strftime(\"%H\", nsecs)); }", &p);
	T_OK(r < 0 && strstr(err_msg(), "(string supplied)"), "bt: strftime is no integer for printf");
	bt_prog_free(&p);

	r = check("BEGIN { system(\"echo %d\", 1); }", &p);
	T_OK(r == -9 && strstr(err_msg(), "unsafe function being used in safe mode"), "bt: system() needs --unsafe (%d)", r);
	bt_prog_free(&p);
	memset(&p, 0, sizeof(p));
	err_clear();
	T_OK(bt_parse("BEGIN { system(\"echo %d\", 1); }", &p) == 0, "bt: system() parses");
	{
		const struct loc *locs[1] = { &loc };

		p.unsafe = true;
		r = bt_check(&p, locs);
		T_OK(r == 0 && p.nacts == 1 && p.acts[0].kind == BA_SYSTEM && p.acts[0].nargs == 1 && compiles(&p),
		     "bt: system() with --unsafe: a printf-like action (%d)", r);
	}
	bt_prog_free(&p);

	{
		static const struct { const char *text; int sig; } sigs[] = {
			{ "\"HUP\"", 1 }, { "\"SIGINT\"", 2 }, { "\"KILL\"", 9 }, { "\"USR1\"", 10 }, { "\"SIGSYS\"", 31 },
			{ "64", 64 }, { "\"FOO\"", -1 }, { "0", -1 }, { "65", -1 }, { "\"\"", -1 },
		};
		const struct loc *locs[1] = { &loc };
		char text[128];

		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			snprintf(text, sizeof(text), "t:syscalls:sys_enter_read { signal(%s); }", sigs[i].text);
			memset(&p, 0, sizeof(p));
			err_clear();
			r = bt_parse(text, &p);
			p.unsafe = true;
			if (r == 0)
				r = bt_check(&p, locs);
			if (sigs[i].sig < 0)
				T_OK(r < 0 && strstr(err_msg(), "not a valid signal"), "bt: signal(%s) refused", sigs[i].text);
			else
				T_OK(r == 0 && p.p[0].body->lhs->a->kind == N_NUM && p.p[0].body->lhs->a->num == (uint64_t)sigs[i].sig &&
					     compiles(&p),
				     "bt: signal(%s) is %d", sigs[i].text, sigs[i].sig);
			bt_prog_free(&p);
		}
	}
	r = check("t:syscalls:sys_enter_read { signal(9); }", &p);
	T_OK(r < 0 && strstr(err_msg(), "unsafe function"), "bt: signal() needs --unsafe");
	bt_prog_free(&p);
	r = check("END { signal(9); }", &p);
	T_OK(r < 0 && !strcmp(err_msg(), "signal can not be used with \"END\" probes"), "bt: no signal() from END");
	bt_prog_free(&p);

	r = check("BEGIN { cat(\"/proc/%d/%s\", pid, \"comm\"); cat(\"/etc/hostname\"); }", &p);
	T_OK(r == 0 && p.nacts == 2 && p.acts[0].kind == BA_CAT && p.acts[0].nargs == 2 && p.acts[0].args[1].vt == VT_STR &&
		     p.acts[1].nargs == 0 && compiles(&p),
	     "bt: cat with format arguments (%d: %s)", r, r ? err_msg() : "");
	bt_prog_free(&p);

	/* errors, with the offset bpftrace points at */
	r = check("BEGIN { foo(); }", &p);
	T_OK(r == -9 && !strcmp(err_msg(), "Unknown function: foo") && p.errend == 11, "bt: unknown function at 8 (%d)", r);
	bt_prog_free(&p);
	r = check("BEGIN { @x = ; }", &p);
	T_OK(r == -14, "bt: syntax error at the ';' (%d)", r);
	bt_prog_free(&p);
	r = check("BEGIN { printf(\"%d\\n\"); }", &p);
	T_OK(r == -9 && strstr(err_msg(), "Not enough arguments"), "bt: printf argument count (%d)", r);
	bt_prog_free(&p);
	r = check("BEGIN { $x = 1; $x = \"s\"; }", &p);
	T_OK(r == -20 && strstr(err_msg(), "Type mismatch for $x"), "bt: variable type mismatch (%d)", r);
	bt_prog_free(&p);
	r = check("BEGIN { @x = 1 } BEGIN", &p);
	T_OK(r < 0 && strstr(err_msg(), "expected {"), "bt: probe without a block (%d)", r);
	bt_prog_free(&p);
	r = check("BEGIN { @m[1] = count(); @m[\"a\"] = count(); }", &p);
	T_OK(r < 0 && strstr(err_msg(), "Argument mismatch"), "bt: key type mismatch");
	bt_prog_free(&p);
	r = check("BEGIN { @m = count(); @m = hist(1); }", &p);
	T_OK(r < 0 && strstr(err_msg(), "Type mismatch"), "bt: aggregation mismatch");
	bt_prog_free(&p);
	/* macaddr() and cgroup_path() values (the filter kept), strcontains */
	r = check("BEGIN { @m[macaddr(0)] = cgroup_path(1, \"cpu*\"); @c[cgroup_path(2)] = 1; "
		  "@s = strcontains(\"abc\", comm); exit(); }", &p);
	m = map(&p, "@m");
	T_OK(r == 0 && m && m->keys[0].vt == VT_MAC && m->val.vt == VT_CGPATH && !strcmp(p.tfmts[m->val.depth], "cpu*"),
	     "bt: macaddr() key, cgroup_path() value with its filter (%d: %s)", r, r ? err_msg() : "");
	m = map(&p, "@c");
	T_OK(m && m->keys[0].vt == VT_CGPATH && !strcmp(p.tfmts[m->keys[0].depth], "*"), "bt: cgroup_path() filter '*'");
	T_OK(compiles(&p), "bt: macaddr, cgroup_path, strcontains compile");
	bt_prog_free(&p);
	/* array comparisons; pointer keys (hex when printed) */
	r = check("struct A { int x[4]; short y[4]; }\nBEGIN { $a = (struct A *)0; @e = $a->x == $a->x; @p[(int32 *)8, 1] = 1; }", &p);
	m = map(&p, "@p");
	T_OK(r == 0 && m && m->keys[0].ptr && !m->keys[1].ptr, "bt: a pointer key is marked, an integer one not");
	T_OK(compiles(&p), "bt: array == compiles");
	bt_prog_free(&p);
	r = check("struct A { int x[4]; short y[4]; }\nBEGIN { $a = (struct A *)0; @e = $a->x < $a->x; }", &p);
	T_OK(r == 0 && !compiles(&p) && strstr(err_msg(), "The < operator cannot be used on arrays."), "bt: array <: error");
	bt_prog_free(&p);
	r = check("struct A { int x[4]; short y[4]; }\nBEGIN { $a = (struct A *)0; @e = $a->x == $a->y; }", &p);
	T_OK(r == 0 && !compiles(&p) && strstr(err_msg(), "Only arrays of same sized integer"), "bt: arrays of other elements: error");
	bt_prog_free(&p);
	/* the '#' lines before the probes, for the #include check */
	r = check("#include <a.h>\n#define Z 1\nBEGIN { exit(); }", &p);
	T_OK(r == 0 && p.ncpp == 2 && p.cpp[0] == 0 && p.cpp[1] == 15, "bt: the '#' lines before the probes");
	bt_prog_free(&p);
	r = check("BEGIN { @x = bar; }", &p);
	T_OK(r == 0 && !compiles(&p) && strstr(err_msg(), "Unknown identifier: 'bar'"), "bt: unknown identifier at compile");
	bt_prog_free(&p);
	r = check("BEGIN { if (1) { if (1) { if (1) {", &p);
	T_OK(r < 0, "bt: unterminated blocks");
	bt_prog_free(&p);
	r = check("", &p);
	T_OK(r < 0 && strstr(err_msg(), "No probes"), "bt: empty program");
	bt_prog_free(&p);
	/* '?' is no wildcard in 0.17: the attach point ends there; the range
	 * starts where its lexer last stepped (after white space) */
	r = check("BEGIN{exit()} tracepoint:syscalls:sys_enter_read, uprobe:libc:mallo? { exit(); }", &p);
	T_OK(r == -(50 + 1) && p.errend == 68 && !strcmp(err_msg(), "syntax error, unexpected ?, expecting {"),
	     "bt: '?' in an attach point: 0.17's syntax error at 50-68 (%d-%d: %s)", -r - 1, p.errend, err_msg());
	bt_prog_free(&p);
	/* one program on many functions: `probe` and `func` read from the
	 * names map at each use (a key, a comparison, a variable, printf) */
	r = check("t:syscalls:sys_enter_read { @[probe, func] = count(); $f = func; "
		  "if (func == \"x\") { printf(\"%s %s\\n\", probe, $f); } }", &p);
	p.name_len = 40;
	T_OK(r == 0 && name_reads(&p, true) == name_reads(&p, false) + 5,
	     "bt: probe and func from the names map: 5 reads where the literals were (%d, %d)", name_reads(&p, true),
	     name_reads(&p, false));
	bt_prog_free(&p);
	tp_format_free(&loc.fmt);
	T_EXIT();
}
