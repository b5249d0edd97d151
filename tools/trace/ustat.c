/* applet ustat: activity stats from high-level languages: method calls, GCs, objects, class loads, exceptions, threads
 * readme: per-process rates of method calls, GCs, allocations, class loads, exceptions and threads of the Java,
 *         Node, Perl, PHP, Python, Ruby and Tcl processes running, from their USDT probes; bcc's tools/lib/ustat.py
 * alias javastat (ustat): ustat -l java
 * alias nodestat (ustat): ustat -l node
 * alias perlstat (ustat): ustat -l perl
 * alias phpstat (ustat): ustat -l php
 * alias pythonstat (ustat): ustat -l python
 * alias rubystat (ustat): ustat -l ruby
 * alias tclstat (ustat): ustat -l tcl
 *
 * As bcc: each interval finds the processes by name, attaches to their
 * probes (once per file and site, for every process: counts are kept
 * per process and category), waits, prints a line per process and
 * detaches.  Deliberate difference: a name matches with a version after
 * it too (Debian's "python3", "python3.11"; bcc looks for "python" and
 * finds none). */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "ulang.h"

static const char cats[][7] = { "method", "gc", "objnew", "cload", "excp", "thread" }; /* the columns' order */

static const struct opt opts[] = {
	{ 'l', "language", "LANGUAGE", "language to trace (default: all languages)" },
	{ 'C', "noclear", NULL, "don't clear the screen" },
	{ 'S', "sort", "SORT", "sort by this field (descending order)" },
	{ 'r', "maxrows", "MAXROWS", "maximum rows to print, default 20" },
	{ 'd', "debug", NULL, "Print the processes attached to (for debugging purposes)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-l {java,node,perl,php,python,ruby,tcl}] [-C] [-S {cload,excp,gc,method,objnew,thread}] "
		 "[-r MAXROWS] [-d] [interval] [count]",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const char *lang;
	int sort, npos; /* sort: category + 1, 0 for by pid */
	long maxrows, interval, count;
	bool noclear, debug;
} env = { .maxrows = 20, .interval = 1, .count = 99999999 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'l': env.lang = arg; break;
	case 'C': env.noclear = true; break;
	case 'S':
		for (env.sort = 6; env.sort && strcmp(arg, cats[env.sort - 1]); env.sort--)
			;
		if (!env.sort)
			opt_usage_error(&help, "argument -S/--sort: invalid choice: '%s' (choose from cload, excp, gc, method, objnew, thread)", arg);
		break;
	case 'r': env.maxrows = opt_num(&help, "maxrows", arg, 0, 1L << 30); break;
	case 'd': env.debug = true; break;
	case 0:
		if (env.npos++ == 0)
			env.interval = opt_num(&help, "interval", arg, 1, 1 << 30);
		else if (env.npos == 2)
			env.count = opt_num(&help, "count", arg, 1, 1L << 30);
		else
			return 1;
		break;
	default: return 1;
	}
	return 0;
}

struct target {
	int pid;
	const struct ulang *u;
	char cmdline[24];
	uint64_t n[6];
};

/* comm is the language's name, or its name and a version ("python3.11") */
static bool comm_is(const char *comm, const char *names)
{
	for (const char *p = names; *p;) {
		size_t n = strcspn(p, " ");

		if (!strncmp(comm, p, n) && strspn(comm + n, "0123456789.") == strlen(comm + n))
			return true;
		p += n + (p[n] == ' ');
	}
	return false;
}

static size_t find_targets(struct target **out)
{
	struct target *t = NULL;
	size_t n = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	while (dir && (d = readdir(dir))) {
		char path[64], comm[32] = "";
		const struct ulang *u;
		int pid = atoi(d->d_name), fd;
		ssize_t len;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (read_line(path, comm, sizeof(comm)) < 0)
			continue;
		for (u = ulangs; u->stat; u++)
			if ((!env.lang || !strcmp(env.lang, u->name)) && comm_is(comm, u->comm))
				break;
		if (!u->stat)
			continue;
		t = xrealloc(t, (n + 1) * sizeof(*t));
		memset(&t[n], 0, sizeof(*t));
		t[n].pid = pid;
		t[n].u = u;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
			len = read(fd, t[n].cmdline, 20); /* bcc: the NULs as spaces, 20 characters */
			close(fd);
			for (ssize_t i = 0; i < len; i++)
				if (!t[n].cmdline[i])
					t[n].cmdline[i] = ' ';
		}
		n++;
	}
	if (dir)
		closedir(dir);
	*out = t;
	return n;
}

/* counts[{tgid, cat}] += 1 at every site of the targets' probes (a
 * site shared by several processes once); cat -1: a gate, no count */
static int attach(struct obj *o, struct target *t, size_t nt, struct loc **all, int *nall)
{
	int rc = 0;

	for (size_t i = 0; i < nt && !rc; i++) {
		char p[32];

		for (const char *s = t[i].u->stat; !rc && ulang_word(&s, p, sizeof(p));) {
			char *eq = strchr(p, '=');
			int cat = eq ? eq[1] - '0' : -1, first = *nall;

			if (eq)
				*eq = 0;
			ulang_usdt(t[i].pid, p, all, nall);
			for (int k = first; k < *nall && !rc; k++) {
				struct loc *l = &(*all)[k];
				struct gen *g;
				bool dup = false;
				int out, key;

				for (int j = 0; j < first && !dup; j++)
					dup = (*all)[j].off == l->off && !strcmp((*all)[j].target, l->target);
				if (dup)
					continue;
				g = ulang_gen(l, 0);
				out = gen_begin(g);
				key = gen_stack(g, 8);
				if (cat >= 0) {
					struct emit *e = gen_emit(g);
					int val = gen_stack(g, 16);

					emit_mov(e, R1, R8);
					emit_alui(e, BPF_RSH, R1, 32);
					emit_stx(e, 4, R10, (int16_t)key, R1);
					emit_st(e, 4, R10, (int16_t)(key + 4), cat);
					emit_st(e, 8, R10, (int16_t)val, 1);
					emit_st(e, 8, R10, (int16_t)(val + 8), 0);
					gen_hash_add(g, 0, key, val, 2);
				}
				rc = ulang_prog(o, l, g, out, 0, 0);
			}
		}
	}
	return rc;
}

static struct out_col cols[] = {
	{ "pid", "PID", "%-6d ", OUT_INT, OUT_LABEL },
	{ "cmdline", "CMDLINE", "%-20s ", OUT_STR, OUT_LABEL },
	{ "method", "METHOD/s", "%-10llu ", OUT_UINT, OUT_GAUGE },
	{ "gc", "GC/s", "%-6llu ", OUT_UINT, OUT_GAUGE },
	{ "objnew", "OBJNEW/s", "%-10llu ", OUT_UINT, OUT_GAUGE },
	{ "cload", "CLOAD/s", "%-8llu ", OUT_UINT, OUT_GAUGE },
	{ "exc", "EXC/s", "%-6llu ", OUT_UINT, OUT_GAUGE },
	{ "thr", "THR/s", "%-6llu\n", OUT_UINT, OUT_GAUGE },
};
static struct out_table table = OUT_TABLE("processes", cols);

static int by_sort(const void *a, const void *b)
{
	const struct target *x = a, *y = b;
	int c = env.sort - 1;

	if (env.sort && x->n[c] != y->n[c])
		return x->n[c] > y->n[c] ? -1 : 1;
	return x->pid - y->pid;
}

/* one interval: attach, wait, print, detach */
static int iteration(void)
{
	struct target *t;
	size_t nt = find_targets(&t);
	struct loc *locs = NULL;
	struct obj *o = obj_new(tool_applet);
	int nl = 0, rc, attached;
	char hms[16], load[128];

	obj_new_map(o, "counts", BPF_MAP_TYPE_HASH, 8, 16, MAX_ENTRIES, 0);
	rc = attach(o, t, nt, &locs, &nl);
	/* none found: nothing to load, the interval still passes */
	if (nl && (rc = build_finish(o, rc, tool_applet, "the probes", &attached)))
		goto out;
	if (env.debug) /* bcc: the languages traced, -l's only */
		for (const struct ulang *u = ulangs; u->stat; u++) {
			if (env.lang && strcmp(env.lang, u->name))
				continue;
			out_text("Attached to %s processes: ", u->name);
			for (size_t i = 0, k = 0; i < nt; i++)
				if (t[i].u == u)
					out_text("%s%d", k++ ? ", " : "", t[i].pid);
			out_text("\n");
		}
	tool_flush();
	tool_sleep_ms(env.interval * 1000);
	if (nl) {
		uint32_t(*keys)[2];
		uint64_t(*vals)[2];
		long n = ulang_drain(o, 0, 8, (void **)&keys, &vals);

		for (long i = 0; i < n; i++)
			for (size_t k = 0; k < nt; k++)
				if (t[k].pid == (int)keys[i][0] && keys[i][1] < 6)
					t[k].n[keys[i][1]] += vals[i][0];
		free(keys);
		free(vals);
		rc = n < 0;
	}
	out_doc_begin();
	out_text(env.noclear ? "\n" : "\033[H\033[2J");
	if (read_line("/proc/loadavg", load, sizeof(load)) < 0)
		load[0] = 0;
	out_text("%-8s loadavg: %s%s\n", tool_hms(hms, sizeof(hms)), load, load[0] ? "\n" : "");
	out_header(&table);
	qsort(t, nt, sizeof(*t), by_sort);
	for (size_t i = 0; i < nt; i++) {
		union out_val v[8] = { { .i = t[i].pid }, { .s = t[i].cmdline } };

		for (int c = 0; c < 6; c++)
			v[2 + c].u = t[i].n[c] / (uint64_t)env.interval;
		if ((long)i < env.maxrows || !i) /* bcc stops after the row that reaches it */
			out_row(&table, v);
	}
	if (out_doc_end() < 0)
		rc = 1;
	tool_flush();
out:
	obj_close(o);
	locs_free(locs, nl);
	free(t);
	return rc;
}

int ustat_main(int argc, char **argv)
{
	const char *name;
	int rc = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.lang || strcmp(tool_applet, "ustat"))
		ulang_pick(&help, env.lang, "stat", "java node perl php python ruby tcl", 0, &name), env.lang = name;
	tool_signals();
	out_info("Tracing... Output every %ld secs. Hit Ctrl-C to end\n", env.interval);
	tool_flush();
	for (long n = env.count; n > 0 && !rc && !tool_stdout_gone(); n--) {
		rc = iteration();
		if (tool_exiting || n == 1) {
			out_info("Detaching...\n");
			break;
		}
	}
	return rc;
}
