/* Tracepoint format files: see tp_format.h. */
#include "tp_format.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "tracefs.h"
#include "util.h"

void tp_format_free(struct tp_format *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->f[i].name);
		free(f->f[i].type);
	}
	free(f->f);
	memset(f, 0, sizeof(*f));
}

/* "\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;" */
int tp_format_parse(const char *text, struct tp_format *out)
{
	const char *line = text;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *f = strstr(line, "field:");
		const char *semi, *o, *sz, *sg;
		size_t n;

		if (f && (!nl || f < nl) && (semi = strchr(f, ';')) && (!nl || semi < nl) &&
		    (o = strstr(semi, "offset:")) && (sz = strstr(semi, "size:")) && (!nl || sz < nl)) {
			struct tp_field *tf;
			char decl[256], *name, *br;

			n = (size_t)(semi - (f + 6));
			if (n >= sizeof(decl))
				n = sizeof(decl) - 1;
			memcpy(decl, f + 6, n);
			decl[n] = 0;
			while (n && decl[n - 1] == ' ')
				decl[--n] = 0;
			br = n && decl[n - 1] == ']' ? strrchr(decl, '[') : NULL;
			/* the name: last word (before any [N]) */
			name = br ? br : decl + n;
			while (name > decl && name[-1] == ' ')
				name--;
			{
				char *e = name;

				while (name > decl && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
					name--;
				out->f = xrealloc(out->f, (size_t)(out->n + 1) * sizeof(*out->f));
				tf = &out->f[out->n++];
				memset(tf, 0, sizeof(*tf));
				tf->name = xmalloc((size_t)(e - name) + 1);
				memcpy(tf->name, name, (size_t)(e - name));
				tf->name[e - name] = 0;
				/* type = decl without the name (arrays keep [N]) */
				tf->type = xmalloc(strlen(decl) + 1);
				memcpy(tf->type, decl, (size_t)(name - decl));
				strcpy(tf->type + (name - decl), e);
			}
			tf->data_loc = strstr(tf->type, "__data_loc") != NULL;
			{
				unsigned long off = strtoul(o + 7, NULL, 10), size = strtoul(sz + 5, NULL, 10);

				if (off >= TP_FORMAT_MAX_OFF || size > TP_FORMAT_MAX_OFF - off) {
					err_set(EINVAL, "tracepoint format: field %s (offset %lu, size %lu) lies outside any record",
						tf->name, off, size);
					tp_format_free(out);
					return -EINVAL;
				}
				tf->off = (uint32_t)off;
				tf->size = (uint32_t)size;
			}
			sg = strstr(sz, "signed:");
			tf->sign = sg && (!nl || sg < nl) && sg[7] == '1';
			if (!strcmp(tf->name, "__syscall_nr"))
				out->first_arg = out->n;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!out->n)
		return err_set(EINVAL, "tracepoint format has no fields");
	return 0;
}

int tp_format_read(const char *cat, const char *ev, struct tp_format *out)
{
	char rel[300], path[512], *buf;
	size_t len;
	int err;

	snprintf(rel, sizeof(rel), "events/%s/%s/format", cat, ev);
	if (!tracefs_path(path, sizeof(path), rel))
		return -ENOENT;
	if ((err = read_file(path, 1 << 20, &buf, &len)) < 0)
		return err_prefix(err, "tracepoint %s:%s", cat, ev);
	err = tp_format_parse(buf, out);
	free(buf);
	if (err < 0)
		return err_prefix(err, "%s", path);
	return 0;
}

const struct tp_field *tp_field(const struct tp_format *f, const char *name)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->f[i].name, name))
			return &f->f[i];
	return NULL;
}
