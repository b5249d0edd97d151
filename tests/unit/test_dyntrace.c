/* The dynamic-tracing generator's pieces without a kernel: instruction
 * encoding and labels, the probe grammars (bcc's examples), expression
 * parse errors with positions, tracepoint formats, USDT operands. */
#include <regex.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/insn.h"
#include "lib/err.h"
#include "t.h"
#include "tools/probe/match.h"
#include "tools/probe/probe.h"

static void test_emit(void)
{
	struct emit e;
	int l;

	emit_init(&e);
	l = emit_label(&e);
	emit_movi(&e, R0, 7);
	emit_jmpi(&e, BPF_JEQ, R1, 3, l);
	emit_ld64(&e, R2, 0x123456789ull);
	emit_ldmap(&e, R1, 2);
	emit_place(&e, l);
	emit_exit(&e);
	T_OK(emit_finish(&e) == 0, "emitter: finishes");
	T_OK(e.cnt == 7, "emitter: 7 instructions (got %zu)", e.cnt);
	T_OK(e.insns[0].code == (BPF_ALU64 | BPF_MOV | BPF_K) && e.insns[0].imm == 7, "emitter: mov r0, 7");
	T_OK(e.insns[1].off == 4, "emitter: forward jump over ld_imm64 pairs (off %d)", e.insns[1].off);
	T_OK(e.insns[2].code == (BPF_LD | BPF_IMM | BPF_DW) && (uint32_t)e.insns[3].imm == 0x1, "emitter: 64-bit constant");
	T_OK(e.nr_maps == 1 && e.maps[0].insn == 4 && e.maps[0].map == 2 && e.insns[4].src_reg == BPF_PSEUDO_MAP_FD,
	     "emitter: map reference recorded");
	emit_free(&e);
	emit_init(&e);
	l = emit_label(&e);
	emit_ja(&e, l);
	T_OK(emit_finish(&e) < 0, "emitter: an unplaced label is an error");
	emit_free(&e);
}

static void test_spec(void)
{
	static const char *const good[] = {
		"do_sys_open", "kfree_skb+0x12", "do_sys_open \"%s\", arg2@user",
		"sys_read (arg3 > 20000) \"read %d bytes\", arg3", "r::do_sys_open \"%llx\", retval",
		"c:open (arg2 == 42) \"%s %d\", arg1, arg2", "p:c:write (arg1 == 1) \"writing %d bytes to STDOUT\", arg3",
		"r::__kmalloc (retval == 0) \"kmalloc failed!\"", "t:block:block_rq_complete \"sectors=%d\", args->nr_sector",
		"u:pthread:pthread_create (arg4 != 0)", "u:pthread:libpthread:pthread_create (arg4 != 0)",
		"p::SyS_nanosleep(struct timespec *ts) \"sleep for %lld ns\", ts->tv_nsec",
		"udpv6_sendmsg(struct sock *sk) (sk->sk_dport == 13568)", "mntns_install \"users = %d\", $task->fs->users",
		"r:c:malloc (retval) \"allocated = %x\", retval", "p:c:inet_pton",
	};
	struct spec s;
	int pos;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int r = spec_parse_trace(good[i], &s, &pos);

		T_OK(r == 0, "trace grammar accepts %s%s%s", good[i], r ? ": " : "", r ? err_msg() : "");
		spec_free(&s);
	}
	spec_parse_trace("p:/usr/lib/x:y:func+16 (a) \"%d\", b", &s, &pos);
	T_OK(!strcmp(s.lib, "/usr/lib/x:y") && !strcmp(s.func, "func") && s.offset == 16 && s.nargs == 1,
	     "trace grammar: LIB with ':' keeps everything between the first and last ':'");
	spec_free(&s);
	T_OK(spec_parse_trace("x:c:f", &s, &pos) < 0 && pos == 0, "trace grammar: bad probe type");
	spec_free(&s);
	T_OK(spec_parse_trace("f (a > 1", &s, &pos) < 0 && pos == 2, "trace grammar: unmatched predicate at 2 (%d)", pos);
	spec_free(&s);
	T_OK(spec_parse_pattern("t:sched:sched_*", &s, &pos) == 0 && s.type == 't' && !strcmp(s.lib, "sched"),
	     "pattern grammar: tracepoints");
	spec_free(&s);
	T_OK(spec_parse_pattern("p:c:m:x", &s, &pos) < 0, "pattern grammar: too many parts");
	spec_free(&s);
	T_OK(spec_parse_argdist("r::__vfs_read(void *file, void *buf, size_t count):size_t:$entry(count):$latency > 1000000#lbl",
				&s, &pos) == 0 && s.nparams == 3 && !strcmp(s.params[2].name, "count") && s.nargs == 1 &&
		     s.pred.text && !strcmp(s.label, "lbl"),
	     "argdist grammar: signature, expression, filter, label");
	spec_free(&s);
	T_OK(spec_parse_argdist("p:c:malloc(size_t size):u64,u32:size", &s, &pos) < 0, "argdist grammar: type/expr count mismatch");
	spec_free(&s);
	T_OK(glob_match("vfs_*", "vfs_read") && !glob_match("vfs_*", "xvfs_read") && glob_match("*", ""), "globs");
}

static void test_expr(void)
{
	int pos = 0;
	struct node *n = expr_parse("(a + 2) * ((struct sock *)arg1)->sk_family == 3 && STRCMP(\"x\", arg2)", &pos);

	T_OK(n && n->kind == N_BINARY && n->op == OP_AND, "expression: precedence, casts, calls");
	expr_free(n);
	T_OK(!expr_parse("arg1 > ", &pos) && pos == 7, "expression: error at the end (pos %d)", pos);
	T_OK(!expr_parse("arg1 @ 2", &pos) && pos == 5, "expression: bad character (pos %d)", pos);
	T_OK(!expr_parse("((((", &pos), "expression: unbalanced");
}

static void test_formats(void)
{
	struct tp_format f;
	struct usdt_arg a;
	const char *fmt = "name: sys_enter_openat\nID: 1\nformat:\n"
			  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			  "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
			  "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
			  "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
			  "\tfield:char comm[16];\toffset:32;\tsize:16;\tsigned:0;\n"
			  "\tfield:__data_loc char[] name;\toffset:48;\tsize:4;\tsigned:0;\n";

	T_OK(tp_format_parse(fmt, &f) == 0 && f.n == 6, "tracepoint format: 6 fields");
	T_OK(tp_field(&f, "filename") && tp_field(&f, "filename")->off == 24 && f.first_arg == 2,
	     "tracepoint format: filename at 24, syscall arguments from field 2");
	T_OK(tp_field(&f, "comm") && !strcmp(tp_field(&f, "comm")->type, "char [16]"), "tracepoint format: arrays");
	T_OK(tp_field(&f, "name") && tp_field(&f, "name")->data_loc, "tracepoint format: __data_loc");
	tp_format_free(&f);
	T_OK(tp_format_parse("\tfield:int x;\toffset:65530;\tsize:8;\tsigned:1;\n", &f) == -EINVAL &&
		     tp_format_parse("\tfield:int x;\toffset:99999999999999999999;\tsize:4;\n", &f) == -EINVAL,
	     "tracepoint format: a field outside any record is refused");
#ifdef __x86_64__
	T_OK(usdt_arg_parse("-4@-12(%rbp)", &a) == 0 && a.kind == UA_MEM && a.sign && a.size == 4 && a.val == -12 &&
		     a.reg == 32, "USDT: -4@-12(%%rbp)");
	T_OK(usdt_arg_parse("8@%rax", &a) == 0 && a.kind == UA_REG && a.reg == 80, "USDT: 8@%%rax");
	T_OK(usdt_arg_parse("4@$4242", &a) == 0 && a.kind == UA_CONST && a.val == 4242, "USDT: 4@$4242");
	T_OK(usdt_arg_parse("8@8(%rax,%rbx,8)", &a) == 0 && a.idx == 40 && a.scale == 8, "USDT: base, index, scale");
	T_OK(usdt_arg_parse("8@sym(%rip)", &a) < 0, "USDT: symbolic operands are refused with a message");
#elif defined(__aarch64__)
	T_OK(usdt_arg_parse("-4@[x29, -12]", &a) == 0 && a.kind == UA_MEM && a.sign && a.size == 4 && a.val == -12 &&
		     a.reg == 232 && a.idx == -1, "USDT: -4@[x29, -12]");
	T_OK(usdt_arg_parse("8@x1", &a) == 0 && a.kind == UA_REG && a.reg == 8, "USDT: 8@x1");
	T_OK(usdt_arg_parse("4@#42", &a) == 0 && a.kind == UA_CONST && a.val == 42, "USDT: 4@#42");
	T_OK(usdt_arg_parse("8@[sp, 16]", &a) == 0 && a.kind == UA_MEM && a.reg == 248 && a.val == 16,
	     "USDT: 8@[sp, 16]");
#endif
	T_OK(usdt_arg_parse("3@%rax", &a) < 0, "USDT: bad size");
}

/* A random well-formed ERE over a small alphabet (no '{', no quantifier
 * after '^' or '(': where POSIX and Python differ). */
static void rand_re(char *b, size_t *n, size_t max, int depth, unsigned *seed)
{
	int parts = 1 + (int)(rand_r(seed) % 3);

	for (int i = 0; i < parts && *n + 12 < max; i++) {
		int k = (int)(rand_r(seed) % 10);

		if (k == 0 && depth < 3) {
			b[(*n)++] = '(';
			rand_re(b, n, max, depth + 1, seed);
			if (rand_r(seed) % 2) {
				b[(*n)++] = '|';
				rand_re(b, n, max, depth + 1, seed);
			}
			b[(*n)++] = ')';
		} else if (k == 1) {
			const char *cls[] = { "[ab]", "[^a]", "[a-c]", "[^b-c_]" };
			const char *c = cls[rand_r(seed) % 4];

			memcpy(b + *n, c, strlen(c));
			*n += strlen(c);
		} else if (k == 2) {
			b[(*n)++] = '.';
		} else {
			b[(*n)++] = "abc_"[rand_r(seed) % 4];
		}
		if (rand_r(seed) % 3 == 0)
			b[(*n)++] = "*+?"[rand_r(seed) % 3];
	}
	b[*n] = 0;
}

static void test_match(void)
{
	static const struct { const char *re, *s; bool m; } cases[] = {
		{ "^vfs_.*", "vfs_read", true }, { "vfs_", "do_vfs_read", false }, /* re.match: from the start */
		{ "vfs_(read|write)$", "vfs_write", true }, { "vfs_(read|write)$", "vfs_writev", false },
		{ "vfs_(read|write)", "vfs_writev", true }, { "tcp_send(msg|page)?$", "tcp_send", true },
		{ "tcp_send(msg|page)?$", "tcp_sendpage", true }, { "[a-c]+x", "abcax", true }, { "[^a-c]", "a", false },
		{ "a\\.b", "a.b", true }, { "a\\.b", "axb", false }, { "\\d+_\\w+$", "42_x9", true },
		{ "\\D", "4", false }, { "x|", "y", true }, { "(a*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", false },
		{ "a{2}", "a{2}", true }, { "[]a]+$", "]a]", true }, { "^$", "", true }, { ".", "", false },
	};
	static const char *const bad[] = { "(ab", "ab)", "[ab", "*a", "a\\", "a|*" };
	struct matcher m;
	int ok = 1;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool r = match_compile(&m, cases[i].re, true) == 0 && match(&m, cases[i].s);

		if (r != cases[i].m) {
			printf("# /%s/ on '%s': %d (%s)\n", cases[i].re, cases[i].s, r, err_msg());
			ok = 0;
		}
		match_free(&m);
	}
	T_OK(ok, "regex: bcc patterns (anchored at the start like re.match), classes, escapes, alternation");
	ok = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (match_compile(&m, bad[i], true) == 0 || !strstr(err_msg(), bad[i]))
			ok = 0;
		match_free(&m);
	}
	T_OK(ok, "regex: malformed patterns are refused with a message (%s)", err_msg());
	/* the same answers as glibc's POSIX regexec on "^(RE)" */
	{
		unsigned seed = 12345, agree = 0, total = 0;
		const char *subj[] = { "", "a", "b", "ab", "ba", "abc", "aabbcc", "c_a", "_", "abcabc", "cba_", "aaa" };

		for (int i = 0; i < 3000; i++) {
			char re[256], anchored[300];
			size_t n = 0;
			regex_t px;

			rand_re(re, &n, 200, 0, &seed);
			snprintf(anchored, sizeof(anchored), "^(%s)", re);
			if (regcomp(&px, anchored, REG_EXTENDED | REG_NOSUB) != 0)
				continue;
			if (match_compile(&m, re, true) == 0) {
				for (size_t k = 0; k < sizeof(subj) / sizeof(subj[0]); k++) {
					bool a = match(&m, subj[k]), b = regexec(&px, subj[k], 0, NULL, 0) == 0;

					total++;
					agree += a == b;
					if (a != b && total - agree < 5)
						printf("# /%s/ on '%s': ours %d, regexec %d\n", re, subj[k], a, b);
				}
				match_free(&m);
			}
			regfree(&px);
		}
		T_OK(total > 10000 && agree == total, "regex: %u of %u random matches agree with regexec", agree, total);
	}
	T_OK(glob_match("vfs_[rw]*", "vfs_read") && glob_match("vfs_[rw]*", "vfs_write") && !glob_match("vfs_[rw]*", "vfs_open") &&
	     glob_match("[!v]*", "do_x") && !glob_match("[!v]*", "vfs") && glob_match("sys_[a-c]?", "sys_b1") &&
	     glob_match("x[", "x[") && glob_match("*[0-9]", "tick9"), "globs with [...] classes");
}

int main(void)
{
	test_emit();
	test_spec();
	test_expr();
	test_formats();
	test_match();
	T_EXIT();
}
