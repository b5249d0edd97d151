/* bcc's probe grammars (see spec.h). */
#include "spec.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"

static char *dup_n(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);

	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

/* Trim spaces on both ends; *pos moves with the start. */
static char *trim_n(const char *s, size_t n, int *pos)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
		(*pos)++;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return dup_n(s, n);
}

static int fail(int *errpos, int pos, const char *fmt, const char *arg)
{
	*errpos = pos;
	return err_set(EINVAL, fmt, arg);
}

void spec_free(struct spec *s)
{
	free(s->lib);
	free(s->func);
	free(s->provider);
	for (int i = 0; i < s->nparams; i++) {
		free(s->params[i].type);
		free(s->params[i].name);
	}
	free(s->params);
	free(s->pred.text);
	free(s->format);
	for (int i = 0; i < s->nargs; i++)
		free(s->args[i].text);
	free(s->args);
	for (int i = 0; i < s->ntypes; i++)
		free(s->types[i]);
	free(s->types);
	free(s->label);
	memset(s, 0, sizeof(*s));
}

/* "FUNC+OFF": split off a decimal or (with x) hex offset. */
static int split_offset(struct spec *s, int pos, int *errpos)
{
	char *plus = strchr(s->func, '+'), *end;

	if (!plus)
		return 0;
	errno = 0;
	s->offset = strtoull(plus + 1, &end, strpbrk(plus + 1, "xX") ? 16 : 10);
	if (errno || end == plus + 1 || *end)
		return fail(errpos, pos + (int)(plus + 1 - s->func), "invalid offset '%s', must be decimal or hexadecimal",
			    plus + 1);
	*plus = 0;
	return 0;
}

/* "type name, type *name" -> params. */
static int parse_signature(struct spec *s, const char *sig, size_t n, int pos, int *errpos)
{
	size_t i = 0;

	s->has_sig = true;
	while (i < n) {
		size_t j = i;
		int ppos = pos + (int)i;
		char *param, *cut;

		while (j < n && sig[j] != ',')
			j++;
		param = trim_n(sig + i, j - i, &ppos);
		i = j + 1;
		if (!*param) {
			free(param);
			if (j >= n && s->nparams == 0)
				break; /* "()" */
			return fail(errpos, ppos, "empty parameter in the signature%s", "");
		}
		/* the name is after the last '*' or space */
		cut = strrchr(param, '*');
		if (!cut)
			cut = strrchr(param, ' ');
		if (!cut || !cut[1]) {
			free(param);
			return fail(errpos, ppos, "parameter needs a type and a name%s", "");
		}
		s->params = xrealloc(s->params, (size_t)(s->nparams + 1) * sizeof(*s->params));
		s->params[s->nparams].name = xstrdup(cut + 1);
		cut[1] = 0;
		s->params[s->nparams].type = param;
		for (char *c = s->params[s->nparams].name; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_') {
				int bad = ppos + (int)(strlen(param));

				s->nparams++;
				return fail(errpos, bad, "bad parameter name%s", "");
			}
		s->nparams++;
	}
	return 0;
}

/* SPEC part of trace/argdist probes: [TYPE:]LIB:FUNC, with bcc's rules. */
static int parse_spec_part(struct spec *s, const char *spec, size_t n, int *errpos, bool allow_short)
{
	const char *first = memchr(spec, ':', n), *last = NULL;
	int nparts = 1;

	for (size_t i = 0; i < n; i++)
		if (spec[i] == ':') {
			nparts++;
			last = spec + i;
		}
	if (nparts == 1 && allow_short) {
		s->type = 'p';
		s->lib = xstrdup("");
		s->func = dup_n(spec, n);
	} else if (nparts == 2 && allow_short) {
		s->type = 'p';
		s->lib = dup_n(spec, (size_t)(first - spec));
		s->func = dup_n(first + 1, n - (size_t)(first - spec) - 1);
	} else if (nparts < 3) {
		return fail(errpos, 0, "expected TYPE:LIBRARY:FUNCTION%s", "");
	} else {
		size_t tl = (size_t)(first - spec);

		if (tl == 0)
			s->type = 'p';
		else if (tl == 1 && strchr("prtu", spec[0]))
			s->type = spec[0];
		else
		{
			*errpos = 0;
			return err_set(EINVAL, "probe type must be '', 'p', 't', 'r', or 'u', but got '%.*s'",
				       (int)(tl > 20 ? 20 : tl), spec);
		}
		if (s->type == 'u' && nparts >= 4) {
			/* u:LIB:PROVIDER:PROBE (LIB without ':') */
			const char *second = memchr(first + 1, ':', n - tl - 1);

			s->lib = dup_n(first + 1, (size_t)(second - first - 1));
			s->provider = dup_n(second + 1, (size_t)(last - second - 1));
			s->func = dup_n(last + 1, n - (size_t)(last - spec) - 1);
		} else {
			s->lib = dup_n(first + 1, (size_t)(last - first - 1));
			s->func = dup_n(last + 1, n - (size_t)(last - spec) - 1);
		}
	}
	if (!*s->func)
		return fail(errpos, (int)n, "missing function or event name%s", "");
	if (s->type == 't' && !*s->lib)
		return fail(errpos, 2, "tracepoint needs a category (t:CATEGORY:EVENT)%s", "");
	if (s->type == 'u' && !*s->lib)
		return fail(errpos, 2, "USDT probe needs a library or binary (u:LIB:PROBE)%s", "");
	if (s->type == 'p' && split_offset(s, (int)(n - strlen(s->func)), errpos) < 0)
		return -EINVAL;
	if (s->type != 'p' && strchr(s->func, '+'))
		return fail(errpos, (int)(n - strlen(s->func)) + (int)(strchr(s->func, '+') - s->func),
			    "an offset is allowed only on entry probes%s", "");
	return 0;
}

static int parse_trace(const char *text, struct spec *s, int *errpos)
{
	size_t n = strcspn(text, " \t(");
	const char *p;
	int err;

	memset(s, 0, sizeof(*s));
	s->text = text;
	if (!n)
		return fail(errpos, 0, "empty probe%s", "");
	if ((err = parse_spec_part(s, text, n, errpos, true)) < 0)
		return err;
	p = text + n;
	if (*p == '(') {
		/* signature: up to the last ')' before any further '(' (bcc's regex) */
		const char *open2 = strchr(p + 1, '('), *close = NULL;

		for (const char *q = p + 1; *q && (!open2 || q < open2); q++)
			if (*q == ')')
				close = q;
		if (!close)
			return fail(errpos, (int)(p - text), "unmatched '(' in the function signature%s", "");
		if (s->type == 'u' || s->type == 't')
			return fail(errpos, (int)(p - text),
				    "USDT and tracepoint probes can't have a function signature; use arg1, arg2, ... instead%s",
				    "");
		if ((err = parse_signature(s, p + 1, (size_t)(close - p - 1), (int)(p + 1 - text), errpos)) < 0)
			return err;
		p = close + 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '(') {
		int depth = 0;
		const char *q;

		for (q = p; *q; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
		}
		if (!*q)
			return fail(errpos, (int)(p - text), "unmatched end of predicate%s", "");
		s->pred.pos = (int)(p + 1 - text);
		s->pred.text = trim_n(p + 1, (size_t)(q - p - 1), &s->pred.pos);
		if (!*s->pred.text)
			return fail(errpos, (int)(p - text), "empty predicate%s", "");
		p = q + 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	if (*p != '"')
		return fail(errpos, (int)(p - text), "expected format string in \"s%s", "");
	{
		const char *q = strchr(p + 1, '"');

		if (!q)
			return fail(errpos, (int)(p - text), "unterminated format string%s", "");
		s->format = dup_n(p + 1, (size_t)(q - p - 1));
		s->fmt_pos = (int)(p + 1 - text);
		p = q + 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == ',')
		p++;
	/* arguments: split on commas not preceded by '"' (bcc's naive split),
	 * but keep commas inside parentheses (STRCMP("a", b)) together */
	while (*p) {
		const char *q = p;
		int depth = 0, apos;
		bool in_str = false;

		for (; *q; q++) {
			if (*q == '"')
				in_str = !in_str;
			else if (!in_str && *q == '(')
				depth++;
			else if (!in_str && *q == ')')
				depth--;
			else if (!in_str && depth <= 0 && *q == ',')
				break;
		}
		apos = (int)(p - text);
		s->args = xrealloc(s->args, (size_t)(s->nargs + 1) * sizeof(*s->args));
		s->args[s->nargs].text = trim_n(p, (size_t)(q - p), &apos);
		s->args[s->nargs].pos = apos;
		if (*s->args[s->nargs].text)
			s->nargs++;
		else
			free(s->args[s->nargs].text);
		p = *q ? q + 1 : q;
	}
	return 0;
}

static int parse_pattern(const char *text, struct spec *s, int *errpos)
{
	int nparts = 1;
	const char *c1, *c2;

	memset(s, 0, sizeof(*s));
	s->text = text;
	if (!*text)
		return fail(errpos, 0, "empty pattern%s", "");
	for (const char *p = text; *p; p++)
		nparts += *p == ':';
	c1 = strchr(text, ':');
	if (nparts == 1) {
		s->type = 'p';
		s->lib = xstrdup("");
		s->func = xstrdup(text);
	} else if (nparts == 2) {
		s->type = 'p';
		s->lib = dup_n(text, (size_t)(c1 - text));
		s->func = xstrdup(c1 + 1);
	} else if (nparts == 3) {
		c2 = strchr(c1 + 1, ':');
		if (c1 - text != 1 || !strchr("ptu", text[0]))
		{
			*errpos = 0;
			return err_set(EINVAL, "Type must be 'p', 't', or 'u', but got %.*s", (int)(c1 - text), text);
		}
		s->type = text[0];
		s->lib = dup_n(c1 + 1, (size_t)(c2 - c1 - 1));
		s->func = xstrdup(c2 + 1);
		if (s->type == 't' && !*s->lib)
			return fail(errpos, 2, "tracepoint pattern needs a category (t:CATEGORY:EVENT)%s", "");
		if (s->type == 'u' && !*s->lib)
			return fail(errpos, 2, "USDT pattern needs a library or binary (u:LIB:PROBE)%s", "");
	} else {
		const char *p = text;

		for (int k = 0; k < 3; k++)
			p = strchr(p, ':') + 1;
		return fail(errpos, (int)(p - text - 1), "Too many ':'-separated components in pattern %s", text);
	}
	if (!*s->func)
		return fail(errpos, (int)strlen(text), "missing function or event pattern%s", "");
	return 0;
}

static int parse_argdist(const char *text, struct spec *s, int *errpos)
{
	const char *hash = strchr(text, '#');
	size_t n = hash ? (size_t)(hash - text) : strlen(text);
	const char *part[7];
	size_t plen[7];
	int np = 0, err;

	memset(s, 0, sizeof(*s));
	s->text = text;
	if (hash)
		s->label = xstrdup(hash + 1);
	part[0] = text;
	for (size_t i = 0; i <= n; i++)
		if (i == n || text[i] == ':') {
			if (np >= 6)
				return fail(errpos, (int)i, "extraneous ':'-separated parts detected%s", "");
			plen[np] = (size_t)(text + i - part[np]);
			np++;
			if (i < n)
				part[np] = text + i + 1;
		}
	if (np < 3)
		return fail(errpos, (int)n, "at least the probe type, library, and function signature must be specified%s", "");
	if (plen[0] != 1 || !strchr("prtu", text[0]))
	{
		*errpos = 0;
		return err_set(EINVAL, "probe type must be 'p', 'r', 't', or 'u' but got '%.*s'", (int)plen[0], part[0]);
	}
	{
		const char *open = memchr(part[2], '(', plen[2]);

		if (!open || plen[2] < 3 || part[2][plen[2] - 1] != ')' || open == part[2])
		{
			*errpos = (int)(part[2] - text);
			return err_set(EINVAL, "function signature '%.*s' has an invalid format", (int)plen[2], part[2]);
		}
		s->type = text[0];
		s->lib = dup_n(part[1], plen[1]);
		s->func = dup_n(part[2], (size_t)(open - part[2]));
		err = parse_signature(s, open + 1, (size_t)(part[2] + plen[2] - 1 - open - 1), (int)(open + 1 - text),
				      errpos);
		if (err < 0)
			return err;
	}
	if (np < 5) {
		s->default_expr = true;
		return 0;
	}
	/* TYPES and EXPRS: comma lists of the same length */
	for (int k = 3; k <= 4; k++) {
		size_t i = 0;

		if (!plen[k])
			return fail(errpos, (int)(part[k] - text), k == 3 ? "no expr types specified%s" : "no exprs specified%s", "");
		while (i <= plen[k]) {
			size_t j = i;
			int pos = (int)(part[k] - text + (long)i);

			while (j < plen[k] && part[k][j] != ',')
				j++;
			if (k == 3) {
				s->types = xrealloc(s->types, (size_t)(s->ntypes + 1) * sizeof(*s->types));
				s->types[s->ntypes++] = trim_n(part[k] + i, j - i, &pos);
			} else {
				s->args = xrealloc(s->args, (size_t)(s->nargs + 1) * sizeof(*s->args));
				s->args[s->nargs].text = trim_n(part[k] + i, j - i, &pos);
				s->args[s->nargs].pos = pos;
				s->nargs++;
			}
			i = j + 1;
		}
	}
	if (s->ntypes != s->nargs)
		return fail(errpos, (int)(part[4] - text), "mismatched # of exprs and types%s", "");
	if (np == 6 && plen[5]) {
		s->pred.pos = (int)(part[5] - text);
		s->pred.text = trim_n(part[5], plen[5], &s->pred.pos);
	}
	return 0;
}

/* On failure nothing stays allocated. */
int spec_parse_trace(const char *text, struct spec *s, int *errpos)
{
	int err = parse_trace(text, s, errpos);

	if (err < 0)
		spec_free(s);
	return err;
}

int spec_parse_pattern(const char *text, struct spec *s, int *errpos)
{
	int err = parse_pattern(text, s, errpos);

	if (err < 0)
		spec_free(s);
	return err;
}

int spec_parse_argdist(const char *text, struct spec *s, int *errpos)
{
	int err = parse_argdist(text, s, errpos);

	if (err < 0)
		spec_free(s);
	return err;
}

/* The probe text comes from the command line: it is shown escaped (one
 * rule for every text, str_escape_piece), so a control byte in it can
 * neither drive the terminal nor forge a line, and the caret stands under
 * the escaped column.  An empty text has nothing to point at: one line. */
void spec_report(const char *tool, const char *text, int pos, const char *msg)
{
	const unsigned char *p = (const unsigned char *)text;
	bool escaping = str_needs_escape(text, "");
	int len = (int)strlen(text), col = 0;

	if (pos < 0)
		pos = 0;
	if (pos > len)
		pos = len;
	fflush(stdout);
	if (!len) {
		fprintf(stderr, "%s: %s\n", tool, msg);
		return;
	}
	fprintf(stderr, "%s: %s\n  ", tool, msg);
	while (*p) {
		char piece[5];

		if (p - (const unsigned char *)text == pos)
			col = -col - 1; /* (negative: found, keep it) */
		p += str_escape_piece(p, "", escaping, piece);
		fputs(piece, stderr);
		if (col >= 0)
			col += (int)strlen(piece);
	}
	fprintf(stderr, "\n  %*s^\n", col < 0 ? -col - 1 : col, "");
}
