/* Golden tests of the tracing compiler's code generator (tools/probe):
 * probe texts in the five tools' grammars compiled without the running
 * kernel, each program printed by bpf/insn_dump.c and compared with
 * tests/golden/ARCH/NAME.txt (register offsets differ by architecture).
 *
 * Fixed inputs stand in for the kernel: tracepoint format files copied
 * from Linux 6.18's tracefs on x86_64 (tests/golden/tp/CAT.EVENT.format:
 * `cat /sys/kernel/tracing/events/CAT/EVENT/format`), kernel BTF from
 * tests/golden/kernel_types.btf (through --btf, the engine's own seam),
 * and hand-made locations where probe_resolve() would ask the kernel.
 * The programs are put together here from the engine's calls the way the
 * applets do (prologue, filter, values and strings into a record, log2
 * slots, counts by key); the applets' own programs are checked against
 * the kernel by tests/e2e/dyntrace*.sh.
 *
 * A mismatch fails with the first differing line.  To accept a change
 * on purpose: COREBOX_GOLDEN_UPDATE=1 rewrites the files (then review the
 * diff with git). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/insn_dump.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "t.h"
#include "tools/common/opt.h"
#include "tools/probe/arch.h"
#include "tools/probe/probe.h"

#define DIR "../golden"
#define STRSIZE 32

/* USDT operands in the host's assembler syntax (arch.c decodes those) */
static const char *const usdt_ops[3][2] = {
	[ARCH_X86_64] = { "-4@-12(%rbp)", "8@%rax" },
	[ARCH_ARM64] = { "-4@[x29, -12]", "8@x1" },
	[ARCH_ARM] = { "-4@[fp, #-12]", "8@r2" }, /* r2:r3, a 64-bit pair */
};

/* How the program around the probe's expressions is put together (the
 * tool whose programs it follows).  Maps by index: 0 the output (events,
 * counts, histogram), 1 the second map (trace's record heap, stackcount's
 * stacks, argdist's and funclatency's entry values). */
enum form {
	F_TRACE,   /* trace: filter, record in a per-CPU heap, perf event output */
	F_COUNT,   /* funccount: counts[location index] += 1 */
	F_STACK,   /* stackcount: counts[{kernel stack id}] += 1 */
	F_HIST,    /* argdist -H: log2 histogram of the first expression */
	F_FREQ,    /* argdist -C: counts by the expressions' values */
	F_LATENCY, /* funclatency: entry time by thread, return: log2 of the delta */
};

struct gcase {
	const char *name;
	enum form form;
	const char *text;
	enum mech mech;
	const char *tp;      /* format fixture "CAT.EVENT" (M_TP, M_SYSCALL) */
	const char *func;    /* kernel BTF function typing the arguments and retval */
	bool user, usdt, syscall_tp, is_return;
	const char *entry;   /* argdist: values saved at entry ("$latency", parameter names) */
	bool filters;        /* -p 42 -u 1000 -c 1 and a cgroup (map 2); else none */
};

static const struct gcase cases[] = {
	/* trace */
	{ "trace_tp_string", F_TRACE, "t:syscalls:sys_enter_openat \"%s\", args->filename", M_TP, "syscalls.sys_enter_openat" },
	{ "trace_tp_fields", F_TRACE, "t:sched:sched_switch (args->prev_pid != 0) \"%s -> %d\", args->prev_comm, args->next_pid",
	  M_TP, "sched.sched_switch" },
	{ "trace_tp_expr", F_TRACE, "t:syscalls:sys_enter_read (args->count >= 4096 && args->fd != 0) \"%d\", (int)args->count * 2 + (args->fd & 0xff)",
	  M_TP, "syscalls.sys_enter_read" },
	{ "trace_sys_filter", F_TRACE, "sys_read (arg3 > 20000) \"read %d bytes\", arg3", M_SYSCALL, "syscalls.sys_enter_read",
	  .syscall_tp = true },
	/* a syscall's arguments are user memory whatever their value: user read helpers only */
	{ "trace_sys_user_mem", F_TRACE, "sys_read (arg1 == 4242) \"%llx %s %llx\", arg2, arg2, *(u64 *)(arg2 + 8)", M_SYSCALL,
	  "syscalls.sys_enter_read", .syscall_tp = true },
	{ "trace_sys_tp_user_mem", F_TRACE, "sys_read \"%s %llx\", arg2, *(u64 *)arg2", M_TP, "syscalls.sys_enter_read",
	  .syscall_tp = true }, /* the same shortcut on the tracepoint itself */
	{ "trace_sys_retval", F_TRACE, "r::sys_read (retval < 0) \"%ld\", retval", M_SYSCALL, "syscalls.sys_exit_read",
	  .syscall_tp = true, .is_return = true },
	{ "trace_kretprobe_hex", F_TRACE, "r::do_sys_open \"%llx\", retval", M_KRETPROBE, .is_return = true },
	{ "trace_fexit_typed", F_TRACE, "r::vfs_read \"%d\", retval", M_FEXIT, .func = "vfs_read", .is_return = true },
	{ "trace_ids", F_TRACE, "t:sched:sched_process_exec \"%d %d %u %d\", $pid, $tgid, $uid, $cpu", M_TP,
	  "sched.sched_process_exec" },
	{ "trace_kprobe_btf_param", F_TRACE, "do_nanosleep \"%lld\", ts->tv_nsec", M_KPROBE, .func = "do_nanosleep" },
	{ "trace_fentry_sig", F_TRACE, "p::tcp_v4_connect(struct sock *sk) (sk->sk_dport == 13568) \"%d %d\", sk->sk_num, sk->sk_protocol",
	  M_FENTRY, .func = "tcp_v4_connect" },
	{ "trace_task", F_TRACE, "find_task \"%d\", $task->fs->users", M_KPROBE, .func = "find_task" },
	{ "trace_uprobe_args", F_TRACE, "p:c:write (arg1 == 1) \"writing %d bytes\", arg3", M_UPROBE, .user = true },
	{ "trace_uretprobe", F_TRACE, "r:c:malloc (retval) \"allocated = %x\", retval", M_URETPROBE, .user = true,
	  .is_return = true },
	{ "trace_usdt", F_TRACE, "u:pthread:pthread_create \"%d %llx\", arg1, arg2", M_UPROBE, .user = true, .usdt = true },
	{ "trace_filters", F_TRACE, "vfs_read \"%s\", arg2", M_KPROBE, .filters = true },
	/* funccount */
	{ "funccount_kprobe", F_COUNT, "vfs_*", M_KPROBE },
	{ "funccount_tp", F_COUNT, "t:sched:sched_switch", M_RAW_TP, "sched.sched_switch" },
	/* stackcount */
	{ "stackcount_fentry", F_STACK, "vfs_read", M_FENTRY, .func = "vfs_read" },
	/* argdist */
	{ "argdist_hist", F_HIST, "p::vfs_read(struct file *file, char *buf, size_t count):size_t:count:count > 0", M_KPROBE },
	{ "argdist_freq_tp", F_FREQ, "t:syscalls:sys_enter_read():int,u32:args->fd,args->count", M_TP, "syscalls.sys_enter_read" },
	{ "argdist_entry", F_FREQ, "r::vfs_read(struct file *file, char *buf, size_t count):size_t:$entry(count):$latency > 1000",
	  M_KRETPROBE, .func = "vfs_read", .is_return = true, .entry = "$latency,count" },
	/* funclatency */
	{ "funclatency_kprobe", F_LATENCY, "vfs_read", M_KPROBE, .func = "vfs_read" },
};

static int load_format(const char *tp, struct tp_format *f)
{
	char path[256], *text;
	size_t n;
	int err;

	snprintf(path, sizeof(path), DIR "/tp/%s.format", tp);
	if ((err = read_file(path, 1 << 20, &text, &n)) < 0)
		return err;
	err = tp_format_parse(text, f);
	free(text);
	return err;
}

/* The location probe_resolve() would find on a kernel like the fixtures. */
static int make_loc(const struct gcase *c, const struct spec *s, struct loc *l)
{
	memset(l, 0, sizeof(*l));
	l->mech = c->mech;
	l->name = s->func;
	l->user = c->user;
	l->usdt = c->usdt;
	l->syscall_tp = c->syscall_tp;
	l->is_return = c->is_return;
	l->sc_nr = -1;
	if (c->tp && load_format(c->tp, &l->fmt) < 0)
		return -1;
	if (c->syscall_tp) {
		bool exit;

		l->sc_nr = syscall_event_nr(strchr(c->tp, '.') + 1, &exit);
	}
	if (c->func) {
		const struct btf *btf = probe_kernel_btf();
		int32_t id = btf ? btf_find(btf, c->func, BTF_KIND_FUNC) : -1;
		const struct btf_type *fn = id > 0 ? btf_type_by_id(btf, (uint32_t)id) : NULL;

		if (!fn)
			return err_set(ENOENT, "no function %s in the BTF fixture", c->func);
		l->proto = fn->type;
		l->nparams = (int)btf_vlen(btf_type_by_id(btf, l->proto));
	}
	if (c->usdt) {
		l->nuargs = 2;
		l->uargs = xcalloc(2, sizeof(*l->uargs));
		for (int i = 0; i < 2; i++)
			if (usdt_arg_parse(usdt_ops[ARCH_HOST][i], &l->uargs[i]) < 0)
				return -1;
	}
	return 0;
}

/* trace's record: a header, then one slot per format conversion (%s
 * STRSIZE bytes, %c 1, %h 2, %l.. 8, others 4). */
static int conv_size(const char *fmt, int k, bool *str)
{
	for (const char *p = fmt; (p = strchr(p, '%')); p++) {
		if (p[1] == '%') {
			p++;
			continue;
		}
		if (k--)
			continue;
		p++;
		*str = *p == 's';
		return *p == 's' ? STRSIZE : *p == 'c' ? 1 : *p == 'h' ? 2 : *p == 'l' ? 8 : 4;
	}
	return -1;
}

static int gen_trace(struct gen *g, const struct spec *s, int out)
{
	struct emit *e = gen_emit(g);
	int key, off = EV_HDR;
	struct ctype t;

	if (s->pred.text && gen_filter(g, s->pred.text, s->pred.pos, out) < 0)
		return -1;
	key = gen_stack(g, 8);
	emit_st(e, 4, R10, (int16_t)key, 0);
	gen_lookup(g, 1, key, out);
	emit_mov(e, R7, R0);
	for (int i = 0; i < s->nargs; i++) {
		bool str = false;
		int size = conv_size(s->format, i, &str);

		if (size < 0)
			return err_set(EINVAL, "more arguments than conversions");
		off = (off + (size >= 8 || str ? 8 : size) - 1) & -(size >= 8 || str ? 8 : size);
		if (str) {
			if (gen_string(g, s->args[i].text, s->args[i].pos, R7, (int16_t)off, size) < 0)
				return -1;
		} else {
			if (gen_value(g, s->args[i].text, s->args[i].pos, &t) < 0)
				return -1;
			emit_stx(e, size, R7, (int16_t)off, R0);
		}
		off += size;
	}
	emit_mov(e, R1, R6);
	emit_ldmap(e, R2, 0);
	emit_ld64(e, R3, BPF_F_CURRENT_CPU);
	emit_mov(e, R4, R7);
	emit_movi(e, R5, (off + 7) & ~7);
	emit_call(e, BPF_FUNC_perf_event_output);
	return 0;
}

static int gen_argdist(struct gen *g, const struct gcase *c, const struct spec *s, int out, char **entry, int nentry)
{
	struct emit *e = gen_emit(g);
	int key = gen_stack(g, 8 * (s->nargs > 0 ? s->nargs : 1)), val = gen_stack(g, 8);
	struct ctype t;

	if (nentry) {
		int tk = gen_stack(g, 8);

		emit_stx(e, 4, R10, (int16_t)tk, R8);
		gen_lookup(g, 1, tk, out);
		emit_mov(e, R9, R0);
		gen_set_entry(g, 1, entry, nentry);
	}
	if (s->pred.text && gen_filter(g, s->pred.text, s->pred.pos, out) < 0)
		return -1;
	for (int i = 0; i < s->nargs; i++) {
		if (gen_value(g, s->args[i].text, s->args[i].pos, &t) < 0)
			return -1;
		if (c->form == F_HIST) {
			emit_mov(e, R1, R0);
			gen_log2l(g);
			emit_stx(e, 4, R10, (int16_t)key, R0);
			gen_lookup(g, 0, key, out);
			emit_movi(e, R1, 1);
			emit_xadd(e, 8, R0, 0, R1);
			return 0;
		}
		emit_stx(e, 8, R10, (int16_t)(key + 8 * i), R0);
	}
	gen_hash_inc(g, 0, key, val);
	return 0;
}

/* One program of case c at location l (entry: funclatency's entry side). */
static int compile(const struct gcase *c, const struct spec *s, const struct loc *l, bool entry, struct strbuf *b)
{
	struct cg_opts co = { .uid = -1, .cpu = -1, .strsize = STRSIZE };
	struct gen *g;
	struct emit *e;
	int out, key, val, rc = 0;
	char *names[4] = { 0 }, *list = c->entry ? xstrdup(c->entry) : NULL;
	int nnames = 0;

	for (char *p = list, *save = NULL, *tok; list && (tok = strtok_r(p, ",", &save)) && nnames < 4; p = NULL)
		names[nnames++] = tok;
	if (c->filters)
		co = (struct cg_opts){ .pid = 42, .uid = 1000, .cpu = 1, .strsize = STRSIZE, .cgroup = true, .cgroup_map = 2 };
	g = gen_new(l, s, &co);
	e = gen_emit(g);
	out = gen_begin(g);
	switch (c->form) {
	case F_TRACE:
		rc = gen_trace(g, s, out);
		break;
	case F_COUNT:
		key = gen_stack(g, 8);
		emit_st(e, 4, R10, (int16_t)key, 3); /* the fourth location the pattern matched */
		gen_lookup(g, 0, key, out);
		emit_movi(e, R1, 1);
		emit_xadd(e, 8, R0, 0, R1);
		break;
	case F_STACK:
		key = gen_stack(g, 8);
		val = gen_stack(g, 8);
		emit_mov(e, R1, R6);
		emit_ldmap(e, R2, 1);
		emit_movi(e, R3, 0);
		emit_call(e, BPF_FUNC_get_stackid);
		emit_stx(e, 4, R10, (int16_t)key, R0);
		emit_st(e, 4, R10, (int16_t)(key + 4), -1);
		gen_hash_inc(g, 0, key, val);
		break;
	case F_HIST:
	case F_FREQ:
		rc = gen_argdist(g, c, s, out, names, nnames);
		break;
	case F_LATENCY:
		key = gen_stack(g, 8);
		emit_stx(e, 4, R10, (int16_t)key, R8);
		if (entry) {
			val = gen_stack(g, 8);
			emit_call(e, BPF_FUNC_ktime_get_ns);
			emit_stx(e, 8, R10, (int16_t)val, R0);
			emit_ldmap(e, R1, 1);
			emit_mov(e, R2, R10);
			emit_alui(e, BPF_ADD, R2, key);
			emit_mov(e, R3, R10);
			emit_alui(e, BPF_ADD, R3, val);
			emit_movi(e, R4, BPF_ANY);
			emit_call(e, BPF_FUNC_map_update_elem);
		} else {
			gen_lookup(g, 1, key, out);
			emit_ldx(e, 8, R9, R0, 0);
			emit_call(e, BPF_FUNC_ktime_get_ns);
			emit_alu(e, BPF_SUB, R0, R9);
			emit_mov(e, R1, R0);
			gen_log2l(g);
			emit_stx(e, 4, R10, (int16_t)key, R0);
			gen_lookup(g, 0, key, out);
			emit_movi(e, R1, 1);
			emit_xadd(e, 8, R0, 0, R1);
		}
		break;
	}
	gen_end(g, out);
	if (!rc)
		rc = emit_finish(e);
	if (!rc)
		emit_dump(b, e);
	gen_free(g);
	free(list);
	return rc;
}

static int parse(const struct gcase *c, struct spec *s, int *pos)
{
	switch (c->form) {
	case F_TRACE: return spec_parse_trace(c->text, s, pos);
	case F_HIST:
	case F_FREQ: return spec_parse_argdist(c->text, s, pos);
	default: return spec_parse_pattern(c->text, s, pos);
	}
}

/* The first line where two texts differ. */
static void first_diff(const char *got, const char *want)
{
	size_t i = 0, start = 0, line = 1;

	for (; got[i] && got[i] == want[i]; i++)
		if (got[i] == '\n')
			start = i + 1, line++;
	printf("# first difference at line %zu:\n# -%.*s\n# +%.*s\n", line, (int)strcspn(want + start, "\n"),
	       want + start, (int)strcspn(got + start, "\n"), got + start);
}

static void check(const struct gcase *c, const char *got, bool update)
{
	char path[256], *want = NULL;
	size_t n;

	snprintf(path, sizeof(path), DIR "/" ARCH_NAME "/%s.txt", c->name);
	if (update) {
		FILE *f = fopen(path, "w");
		bool ok = f && fputs(got, f) >= 0;

		if (f && fclose(f))
			ok = false;
		T_OK(ok, "golden %s: %s rewritten", c->name, path);
		return;
	}
	if (read_file(path, 1 << 20, &want, &n) < 0) {
		T_OK(0, "golden %s: %s (COREBOX_GOLDEN_UPDATE=1 writes it)", c->name, err_msg());
		return;
	}
	if (strcmp(got, want))
		first_diff(got, want);
	T_OK(!strcmp(got, want), "golden %s: %s compiles to %s", c->name, c->text, path);
	free(want);
}

int main(void)
{
	const char *u = getenv("COREBOX_GOLDEN_UPDATE");
	bool update = u && *u && strcmp(u, "0");

	/* the kernel BTF the engine opens on first use: the fixture */
	tool_common.btf_path = DIR "/kernel_types.btf";
	T_OK(probe_kernel_btf() != NULL, "golden: the BTF fixture %s opens", tool_common.btf_path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct gcase *c = &cases[i];
		struct strbuf b = { 0 };
		struct spec s;
		struct loc l;
		int pos = -1, rc;

		if (parse(c, &s, &pos) < 0) {
			T_OK(0, "golden %s: %s does not parse at %d: %s", c->name, c->text, pos, err_msg());
			spec_free(&s);
			continue;
		}
		rc = make_loc(c, &s, &l);
		if (!rc && c->form == F_LATENCY) {
			struct loc ret = l;

			strbuf_add(&b, "; entry\n");
			rc = compile(c, &s, &l, true, &b);
			ret.mech = M_KRETPROBE;
			ret.is_return = true;
			strbuf_add(&b, "; return\n");
			if (!rc)
				rc = compile(c, &s, &ret, false, &b);
		} else if (!rc) {
			rc = compile(c, &s, &l, false, &b);
		}
		if (rc < 0)
			T_OK(0, "golden %s: %s does not compile: %s", c->name, c->text, err_msg());
		else
			check(c, b.s, update);
		strbuf_free(&b);
		tp_format_free(&l.fmt);
		free(l.uargs);
		spec_free(&s);
	}
	probe_kernel_btf_release();
	T_EXIT();
}
