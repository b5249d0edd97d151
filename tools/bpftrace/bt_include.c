/* --include FILE and -I DIR: the integer constants (#define NAME NUMBER,
 * and NAME OTHER_NAME aliases of those) of a C header and the headers it
 * includes, for the program's expressions (errno.h's EPERM).  Types come
 * from BTF, so nothing else of a header is read. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"
#include "tools/bpftrace/bt_print.h"
#include "tools/common/common.h"

#ifdef __aarch64__
#define MULTIARCH "/usr/include/aarch64-linux-gnu"
#elif defined(__arm__)
#define MULTIARCH "/usr/include/arm-linux-gnueabihf"
#else
#define MULTIARCH "/usr/include/x86_64-linux-gnu"
#endif

static bool known(struct bt_prog *p, const char *name, size_t n, int64_t *v)
{
	for (int i = 0; i < p->ndefs; i++)
		if (strlen(p->def_names[i]) == n && !strncmp(p->def_names[i], name, n)) {
			*v = p->def_vals[i];
			return true;
		}
	return false;
}

/* Header file as the compiler finds it (dirs, then the system's): its
 * path into path, or false. */
static bool find(const char *file, char **dirs, int ndirs, char *path, size_t size)
{
	const char *std[] = { "/usr/local/include", MULTIARCH, "/usr/include" };

	for (int i = 0; i < ndirs + 3; i++) {
		if (file[0] == '/')
			snprintf(path, size, "%s", file);
		else
			snprintf(path, size, "%s/%s", i < ndirs ? dirs[i] : std[i - ndirs], file);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

static void scan(struct bt_prog *p, const char *file, char **dirs, int ndirs, int depth, int *files)
{
	char path[512], *buf = NULL;
	size_t len;

	/* headers include each other over and over: a bound on the reads */
	if (depth > 8 || p->ndefs >= 4096 || ++*files > 256)
		return;
	if (!find(file, dirs, ndirs, path, sizeof(path)) || read_file(path, 1 << 20, &buf, &len) < 0)
		buf = NULL;
	err_clear();
	for (char *l = buf, *nl; l && *l; l = nl ? nl + 1 : l + strlen(l)) {
		char *s = l, *name, *end;
		size_t n;
		int64_t v;

		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s++ != '#')
			continue;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "include", 7)) {
			char *q = strpbrk(s + 7, "<\""), *e = q ? strpbrk(q + 1, ">\"") : NULL;

			if (e && e - q < 256) {
				*e = 0;
				scan(p, q + 1, dirs, ndirs, depth + 1, files);
			}
			continue;
		}
		if (strncmp(s, "define", 6) || !isspace((unsigned char)s[6]))
			continue;
		for (s += 6; *s == ' ' || *s == '\t'; s++)
			;
		for (name = s; isalnum((unsigned char)*s) || *s == '_'; s++)
			;
		n = (size_t)(s - name);
		if (!n || n > 64 || (*s != ' ' && *s != '\t') || known(p, name, n, &v))
			continue;
		while (*s == ' ' || *s == '\t' || *s == '(')
			s++;
		v = strtoll(s, &end, 0);
		if (end == s) { /* an alias: NAME OTHER */
			for (end = s; isalnum((unsigned char)*end) || *end == '_'; end++)
				;
			if (end == s || !known(p, s, (size_t)(end - s), &v))
				continue;
		}
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == ')')
			end++;
		if (*end && *end != ' ' && *end != '\t' && *end != '/')
			continue;
		p->def_names = xrealloc(p->def_names, (size_t)(p->ndefs + 1) * sizeof(char *));
		p->def_vals = xrealloc(p->def_vals, (size_t)(p->ndefs + 1) * sizeof(int64_t));
		p->def_names[p->ndefs] = xmalloc(n + 1);
		memcpy(p->def_names[p->ndefs], name, n);
		p->def_names[p->ndefs][n] = 0;
		p->def_vals[p->ndefs++] = v;
	}
	free(buf);
}

void bt_include_defines(struct bt_prog *p, const char *file, char **dirs, int ndirs)
{
	int files = 0;

	scan(p, file, dirs, ndirs, 0, &files);
}

int bt_include_check(const struct bt_prog *p, char **dirs, int ndirs)
{
	int depth = 0;

	for (int k = 0; k < p->ncpp; k++) {
		const char *h = p->text + p->cpp[k], *l = h + 1 + strspn(h + 1, " \t"), *q = l + 7 + strspn(l + 7, " \t");
		size_t n = strcspn(q + 1, "\">\n");
		char name[256], path[512];
		int line = 2 + k; /* definitions.h: a line of 0.17's own, then these */

		depth += !strncmp(l, "if", 2) - !strncmp(l, "endif", 5);
		if (depth || strncmp(l, "include", 7) || (*q != '<' && *q != '"') || n >= sizeof(name))
			continue;
		memcpy(name, q + 1, n);
		name[n] = 0;
		bool there = (*q == '"' && access(name, R_OK) == 0) || find(name, dirs, ndirs, path, sizeof(path));
		bool kernel = !strncmp(name, "linux/", 6) || !strncmp(name, "net/", 4) || !strncmp(name, "asm/", 4) ||
			      !strncmp(name, "uapi/", 5);

		/* kernel BTF answers for a kernel header (its types are never
		 * read from the header: -v says which answered) */
		if (kernel && tool_common.verbose)
			fprintf(stderr, "bpftrace: #include <%s>: %s; its types come from the kernel's BTF%s\n", name,
				there ? "found, not read" : "not on this system, not needed",
				probe_kernel_btf() ? "" : ", which this kernel lacks");
		if (there || (kernel && probe_kernel_btf()))
			continue;
		for (int d = 0; d < p->ndecls && p->decls[2 * d] < p->cpp[k]; d++)
			for (int i = p->decls[2 * d], end = p->decls[2 * d + 1]; i <= end; i++)
				line += i == end || p->text[i] == '\n'; /* its lines, and 0.17's ";\n" */
		fprintf(stderr, "definitions.h:%d:%d: fatal error: '%s' file not found\n", line, (int)(q - h) + 1, name);
		return -1;
	}
	return 0;
}
