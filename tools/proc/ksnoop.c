/* applet ksnoop: trace kernel function entry/return with arguments decoded from BTF
 * readme: kernel function calls and returns with their arguments and return value shown by BTF type
 *         (`ksnoop trace 'ip_send_skb(skb->len > 128, skb)'`, `-s` a call stack, `ksnoop info FUNC` the
 *         prototype); fentry/fexit (5.17+) or kprobes
 *
 * libbpf-tools' 0.26 command line and text: `ksnoop [-s] [-p PID] [-v]
 * [info|trace] FUNC[(ARG[->MEMBER] [PRED], ...)] ...`; a value is printed
 * as libbpf's typed data dump prints it (btf/btf_data.c).  Deliberate
 * differences: where 0.26 loops forever on an argument type it cannot
 * name (a function pointer, an anonymous struct), "?" is printed; exit
 * codes are corebox's (2 usage, 1 runtime error; 0.26 exits with -errno);
 * -j prints an object per call. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bpf/cpus.h"
#include "bpf/kallsyms.h"
#include "bpf/sys.h"
#include "btf/btf.h"
#include "btf/btf_data.h"
#include "btf/btf_print.h"
#include "lib/err.h"
#include "lib/scan.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "loader/kbtf.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/common/kfunc.h"
#include "ksnoop.h"

BPF_OBJ_DECLARE(ksnoop);

#define ID_UNKNOWN 0xffffffffu
#define MAX_ARGS (KS_VALUES - 1)

struct kval {
	char name[256];
	uint32_t type_id, size, flags, base_arg, offset;
	uint64_t pred;
};

struct kfn {
	char name[96], mod[96];
	uint64_t ip, prev_ip, next_ip;
	int nr_args, nr_traces;
	uint32_t flags;
	const struct btf *btf;
	struct kval args[KS_VALUES], traces[KS_VALUES];
};

static bool stack_mode, verbose_mode;
static int filter_pid;
static struct kfn *fns;
static int nr_fns;
static struct kbtf vmlinux, mods[KS_MAX_FUNCS];
static int nr_mods;

static void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 0.26's messages, after corebox's "ksnoop: " (0.26: "Error: "), with
 * what came from the command line escaped */
static void p_err(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("ksnoop: ", stderr);
	fputs_escaped(msg, "", stderr);
	fputc('\n', stderr);
}

static const struct tool_help thelp;

/* corebox's usage error where 0.26 prints its usage text after the error */
#define usage(...) opt_usage_error(&thelp, __VA_ARGS__)

/* ---- types and values (libbpf-tools' rules) ---- */

static bool is_mod(int k) { return k == BTF_KIND_CONST || k == BTF_KIND_VOLATILE || k == BTF_KIND_RESTRICT; }

/* Qualifiers and pointers stripped; the pointer noted in flags. */
static void type_to_value(const struct btf *btf, const char *name, uint32_t id, struct kval *v)
{
	const struct btf_type *t;
	int64_t size;

	if (!v->name[0])
		snprintf(v->name, sizeof(v->name), "%s", name ? name : "");
	for (int i = 0; i < 64 && id && (t = btf_type_by_id(btf, id)); i++) {
		if (btf_kind(t) == BTF_KIND_PTR)
			v->flags |= KS_F_PTR;
		else if (!is_mod(btf_kind(t)))
			break;
		id = t->type;
	}
	v->type_id = btf_type_by_id(btf, id) || !id ? id : ID_UNKNOWN;
	size = btf_type_size(btf, id);
	v->size = size > 0 && size < (1 << 30) ? (uint32_t)size : 0;
}

static int member_to_value(const struct btf *btf, const char *name, uint32_t id, struct kval *v, int lvl)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	const char *pname = t ? btf_name(btf, t) : "";

	if (!*pname)
		pname = "<anon>";
	if (t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION)) {
		const struct btf_member *m = btf_members(t);

		for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
			const struct btf_type *mt = btf_type_by_id(btf, m->type);
			const char *mname = btf_str(btf, m->name_off) ?: "";
			uint32_t off = btf_member_bit_offset(t, m) / 8;

			if (!*mname && mt && lvl < 16 &&
			    (btf_kind(mt) == BTF_KIND_STRUCT || btf_kind(mt) == BTF_KIND_UNION)) {
				v->offset += off;
				if (!member_to_value(btf, name, m->type, v, lvl + 1))
					return 0;
				v->offset -= off;
				continue;
			}
			if (!strcmp(mname, name)) {
				v->offset += off;
				v->flags |= KS_F_MEMBER;
				type_to_value(btf, NULL, m->type, v);
				return 0;
			}
		}
		if (!lvl)
			p_err("No member '%s' found in %s [%u], offset %u", name, pname, id, v->offset);
	} else {
		p_err("'%s' is not a struct/union", pname);
	}
	return -ENOENT;
}

static int predicate_to_value(const char *pred, struct kval *v)
{
	char op[8], *end;
	size_t n = strspn(pred, "!=><");
	long long x;

	if (!n || n >= sizeof(op) || (x = strtoll(pred + n, &end, 0), end == pred + n)) {
		p_err("Invalid specification; expected predicate, not '%s'", pred);
		return -EINVAL;
	}
	memcpy(op, pred, n);
	op[n] = 0;
	if (!(v->flags & KS_F_PTR) && (v->size == 0 || v->size > 8)) {
		p_err("'%s' (size %d) does not support predicate comparison", v->name, (int)v->size);
		return -EINVAL;
	}
	v->pred = (uint64_t)x;
	if (!strcmp(op, "==")) {
		v->flags |= KS_F_EQ;
	} else if (!strcmp(op, "!=")) {
		v->flags |= KS_F_NE;
	} else {
		/* ">", "<", ">=", "<=" (and, as 0.26, "=" alone tests nothing) */
		v->flags |= op[0] == '>' ? KS_F_GT : op[0] == '<' ? KS_F_LT : 0;
		if (n > 1 && op[1] != '=') {
			p_err("Invalid predicate specification '%s'", pred);
			return -EINVAL;
		}
		if (n > 1)
			v->flags |= KS_F_EQ;
	}
	return 0;
}

/* "struct sk_buff " / "ssize_t " / "void ": libbpf-tools' type_id_to_str */
static const char *type_str(const struct btf *btf, uint32_t id, char *buf, size_t size)
{
	const char *prefix = "", *suffix = " ", *ptr = "", *name = "";

	if (!id)
		name = "void";
	else if (id == ID_UNKNOWN)
		name = "?";
	for (int i = 0; id && id != ID_UNKNOWN && !*name && i < 64; i++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		int k = t ? btf_kind(t) : -1;

		if (!t)
			name = "?";
		else if (is_mod(k) || k == BTF_KIND_PTR || k == BTF_KIND_ARRAY) {
			if (k == BTF_KIND_PTR)
				ptr = "* ";
			if (k == BTF_KIND_ARRAY)
				suffix = "[]";
			id = k == BTF_KIND_ARRAY ? btf_array_info(t)->type : t->type;
			if (!id)
				name = "void";
			continue;
		} else {
			prefix = k == BTF_KIND_STRUCT ? "struct " : k == BTF_KIND_UNION ? "union " :
				 k == BTF_KIND_ENUM ? "enum " : "";
			name = btf_name(btf, t);
			/* 0.26 loops forever on a nameless type (function pointer,
			 * anonymous struct): "?" says what it could not name */
			if (!*name && !*prefix)
				name = "?";
			break;
		}
	}
	snprintf(buf, size, "%s%s%s%s", prefix, name, suffix, ptr);
	return buf;
}

static const char *value_str(const struct btf *btf, const struct kval *v, char *buf, size_t size)
{
	size_t n;

	type_str(btf, v->type_id, buf, size);
	n = strlen(buf);
	snprintf(buf + n, size - n, "%s%s", v->flags & KS_F_PTR ? "*" : "", strcmp(v->name, "return") ? v->name : "");
	return buf;
}

/* ---- the function list ---- */

static size_t name_len(const char *s)
{
	size_t n = 0;

	/* 0.26's scanset [A-Za-z0-9\-_]: the "\-_" is the range \ ] ^ _ */
	while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
	       (s[n] >= '\\' && s[n] <= '_'))
		n++;
	return n;
}

/* Addresses and modules from /proc/kallsyms, one pass for all functions
 * (the first symbol of each name; 0 and "" when not listed). */
static int ksym_fn(void *ctx, const struct kallsym *k)
{
	for (int i = 0; i < *(int *)ctx; i++)
		if (!fns[i].ip && !strcmp(fns[i].name, k->name)) {
			fns[i].ip = k->addr;
			snprintf(fns[i].mod, sizeof(fns[i].mod), "%s", k->mod ? k->mod : "");
		}
	return 0;
}

static const struct btf *func_btf(struct kfn *f)
{
	char path[512];

	if (!vmlinux.btf && kbtf_open(&vmlinux, tool_common.btf_path) < 0) {
		p_err("No BTF, cannot determine type info: %s", err_msg());
		return NULL;
	}
	if (!f->mod[0])
		return vmlinux.btf;
	for (int i = 0; i < nr_mods; i++)
		if (!strcmp(strrchr(mods[i].path, '/') + 1, f->mod))
			return mods[i].btf;
	if (nr_mods == KS_MAX_FUNCS || kbtf_module_path(path, sizeof(path), f->mod) < 0 ||
	    kbtf_open_split(&mods[nr_mods], path, vmlinux.btf) < 0) {
		p_err("No BTF for module '%s': %s", f->mod, err_msg());
		return NULL;
	}
	return mods[nr_mods++].btf;
}

static int parse_fn(const char *spec, struct kfn *f)
{
	char str[256], args[256], *arg, *save;
	size_t len = 0, n;
	const struct btf_type *t;
	int32_t id;
	int nr_pred = 0, nr_entry = 0, nr_ret = 0;

	for (const char *s = spec; *s && len < sizeof(str) - 1; s++)
		if (!strchr(" \t\n\v\f\r", *s))
			str[len++] = *s;
	str[len] = 0;
	n = name_len(str);
	if (!n || n >= sizeof(f->name) || (str[n] && (str[n] != '(' || str[n + 1] == ')' || !str[n + 1])))
		usage("invalid function specification '%s': FUNC or FUNC(ARG,...)", str);
	memcpy(f->name, str, n);
	args[0] = 0;
	if (str[n]) {
		/* NAME( then up to the first ')', which may be missing (0.26) */
		size_t a = strcspn(str + n + 1, ")");

		memcpy(args, str + n + 1, a);
		args[a] = 0;
		f->flags |= KS_F_CUSTOM;
		if (len > n + a + 2)
			usage("invalid function specification '%s': FUNC or FUNC(ARG,...)", str);
	}
	if (!(f->btf = func_btf(f)))
		return -ENOENT;
	id = btf_find(f->btf, f->name, BTF_KIND_FUNC);
	if (id <= 0 || !(t = btf_type_by_id(f->btf, id)) || !(t = btf_type_by_id(f->btf, t->type)) ||
	    btf_kind(t) != BTF_KIND_FUNC_PROTO) {
		p_err("Cannot find function '%s' in BTF: %s", f->name, strerror(ENOENT));
		return -ENOENT;
	}
	for (uint32_t i = 0; i < btf_vlen(t) && i < MAX_ARGS; i++)
		type_to_value(f->btf, btf_str(f->btf, btf_params(t)[i].name_off), btf_params(t)[i].type, &f->args[i]);
	f->nr_args = (int)btf_vlen(t);
	type_to_value(f->btf, "return", t->type, &f->args[KS_RETURN]);

	for (arg = strtok_r(args, ",", &save); arg; arg = strtok_r(NULL, ",", &save)) {
		struct kval *v = &f->traces[f->nr_traces];
		char argname[96] = "", member[96] = "";
		const char *pred = NULL;
		size_t an = name_len(arg), mn = 0;
		int i;

		if (an < sizeof(argname))
			memcpy(argname, arg, an);
		if (!strncmp(arg + an, "->", 2) && (mn = name_len(arg + an + 2)) && mn < sizeof(member))
			memcpy(member, arg + an + 2, mn);
		pred = arg[mn ? an + 2 + mn : an] ? arg + (mn ? an + 2 + mn : an) : NULL;
		if (f->nr_traces >= KS_VALUES) {
			p_err("Too many arguments; up to %d are supported", KS_VALUES);
			return -EINVAL;
		}
		snprintf(v->name, sizeof(v->name), mn ? "%s->%s" : "%s", argname, member);
		for (i = 0; i < KS_VALUES; i++)
			if (f->args[i].name[0] && !strcmp(argname, f->args[i].name))
				break;
		if (i == KS_VALUES) {
			p_err("Could not find '%s' in arguments/return value for '%s'", argname, f->name);
			return -ENOENT;
		}
		v->base_arg = i;
		if (mn) {
			if (member_to_value(f->btf, member, f->args[i].type_id, v, 0))
				return -ENOENT;
		} else {
			v->type_id = f->args[i].type_id;
			v->flags |= f->args[i].flags;
			v->size = f->args[i].size;
		}
		if (pred && predicate_to_value(pred, v))
			return -EINVAL;
		nr_pred += !!pred;
		nr_ret += i == KS_RETURN;
		nr_entry += i != KS_RETURN;
		f->nr_traces++;
	}
	if (f->nr_traces) {
		f->flags |= KS_F_CUSTOM;
		/* predicates on a mix of entry and return values: keep what
		 * entry saw until the return decides */
		if (nr_pred && nr_entry && nr_ret)
			f->flags |= KS_F_STASH;
	} else {
		memcpy(f->traces, f->args, sizeof(f->traces));
		for (int i = 0; i < KS_VALUES; i++)
			f->traces[i].base_arg = i;
		f->nr_traces = KS_VALUES;
	}
	return 0;
}

static int parse_fns(int argc, char **argv)
{
	if (!argc)
		usage("no function to trace");
	if (argc > KS_MAX_FUNCS) {
		p_err("A maximum of %d traces are supported", KS_MAX_FUNCS);
		return -EINVAL;
	}
	fns = xcalloc(argc, sizeof(*fns));
	for (int i = 0; i < argc; i++) { /* the names, for one pass over kallsyms */
		const char *a = argv[i] + strspn(argv[i], " \t\n\v\f\r");
		size_t n = name_len(a);

		snprintf(fns[i].name, sizeof(fns[i].name), "%.*s", (int)n, a);
	}
	kallsyms_each(NULL, ksym_fn, &argc);
	for (nr_fns = 0; nr_fns < argc; nr_fns++) {
		if (parse_fn(argv[nr_fns], &fns[nr_fns]))
			return -EINVAL;
		if (stack_mode && nr_fns) {
			fns[nr_fns].prev_ip = fns[nr_fns - 1].ip;
			fns[nr_fns - 1].next_ip = fns[nr_fns].ip;
		}
	}
	return 0;
}

static int cmd_info(int argc, char **argv)
{
	char s[512];

	if (parse_fns(argc, argv))
		return 1;
	for (int i = 0; i < nr_fns; i++) {
		struct kfn *f = &fns[i];
		struct kval none = { .type_id = 0 };

		printf("%s%s(", value_str(f->btf, &f->args[KS_RETURN], s, sizeof(s)), f->name);
		/* 0.26 goes on past its 5 argument slots: the 6th shows the
		 * return value's type, the others an empty slot ("void ") */
		for (int j = 0; j < f->nr_args; j++)
			printf("%s%s", j ? ", " : "", value_str(f->btf, j < KS_VALUES ? &f->args[j] : &none, s, sizeof(s)));
		if (f->nr_args > MAX_ARGS)
			printf(" /* and %d more args that are not traceable */", f->nr_args - MAX_ARGS);
		printf(");\n");
	}
	return 0;
}

/* ---- tracing ---- */

static int on_event(void *ctx, const void *data, size_t size)
{
	static struct ks_event e;
	const struct kfn *f;
	bool entry, json = out_json();
	int shown = 0;
	char comm[4 * sizeof(e.comm) + 1];

	(void)ctx;
	memset(&e, 0, sizeof(e));
	if (size < offsetof(struct ks_event, buf) || (memcpy(&e, data, size < sizeof(e) ? size : sizeof(e)), e.idx >= (uint32_t)nr_fns))
		return 0;
	f = &fns[e.idx];
	entry = e.data_flags & KS_F_ENTRY;
	e.comm[sizeof(e.comm) - 1] = 0;
	if (json) {
		struct strbuf b = { 0 };

		strbuf_addf(&b, "{\"time\":%llu,", (unsigned long long)e.time);
		if (e.head.cgroup_id) { /* set by event_tool.c from the same head */
			out_cgroup_fields(&b);
			strbuf_addc(&b, ',');
		}
		strbuf_addf(&b, "\"cpu\":%u,\"pid\":%u,\"pid_ns\":%u,\"comm\":", e.cpu, e.pid, e.pid_ns);
		json_str(&b, e.comm);
		strbuf_addf(&b, ",\"function\":\"%s\",\"event\":\"%s\",\"values\":{", f->name,
			    entry ? "entry" : "return");
		fputs(b.s, stdout);
		strbuf_free(&b);
	} else {
		out_cgroup_prefix(); /* --show-cgroup: the block's first line starts with it */
		if (verbose_mode)
			printf("%16lld %4d %8u %8u %16s %32s(\n", (long long)e.time, (int)e.cpu, e.pid_ns, e.pid,
			       str_escape(comm, sizeof(comm), e.comm, ""), f->name);
		else
			printf("%16lld %4d %8u %s(\n", (long long)e.time, (int)e.cpu, e.pid, f->name);
	}
	for (int i = 0; i < f->nr_traces; i++) {
		const struct kval *v = &f->traces[i];
		const struct ks_data *d = &e.data[i];
		bool ventry = v->base_arg != KS_RETURN;
		bool bad = d->err || (size_t)d->off + d->len > size - offsetof(struct ks_event, buf);
		char ts[256];

		/* entry values show at entry; at return only when stashed
		 * (names: C identifiers from BTF, checked when parsed) */
		if ((entry && !ventry) || (!entry && ventry && !(f->flags & KS_F_STASH)) || !v->type_id)
			continue;
		if (json) {
			printf("%s\"%s\":", shown++ ? "," : "", v->name);
			if (bad)
				fputs("null", stdout);
			else
				btf_print_json(stdout, f->btf, v->type_id, e.buf + d->off, d->len);
			continue;
		}
		printf("%s%34s %s = ", shown++ ? ",\n" : "", "", v->name);
		if (v->flags & KS_F_PTR)
			printf("*(0x%llx)", (unsigned long long)d->raw);
		printf("\n");
		if (bad)
			printf("%36s /* Cannot show '%s' as '%s%s'; invalid/userspace ptr? */\n", "", v->name,
			       type_str(f->btf, v->type_id, ts, sizeof(ts)), v->flags & KS_F_PTR ? " *" : "");
		else if (btf_dump_data(stdout, f->btf, v->type_id, e.buf + d->off, d->len, 36) == -E2BIG)
			printf("%36s... /* %d bytes of %d */", "", d->len, (int)v->size);
	}
	printf(json ? "}}\n" : "\n%31s);\n\n", "");
	fflush(stdout);
	return 0;
}

static int after_load(struct obj *o)
{
	int fd = map_fd(obj_map(o, "ks_funcs")), ncpu = cpus_possible();
	struct ks_func *vals = xcalloc(ncpu, sizeof(*vals));
	int err = 0;

	for (int i = 0; i < nr_fns && !err; i++) {
		struct kfn *f = &fns[i];
		struct ks_func c = { .prev_ip = f->prev_ip, .next_ip = f->next_ip, .flags = f->flags,
				     .filter_pid = (uint32_t)filter_pid, .nr_traces = (uint32_t)f->nr_traces,
				     .idx = (uint32_t)i };

		for (int j = 0; j < KS_VALUES; j++) {
			const struct kval *v = &f->traces[j];

			c.traces[j] = (struct ks_value){ .base_arg = v->base_arg, .offset = v->offset, .size = v->size,
							 .flags = v->flags, .predicate = v->pred,
							 .shown = v->type_id || (v->flags & KS_F_PTR) };
		}
		for (int k = 0; k < ncpu; k++)
			vals[k] = c;
		if ((err = bpf_map_update(fd, &f->ip, vals, 1 /* BPF_NOEXIST */)) < 0)
			p_err("Could not add map entry for '%s': %s", f->name, strerror(-err));
	}
	free(vals);
	if (err)
		return 1;
	if (out_json()) { /* stdout holds only the events: the start is told on stderr */
		fprintf(stderr, "ksnoop: tracing %d function%s\n", nr_fns, nr_fns > 1 ? "s" : "");
		return 0;
	}
	out_cgroup_head();
	if (verbose_mode)
		printf("%16s %4s %8s %8s %16s %32s\n", "TIME", "CPU", "NAMESPACE", "PID", "COMM", "FUNCTION/ARGS");
	else
		printf("%16s %4s %8s %s\n", "TIME", "CPU", "PID", "FUNCTION/ARGS");
	fflush(stdout);
	return 0;
}

/* bpf_get_func_arg/ret, which fentry programs of any function need, came in 5.17 */
static bool fentry_args(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	return !uname(&u) && str_scan(u.release, "%d.%d", &maj, &min) == 2 && (maj > 5 || (maj == 5 && min >= 17));
}

static int cmd_trace(int argc, char **argv)
{
	struct tool_events te = { .name = "ksnoop", .after_load = after_load, .on_event = on_event };
	static const char *const progs[] = { "ksnoop_fentry", "ksnoop_fexit", "ksnoop_kprobe", "ksnoop_kretprobe" };
	bool fentry_ok = fentry_args();
	struct obj *o;

	if (parse_fns(argc, argv))
		return 1;
	tool_signals();
	o = BPF_OBJ_OPEN(ksnoop);
	for (int i = 0; i < nr_fns; i++) {
		enum kfunc_way way = kfunc_way(o, fns[i].name);
		char name[32];
		int base;

		if (way == KFUNC_FENTRY && !fentry_ok)
			way = kfunc_have_kprobes() ? KFUNC_KPROBE : KFUNC_NONE;
		if (way == KFUNC_NONE || !fns[i].ip) {
			tool_err("ksnoop", "cannot trace %s: %s; a kernel with BTF trampolines (fentry, 5.17+) or kprobes "
				 "would do", fns[i].name,
				 !fns[i].ip ? "not in /proc/kallsyms" :
				 kfunc_have_kprobes() ? "neither fentry nor a kprobe attaches to it" :
							"this kernel has no kprobes and refuses fentry");
			obj_close(o);
			return 1;
		}
		base = way == KFUNC_FENTRY ? 0 : 2;
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "ks%d_%d", i, k);
			if (!prog_clone(obj_prog(o, progs[base + k]), name, fns[i].name)) {
				tool_err("ksnoop", "%s", err_msg());
				obj_close(o);
				return 1;
			}
		}
	}
	for (int k = 0; k < 4; k++)
		prog_set_autoload(obj_prog(o, progs[k]), false);
	return tool_run_events(o, &te);
}

static const struct opt opts[] = {
	{ 'd', "debug", NULL, "loader messages" },
	{ 'v', "verbose", NULL, "PID namespace and command too" },
	{ 'p', "pid", "PID", "only this process" },
	{ 'P', "pages", "N", "ignored (0.26's buffer size)" },
	{ 's', "stack", NULL, "FUNC1..FUNCn only when each called the next" },
	{ 0 },
};
static const struct tool_help thelp = {
	.usage = "[-d] [-v] [-s] [-p PID] [info|trace] FUNC[(ARG[->MEMBER] [PRED],...)] ...",
	.opts = opts,
	.flags = OPT_NO_VERBOSE | OPT_EVENTS,
};

static char **pos;
static int nr_pos;

static int on_opt(int key, const char *arg, void *ctx)
{
	switch (key) {
	case 'd':
		tool_common.verbose++;
		break;
	case 'v':
		verbose_mode = true;
		break;
	case 'p':
		filter_pid = (int)opt_num(&thelp, "pid", arg, 1, 0x7fffffff);
		break;
	case 'P':
		opt_num(&thelp, "pages", arg, 1, 1 << 20);
		break;
	case 's':
		stack_mode = true;
		break;
	case 0:
		pos[nr_pos++] = (char *)arg;
		break;
	default:
		return 1;
	}
	return 0;
}

int ksnoop_main(int argc, char **argv)
{
	static const char *const cmds[] = { "info", "trace", "help" };
	int r;

	pos = xcalloc(argc + 1, sizeof(*pos));
	opt_parse(argc, argv, &thelp, on_opt, NULL);
	if (!nr_pos)
		usage("no function to trace");
	/* "info", "i", "trace", "tr", "help" (a prefix picks the command, as 0.26) */
	for (int c = 0; c < 3; c++) {
		if (strncmp(pos[0], cmds[c], strlen(pos[0])))
			continue;
		if (c == 2) {
			char *h[] = { argv[0], "--help", NULL };

			opt_parse(2, h, &thelp, NULL, NULL); /* prints the help, exits 0 */
		}
		r = c == 0 ? cmd_info(nr_pos - 1, pos + 1) : cmd_trace(nr_pos - 1, pos + 1);
		goto out;
	}
	r = cmd_trace(nr_pos, pos);
out:
	for (int i = 0; i < nr_mods; i++)
		kbtf_close(&mods[i]);
	if (vmlinux.btf)
		kbtf_close(&vmlinux);
	return r;
}
