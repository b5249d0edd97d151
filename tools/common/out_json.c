/* JSON strings, numbers and times; the report documents of interval tools. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "out_int.h"

void json_strn(struct strbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;

	strbuf_addc(b, '"');
	while (s < end && *s) {
		size_t run = 0;

		/* copy plain runs in one go */
		while (s + run < end && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' && s[run] != '\\')
			run++;
		if (run) {
			strbuf_addn(b, (const char *)s, run);
			s += run;
			continue;
		}
		switch (*s) {
		case '"': strbuf_add(b, "\\\""); break;
		case '\\': strbuf_add(b, "\\\\"); break;
		case '\n': strbuf_add(b, "\\n"); break;
		case '\t': strbuf_add(b, "\\t"); break;
		case '\r': strbuf_add(b, "\\r"); break;
		default:
			if (*s >= 0x80) {
				size_t u = utf8_len(s, (size_t)(end - s));

				if (u) {
					strbuf_addn(b, (const char *)s, u);
					s += u;
					continue;
				}
			}
			/* controls, DEL and bytes that are not UTF-8: the byte as
			 * a code point, so the line stays valid JSON */
			strbuf_addf(b, "\\u%04x", *s);
			break;
		}
		s++;
	}
	strbuf_addc(b, '"');
}

void json_str(struct strbuf *b, const char *s)
{
	json_strn(b, s, strlen(s));
}

void json_num(struct strbuf *b, double v)
{
	if (!isfinite(v))
		strbuf_add(b, "null");
	else if (v == (double)(long long)v && fabs(v) < 9007199254740992.0)
		strbuf_addf(b, "%lld", (long long)v);
	else
		strbuf_addf(b, "%.15g", v);
}

void json_time(struct strbuf *b)
{
	struct timeval tv;
	struct tm tm;
	char buf[32];
	long off;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	off = tm.tm_gmtoff / 60;
	strbuf_addf(b, "\"%s.%06ld%c%02ld:%02ld\"", buf, (long)tv.tv_usec, off < 0 ? '-' : '+',
		    labs(off) / 60, labs(off) % 60);
}

/* ---- reports ------------------------------------------------------------ */

struct section {
	char *key;
	struct strbuf items; /* "v,v,v" */
};

static struct {
	bool open;
	struct strbuf fields; /* ",k:v,k:v" */
	struct section *secs;
	size_t nsecs;
} doc;

bool out_doc_is_open(void)
{
	return doc.open;
}

void out_doc_begin(void)
{
	doc.open = true;
	strbuf_reset(&doc.fields);
	for (size_t i = 0; i < doc.nsecs; i++)
		strbuf_reset(&doc.secs[i].items);
}

void doc_add_fields(const char *fields)
{
	if (!*fields)
		return;
	strbuf_addc(&doc.fields, ',');
	strbuf_add(&doc.fields, fields);
}

void out_doc_num(const char *key, double value, const char *help)
{
	if (out_json() && doc.open) {
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		json_str(&b, key);
		strbuf_addc(&b, ':');
		json_num(&b, value);
		doc_add_fields(b.s);
		strbuf_free(&b);
	}
	if (out_prom_on() && help)
		prom_num(key, value, help);
}

void out_json_value(const char *key, const struct strbuf *value)
{
	struct section *s = NULL;

	if (!doc.open || !key) { /* an event: a line of its own */
		if (!doc.open && out_cgroup_json(value))
			return;
		fwrite(value->s, 1, value->len, stdout);
		putchar('\n');
		return;
	}
	for (size_t i = 0; i < doc.nsecs; i++)
		if (!strcmp(doc.secs[i].key, key))
			s = &doc.secs[i];
	if (!s) {
		doc.secs = xrealloc(doc.secs, (doc.nsecs + 1) * sizeof(*doc.secs));
		s = &doc.secs[doc.nsecs++];
		s->key = xstrdup(key);
		memset(&s->items, 0, sizeof(s->items));
		strbuf_reset(&s->items);
	}
	if (s->items.len)
		strbuf_addc(&s->items, ',');
	strbuf_addn(&s->items, value->s, value->len);
}

int out_doc_end(void)
{
	int ret = 0;

	if (!doc.open)
		return 0;
	doc.open = false;
	if (out_json()) {
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		strbuf_add(&b, "{\"time\":");
		json_time(&b);
		if (doc.fields.len)
			strbuf_addn(&b, doc.fields.s, doc.fields.len);
		for (size_t i = 0; i < doc.nsecs; i++) {
			strbuf_addc(&b, ',');
			json_str(&b, doc.secs[i].key);
			strbuf_add(&b, ":[");
			strbuf_addn(&b, doc.secs[i].items.s, doc.secs[i].items.len);
			strbuf_addc(&b, ']');
		}
		strbuf_addc(&b, '}');
		puts(b.s);
		strbuf_free(&b);
	}
	if (out_cfg.prom_path)
		ret = prom_write(out_cfg.prom_path);
	return ret;
}
