/* applet argdist: frequency counts or histograms of function arguments and return values
 * readme: frequency counts (`-C`) or histograms (`-H`) of arguments:
 *         `-H 'p:c:malloc(size_t size):size_t:size'`
 *
 * Of arguments, return values and expressions: bcc's specifier grammar and
 * output, with programs generated from the specifiers. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/stack/mapdump.h"
#include "tools/probe/build.h"
#include "tools/probe/hist.h"
#include "lib/strbuf.h"

#define MAX_SPECS 32
#define MAX_EXPRS 8

struct field {
	struct ctype t;
	bool str, comm;
	int off, size;
};

struct aprobe {
	struct spec s;
	bool hist;
	struct loc *locs;
	int nlocs;
	struct field f[MAX_EXPRS];
	int nf, key_size;
	int map;
	char *entry_names[MAX_EXPRS + 1];
	struct out_hist h;   /* -H: the histogram's description */
	int nentry;
};

static struct {
	int pid, tid, strsize, top, count;
	long interval, duration;
	bool cumulative;
	struct aprobe *p;
	int np;
} env = { .strsize = 80, .interval = 1 };
static struct aprobe aprobe_table[MAX_SPECS]; /* bss: not in the binary */

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "id of the process to trace (optional)" },
	{ 't', "tid", "TID", "id of the thread to trace (optional)" },
	{ 'z', "string-size", "N", "maximum string size to read from char* arguments (default 80)" },
	{ 'i', "interval", "SEC", "output interval, in seconds (default 1 second)" },
	{ 'd', "duration", "SEC", "total duration of trace, in seconds" },
	{ 'n', "number", "N", "number of outputs" },
	{ 'c', "cumulative", NULL, "do not clear histograms and freq counts at each interval" },
	{ 'T', "top", "N", "number of top results to show (not applicable to histograms)" },
	{ 'H', "histogram", "specifier", "probe specifier to capture histogram of (see examples below)" },
	{ 'C', "count", "specifier", "probe specifier to capture count of (see examples below)" },
	{ 'I', "include", "header", "accepted for bcc compatibility (types come from kernel BTF)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-t TID] [-z STRING_SIZE] [-i INTERVAL] [-d DURATION] [-n COUNT] [-v] [-c]\n"
		 "               [-T TOP] [-H specifier] [-C specifier] [-I header]",
	.summary = "Trace a function and display a summary of its parameter values.\n\n"
		   "Probe specifier syntax:\n"
		   "  {p,r,t,u}:{[library],category}:function(signature)[:type[,type...]:expr[,expr...][:filter]][#label]",
	.examples = "  argdist -H 'p::__kmalloc(u64 size):u64:size'\n"
		    "  argdist -p 1005 -C 'p:c:malloc(size_t size):size_t:size:size==16'\n"
		    "  argdist -C 'r:c:gets():char*:(char*)$retval#snooped strings'\n"
		    "  argdist -H 'r::__vfs_read(void *file, void *buf, size_t count):size_t:$entry(count):$latency > 1000000'\n"
		    "  argdist -C 'p:c:write(int fd):int:fd' -T 5\n"
		    "  argdist -p 1005 -H 'r:c:read()'\n"
		    "  argdist -C 'r::__vfs_read():u32:$PID:$latency > 100000'\n"
		    "  argdist -H 't:block:block_rq_complete():u32:args->nr_sector'\n"
		    "  argdist -C 't:irq:irq_handler_entry():int:args->irq'\n"
		    "  argdist -C 'u:pthread:pthread_start():u64:arg2' -p 1337\n"
		    "  argdist -H 'p:c:sleep(u32 seconds):u32:seconds'\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'z': env.strsize = (int)opt_num(&help, "string size", arg, 1, 256); break;
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX); break;
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	case 'n': env.count = (int)opt_num(&help, "number", arg, 1, INT_MAX); break;
	case 'c': env.cumulative = true; break;
	case 'T': env.top = (int)opt_num(&help, "top", arg, 1, INT_MAX); break;
	case 'I': break;
	case 'H':
	case 'C': {
		struct aprobe *p = &env.p[env.np];
		int errpos = 0;

		if (env.np >= MAX_SPECS)
			opt_usage_error(&help, "at most %d specifiers", MAX_SPECS);
		if (spec_parse_argdist(arg, &p->s, &errpos) < 0) {
			spec_report("argdist", arg, errpos, err_msg());
			exit(2);
		}
		p->hist = key == 'H';
		if (p->hist && p->s.default_expr && p->s.type != 'r') {
			spec_report("argdist", arg, (int)strlen(arg), "histograms must have expr");
			exit(2);
		}
		if (p->hist && p->s.nargs > 1) {
			spec_report("argdist", arg, p->s.args[1].pos, "histograms can only have 1 expr");
			exit(2);
		}
		if (p->s.nargs > MAX_EXPRS) {
			spec_report("argdist", arg, p->s.args[MAX_EXPRS].pos, "too many expressions");
			exit(2);
		}
		if (p->s.default_expr) {
			p->s.types = xcalloc(1, sizeof(char *));
			p->s.args = xcalloc(1, sizeof(*p->s.args));
			p->s.types[0] = xstrdup(p->s.type == 'r' ? "int" : "u64");
			p->s.args[0].text = xstrdup(p->s.type == 'r' ? "$retval" : "1");
			p->s.args[0].pos = (int)strlen(arg);
			p->s.ntypes = p->s.nargs = 1;
		}
		env.np++;
		break;
	}
	default: return 1;
	}
	return 0;
}

static bool uses(const struct aprobe *p, const char *what)
{
	for (int i = 0; i < p->s.nargs; i++)
		if (strstr(p->s.args[i].text, what))
			return true;
	return p->s.pred.text && strstr(p->s.pred.text, what);
}

/* Entry values a return probe needs: $latency, $entry(NAME)... */
static void collect_entry(struct aprobe *p)
{
	if (p->s.type != 'r')
		return;
	if (uses(p, "$latency"))
		p->entry_names[p->nentry++] = xstrdup("$latency");
	for (int i = 0; i < p->s.nparams && p->nentry <= MAX_EXPRS; i++) {
		char pat[160];

		snprintf(pat, sizeof(pat), "$entry(%s)", p->s.params[i].name);
		if (uses(p, pat))
			p->entry_names[p->nentry++] = xstrdup(p->s.params[i].name);
	}
}

static int gen_entry_prog(struct obj *o, struct aprobe *p, struct loc *l, const struct cg_opts *co, int emap)
{
	struct spec es = p->s; /* same signature, entry side */
	struct loc el = *l;
	struct gen *g;
	struct emit *e;
	int out, key, val, rc = 0;

	el.mech = l->mech == M_URETPROBE ? M_UPROBE : l->mech == M_FEXIT ? M_FENTRY : M_KPROBE;
	el.is_return = false;
	g = gen_new(&el, &es, co);
	e = gen_emit(g);
	out = gen_begin(g);
	key = gen_stack(g, 8);
	val = gen_stack(g, 8 * (MAX_EXPRS + 1));
	emit_stx(e, 4, R10, (int16_t)key, R8);
	for (int k = 0; k < p->nentry; k++) {
		struct ctype t;

		if (!strcmp(p->entry_names[k], "$latency")) {
			emit_call(e, BPF_FUNC_ktime_get_ns);
		} else if (gen_value(g, p->entry_names[k], 0, &t) < 0) {
			rc = build_probe_error("argdist", &p->s, g);
			goto out;
		}
		emit_stx(e, 8, R10, (int16_t)(val + 8 * k), R0);
	}
	emit_map_update(e, emap, key, val, BPF_ANY);
	gen_end(g, out);
	if (build_add(o, &el, g, p->s.text, env.pid) < 0)
		rc = build_probe_error("argdist", &p->s, g);
out:
	gen_free(g);
	return rc;
}

/* An array or a struct is not a number: counted as one it would be its
 * address (a context pointer the verifier refuses to shift or keep).
 * A char array is a string: say how to count it as one. */
static bool value_fits(const struct aprobe *p, int i, const struct ctype *t)
{
	char name[64], msg[160];

	if (ct_is_scalar(t))
		return true;
	ct_name(t, probe_kernel_btf(), name, sizeof(name));
	if (ct_is_string(t))
		snprintf(msg, sizeof(msg), "%s is a char array (%s), a string: declare its type char* to count its text",
			 p->s.args[i].text, name);
	else
		snprintf(msg, sizeof(msg), "%s is %s, not a number", p->s.args[i].text, name);
	spec_report("argdist", p->s.text, p->s.args[i].pos, msg);
	return false;
}

static int gen_probe(struct obj *o, struct aprobe *p, struct loc *l, const struct cg_opts *co, int emap)
{
	struct gen *g = gen_new(l, &p->s, co);
	struct emit *e = gen_emit(g);
	int out = gen_begin(g), key = gen_stack(g, p->key_size > 8 ? p->key_size : 8), val = gen_stack(g, 8), rc = 0;

	if (p->nentry) {
		int tk = gen_stack(g, 8);

		emit_stx(e, 4, R10, (int16_t)tk, R8);
		gen_lookup(g, emap, tk, out);
		emit_mov(e, R9, R0);
		gen_set_entry(g, emap, p->entry_names, p->nentry);
	}
	if (p->s.pred.text && gen_filter(g, p->s.pred.text, p->s.pred.pos, out) < 0)
		goto bad;
	for (int b = 0; b < p->key_size; b += 8)
		emit_st(e, 8, R10, (int16_t)(key + b), 0);
	for (int i = 0; i < p->nf; i++) {
		struct field *f = &p->f[i];
		struct ctype t;

		if (f->comm) {
			emit_mov(e, R1, R10);
			emit_alui(e, BPF_ADD, R1, key + f->off);
			emit_movi(e, R2, f->size < 16 ? f->size : 16);
			emit_call(e, BPF_FUNC_get_current_comm);
			continue;
		}
		if (f->str) {
			if (gen_string(g, p->s.args[i].text, p->s.args[i].pos, R10, (int16_t)(key + f->off), f->size) < 0)
				goto bad;
			continue;
		}
		if (gen_value(g, p->s.args[i].text, p->s.args[i].pos, &t) < 0)
			goto bad;
		if (!value_fits(p, i, &t)) {
			gen_free(g);
			return 2;
		}
		if (f->t.base == CT_INT && !f->t.ptr && f->t.size < 8) {
			emit_alui(e, BPF_LSH, R0, 64 - 8 * f->t.size);
			emit_alui(e, f->t.sign ? BPF_ARSH : BPF_RSH, R0, 64 - 8 * f->t.size);
		}
		if (p->hist) {
			int v = gen_stack(g, 8);

			/* the sum in slot BCC_SLOTS (Prometheus _sum), then the slot */
			emit_stx(e, 8, R10, (int16_t)v, R0);
			emit_st(e, 4, R10, (int16_t)key, BCC_SLOTS);
			gen_lookup(g, p->map, key, out);
			emit_ldx(e, 8, R1, R10, (int16_t)v);
			emit_xadd(e, 8, R0, 0, R1);
			emit_ldx(e, 8, R1, R10, (int16_t)v);
			gen_log2l(g);
			emit_stx(e, 4, R10, (int16_t)key, R0);
			gen_lookup(g, p->map, key, out);
			emit_movi(e, R1, 1);
			emit_xadd(e, 8, R0, 0, R1);
			break;
		}
		emit_stx(e, 8, R10, (int16_t)(key + f->off), R0);
	}
	if (!p->hist)
		gen_hash_inc(g, p->map, key, val);
	gen_end(g, out);
	if (build_add(o, l, g, p->s.text, env.pid) < 0)
		goto bad;
	gen_free(g);
	return 0;
bad:
	rc = build_probe_error("argdist", &p->s, g);
	gen_free(g);
	return rc;
}

static void value_text(struct strbuf *b, const struct field *f, const uint8_t *key)
{
	if (f->str || f->comm) { /* bytes of the traced system: the output layer's one escape */
		struct strbuf raw = { 0 };

		strbuf_reset(&raw);
		strbuf_addn(&raw, (const char *)key + f->off, strnlen((const char *)key + f->off, (size_t)f->size));
		out_escaped(b, raw.s);
		strbuf_free(&raw);
		return;
	}
	{
		uint64_t v;

		memcpy(&v, key + f->off, 8);
		if (f->t.sign)
			strbuf_addf(b, "%lld", (long long)v);
		else
			strbuf_addf(b, "%llu", (unsigned long long)v);
	}
}

/* Counts: bcc's "\t%-10s %s" rows under the probe's label; JSON
 * {"counts": [{"probe", "count", "event"}]}; Prometheus
 * corebox_argdist_count_total{probe, event} (--prom adds each
 * interval's counts: not with -c). */
enum { C_PROBE, C_COUNT, C_EVENT };
static const struct out_col count_cols[] = {
	[C_PROBE] = { "probe", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_COUNT] = { "count", "COUNT", "\t%-10llu ", OUT_UINT, OUT_COUNTER, .help = "events with these values" },
	[C_EVENT] = { "event", "EVENT", "%s\n", OUT_STR, OUT_LABEL },
};
static const struct out_table count_table = OUT_TABLE("counts", count_cols);

/* Histograms: bcc's layout with the label (or expression) as the unit;
 * JSON {"values": [{"probe", "unit", "count", "sum", "buckets"}]};
 * Prometheus corebox_argdist_values{probe}. */
static const struct out_hist value_hist = { "values", "distribution of the probe's values", NULL, .bcc = true };

static void display(struct obj *o, struct aprobe *p)
{
	int fd = map_fd(obj_map_at(o, (size_t)p->map));
	const char *name = p->s.label ? p->s.label : p->s.text;

	if (p->hist) {
		uint64_t hist[BCC_SLOTS + 1], zero = 0;
		struct out_label lab = { "probe", name };
		double sum;

		/* the output layer keeps the description: in the probe */
		p->h = value_hist;
		p->h.unit = p->s.label ? p->s.label : p->s.default_expr ? "retval" : p->s.args[0].text;
		for (uint32_t i = 0; i <= BCC_SLOTS; i++) {
			hist[i] = 0;
			if (bpf_map_lookup(fd, &i, &hist[i]) < 0)
				err_clear();
			if (!env.cumulative)
				bpf_map_update(fd, &i, &zero, 0);
		}
		/* slot BCC_SLOTS: the sum of the values */
		sum = p->f[0].t.sign ? (double)(int64_t)hist[BCC_SLOTS] : (double)hist[BCC_SLOTS];
		out_hist64(&p->h, NULL, &lab, 1, hist, BCC_SLOTS, &sum);
		return;
	}
	{
		const struct out_table *t = &count_table;
		struct strbuf ev = { 0 };
		struct map_dump d;
		size_t first = 0;

		out_text("%s\n", name);
		out_header(t);
		if (map_dump(fd, (size_t)p->key_size, 8, &d) < 0) {
			tool_err("argdist", "cannot read counts: %s", err_msg());
			return;
		}
		map_dump_sort(&d, 0, 0);
		if (env.top && d.n > (size_t)env.top)
			first = d.n - (size_t)env.top;
		for (size_t i = 0; i < d.n; i++) {
			const uint8_t *k = map_dump_key(&d, i);
			uint64_t v;

			memcpy(&v, map_dump_value(&d, i), 8);
			strbuf_reset(&ev);
			if (p->s.default_expr && p->s.type != 'r') {
				strbuf_add(&ev, "total calls");
			} else if (p->s.default_expr) {
				strbuf_add(&ev, "retval = ");
				value_text(&ev, &p->f[0], k);
			} else {
				for (int f = 0; f < p->nf; f++) {
					strbuf_addf(&ev, "%s%s = ", f ? ", " : "", p->s.args[f].text);
					value_text(&ev, &p->f[f], k);
				}
			}
			{
				union out_val val[] = { [C_PROBE].s = name, [C_COUNT].u = v, [C_EVENT].s = ev.s };

				if (i >= first)
					out_row(t, val);
				else
					out_row_unshown(t, val);
			}
		}
		if (!env.cumulative)
			for (size_t i = 0; i < d.n; i++)
				bpf_map_delete(fd, map_dump_key(&d, i));
		err_clear();
		strbuf_free(&ev);
		map_dump_free(&d);
	}
}

int argdist_main(int argc, char **argv)
{
	env.p = aprobe_table;
	struct resolve_opts ro = { .tool = "argdist", .limit = 1000 };
	struct cg_opts co = { .uid = -1, .cpu = -1 };
	struct obj *o;
	int rc = 0, attached = 0, outputs = 0;
	long elapsed = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.np) {
		printf("at least one specifier is required\n");
		return 1;
	}
	if (env.cumulative && out_prom_on())
		opt_usage_error(&help, "--prom adds up each interval's counts: it cannot be combined with -c");
	tool_signals();
	ro.pid = env.pid;
	co.pid = env.pid;
	co.tid = env.tid;
	o = obj_new("argdist");
	for (int i = 0; i < env.np && !rc; i++) {
		struct aprobe *p = &env.p[i];
		int off = 0, emap = -1;

		for (int k = 0; k < p->s.nargs; k++) {
			struct field *f = &p->f[k];
			const char *ty = p->s.types[k];

			f->comm = !strcmp(p->s.args[k].text, "$COMM");
			f->str = !f->comm && (!strcmp(ty, "char*") || !strcmp(ty, "char *"));
			if (!f->str && !f->comm && ctype_parse(ty, probe_kernel_btf(), &f->t, NULL) < 0) {
				spec_report("argdist", p->s.text, (int)(strstr(p->s.text, ty) ? strstr(p->s.text, ty) - p->s.text : 0),
					    err_msg());
				return 2;
			}
			f->size = f->str || f->comm ? (f->comm ? 16 : env.strsize) : 8;
			f->off = off;
			off += (f->size + 7) & ~7;
		}
		p->nf = p->s.nargs;
		p->key_size = off ? off : 8;
		collect_entry(p);
		ro.fields = strstr(p->s.text, "args") != NULL;
		if (probe_resolve(&p->s, &ro, p->s.type == 'r', &p->locs, &p->nlocs) < 0) {
			build_probe_msg("argdist", p->s.text, err_msg());
			rc = 1;
			break;
		}
		p->map = p->hist ? obj_new_map(o, "hist", BPF_MAP_TYPE_ARRAY, 4, 8, BCC_SLOTS + 1, 0)
				 : obj_new_map(o, "freq", BPF_MAP_TYPE_HASH, (uint32_t)p->key_size, 8, 10240, 0);
		if (p->nentry)
			emap = obj_new_map(o, "entry", BPF_MAP_TYPE_HASH, 4, 8 * (MAX_EXPRS + 1), 10240, 0);
		for (int l = 0; l < p->nlocs && !rc; l++) {
			if (p->nentry)
				rc = gen_entry_prog(o, p, &p->locs[l], &co, emap);
			if (!rc)
				rc = gen_probe(o, p, &p->locs[l], &co, emap);
		}
	}
	if ((rc = build_finish(o, rc, "argdist", env.np == 1 ? env.p[0].s.text : "the probes", &attached)))
		goto out;
	for (;;) {
		char ts[16];

		tool_sleep_ms(env.interval * 1000);
		if (tool_exiting || tool_stdout_gone())
			break; /* bcc: Ctrl-C exits without printing */
		elapsed += env.interval;
		out_doc_begin();
		out_text("[%s]\n", tool_hms(ts, sizeof(ts)));
		for (int i = 0; i < env.np; i++)
			display(o, &env.p[i]);
		if (out_doc_end() < 0)
			rc = 1;
		tool_flush();
		outputs++;
		if ((env.count && outputs >= env.count) || (env.duration && elapsed >= env.duration))
			break;
	}
out:
	obj_close(o);
	for (int i = 0; i < env.np; i++) {
		locs_free(env.p[i].locs, env.p[i].nlocs);
		for (int k = 0; k < env.p[i].nentry; k++)
			free(env.p[i].entry_names[k]);
		spec_free(&env.p[i].s);
	}
	return rc;
}
