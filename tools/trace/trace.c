/* applet trace: print a message per event of functions, tracepoints and USDT probes
 * readme: a message per event of any probe: `trace 'sys_read (arg3 > 20000) "read %d bytes", arg3'`
 *
 * Of any kernel function, tracepoint, user function or USDT probe, with a
 * filter, formatted arguments and stacks (bcc's trace grammar, flags and
 * columns).  The BPF programs are generated from the probe text: one per
 * location, all writing records {header, values} into one ring buffer (or
 * perf buffer). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/stack/stacks.h"
#include "tools/probe/build.h"
#include "tools/trace/trace_agg.h"

#define KEY_UID OPT_LONG_ONLY(1)
#define MAX_PROBES 64
#define MAX_VALUES 16

enum {
	OFF_TS = 0, OFF_TGID = 8, OFF_PID = 12, OFF_UID = 16, OFF_CPU = 20, OFF_KSTACK = 24, OFF_USTACK = 28,
	OFF_PROBE = 32, OFF_LOC = 36, OFF_COMM = 40,
};

struct value {
	char conv[4];        /* "d", "llu", "s", "K", ... */
	int size;            /* bytes captured */
	bool sign, hex;
	int off;             /* in the record */
};

struct probe {
	struct spec s;
	struct loc *locs;
	int nlocs;
	struct value v[MAX_VALUES];
	int nv;
	int size;            /* record size */
	int cg_off;          /* the cgroup id in the record (-j, --show-cgroup), 0: none */
};

static struct {
	int pid, tid, max_events, strsize, pages;
	long long uid; /* up to 2^32-2, -1: none (64-bit on 32-bit hosts too) */
	bool bin_cmp;
	bool include_self, timestamp, unix_ts, time, print_cpu, kstack, ustack, address, aggregate;
	const char *name, *msg_filter, *cgroup;
	struct probe *probes;
	int nprobes;
	/* run time */
	int events;
	uint64_t start_mono;
	double start_real;
	struct stacks stk;
	bool stk_ok;
	struct trace_agg agg; /* -A */
	bool done;
} env = { .uid = -1, .strsize = 80, .pages = 64 };
static struct probe probe_table[MAX_PROBES]; /* bss: not in the binary */

static const struct opt opts[] = {
	{ 'b', "buffer-pages", "N", "number of pages to use for perf_events ring buffer (default: 64)" },
	{ 'p', "pid", "PID", "id of the process to trace (optional)" },
	{ 'L', "tid", "TID", "id of the thread to trace (optional)" },
	{ KEY_UID, "uid", "UID", "id of the user to trace (optional)" },
	{ 'Z', "string-size", "N", "maximum size to read from strings (default 80)" },
	{ 'S', "include-self", NULL, "do not filter trace's own pid from the trace" },
	{ 'M', "max-events", "N", "number of events to print before quitting" },
	{ 't', "timestamp", NULL, "print timestamp column (offset from trace start)" },
	{ 'u', "unix-timestamp", NULL, "print UNIX timestamp instead of offset from trace start, requires -t" },
	{ 'T', "time", NULL, "print time column" },
	{ 'C', "print_cpu", NULL, "print CPU id" },
	{ 'c', "cgroup-path", "CGROUP", "cgroup path (cgroup v2 directory): only tasks in it" },
	{ 'n', "name", "NAME", "only print process names containing this name" },
	{ 'f', "msg-filter", "STR", "only print the msg of event containing this string" },
	{ 'K', "kernel-stack", NULL, "output kernel stack trace" },
	{ 'U', "user-stack", NULL, "output user stack trace" },
	{ 'a', "address", NULL, "print virtual address in stacks" },
	{ 'I', "include", "HEADER", "accepted for bcc compatibility (types come from kernel BTF)" },
	{ 'A', "aggregate", NULL, "aggregate amount of each trace (needs -M)" },
	{ 'B', "bin_cmp", NULL, "allow to use STRCMP with binary values" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-b BUFFER_PAGES] [-p PID] [-L TID] [--uid UID] [-v] [-Z STRING_SIZE] [-S]\n"
		 "             [-M MAX_EVENTS] [-t] [-u] [-T] [-C] [-c CGROUP_PATH] [-n NAME] [-f MSG_FILTER] [-K]\n"
		 "             [-U] [-a] [-I header] [-A] [-B] probe [probe ...]",
	.examples =
		"  trace do_sys_open                  # trace do_sys_open (kernel function entry)\n"
		"  trace 'sys_execve \"%s\", arg1'      # exec'd file names (syscall tracepoint here)\n"
		"  trace 'sys_read (arg3 > 20000) \"read %d bytes\", arg3'\n"
		"  trace 'r::sys_futex \"%d\", retval'  # futex return values\n"
		"  trace 't:syscalls:sys_enter_execve \"-> %s\", args->filename'\n"
		"  trace 't:block:block_rq_complete \"sectors=%d\", args->nr_sector'\n"
		"  trace 'c:malloc \"size = %d\", arg1'  # malloc sizes\n"
		"  trace 'r:c:malloc (retval) \"allocated = %x\", retval'\n"
		"  trace 'p:c:write (arg1 == 1) \"writing %d bytes to STDOUT\", arg3'\n"
		"  trace 'u:pthread:pthread_create (arg4 != 0)'\n"
		"  trace 'p::do_sys_openat2(int dfd, const char *filename) \"%s\", filename'\n"
		"  trace -U 'p:c:inet_pton'          # with user stacks\n",
	.opts = opts,
	.flags = OPT_USTACKS | OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'b': env.pages = (int)opt_num(&help, "buffer pages", arg, 1, 1 << 16); break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'L': env.tid = opt_pid(&help, "TID", arg); break;
	case KEY_UID: env.uid = opt_num(&help, "UID", arg, 0, UINT32_MAX - 1); break;
	case 'Z': env.strsize = (int)opt_num(&help, "string size", arg, 1, 4096); break;
	case 'S': env.include_self = true; break;
	case 'M': env.max_events = (int)opt_num(&help, "max events", arg, 1, INT_MAX); break;
	case 't': env.timestamp = true; break;
	case 'u': env.unix_ts = true; break;
	case 'T': env.time = true; break;
	case 'C': env.print_cpu = true; break;
	case 'c': env.cgroup = arg; break;
	case 'n': env.name = arg; break;
	case 'f': env.msg_filter = arg; break;
	case 'K': env.kstack = true; break;
	case 'U': env.ustack = true; break;
	case 'B': env.bin_cmp = true; break;
	case 'a': env.address = true; break;
	case 'I': break;
	case 'A': env.aggregate = true; break;
	case 0:
		if (env.nprobes >= MAX_PROBES)
			opt_usage_error(&help, "at most %d probes", MAX_PROBES);
		{
			int errpos = 0;
			struct probe *p = &env.probes[env.nprobes];

			if (spec_parse_trace(arg, &p->s, &errpos) < 0) {
				spec_report("trace", arg, errpos, err_msg());
				exit(2);
			}
			env.nprobes++;
		}
		break;
	default: return 1;
	}
	return 0;
}

/* The format's conversions, as bcc recognises them (not after '%'). */
static int parse_format(struct probe *p)
{
	const char *f = p->s.format;
	int off = EV_HDR;

	p->size = EV_HDR; /* a probe without a message still sends its header */
	if (!f)
		return 0;
	for (size_t i = 0; f[i]; i++) {
		static const char *const convs[] = { "llu", "lld", "llx", "lu", "ld", "lx", "hu", "hd",
						     "s", "u", "d", "x", "c", "K", "U" };
		struct value *v;
		size_t k;

		if (f[i] != '%' || (i > 0 && f[i - 1] == '%'))
			continue;
		if (f[i + 1] == '%') {
			i++;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(convs); k++)
			if (!strncmp(f + i + 1, convs[k], strlen(convs[k])))
				break;
		if (k == ARRAY_SIZE(convs))
			continue;
		if (p->nv >= MAX_VALUES) {
			spec_report("trace", p->s.text, p->s.fmt_pos + (int)i, "too many conversions");
			return -1;
		}
		v = &p->v[p->nv++];
		snprintf(v->conv, sizeof(v->conv), "%s", convs[k]);
		switch (convs[k][0]) {
		case 's': v->size = env.strsize; break;
		case 'c': v->size = 1; v->sign = true; break;
		case 'h': v->size = 2; break;
		case 'l': case 'K': case 'U': v->size = 8; break;
		default: v->size = 4; break;
		}
		if (v->conv[0] != 's' && v->conv[0] != 'K' && v->conv[0] != 'U' && v->conv[0] != 'c')
			v->sign = strchr(v->conv, 'd') != NULL;
		v->hex = strchr(v->conv, 'x') != NULL;
		off = (off + (v->size >= 8 ? 8 : v->size) - 1) / (v->size >= 8 ? 8 : v->size) * (v->size >= 8 ? 8 : v->size);
		if (v->conv[0] == 's')
			off = (off + 7) & ~7;
		v->off = off;
		off += v->size;
		i += strlen(convs[k]);
	}
	p->size = (off + 7) & ~7;
	if (p->nv != p->s.nargs) {
		char msg[128];

		snprintf(msg, sizeof(msg), "the format has %d conversion%s but %d argument%s follow%s", p->nv,
			 p->nv == 1 ? "" : "s", p->s.nargs, p->s.nargs == 1 ? "" : "s", p->s.nargs == 1 ? "s" : "");
		spec_report("trace", p->s.text, p->s.nargs > p->nv ? p->s.args[p->nv].pos : p->s.fmt_pos, msg);
		return -1;
	}
	return 0;
}

/* ---- the BPF side ---- */

static int gen_probe(struct obj *o, int pi, int li, struct probe *p, const struct loc *l, int maps[5], bool ring,
		     int drop_off)
{
	struct cg_opts co = { .pid = env.pid, .tid = env.tid, .uid = env.uid, .cpu = -1, .strsize = env.strsize,
			      .cgroup = env.cgroup != NULL, .cgroup_map = maps[4], .bin_cmp = env.bin_cmp };
	struct gen *g;
	struct emit *e;
	int out, key, rc = 0;
	struct ctype t;

	if (!env.include_self)
		co.self = (int)getpid();
	g = gen_new(l, &p->s, &co);
	e = gen_emit(g);
	out = gen_begin(g);
	if (p->s.pred.text && gen_filter(g, p->s.pred.text, p->s.pred.pos, out) < 0)
		goto bad;
	key = gen_stack(g, 8);
	emit_st(e, 4, R10, (int16_t)key, 0);
	gen_lookup(g, maps[1], key, out);
	emit_mov(e, R7, R0);
	emit_call(e, BPF_FUNC_ktime_get_ns);
	emit_stx(e, 8, R7, OFF_TS, R0);
	emit_mov(e, R1, R8);
	emit_alui(e, BPF_RSH, R1, 32);
	emit_stx(e, 4, R7, OFF_TGID, R1);
	emit_stx(e, 4, R7, OFF_PID, R8);
	emit_call(e, BPF_FUNC_get_current_uid_gid);
	emit_stx(e, 4, R7, OFF_UID, R0);
	emit_call(e, BPF_FUNC_get_smp_processor_id);
	emit_stx(e, 4, R7, OFF_CPU, R0);
	emit_st(e, 4, R7, OFF_PROBE, pi);
	emit_st(e, 4, R7, OFF_LOC, li);
	emit_mov(e, R1, R7);
	emit_alui(e, BPF_ADD, R1, OFF_COMM);
	emit_movi(e, R2, 16);
	emit_call(e, BPF_FUNC_get_current_comm);
	for (int i = 0; i < p->nv; i++) {
		const struct value *v = &p->v[i];

		if (v->conv[0] == 's') {
			if (gen_string(g, p->s.args[i].text, p->s.args[i].pos, R7, (int16_t)v->off, v->size) < 0)
				goto bad;
			continue;
		}
		if (gen_value(g, p->s.args[i].text, p->s.args[i].pos, &t) < 0)
			goto bad;
		emit_stx(e, v->size, R7, (int16_t)v->off, R0);
	}
	if (p->cg_off)
		gen_cgroup_id(g, R7, (int16_t)p->cg_off);
	emit_st(e, 4, R7, OFF_KSTACK, -1);
	emit_st(e, 4, R7, OFF_USTACK, -1);
	if (env.kstack || env.ustack) {
		for (int u = 0; u < 2; u++) {
			if (!(u ? env.ustack : env.kstack))
				continue;
			emit_mov(e, R1, R6);
			emit_ldmap(e, R2, maps[2]);
			emit_movi(e, R3, u ? BPF_F_USER_STACK : 0);
			emit_call(e, BPF_FUNC_get_stackid);
			emit_stx(e, 4, R7, u ? OFF_USTACK : OFF_KSTACK, R0);
		}
	}
	gen_output(g, maps[0], R7, 0, p->size, ring);
	/* a record the buffer had no room for is counted here, once, when
	 * it fails (a perf buffer's PERF_RECORD_LOST comes only with a later
	 * record that fits): ring buffer, any error; perf buffer, -ENOSPC
	 * (-ENOENT is a cpu whose reader is not open yet) */
	if (ring)
		emit_jmpi(e, BPF_JEQ, R0, 0, out);
	else
		emit_jmpi(e, BPF_JNE, R0, -ENOSPC, out);
	emit_ldmap_value(e, R1, maps[3], drop_off);
	emit_movi(e, R2, 1);
	emit_xadd(e, 8, R1, 0, R2);
	gen_end(g, out);
	if (build_add(o, l, g, p->s.text, env.pid) < 0)
		goto bad;
	if (tool_common.verbose)
		fprintf(stderr, "trace: %s at %s: %zu instructions\n", p->s.text, l->name, e->cnt);
	gen_free(g);
	return 0;
bad:
	rc = build_probe_error("trace", &p->s, g);
	gen_free(g);
	return rc;
}

/* ---- the user side ---- */

/* A %s value (at most n bytes from the traced system): the output
 * layer's one escape. */
static void put_text(struct strbuf *b, const char *s, size_t n)
{
	struct strbuf raw = { 0 };

	strbuf_reset(&raw);
	strbuf_addn(&raw, s, strnlen(s, n));
	out_escaped(b, raw.s);
	strbuf_free(&raw);
}

static void sym_k(uint64_t addr, char *buf, size_t size)
{
	if (!env.stk_ok) {
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
		return;
	}
	ksyms_format(env.stk.ksyms, addr, 1, buf, size);
}

static void sym_u(int pid, uint64_t addr, char *buf, size_t size)
{
	struct usym u;

	if (!env.stk_ok || usyms_lookup(env.stk.usyms, pid, addr, &u) < 0 || !u.name) {
		if (env.stk_ok && u.module)
			snprintf(buf, size, "[unknown] [%s]", strrchr(u.module, '/') ? strrchr(u.module, '/') + 1 : u.module);
		else
			snprintf(buf, size, "[unknown]");
		return;
	}
	snprintf(buf, size, "%s+0x%llx [%s]", u.name, (unsigned long long)u.offset,
		 u.module ? (strrchr(u.module, '/') ? strrchr(u.module, '/') + 1 : u.module) : "unknown");
}

/* The raw value of conversion v in a record. */
static void raw_value(const struct value *v, const uint8_t *rec, int64_t *sv, uint64_t *uv)
{
	switch (v->size) {
	case 1: *sv = (int8_t)rec[v->off]; *uv = rec[v->off]; break;
	case 2: { int16_t x; memcpy(&x, rec + v->off, 2); *sv = x; *uv = (uint16_t)x; break; }
	case 4: { int32_t x; memcpy(&x, rec + v->off, 4); *sv = x; *uv = (uint32_t)x; break; }
	default: memcpy(uv, rec + v->off, 8); *sv = (int64_t)*uv; break;
	}
}

/* bcc formats with Python's %: every integer conversion prints the value
 * of the captured C type in decimal (%x variants in hex). */
static void format_msg(const struct probe *p, const uint8_t *rec, int tgid, struct strbuf *b)
{
	const char *fmt = p->s.format;
	int vi = 0;

	strbuf_reset(b);
	for (size_t i = 0; fmt && fmt[i]; i++) {
		const struct value *v;
		char buf[512];
		int64_t sv = 0;
		uint64_t uv = 0;

		if (fmt[i] != '%' || vi >= p->nv || (i > 0 && fmt[i - 1] == '%')) {
			if (fmt[i] == '%' && fmt[i + 1] == '%') {
				strbuf_addc(b, '%');
				i++;
				continue;
			}
			strbuf_addc(b, fmt[i]);
			continue;
		}
		if (strncmp(fmt + i + 1, p->v[vi].conv, strlen(p->v[vi].conv))) {
			strbuf_addc(b, fmt[i]);
			continue;
		}
		v = &p->v[vi++];
		i += strlen(v->conv);
		raw_value(v, rec, &sv, &uv);
		switch (v->conv[0]) {
		case 's': put_text(b, (const char *)rec + v->off, (size_t)v->size); break;
		case 'c': strbuf_addc(b, (char)(unsigned char)uv); break;
		case 'K': sym_k(uv, buf, sizeof(buf)); strbuf_add(b, buf); break;
		case 'U': sym_u(tgid, uv, buf, sizeof(buf)); strbuf_add(b, buf); break;
		default:
			if (v->hex)
				strbuf_addf(b, "%llx", (unsigned long long)uv);
			else if (v->sign)
				strbuf_addf(b, "%lld", (long long)sv);
			else
				strbuf_addf(b, "%llu", (unsigned long long)uv);
		}
	}
}

static void print_stack(struct strbuf *b, int32_t id, int pid)
{
	const uint64_t *ips;
	char buf[512];
	int n;

	if (id < 0) {
		strbuf_addf(b, "        %d\n", id);
		return;
	}
	if (!env.stk_ok)
		return;
	n = stacks_read(&env.stk, id, pid < 0, &ips);
	for (int i = 0; i < n; i++) {
		strbuf_add(b, "        ");
		if (env.address)
			strbuf_addf(b, "%16llx ", (unsigned long long)ips[i]);
		if (pid < 0)
			sym_k(ips[i], buf, sizeof(buf));
		else
			sym_u(pid, ips[i], buf, sizeof(buf));
		strbuf_add(b, buf);
		strbuf_addc(b, '\n');
	}
}

/* -j: the event's fields (without braces and time): pid, tid, comm,
 * func, cpu, msg, the raw argument values (numbers; %s strings), stacks. */
static void json_event(struct strbuf *b, const struct probe *p, const struct loc *l, const uint8_t *rec,
		       uint32_t tgid, uint32_t pid, uint32_t cpu, const char *comm, const char *msg, int32_t kid,
		       int32_t uid)
{
	if (env.aggregate && p->cg_off) { /* -A: no event line to take them from */
		uint64_t id;
		const char *path;

		memcpy(&id, rec + p->cg_off, 8);
		strbuf_add(b, "\"cgroup\":");
		if ((path = cgroup_path_of(id)))
			json_str(b, path);
		else
			strbuf_add(b, "null");
		strbuf_addf(b, ",\"cgroup_id\":%llu,", (unsigned long long)id);
	}
	strbuf_addf(b, "\"pid\":%u,\"tid\":%u,\"comm\":", tgid, pid);
	json_str(b, comm);
	strbuf_add(b, ",\"func\":");
	json_str(b, l->name);
	strbuf_addf(b, ",\"cpu\":%u,\"msg\":", cpu);
	json_str(b, msg ? msg : "");
	strbuf_add(b, ",\"args\":[");
	for (int i = 0; i < p->nv; i++) {
		const struct value *v = &p->v[i];
		int64_t sv;
		uint64_t uv;

		if (i)
			strbuf_addc(b, ',');
		if (v->conv[0] == 's') {
			json_strn(b, (const char *)rec + v->off, strnlen((const char *)rec + v->off, (size_t)v->size));
			continue;
		}
		raw_value(v, rec, &sv, &uv);
		if (v->sign)
			strbuf_addf(b, "%lld", (long long)sv);
		else
			strbuf_addf(b, "%llu", (unsigned long long)uv);
	}
	strbuf_addc(b, ']');
	if (env.kstack && env.stk_ok) {
		strbuf_add(b, ",\"kernel\":");
		stacks_json_frames(&env.stk, b, kid, -1);
	}
	if (env.ustack && env.stk_ok) {
		strbuf_add(b, ",\"user\":");
		stacks_json_frames(&env.stk, b, uid, (int)tgid);
	}
}

static int on_event(void *ctx, const void *data, size_t size)
{
	const uint8_t *rec = data;
	const struct probe *p;
	uint32_t pi, li, tgid, pid, cpu;
	int32_t kid, uid;
	uint64_t ts;
	char comm[17];
	static struct strbuf msg, line; /* reused: no allocation per event */

	(void)ctx;
	if (env.done || size < EV_HDR)
		return 0;
	memcpy(&pi, rec + OFF_PROBE, 4);
	if (pi >= (uint32_t)env.nprobes || size < (size_t)env.probes[pi].size)
		return 0;
	p = &env.probes[pi];
	memcpy(&li, rec + OFF_LOC, 4);
	if (li >= (uint32_t)p->nlocs)
		return 0;
	memcpy(&ts, rec + OFF_TS, 8);
	memcpy(&tgid, rec + OFF_TGID, 4);
	memcpy(&pid, rec + OFF_PID, 4);
	memcpy(&cpu, rec + OFF_CPU, 4);
	memcpy(&kid, rec + OFF_KSTACK, 4);
	memcpy(&uid, rec + OFF_USTACK, 4);
	memcpy(comm, rec + OFF_COMM, 16);
	comm[16] = 0;
	if (env.name && !strstr(comm, env.name))
		return 0;
	format_msg(p, rec, (int)tgid, &msg);
	if (env.msg_filter && !strstr(msg.s, env.msg_filter))
		return 0;
	if (p->cg_off) {
		uint64_t id;

		memcpy(&id, rec + p->cg_off, 8);
		out_event_cgroup(id, cgroup_path_of(id));
	}
	if (env.kstack) {
		/* tracepoints: not the BPF program's and the dispatch's frames */
		enum mech m = p->locs[li].mech;

		if (m == M_TP || m == M_RAW_TP || m == M_SYSCALL)
			env.stk.flags |= STACKS_SKIP_TRACE;
		else
			env.stk.flags &= ~(unsigned)STACKS_SKIP_TRACE;
	}
	if (out_json()) {
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		json_event(&b, p, &p->locs[li], rec, tgid, pid, cpu, comm, msg.s, kid, uid);
		if (env.aggregate) {
			trace_agg_add(&env.agg, xstrdup(b.s));
		} else {
			struct strbuf ev = { 0 };

			strbuf_reset(&ev);
			strbuf_add(&ev, "{\"time\":");
			json_time(&ev);
			strbuf_addc(&ev, ',');
			strbuf_addn(&ev, b.s, b.len);
			strbuf_addc(&ev, '}');
			out_json_value(NULL, &ev);
			strbuf_free(&ev);
		}
		strbuf_free(&b);
		goto counted;
	}
	strbuf_reset(&line);
	out_cgroup_add(&line);
	if (env.timestamp || env.time) {
		char t[40];

		if (env.time && !env.timestamp)
			tool_hms(t, sizeof(t));
		else if (env.unix_ts)
			snprintf(t, sizeof(t), "%.6f", (double)(ts - env.start_mono) / 1e9 + env.start_real);
		else
			snprintf(t, sizeof(t), "%.6f", (double)(int64_t)(ts - env.start_mono) / 1e9);
		strbuf_addf(&line, env.unix_ts ? "%-17.17s " : "%-8.8s ", t);
	}
	if (env.print_cpu)
		strbuf_addf(&line, "%-3u ", cpu);
	{
		struct strbuf safe = { 0 }; /* the thread names itself: escaped */

		strbuf_reset(&safe);
		out_escaped(&safe, comm);
		strbuf_addf(&line, "%-7u %-7u %-15s %-16s ", tgid, pid, safe.s, p->locs[li].name);
		strbuf_free(&safe);
	}
	strbuf_addn(&line, msg.s, msg.len);
	strbuf_addc(&line, '\n');
	if (env.kstack)
		print_stack(&line, kid, -1);
	if (env.ustack)
		print_stack(&line, uid, (int)tgid);
	if (env.aggregate) {
		trace_agg_add(&env.agg, xstrdup(line.s));
	} else {
		fwrite(line.s, 1, line.len, stdout);
		if (env.kstack || env.ustack)
			putchar('\n');
	}
counted:
	out_event_cgroup(0, NULL);
	env.events++;
	if (env.max_events && env.events >= env.max_events) {
		env.done = true;
		tool_exiting = 1; /* the event loop's stop */
	}
	return 0;
}

/* -b is bcc's per-CPU perf buffer size: one ring buffer holds as much
 * (a power of two of pages, at most 256 MiB). */
static uint32_t ring_size(int pages)
{
	uint64_t want = (uint64_t)pages * 4096 * (uint64_t)(cpus_possible() > 0 ? cpus_possible() : 1), size = 4096;

	while (size < want && size < (256u << 20))
		size <<= 1;
	return (uint32_t)size;
}

int trace_main(int argc, char **argv)
{
	env.probes = probe_table;
	struct resolve_opts ro = { .tool = "trace", .limit = 1000 };
	struct obj *o;
	struct events *ev = NULL;
	int maps[5], rc = 0, max = 0, attached = 0, cgfd = -1;
	uint32_t drop_off = 0;
	bool ring = probe_ringbuf();
	bool trivial = true;
	struct timespec ts;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.nprobes)
		opt_usage_error(&help, "the following arguments are required: probe");
	if (env.pid && env.tid)
		opt_usage_error(&help, "only one of -p and -L may be specified");
	if (env.aggregate && !env.max_events)
		opt_usage_error(&help, "-M/--max-events should be specified with -A/--aggregate");
	tool_signals();
	ro.pid = env.pid;
	ro.verbose = tool_common.verbose;
	for (int i = 0; i < env.nprobes; i++) {
		struct probe *p = &env.probes[i];

		if (parse_format(p) < 0)
			return 2;
		if (out_json() || out_cfg.cgroup_column) { /* the cgroup id after the values */
			p->cg_off = p->size;
			p->size += 8;
		}
		if (p->size > max)
			max = p->size;
		if (p->s.format)
			trivial = false;
		ro.fields = strstr(p->s.text, "args") != NULL;
		if (probe_resolve(&p->s, &ro, p->s.type == 'r', &p->locs, &p->nlocs) < 0) {
			build_probe_msg("trace", p->s.text, err_msg());
			return 1;
		}
	}
	if (max < EV_HDR)
		max = EV_HDR;
	o = obj_new("trace");
	maps[0] = ring ? obj_new_map(o, "events", BPF_MAP_TYPE_RINGBUF, 0, 0, ring_size(env.pages), 0)
		       : obj_new_map(o, "events", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	maps[1] = obj_new_map(o, "heap", BPF_MAP_TYPE_PERCPU_ARRAY, 4, (uint32_t)max, 1, 0);
	maps[2] = (env.kstack || env.ustack) ? obj_new_map(o, "stacks", BPF_MAP_TYPE_STACK_TRACE, 4, 127 * 8, 1024, 0) : -1;
	maps[3] = obj_new_global(o, "cb_events_dropped", 8, &drop_off);
	maps[4] = -1;
	if (env.cgroup) {
		if ((cgfd = tool_cgroup_open("trace", env.cgroup)) < 0) {
			rc = 1;
			goto out;
		}
		maps[4] = obj_new_map(o, "cgroup_map", BPF_MAP_TYPE_CGROUP_ARRAY, 4, 4, 1, 0);
	}
	for (int i = 0; i < env.nprobes && !rc; i++)
		for (int k = 0; k < env.probes[i].nlocs && !rc; k++)
			rc = gen_probe(o, i, k, &env.probes[i], &env.probes[i].locs[k], maps, ring, (int)drop_off);
	rc = build_finish(o, rc, "trace", env.nprobes == 1 ? env.probes[0].s.text : "the probes", &attached);
	if (!rc && cgfd >= 0 && tool_cgroup_filter(o, "trace", env.cgroup, cgfd) < 0)
		rc = 1;
	if (rc)
		goto out;
	if (env.kstack || env.ustack) {
		env.stk_ok = stacks_init(&env.stk, map_fd(obj_map_at(o, (size_t)maps[2])), 127,
					 (env.kstack ? 0 : STACKS_NO_KERNEL) | (env.ustack ? 0 : STACKS_NO_USER) | STACKS_NAMES) == 0;
		if (!env.stk_ok)
			tool_err("trace", "stacks will show raw addresses: %s", err_msg());
	}
	ev = events_open(obj_map_at(o, (size_t)maps[0]), on_event, NULL);
	if (!ev) {
		tool_err("trace", "%s", err_msg());
		rc = 1;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	env.start_mono = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &ts);
	env.start_real = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	/* the header: on stderr under -j, where it still says "attached" */
	out_cgroup_head();
	if (env.timestamp || env.time)
		out_info(env.unix_ts ? "%-17s " : "%-8s ", "TIME");
	if (env.print_cpu)
		out_info("%-3s ", "CPU");
	out_info("%-7s %-7s %-15s %-16s %s\n", "PID", "TID", "COMM", "FUNC", trivial ? "" : "-");
	tool_flush();
	rc = tool_event_loop("trace", ev, 0);
	if (env.aggregate && !tool_stdout_gone()) {
		trace_agg_sort(&env.agg);
		for (size_t i = 0; i < env.agg.n; i++) {
			if (out_json()) { /* {the event's fields, "count"} */
				struct strbuf b = { 0 };

				strbuf_reset(&b);
				strbuf_addf(&b, "{%s,\"count\":%ld}", env.agg.rows[i].text, env.agg.rows[i].count);
				out_json_value(NULL, &b);
				strbuf_free(&b);
			} else {
				printf("%s-->COUNT %ld\n\n", env.agg.rows[i].text, env.agg.rows[i].count);
			}
		}
		tool_flush();
	}
out:
	if (cgfd >= 0)
		close(cgfd);
	events_close(ev);
	if (env.stk_ok)
		stacks_fini(&env.stk);
	obj_close(o);
	for (int i = 0; i < env.nprobes; i++) {
		locs_free(env.probes[i].locs, env.probes[i].nlocs);
		spec_free(&env.probes[i].s);
	}
	trace_agg_free(&env.agg);
	return rc;
}
