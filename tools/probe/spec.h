/* bcc's probe grammars, parsed the way bcc splits them (spec §2):
 *   trace:       [p|r|t|u]:LIB:FUNC[+OFF][(SIG)] [(PREDICATE)] ["FORMAT"[, ARG...]]
 *   funccount, stackcount, funclatency patterns: GLOB, LIB:GLOB, p:LIB:GLOB,
 *                t:CAT:EVENT, u:LIB:PROBE
 *   argdist:     TYPE:LIB:FUNC(SIG)[:TYPES[:EXPRS[:FILTER]]][#LABEL]
 * Every part keeps its offset in the text so an error can point at it. */
#ifndef COREBOX_PROBE_SPEC_H
#define COREBOX_PROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spec_param {
	char *type;        /* as written ("const char __user *") */
	char *name;
};

struct spec_expr {
	char *text;
	int pos;           /* offset of text in the probe text */
};

struct spec {
	const char *text;  /* the whole probe text (not owned) */
	char type;         /* 'p', 'r', 't', 'u' */
	char *lib;         /* "" for the kernel; t: the category */
	char *func;        /* function, event, USDT probe name, or pattern */
	char *provider;    /* u: optional provider */
	uint64_t offset;   /* p: FUNC+OFF */
	bool has_sig;
	struct spec_param *params;
	int nparams;
	struct spec_expr pred;   /* text NULL: none */
	char *format;            /* trace: the format without quotes, NULL if none */
	int fmt_pos;
	struct spec_expr *args;  /* trace: format arguments; argdist: expressions */
	int nargs;
	/* argdist */
	char **types;            /* one per expression */
	int ntypes;
	char *label;
	bool default_expr;       /* argdist without TYPES/EXPRS */
};

/* 0, or -EINVAL with a message and *errpos set (offset in text). */
int spec_parse_trace(const char *text, struct spec *s, int *errpos);
int spec_parse_pattern(const char *text, struct spec *s, int *errpos); /* funccount/stackcount/funclatency */
int spec_parse_argdist(const char *text, struct spec *s, int *errpos);
void spec_free(struct spec *s);

/* "TOOL: MSG" then the text and a caret under offset pos (stderr). */
void spec_report(const char *tool, const char *text, int pos, const char *msg);

/* Shell-style pattern: '*', '?', '[...]' classes (bcc's '*' -> '.*'),
 * the whole string (match.c).  glob_star_only (bpftrace 0.17's
 * matching): '*' alone is special, '?' and '[' are literal characters. */
bool glob_match(const char *pat, const char *s);
extern bool glob_star_only;

#endif
