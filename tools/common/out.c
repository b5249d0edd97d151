/* The output layer: tables and rows in text and JSON, reports (see out.h). */
#include "out.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "out_int.h"

struct out_settings out_cfg;

/* ---- text cells -------------------------------------------------------- */

/* A column's printf format rewritten for the value's C type: the tool
 * writes "%-6d " or "%8.3f" as the original did; the value arrives as a
 * long long / unsigned long long / double / char *, so the length modifier
 * is replaced (and for the header the conversion becomes %s with the same
 * flags and width, precision dropped).  One conversion per format, no '*'
 * widths; "%%" is kept. */
static const char *cell_format(const char *fmt, enum out_type type, bool header, char *buf,
			       size_t size)
{
	size_t o = 0;
	const char *p = fmt;
	bool done = false;

	while (*p && o + 8 < size) {
		if (*p != '%' || done) {
			buf[o++] = *p++;
			continue;
		}
		if (p[1] == '%') {
			buf[o++] = *p++;
			buf[o++] = *p++;
			continue;
		}
		buf[o++] = *p++;
		while (*p && strchr("-+ #0", *p) && o + 8 < size) /* flags */
			buf[o++] = *p++;
		while (*p && strchr("0123456789", *p) && o + 8 < size) /* width ('*' is not supported) */
			buf[o++] = *p++;
		if (*p == '.') { /* precision: kept for values, dropped for headers */
			const char *q = p + 1;

			while (*q && strchr("0123456789", *q))
				q++;
			while (!header && p < q && o + 8 < size)
				buf[o++] = *p++;
			p = q;
		}
		while (*p && strchr("hlLqjzt", *p)) /* length modifiers: ours replace them */
			p++;
		if (header) {
			buf[o++] = 's';
		} else {
			switch (type) {
			case OUT_INT:
			case OUT_UINT:
			case OUT_HEX:
			case OUT_BOOL:
				buf[o++] = 'l';
				buf[o++] = 'l';
				buf[o++] = *p && strchr("diouxXc", *p) ? *p : (type == OUT_INT ? 'd' : 'u');
				break;
			case OUT_FLOAT:
				buf[o++] = *p && strchr("fFeEgGaA", *p) ? *p : 'f';
				break;
			default:
				buf[o++] = 's';
				break;
			}
		}
		if (*p)
			p++;
		done = true;
	}
	buf[o] = 0;
	return buf;
}

static void text_cell(FILE *f, const struct out_col *c, const union out_val *v)
{
	char fmt[64];

	if (c->text) {
		c->text(f, c, v);
		return;
	}
	cell_format(c->fmt ? c->fmt : "%s ", c->type, false, fmt, sizeof(fmt));
	switch (c->type) {
	case OUT_INT:
	case OUT_BOOL:
		fprintf(f, fmt, v->i);
		break;
	case OUT_UINT:
	case OUT_HEX:
		fprintf(f, fmt, v->u);
		break;
	case OUT_FLOAT:
		fprintf(f, fmt, v->f);
		break;
	case OUT_STRV: { /* the strings separated by spaces, each escaped */
		const char *p = v->strv.p, *end = p + v->strv.size;
		struct strbuf b = { 0 }, one = { 0 };

		strbuf_reset(&b);
		strbuf_reset(&one);
		for (int i = 0; i < v->strv.n && p < end; i++) {
			size_t n = strnlen(p, (size_t)(end - p));

			if (i)
				strbuf_addc(&b, ' ');
			strbuf_reset(&one);
			strbuf_addn(&one, p, n);
			out_escaped(&b, one.s);
			p += n + 1;
		}
		fprintf(f, fmt, b.s);
		strbuf_free(&b);
		strbuf_free(&one);
		break;
	}
	default: {
		const char *s = v->s ? v->s : "", *dot = strpbrk(fmt, ".s");
		struct strbuf b = { 0 };
		char cut[64];

		/* a column cut at a width ("%-12.12s") is cut between escapes,
		 * never inside one ("\x1b]0;X\x" would read as a broken escape) */
		if (dot && *dot == '.' && (size_t)atoi(dot + 1) < sizeof(cut) && str_needs_escape(s, NULL)) {
			fprintf(f, fmt, str_escape(cut, (size_t)atoi(dot + 1) + 1, s, NULL));
			break;
		}
		strbuf_reset(&b);
		out_escaped(&b, s);
		fprintf(f, fmt, b.s);
		strbuf_free(&b);
		break;
	}
	}
}

/* Every text string cell goes through here: the bytes come from the
 * traced system (comm, argv, paths) or the command line, and a raw ESC
 * or newline would drive the terminal or forge a line.  Printable text
 * is unchanged (libbpf-tools' bytes); JSON escapes by its own rules. */
void out_escaped(struct strbuf *b, const char *s)
{
	strbuf_add_escaped(b, s, NULL);
}

/* ---- the event's cgroup --------------------------------------------------- */

#define CGROUP_FMT "%-24s "

static uint64_t ev_cg_id;
static const char *ev_cg_path;

void out_event_cgroup(uint64_t id, const char *path)
{
	ev_cg_id = id;
	ev_cg_path = path;
}

/* --show-cgroup: the path, else the bare id (a cgroup gone before it
 * was looked up), else "-" (the tool did not record one). */
const char *out_cgroup_text(char *buf, size_t size)
{
	struct strbuf b = { 0 };

	if (ev_cg_path) {
		out_escaped(&b, ev_cg_path);
		snprintf(buf, size, "%s", b.s ? b.s : "");
		strbuf_free(&b);
	} else if (ev_cg_id) {
		snprintf(buf, size, "%llu", (unsigned long long)ev_cg_id);
	} else {
		snprintf(buf, size, "-");
	}
	return buf;
}

static void cgroup_cell(void)
{
	char buf[4200];

	printf(CGROUP_FMT, out_cgroup_text(buf, sizeof(buf)));
}

void out_cgroup_prefix(void)
{
	if (out_cfg.cgroup_column && !out_json())
		cgroup_cell();
}

void out_cgroup_add(struct strbuf *b)
{
	char buf[4200];

	if (out_cfg.cgroup_column && !out_json())
		strbuf_addf(b, CGROUP_FMT, out_cgroup_text(buf, sizeof(buf)));
}

void out_cgroup_head(void)
{
	if (out_cfg.cgroup_column && !out_json())
		out_info(CGROUP_FMT, "CGROUP");
}

void out_cgroup_fields(struct strbuf *b)
{
	strbuf_add(b, "\"cgroup\":");
	if (ev_cg_path)
		json_str(b, ev_cg_path);
	else
		strbuf_add(b, "null");
	strbuf_addf(b, ",\"cgroup_id\":%llu", (unsigned long long)ev_cg_id);
}

/* An event's JSON line to stdout with "cgroup" and "cgroup_id" after
 * "time" (first when it has none): true, or false when the event has no
 * cgroup (the caller writes the line as it is). */
bool out_cgroup_json(const struct strbuf *line)
{
	struct strbuf b = { 0 };
	size_t at = 1;

	if (!ev_cg_id || line->len < 2 || line->s[0] != '{')
		return false;
	if (!strncmp(line->s, "{\"time\":\"", 9)) {
		const char *q = memchr(line->s + 9, '"', line->len - 9);

		if (q)
			at = (size_t)(q + 1 - line->s);
	}
	strbuf_reset(&b);
	strbuf_addn(&b, line->s, at);
	if (at > 1)
		strbuf_addc(&b, ',');
	out_cgroup_fields(&b);
	if (line->s[at] != '}' && line->s[at] != ',')
		strbuf_addc(&b, ',');
	strbuf_addn(&b, line->s + at, line->len - at);
	strbuf_addc(&b, '\n');
	fwrite(b.s, 1, b.len, stdout);
	strbuf_free(&b);
	return true;
}

static bool visible(const struct out_table *t, unsigned i)
{
	return i >= 64 || !(t->hidden & (1ull << i));
}

void out_show(struct out_table *t, unsigned i, bool on)
{
	if (i >= 64)
		return;
	if (on)
		t->hidden &= ~(1ull << i);
	else
		t->hidden |= 1ull << i;
}

void out_header(const struct out_table *t)
{
	char fmt[64];

	if (out_json())
		return;
	if (out_cfg.cgroup_column && !out_doc_is_open())
		printf(CGROUP_FMT, "CGROUP");
	for (unsigned i = 0; i < t->ncols; i++) {
		const struct out_col *c = &t->cols[i];

		if (!visible(t, i) || (c->flags & OUT_JSON_ONLY))
			continue;
		if (c->hfmt)
			printf(c->hfmt, c->head ? c->head : "");
		else
			printf(cell_format(c->fmt ? c->fmt : "%s ", c->type, true, fmt, sizeof(fmt)),
			       c->head ? c->head : "");
	}
}

/* ---- JSON rows --------------------------------------------------------- */

static void json_cell(struct strbuf *b, const struct out_col *c, const union out_val *v)
{
	json_str(b, c->key);
	strbuf_addc(b, ':');
	switch (c->type) {
	case OUT_INT:
		strbuf_addf(b, "%lld", v->i);
		break;
	case OUT_UINT:
		strbuf_addf(b, "%llu", v->u);
		break;
	case OUT_HEX:
		strbuf_addf(b, "\"0x%llx\"", v->u);
		break;
	case OUT_BOOL:
		strbuf_add(b, v->i ? "true" : "false");
		break;
	case OUT_FLOAT:
		json_num(b, v->f);
		break;
	case OUT_STRV: {
		const char *p = v->strv.p, *end = p + v->strv.size;

		strbuf_addc(b, '[');
		for (int i = 0; i < v->strv.n && p < end; i++) {
			size_t n = strnlen(p, (size_t)(end - p));

			if (i)
				strbuf_addc(b, ',');
			json_strn(b, p, n);
			p += n + 1;
		}
		strbuf_addc(b, ']');
		break;
	}
	default:
		if (v->s)
			json_str(b, v->s);
		else
			strbuf_add(b, "null");
		break;
	}
}

/* The row's fields, comma-separated, without braces. */
static void json_fields(struct strbuf *b, const struct out_table *t, const union out_val *v)
{
	bool first = true;

	for (unsigned i = 0; i < t->ncols; i++) {
		const struct out_col *c = &t->cols[i];

		if (!visible(t, i) || (c->flags & OUT_TEXT_ONLY) || !c->key)
			continue;
		if (!first)
			strbuf_addc(b, ',');
		json_cell(b, c, &v[i]);
		first = false;
	}
}

void out_row(const struct out_table *t, const union out_val *v)
{
	if (out_prom_on() && out_doc_is_open())
		prom_row(t, v);
	if (!out_json()) {
		if (out_cfg.cgroup_column && !out_doc_is_open())
			cgroup_cell();
		for (unsigned i = 0; i < t->ncols; i++)
			if (visible(t, i) && !(t->cols[i].flags & OUT_JSON_ONLY))
				text_cell(stdout, &t->cols[i], &v[i]);
		return;
	}
	if (out_doc_is_open() && !t->name) { /* fields of the report itself */
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		json_fields(&b, t, v);
		doc_add_fields(b.s);
		strbuf_free(&b);
		return;
	}
	{
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		strbuf_addc(&b, '{');
		if (!out_doc_is_open()) { /* an event: when it was printed */
			strbuf_add(&b, "\"time\":");
			json_time(&b);
			strbuf_addc(&b, ',');
		}
		json_fields(&b, t, v);
		if (b.s[b.len - 1] == ',')
			b.s[--b.len] = 0;
		strbuf_addc(&b, '}');
		out_json_value(t->name, &b);
		strbuf_free(&b);
	}
}

void out_row_unshown(const struct out_table *t, const union out_val *v)
{
	if (out_prom_on() && out_doc_is_open())
		prom_row(t, v);
}

/* ---- text-only lines ----------------------------------------------------- */

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (out_json())
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void out_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out_json() ? stderr : stdout, fmt, ap);
	va_end(ap);
}
