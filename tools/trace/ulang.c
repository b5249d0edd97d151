/* The language tools' shared part (ulang.h).  The runtimes' probes are
 * bcc's (tools/lib/ucalls.py, uobjnew.py, ustat.py); finding them in a
 * process is bcc's USDT(pid): every file the process maps is searched. */
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
#include "ulang.h"

/* ustat categories: 0 METHOD 1 GC 2 OBJNEW 3 CLOAD 4 EXCP 5 THREAD.
 * The first six are bcc's detection order (bcc_procutils_language). */
const struct ulang ulangs[] = {
	{ "java", "method__entry", "method__return", 2, 4, true, "java",
	  "gc__begin=1 mem__pool__gc__begin=1 thread__start=5 class__loaded=3 object__alloc=2 method__entry=0 "
	  "ExceptionOccurred__entry=4", NULL, "object__alloc" },
	{ "node", NULL, NULL, 0, 0, false, "node", "gc__start=1" },
	{ "perl", "sub__entry", "sub__return", 2, 1, false, "perl", "sub__entry=0" },
	{ "php", "function__entry", "function__return", 4, 1, false, "php",
	  "function__entry=0 compile__file__entry=3 exception__thrown=4" },
	/* 3.11 fires function__entry/return only on its tracing path, which
	 * python:line's semaphore opens (cost: a uprobe hit per line) */
	{ "python", "function__entry", "function__return", 1, 2, false, "python", "function__entry=0 gc__start=1 line",
	  "line" },
	{ "ruby", "method__entry", "method__return", 1, 2, false, "ruby irb",
	  "method__entry=0 cmethod__entry=0 gc__mark__begin=1 gc__sweep__begin=1 object__create=2 hash__create=2 "
	  "string__create=2 array__create=2 require__entry=3 load__entry=3 raise=4", NULL,
	  "object__create string__create hash__create array__create" },
	{ "tcl", "proc__entry", "proc__return", 0, 1, false, "tclsh wish", "proc__entry=0 obj__create=2", NULL,
	  "obj__create" },
	{ "c" },
	{ NULL },
};

bool ulang_word(const char **p, char *w, size_t n)
{
	size_t k;

	*p += strspn(*p, " ");
	k = strcspn(*p, " ");
	snprintf(w, n, "%.*s", (int)k, *p);
	*p += k;
	return k;
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* bcc_procutils_language: the executable's path, else a mapped
 * "/libLANG", else "c" when libc is mapped. */
static const char *detect(int pid)
{
	char path[64], line[PATH_MAX + 128];
	const char *found = NULL;
	bool libc = false;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if (realpath(path, line))
		for (i = 0; i < 6; i++)
			if (strstr(line, ulangs[i].name))
				return ulangs[i].name;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *s;

		for (i = 0; i < 6 && !found; i++) {
			snprintf(path, sizeof(path), "/lib%s", ulangs[i].name);
			if (strstr(line, path))
				found = ulangs[i].name;
		}
		if ((s = strstr(line, "libc")) && (s[4] == '-' || s[4] == '.'))
			libc = true;
	}
	fclose(f);
	return found ? found : libc ? "c" : NULL;
}

const struct ulang *ulang_pick(const struct tool_help *h, const char *arg, const char *suffix, const char *choices,
			       int pid, const char **name)
{
	static char alias[16];
	size_t n = strlen(tool_applet), k = strlen(suffix);

	/* pythoncalls is bcc's wrapper for ucalls -l python */
	if (!arg && tool_applet[0] != 'u' && n > k && n - k < sizeof(alias)) {
		memcpy(alias, tool_applet, n - k);
		arg = alias;
	}
	if (arg && !has_word(choices, arg))
		opt_usage_error(h, "argument -l/--language: invalid choice: '%s' (choose from %s)", arg, choices);
	if (!arg && (arg = detect(pid)) && !has_word(choices, arg))
		arg = NULL;
	*name = arg;
	for (const struct ulang *u = ulangs; arg && u->name; u++)
		if (!strcmp(u->name, arg))
			return u;
	return NULL;
}

int ulang_resolve(const char *text, int pid, struct loc **locs, int *n)
{
	struct resolve_opts ro = { .tool = tool_applet, .pid = pid, .fields = true };
	struct loc *l;
	struct spec s;
	int nl, errpos, rc;

	if (spec_parse_trace(text, &s, &errpos) < 0)
		return -1;
	if ((rc = probe_resolve(&s, &ro, false, &l, &nl)) == 0) {
		*locs = xrealloc(*locs, (size_t)(*n + nl) * sizeof(**locs));
		memcpy(*locs + *n, l, (size_t)nl * sizeof(*l));
		*n += nl;
		free(l);
	}
	spec_free(&s);
	return rc;
}

int ulang_usdt(int pid, const char *name, struct loc **locs, int *n)
{
	char path[64], line[PATH_MAX + 128], text[PATH_MAX + 160], last[PATH_MAX] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return err_sys(errno, "cannot read %s (is process %d running?)", path, pid);
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		/* a file's mappings are adjacent: search each once */
		if (!strcmp(p, last) || strchr(p, ':') || strlen(p) >= sizeof(last))
			continue;
		strcpy(last, p);
		snprintf(text, sizeof(text), "u:%s:%s", p, name);
		ulang_resolve(text, pid, locs, n);
	}
	fclose(f);
	err_clear();
	return 0;
}

int ulang_gate(struct obj *o, const struct ulang *u, int pid)
{
	struct loc *l = NULL;
	int n = 0, rc = 0;

	if (u->gate)
		ulang_usdt(pid, u->gate, &l, &n);
	for (int i = 0; i < n && !rc; i++) {
		struct gen *g = ulang_gen(&l[i], pid);

		rc = ulang_prog(o, &l[i], g, gen_begin(g), pid, 0);
	}
	locs_free(l, n);
	return rc;
}

int ulang_need(int pid, const char *name, const char *lang, struct loc **locs, int *n)
{
	int before = *n;

	if (ulang_usdt(pid, name, locs, n) < 0)
		tool_err(tool_applet, "%s", err_msg());
	else if (*n == before)
		tool_err(tool_applet, "no USDT probe %s in process %d: is it a %s runtime built with USDT probes? (tplist -p %d lists them)",
			 name, pid, lang, pid);
	else
		return 0;
	return 1;
}

struct gen *ulang_gen(const struct loc *l, int pid)
{
	struct cg_opts co = { .pid = pid, .uid = -1, .cpu = -1 };

	return gen_new(l, NULL, &co);
}

void ulang_zero(struct gen *g, int off, int size)
{
	for (int i = 0; i < size; i += 8)
		emit_st(gen_emit(g), 8, R10, (int16_t)(off + i), 0);
}

int ulang_str(struct gen *g, int arg, bool counted, int off, int max)
{
	struct emit *e = gen_emit(g);
	char x[24];
	int tmp, skip, err; /* skip: the length needs no clamp */
	struct ctype t;

	if (!counted) {
		snprintf(x, sizeof(x), "(char *)arg%d", arg);
		return gen_string(g, x, 0, R10, (int16_t)off, max);
	}
	tmp = gen_stack(g, 8);
	skip = emit_label(e);
	snprintf(x, sizeof(x), "arg%d", arg + 1);
	if ((err = gen_value(g, x, 0, &t)) < 0)
		return err;
	emit_stx(e, 8, R10, (int16_t)tmp, R0);
	x[3] = (char)('0' + arg);
	if ((err = gen_value(g, x, 0, &t)) < 0)
		return err;
	emit_mov(e, R3, R0);
	emit_ldx(e, 8, R2, R10, (int16_t)tmp);
	emit_jmpi(e, BPF_JLE, R2, max - 1, skip);
	emit_movi(e, R2, max - 1);
	emit_place(e, skip);
	emit_mov(e, R1, R10);
	emit_alui(e, BPF_ADD, R1, off);
	emit_call(e, BPF_FUNC_probe_read_user);
	gen_unstack(g, 8);
	return 0;
}

int ulang_prog(struct obj *o, const struct loc *l, struct gen *g, int out, int pid, int err)
{
	if (err >= 0) {
		if (tool_common.verbose)
			fprintf(stderr, "%s: %s at %s:0x%llx\n", tool_applet, l->name, l->target,
				(unsigned long long)l->off);
		gen_end(g, out);
		err = build_add(o, l, g, l->name, pid);
	}
	gen_free(g);
	if (err < 0)
		tool_err(tool_applet, "%s: %s", l->name, err_msg());
	return err < 0;
}

long ulang_drain(struct obj *o, int map, uint32_t ksize, void **keys, uint64_t (**vals)[2])
{
	static bool batch = true;
	long n;

	*keys = xmalloc((size_t)MAX_ENTRIES * ksize);
	*vals = xmalloc((size_t)MAX_ENTRIES * sizeof(**vals));
	n = tool_map_drain(map_fd(obj_map_at(o, (size_t)map)), ksize, sizeof(**vals), *keys, *vals, MAX_ENTRIES,
			   &batch);
	if (n < 0)
		tool_err(tool_applet, "cannot read map: %s", strerror((int)-n));
	return n < 0 ? -1 : n;
}

int ulang_pos(const struct tool_help *h, const char *arg, int *npos, int *pid, long *interval)
{
	if ((*npos)++ == 0)
		*pid = opt_pid(h, "pid", arg);
	else if (*npos == 2)
		*interval = opt_num(h, "interval", arg, 1, 1 << 30);
	else
		return 1;
	return 0;
}

int ulang_loop(struct obj *o, long interval, int (*report)(struct obj *o))
{
	int rc = 0;

	tool_flush();
	for (bool last = false; !last && !tool_stdout_gone();) {
		do
			tool_sleep_ms(interval ? interval * 1000 : 1000);
		while (!interval && !tool_exiting);
		last = tool_exiting || !interval;
		if (report(o) < 0)
			rc = 1;
		tool_flush();
	}
	return rc;
}
static int row_sort;

static int by_value(const void *a, const void *b)
{
	const struct ulang_row *x = a, *y = b;
	uint64_t vx = x->v[row_sort], vy = y->v[row_sort];

	return vx < vy ? -1 : vx > vy ? 1 : strcmp(x->name, y->name);
}

int ulang_report(const struct out_table *t, struct ulang_row *rows, size_t n, int sort, long top,
		 void (*fill)(union out_val *v, const struct ulang_row *r))
{
	row_sort = sort;
	qsort(rows, n, sizeof(*rows), by_value);
	out_doc_begin();
	out_text("\n");
	out_header(t);
	for (size_t i = 0; i < n; i++) {
		union out_val v[4] = { { .s = rows[i].name } };

		fill(v, &rows[i]);
		if (top && i + (size_t)top < n)
			out_row_unshown(t, v);
		else
			out_row(t, v);
	}
	free(rows);
	return out_doc_end();
}
