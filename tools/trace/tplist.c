/* applet tplist: display kernel tracepoints or USDT probes and their formats
 * readme: kernel tracepoints from tracefs (`-v` their fields), or the USDT probes of a binary
 *         (`-l`) or of every file a process maps (`-p`), with a glob filter
 *
 * bcc's tplist: "category:event" lines in directory order; -v adds the
 * format's fields ("    TYPE NAME;", without common_ and __data_loc
 * ones); with -l or -p, "PATH provider:name" for each probe (once per
 * name), -v "PATH provider:name [sema 0x...]" and its location and
 * argument counts.  The probes come from the tracing compiler's USDT
 * reader (tools/probe/usdt.h).  Errors go to stderr with exit status 1
 * where bcc prints them on stdout and exits 0; so does a filter that
 * matches nothing (bcc: no output, exit 0).  The filter is the tracing
 * compiler's glob (tools/probe/match.c), as Python's fnmatch that bcc
 * uses: '*', '?', [sets]; a backslash is itself. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bpf/tracefs.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/probe/probe.h"
#include "tools/probe/spec.h"
#include "tools/probe/usdt.h"

static struct {
	int pid;
	const char *lib;
	int variables; /* -v */
	const char *filter;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "List USDT probes in the specified process" },
	{ 'l', "lib", "LIB", "List USDT probes in the specified library or executable" },
	{ 'v', NULL, NULL, "Print the format (available variables)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-l LIB] [-v] [filter]",
	.examples = "    tplist                       # all kernel tracepoints\n"
		    "    tplist -v 'sched:*exec*'     # these, with their fields\n"
		    "    tplist -l /usr/bin/python3   # the USDT probes of a binary\n"
		    "    tplist -p 1234 'libc:*'      # those of the files a process maps\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'l': env.lib = arg; break;
	case 'v': env.variables = 1; break;
	case 0:
		if (env.filter)
			opt_usage_error(&help, "unrecognized arguments: %s", arg);
		env.filter = arg;
		break;
	default: return 1;
	}
	return 0;
}

static long matched; /* names the filter let through */

static int wanted(const char *name)
{
	if (env.filter && !glob_match(env.filter, name))
		return 0;
	matched++;
	return 1;
}

/* A filter that matches nothing is refused (exit 1), as corebox's other
 * pattern tools do; bcc prints nothing and exits 0. */
static int none_matched(const char *what)
{
	if (!env.filter || matched)
		return 0;
	tool_err("tplist", "no %s matches '%s'", what, env.filter);
	return 1;
}

/* ---- tracepoints ---- */

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "field:TYPE NAME;" lines: the words before the last are the type */
static void print_fields(const char *dir)
{
	char path[PATH_MAX + 600], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/format", dir);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *field = strstr(line, "field:"), *semi, *last;

		if (!field || !(semi = strchr(field, ';')))
			continue;
		field += 6;
		*semi = 0;
		while (*field == ' ' || *field == '\t')
			field++;
		for (char *e = semi - 1; e >= field && (*e == ' ' || *e == '\t'); e--)
			*e = 0;
		last = strrchr(field, ' ');
		if (!last)
			continue; /* a name without a type */
		*last++ = 0;
		if (strstr(field, "__data_loc") || strncmp(last, "common_", 7) == 0)
			continue;
		printf("    %s %s;\n", field, last);
	}
	fclose(f);
}

static int list_tracepoints(void)
{
	char events[PATH_MAX], cat[PATH_MAX + 260], ev[PATH_MAX + 520], name[520];
	struct dirent *c, *e;
	DIR *cd, *ed;

	if (!tracefs_path(events, sizeof(events), "events") || !(cd = opendir(events))) {
		tool_err("tplist", "cannot read %s/events: %s", tracefs_root(), strerror(errno));
		return 1;
	}
	while ((c = readdir(cd))) {
		if (c->d_name[0] == '.')
			continue;
		snprintf(cat, sizeof(cat), "%s/%s", events, c->d_name);
		if (!is_dir(cat) || !(ed = opendir(cat)))
			continue;
		while ((e = readdir(ed))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(ev, sizeof(ev), "%s/%s", cat, e->d_name);
			snprintf(name, sizeof(name), "%s:%s", c->d_name, e->d_name);
			if (!is_dir(ev) || !wanted(name))
				continue;
			printf("%s\n", name);
			if (env.variables)
				print_fields(ev);
			if (tool_flush() < 0)
				break;
		}
		closedir(ed);
	}
	closedir(cd);
	return none_matched("tracepoint");
}

/* ---- USDT probes ---- */

struct probe_row {
	char *bin, *name; /* name: "provider:name" */
	uint64_t sema;
	int locations, args;
};

struct probe_list {
	struct probe_row *rows;
	size_t n, cap;
	const char *bin;
};

/* Arguments are separated by blanks outside [...] (arm64's "8@[sp, 16]") */
static int count_args(const char *s)
{
	int n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		n++;
		for (int depth = 0; *s && (depth || (*s != ' ' && *s != '\t')); s++)
			depth += (*s == '[') - (*s == ']');
	}
	return n;
}

static int add_note(void *ctx, const struct usdt_note *note)
{
	struct probe_list *l = ctx;
	char name[512];

	snprintf(name, sizeof(name), "%s:%s", note->provider, note->name);
	if (!wanted(name))
		return 0;
	/* bcc shows a probe name once, at its first binary */
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->rows[i].name, name) == 0) {
			if (strcmp(l->rows[i].bin, l->bin) == 0)
				l->rows[i].locations++;
			return 0;
		}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->rows = xrealloc(l->rows, l->cap * sizeof(*l->rows));
	}
	l->rows[l->n++] = (struct probe_row){ xstrdup(l->bin), xstrdup(name), note->sema, 1,
					      count_args(note->args) };
	return 0;
}

/* The probes of one file (none is no error, as in bcc); from_maps: a
 * mapped file that cannot be read is skipped */
static int read_binary(struct probe_list *l, const char *path, int from_maps)
{
	const void *data;
	struct elf_view ev;
	size_t size;
	int err;

	if ((err = elf_map_file(path, &data, &size)) < 0)
		return from_maps ? 0 : err;
	l->bin = path;
	if ((err = elf_open(&ev, data, size)) == 0)
		err = usdt_notes(&ev, path, add_note, l);
	elf_unmap_file(data, size);
	if (err == -ENOENT)
		err = 0; /* no .note.stapsdt */
	return err;
}

/* Every file the process maps executable, in address order, once */
static int read_process(struct probe_list *l, int pid)
{
	char maps[64], line[PATH_MAX + 128], **seen = NULL;
	size_t nseen = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	if (!(f = fopen(maps, "r")))
		return err_set(-errno, "cannot read %s: %s", maps, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');
		size_t i;

		if (!path || str_scan(line, "%*s %7s", perms) != 1 || perms[2] != 'x')
			continue;
		path[strcspn(path, "\n")] = 0;
		for (i = 0; i < nseen && strcmp(seen[i], path); i++)
			;
		if (i < nseen)
			continue;
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
		seen[nseen++] = xstrdup(path);
		read_binary(l, path, 1);
	}
	fclose(f);
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return 0;
}

static int list_usdt(void)
{
	struct probe_list l = { 0 };
	int err;

	if (env.lib) {
		char *path = probe_find_library(env.lib, env.pid);

		if (!path) {
			tool_err("tplist", "cannot find library %s", env.lib);
			return 1;
		}
		err = read_binary(&l, path, 0);
		free(path);
	} else {
		err = read_process(&l, env.pid);
	}
	if (err < 0) {
		tool_err("tplist", "%s", err_msg());
		return 1;
	}
	for (size_t i = 0; i < l.n; i++) {
		struct probe_row *r = &l.rows[i];

		if (env.variables)
			printf("%s %s [sema 0x%" PRIx64 "]\n  %d location(s)\n  %d argument(s)\n", r->bin,
			       r->name, r->sema, r->locations, r->args);
		else
			printf("%s %s\n", r->bin, r->name);
		free(r->bin);
		free(r->name);
	}
	free(l.rows);
	return none_matched("USDT probe");
}

int tplist_main(int argc, char **argv)
{
	opt_parse(argc, argv, &help, parse, NULL);
	return env.pid || env.lib ? list_usdt() : list_tracepoints();
}
