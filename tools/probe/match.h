/* Name patterns of the dynamic-tracing tools (function, tracepoint and
 * USDT probe names): bcc's globs, and with -r the regular expressions
 * bcc users write, without libc's regex (25 KB of the static binary).
 *
 * Globs (glob_match, spec.h): '*' any run, '?' one character,
 * '[abc]' '[a-z]' '[!x]' '[^x]' a class; the whole name must match.
 * Regular expressions: '.', '*', '+', '?', '[...]' / '[^...]' with
 * ranges, '^', '$', '|', '(...)', '\' escapes (\d \w \s \D \W \S and
 * literal punctuation); '{' is an ordinary character (no {m,n}).  Like
 * bcc's re.match, a name matches when the expression matches at its
 * start (anchor with '$' for the whole name).  Matching simulates the
 * automaton (Thompson): time linear in the name, whatever the pattern. */
#ifndef COREBOX_PROBE_MATCH_H
#define COREBOX_PROBE_MATCH_H

#include <stdbool.h>

struct re_prog;

struct matcher {
	bool regex;
	const char *glob;     /* !regex: the pattern (not owned) */
	struct re_prog *re;
};

/* 0, or -EINVAL with "bad regular expression 'PAT': why". */
int match_compile(struct matcher *m, const char *pat, bool regex);
bool match(const struct matcher *m, const char *s);
void match_free(struct matcher *m);

#endif
