/* The Prometheus text exposition format (version 0.0.4): every series the
 * tool reported since it started, rewritten after each report to a temp
 * file renamed over --prom FILE (node_exporter's textfile collector reads
 * whole files only; out_file.c does the replacing, safely).
 *
 * Interval tools report what happened in the interval; Prometheus wants
 * counters that never go down, so counters and histograms add up here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "out_file.h"
#include "out_int.h"

enum { FAM_COUNTER, FAM_GAUGE, FAM_HIST };

struct family {
	char *name;   /* corebox_TOOL_KEY[_unit][_total] */
	char *help;
	int type;
	const struct out_hist *hist; /* bucket bounds */
	double scale;                /* hist: unit -> base unit */
	int nslots;
};

struct series {
	int fam;
	char *labels; /* k="v",k="v" (escaped) */
	double value;
	uint64_t *slots; /* hist: per-slot counts (not cumulative) */
	double sum;
	bool has_sum;
};

static struct family *fams;
static size_t nfams;
static struct series *ser;
static size_t nser;
static size_t *index_; /* open addressing: series index + 1, 0 = empty */
static size_t index_cap;

/* Metric and label names: [a-zA-Z_][a-zA-Z0-9_]* (colons are for rules). */
static void add_name(struct strbuf *b, const char *s)
{
	if (*s >= '0' && *s <= '9')
		strbuf_addc(b, '_');
	for (; *s; s++)
		strbuf_addc(b, ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
				(*s >= '0' && *s <= '9') || *s == '_') ? *s : '_');
}

void prom_label_value(struct strbuf *b, const char *val)
{
	const unsigned char *s = (const unsigned char *)val, *end = s + strlen(val);

	while (s < end) {
		size_t u = *s >= 0x80 ? utf8_len(s, (size_t)(end - s)) : 0;

		if (u) {
			strbuf_addn(b, (const char *)s, u);
			s += u;
			continue;
		}
		if (*s == '\\' || *s == '"')
			strbuf_addc(b, '\\');
		if (*s == '\n')
			strbuf_add(b, "\\n");
		else if (*s < ' ' || *s >= 0x7f)
			strbuf_add(b, "\xef\xbf\xbd"); /* U+FFFD */
		else
			strbuf_addc(b, (char)*s);
		s++;
	}
}

static void add_label(struct strbuf *b, const char *key, const char *val)
{
	if (b->len)
		strbuf_addc(b, ',');
	add_name(b, key);
	strbuf_add(b, "=\"");
	prom_label_value(b, val ? val : "");
	strbuf_addc(b, '"');
}

static int family(const char *key, const char *suffix, const char *help, int type)
{
	struct strbuf name = { 0 };
	size_t i;

	strbuf_reset(&name);
	strbuf_add(&name, "corebox_");
	add_name(&name, out_cfg.tool ? out_cfg.tool : "tool");
	strbuf_addc(&name, '_');
	add_name(&name, key);
	if (suffix)
		strbuf_add(&name, suffix);
	if (type == FAM_COUNTER && (name.len < 6 || strcmp(name.s + name.len - 6, "_total")))
		strbuf_add(&name, "_total");
	for (i = 0; i < nfams; i++)
		if (!strcmp(fams[i].name, name.s)) {
			strbuf_free(&name);
			return (int)i;
		}
	fams = xrealloc(fams, (nfams + 1) * sizeof(*fams));
	memset(&fams[nfams], 0, sizeof(fams[nfams]));
	fams[nfams].name = name.s; /* owned now */
	fams[nfams].help = xstrdup(help ? help : key);
	fams[nfams].type = type;
	return (int)nfams++;
}

static size_t hash(int fam, const char *labels)
{
	size_t h = 2166136261u ^ (size_t)fam;

	for (; *labels; labels++)
		h = (h ^ (unsigned char)*labels) * 16777619u;
	return h;
}

static void index_put(size_t i)
{
	size_t h = hash(ser[i].fam, ser[i].labels) & (index_cap - 1);

	while (index_[h])
		h = (h + 1) & (index_cap - 1);
	index_[h] = i + 1;
}

static struct series *series(int fam, const char *labels)
{
	size_t h;

	if (index_cap) {
		for (h = hash(fam, labels) & (index_cap - 1); index_[h]; h = (h + 1) & (index_cap - 1)) {
			struct series *s = &ser[index_[h] - 1];

			if (s->fam == fam && !strcmp(s->labels, labels))
				return s;
		}
	}
	if ((nser + 1) * 2 > index_cap) { /* keep the table at most half full */
		index_cap = index_cap ? index_cap * 2 : 64;
		free(index_);
		index_ = xcalloc(index_cap, sizeof(*index_));
		for (size_t i = 0; i < nser; i++)
			index_put(i);
	}
	ser = xrealloc(ser, (nser + 1) * sizeof(*ser));
	memset(&ser[nser], 0, sizeof(ser[nser]));
	ser[nser].fam = fam;
	ser[nser].labels = xstrdup(labels);
	index_put(nser);
	return &ser[nser++];
}

void prom_row(const struct out_table *t, const union out_val *v)
{
	struct strbuf labels = { 0 };
	char num[32];

	strbuf_reset(&labels);
	for (unsigned i = 0; i < t->ncols; i++) {
		const struct out_col *c = &t->cols[i];

		if (!(c->flags & OUT_LABEL) || (i < 64 && (t->hidden & (1ull << i))))
			continue;
		switch (c->type) {
		case OUT_INT: snprintf(num, sizeof(num), "%lld", v[i].i); add_label(&labels, c->key, num); break;
		case OUT_UINT: snprintf(num, sizeof(num), "%llu", v[i].u); add_label(&labels, c->key, num); break;
		case OUT_HEX: snprintf(num, sizeof(num), "0x%llx", v[i].u); add_label(&labels, c->key, num); break;
		case OUT_STR: add_label(&labels, c->key, v[i].s); break;
		default: break;
		}
	}
	for (unsigned i = 0; i < t->ncols; i++) {
		const struct out_col *c = &t->cols[i];
		double x;
		struct series *s;

		if (!(c->flags & (OUT_COUNTER | OUT_GAUGE)) || (i < 64 && (t->hidden & (1ull << i))))
			continue;
		x = c->type == OUT_INT ? (double)v[i].i : c->type == OUT_FLOAT ? v[i].f : (double)v[i].u;
		if (c->metric && c->metric->scale)
			x *= c->metric->scale;
		s = series(family(c->metric ? c->metric->name : c->key, NULL, c->help,
				  c->flags & OUT_COUNTER ? FAM_COUNTER : FAM_GAUGE),
			   labels.s);
		s->value = c->flags & OUT_COUNTER ? s->value + x : x;
	}
	strbuf_free(&labels);
}

void prom_num(const char *key, double value, const char *help)
{
	series(family(key, NULL, help, FAM_GAUGE), "")->value = value;
}

void prom_hist(const struct out_hist *h, const struct out_label *labels, int nlabels,
	       const uint64_t *slots, int nslots, const double *sum)
{
	struct strbuf lb = { 0 };
	const char *suffix = NULL;
	double scale = hist_unit_scale(h->unit, &suffix);
	int fam = family(h->key, suffix, h->help, FAM_HIST);
	struct series *s;

	if (!fams[fam].hist) {
		fams[fam].hist = h;
		fams[fam].scale = scale;
		fams[fam].nslots = nslots;
	}
	strbuf_reset(&lb);
	for (int i = 0; i < nlabels; i++)
		add_label(&lb, labels[i].key, labels[i].val);
	s = series(fam, lb.s);
	strbuf_free(&lb);
	if (!s->slots)
		s->slots = xcalloc((size_t)fams[fam].nslots, sizeof(*s->slots));
	for (int i = 0; i < nslots && i < fams[fam].nslots; i++)
		s->slots[i] += slots[i];
	if (sum) {
		s->sum += *sum * scale;
		s->has_sum = true;
	}
}

static void num(struct strbuf *b, double v)
{
	if (v == (double)(long long)v && v < 9007199254740992.0 && v > -9007199254740992.0)
		strbuf_addf(b, "%lld", (long long)v);
	else
		strbuf_addf(b, "%.17g", v);
}

static void help_line(struct strbuf *b, const struct family *fm)
{
	const char *type = fm->type == FAM_HIST ? "histogram" : fm->type == FAM_GAUGE ? "gauge" : "counter";

	strbuf_addf(b, "# HELP %s ", fm->name);
	for (const char *p = fm->help; *p; p++) { /* HELP escapes \ and newline */
		if (*p == '\\')
			strbuf_add(b, "\\\\");
		else if (*p == '\n')
			strbuf_add(b, "\\n");
		else
			strbuf_addc(b, *p);
	}
	strbuf_addf(b, "\n# TYPE %s %s\n", fm->name, type);
}

static void write_hist(struct strbuf *b, const struct family *fm, const struct series *s)
{
	const char *sep = *s->labels ? "," : "";
	uint64_t cum = 0;

	/* the last slot collects everything above: it is only in +Inf */
	for (int i = 0; i + 1 < fm->nslots; i++) {
		cum += s->slots[i];
		strbuf_addf(b, "%s_bucket{%s%sle=\"%.15g\"} %llu\n", fm->name, s->labels, sep,
			hist_high(fm->hist, i) * fm->scale, (unsigned long long)cum);
	}
	if (fm->nslots > 0)
		cum += s->slots[fm->nslots - 1];
	strbuf_addf(b, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", fm->name, s->labels, sep, (unsigned long long)cum);
	if (s->has_sum) {
		strbuf_addf(b, "%s_sum%s%s%s ", fm->name, *s->labels ? "{" : "", s->labels, *s->labels ? "}" : "");
		num(b, s->sum);
		strbuf_addc(b, '\n');
	}
	strbuf_addf(b, "%s_count%s%s%s %llu\n", fm->name, *s->labels ? "{" : "", s->labels,
		*s->labels ? "}" : "", (unsigned long long)cum);
}

int out_prom_check(const char *path)
{
	int err = out_file_check(path);

	return err ? err_prefix(err, "--prom") : 0;
}

static void render(struct strbuf *b)
{
	for (size_t fi = 0; fi < nfams; fi++) {
		const struct family *fm = &fams[fi];

		help_line(b, fm);
		for (size_t i = 0; i < nser; i++) {
			const struct series *s = &ser[i];

			if (s->fam != (int)fi)
				continue;
			if (fm->type == FAM_HIST) {
				write_hist(b, fm, s);
				continue;
			}
			strbuf_addf(b, "%s%s%s%s ", fm->name, *s->labels ? "{" : "", s->labels, *s->labels ? "}" : "");
			num(b, s->value);
			strbuf_addc(b, '\n');
		}
	}
}

void prom_render(struct strbuf *b)
{
	render(b);
}

int prom_write(const char *path)
{
	struct out_file of;
	struct strbuf text = { 0 };
	int err = out_file_begin(&of, path);

	if (err)
		goto fail;
	render(&text);
	if (text.len)
		fwrite(text.s, 1, text.len, of.f);
	strbuf_free(&text);
	if (!(err = out_file_commit(&of)))
		return 0;
fail:
	err_prefix(err, "cannot write the Prometheus file %s", path);
	fprintf(stderr, "%s: %s\n", out_cfg.tool ? out_cfg.tool : "corebox", err_msg());
	return -1;
}
