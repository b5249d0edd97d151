/* Itanium C++ and Rust (legacy, v0) demangler: see demangle.h.
 *
 * One recursive-descent pass writes straight into the caller's buffer.
 * Substitutions (S_, S0_...) and template parameters (T_...) are not kept
 * as trees: each is remembered as the place in the mangled name where it
 * was read, and a reference re-reads that text (d->replay set, so that
 * nothing is recorded twice).  Rust v0 back-references (B...) work the
 * same way.  Re-reading can multiply work on hostile names, hence the step
 * budget besides the depth and output limits. */
#include "demangle.h"

#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 40
#define MAX_STEPS 20000
#define MAX_SUBS 128
#define MAX_TARGS 32
#define MAX_IN 4000  /* longer names would not fit the output anyway */
#define PAD 64       /* NULs after the copied name (see demangle()) */

struct dm {
	const char *p;             /* cursor in the mangled name */
	const char *end;           /* its terminating NUL */
	const char *base;          /* Rust v0: where back-references count from */
	char *o;                   /* output */
	size_t n, cap;
	int depth, err, replay, tlevel;
	int glued;                 /* an empty pack was dropped: c++filt writes ">>" */
	uint64_t lifetimes;        /* Rust v0: lifetimes bound by for<...> around */
	unsigned steps;
	struct { const char *at, *end; } sub[MAX_SUBS]; /* end NULL: a type */
	int nsub;
	const char *targ[MAX_TARGS];
	int ntarg;
	const char *last;          /* last source name: constructors repeat it */
	size_t lastlen;
	int last_targs;            /* the last name component was <template-args> */
};

static void put(struct dm *d, const char *s, size_t n)
{
	if (!n)
		return;
	if (n >= d->cap - d->n) {
		d->err = 1;
		return;
	}
	memcpy(d->o + d->n, s, n);
	d->n += n;
}

static void puts_(struct dm *d, const char *s)
{
	put(d, s, strlen(s));
}

static char last_char(const struct dm *d)
{
	return d->n ? d->o[d->n - 1] : 0;
}

static void reverse(char *a, char *b)
{
	while (a < --b) {
		char t = *a;

		*a++ = *b;
		*b = t;
	}
}

/* Insert c at offset at of the output. */
static void insert(struct dm *d, size_t at, char c)
{
	put(d, &c, 1);
	if (!d->err) {
		memmove(d->o + at + 1, d->o + at, d->n - 1 - at);
		d->o[at] = c;
	}
}

/* [a, b) [b, n) -> [b, n) " " [a, b): a return type printed after what
 * it belongs before. */
static void move_front(struct dm *d, size_t a, size_t b)
{
	size_t tail = d->n - b;

	reverse(d->o + a, d->o + b);
	reverse(d->o + b, d->o + d->n);
	reverse(d->o + a, d->o + d->n);
	insert(d, a + tail, ' ');
}

static int enter(struct dm *d)
{
	if (++d->depth > MAX_DEPTH || ++d->steps > MAX_STEPS || d->p > d->end)
		d->err = 1;
	return !d->err;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number (at most 6 digits: nothing longer is meaningful). */
static long number(struct dm *d)
{
	long v = 0;
	int k = 0;

	if (!is_digit(*d->p))
		d->err = 1;
	while (is_digit(*d->p) && k++ < 7)
		v = v * 10 + (*d->p++ - '0');
	if (k > 6)
		d->err = 1;
	return v;
}

/* Identifier bytes: printable ASCII only (the output goes to terminals). */
static int plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] > '~')
			return 0;
	return 1;
}

static void put_num(struct dm *d, unsigned long long v)
{
	char b[24];
	int i = sizeof(b);

	do
		b[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put(d, b + i, sizeof(b) - i);
}

/* ==== Itanium C++ ==== */

static void type(struct dm *d);
static int name(struct dm *d, int *cv);
static void encoding(struct dm *d, int ret);
static void source_name(struct dm *d, int remember);

/* Builtin types by code letter, then extended ones after 'D'. */
static const char builtins[] =
	"vvoid\0wwchar_t\0bbool\0cchar\0asigned char\0hunsigned char\0sshort\0"
	"tunsigned short\0iint\0junsigned int\0llong\0munsigned long\0xlong long\0"
	"yunsigned long long\0n__int128\0ounsigned __int128\0ffloat\0ddouble\0"
	"elong double\0g__float128\0z...\0";
static const char dbuiltins[] =
	"ndecltype(nullptr)\0aauto\0cdecltype(auto)\0ichar32_t\0schar16_t\0uchar8_t\0"
	"fdecimal32\0ddecimal64\0edecimal128\0hhalf\0";

static const char *lookup1(const char *tab, char c)
{
	for (const char *t = tab; *t; t += strlen(t) + 1)
		if (*t == c)
			return t + 1;
	return NULL;
}

/* Two-letter operator codes (and the unary ones, which c++filt prints
 * alike). */
static const char operators[] =
	"nwnew\0nanew[]\0dldelete\0dadelete[]\0ps+\0ng-\0ad&\0de*\0co~\0pl+\0mi-\0"
	"ml*\0dv/\0rm%\0an&\0or|\0eo^\0aS=\0pL+=\0mI-=\0mL*=\0dV/=\0rM%=\0aN&=\0"
	"oR|=\0eO^=\0ls<<\0rs>>\0lS<<=\0rS>>=\0eq==\0ne!=\0lt<\0gt>\0le<=\0ge>=\0"
	"ss<=>\0nt!\0aa&&\0oo||\0pp++\0mm--\0cm,\0pm->*\0pt->\0cl()\0ix[]\0qu?\0"
	"awco_await\0";

static void add_sub(struct dm *d, const char *at, const char *end)
{
	if (d->replay)
		return;
	if (d->nsub == MAX_SUBS) {
		d->err = 1;
		return;
	}
	d->sub[d->nsub].at = at;
	d->sub[d->nsub++].end = end;
}

static void prefix_until(struct dm *d, const char *end);
static void template_arg(struct dm *d);

/* Read again, into the output, what was read at `at`. */
static void reread(struct dm *d, const char *at, const char *end, int targ)
{
	const char *save = d->p;

	if (!enter(d))
		return;
	d->p = at;
	d->replay++;
	if (targ)
		template_arg(d);
	else if (end)
		prefix_until(d, end);
	else
		type(d);
	d->replay--;
	d->p = save;
	d->depth--;
}

/* <seq-id> _ after 'S' or 'T' (the letter already read): 0 for "_",
 * base 36 + 1 otherwise. */
static int seq_id(struct dm *d)
{
	int v = 0, k = 0;

	if (*d->p == '_') {
		d->p++;
		return 0;
	}
	for (; *d->p != '_'; d->p++, k++) {
		char c = *d->p;

		if (k > 4 || !(is_digit(c) || (c >= 'A' && c <= 'Z'))) {
			d->err = 1;
			return 0;
		}
		v = v * 36 + (is_digit(c) ? c - '0' : c - 'A' + 10);
	}
	d->p++;
	return v + 1;
}

/* Abbreviations in full, as c++filt prints them (it asks libiberty for
 * DMGL_VERBOSE). */
static const char std_subs[] =
	"astd::allocator\0bstd::basic_string\0"
	"sstd::basic_string<char, std::char_traits<char>, std::allocator<char> >\0"
	"istd::basic_istream<char, std::char_traits<char> >\0"
	"ostd::basic_ostream<char, std::char_traits<char> >\0"
	"dstd::basic_iostream<char, std::char_traits<char> >\0";

/* S_, S<id>_, Sa...: after 'S'.  Abbreviations print as c++filt does. */
static void substitution(struct dm *d)
{
	const char *s = lookup1(std_subs, *d->p);
	int i;

	if (s && *d->p) {
		d->p++;
		puts_(d, s);
		d->last = s + 5; /* after "std::", up to any '<' */
		d->lastlen = strcspn(d->last, "<");
		return;
	}
	i = seq_id(d);
	if (d->err || i >= d->nsub) {
		d->err = 1;
		return;
	}
	reread(d, d->sub[i].at, d->sub[i].end, 0);
}

/* T_, T0_...: after 'T'. */
static void template_param(struct dm *d)
{
	int i = seq_id(d);

	if (d->err || i >= d->ntarg)
		d->err = 1;
	else
		reread(d, d->targ[i], NULL, 1);
}

static void template_args(struct dm *d)
{
	int first = 1, record = !d->tlevel && !d->replay;
	const char *last = d->last;
	size_t lastlen = d->lastlen;

	d->p++; /* I */
	if (record)
		d->ntarg = 0;
	if (last_char(d) == '<')
		put(d, " ", 1);
	put(d, "<", 1);
	d->tlevel++;
	while (!d->err && *d->p != 'E') {
		if (!*d->p) {
			d->err = 1;
			break;
		}
		if (record) {
			if (d->ntarg == MAX_TARGS)
				d->err = 1;
			else
				d->targ[d->ntarg++] = d->p;
		}
		size_t at = d->n;

		if (!first)
			put(d, ", ", 2);
		first = 0;
		template_arg(d);
		if (d->n == at + 2 && d->o[at] == ',') { /* an empty pack */
			d->glued = 1;
			d->n = at;
		}
	}
	d->tlevel--;
	d->last = last;
	d->lastlen = lastlen;
	d->p++;
	if (last_char(d) == '>' && !d->glued)
		put(d, " ", 1);
	d->glued = 0;
	put(d, ">", 1);
	d->last_targs = 1;
}

/* L <type> <value> E, L_Z <encoding> E */
static void literal(struct dm *d)
{
	static const char suffix[] = "i\0ju\0ll\0mul\0xll\0yull\0";
	const char *sfx, *start;
	char t;

	d->p++; /* L */
	if (*d->p == '_' && d->p[1] == 'Z') {
		d->p += 2;
		encoding(d, 1);
	} else if ((t = *d->p) == 'b' && (d->p[1] == '0' || d->p[1] == '1') && d->p[2] == 'E') {
		puts_(d, d->p[1] == '1' ? "true" : "false");
		d->p += 2;
	} else {
		sfx = lookup1(suffix, t);
		if (!sfx) {
			put(d, "(", 1);
			type(d);
			put(d, ")", 1);
		} else {
			d->p++;
		}
		if (*d->p == 'n') {
			put(d, "-", 1);
			d->p++;
		}
		start = d->p;
		while (is_digit(*d->p))
			d->p++;
		if (d->p == start || d->p - start > 20)
			d->err = 1;
		put(d, start, (size_t)(d->p - start));
		if (sfx)
			puts_(d, sfx);
	}
	if (*d->p != 'E')
		d->err = 1;
	d->p++;
}

static void template_arg(struct dm *d)
{
	if (!enter(d))
		return;
	if (*d->p == 'L') {
		literal(d);
	} else if (*d->p == 'J') { /* argument pack */
		int first = 1;

		for (d->p++; !d->err && *d->p != 'E'; first = 0) {
			size_t at = d->n;

			if (!*d->p) {
				d->err = 1;
				break;
			}
			if (!first)
				put(d, ", ", 2);
			template_arg(d);
			if (d->n == at + 2 && d->o[at] == ',') { /* an empty pack */
				d->glued = 1;
				d->n = at;
			}
		}
		d->p++;
	} else if (*d->p == 'X') {
		/* expressions: only a parameter, a literal or a name (else the
		 * symbol stays raw) */
		d->p++;
		if (*d->p == 'L') {
			literal(d);
		} else if (*d->p == 'T') { /* not a substitution candidate here */
			d->p++;
			template_param(d);
		} else {
			source_name(d, 0);
			if (*d->p == 'I')
				template_args(d);
		}
		if (*d->p++ != 'E')
			d->err = 1;
	} else {
		type(d);
	}
	d->depth--;
}

/* Function parameters up to 'E' or the end: "(int, char)" or "()". */
static void params(struct dm *d)
{
	const char *last = d->last;
	size_t lastlen = d->lastlen, n0 = d->n + 1;

	put(d, "(", 1);
	if (*d->p == 'v' && (!d->p[1] || d->p[1] == 'E' || d->p[1] == '.'))
		d->p++;
	while (!d->err && *d->p && *d->p != 'E' && *d->p != '.') {
		size_t at = d->n;

		if (d->n > n0)
			put(d, ", ", 2);
		type(d);
		if (d->n == at + 2 && d->o[at] == ',') /* an empty pack */
			d->n = at;
	}
	put(d, ")", 1);
	d->last = last;
	d->lastlen = lastlen;
}

static void source_name(struct dm *d, int remember)
{
	long n = number(d);

	if (d->err || n <= 0 || strnlen(d->p, (size_t)n) < (size_t)n || !plain(d->p, (size_t)n)) {
		d->err = 1;
		return;
	}
	if (n >= 10 && !memcmp(d->p, "_GLOBAL__N", 10))
		puts_(d, "(anonymous namespace)");
	else
		put(d, d->p, (size_t)n);
	if (remember) {
		d->last = d->p;
		d->lastlen = (size_t)n;
	}
	d->p += n;
}

/* "{lambda(int)#2}" after Ul; "{unnamed type#1}" after Ut */
static void unnamed(struct dm *d)
{
	int lambda = d->p[1] == 'l';
	long k = 0;

	d->p += 2;
	if (lambda) {
		puts_(d, "{lambda");
		params(d);
		if (*d->p != 'E')
			d->err = 1;
		d->p++;
	} else {
		puts_(d, "{unnamed type");
	}
	if (is_digit(*d->p))
		k = number(d) + 1;
	if (*d->p != '_')
		d->err = 1;
	d->p++;
	put(d, "#", 1);
	put_num(d, (unsigned long long)k + 1);
	put(d, "}", 1);
}

enum { C_NAME, C_SUB, C_CTOR };

/* One <unqualified-name>: source name, operator, constructor or
 * destructor, lambda; then any ABI tags.  Returns C_*. */
static int unqualified(struct dm *d)
{
	const char *op;
	int kind = C_NAME;

	d->last_targs = 0;
	if (*d->p == 'L') /* internal linkage */
		d->p++;
	if (is_digit(*d->p)) {
		source_name(d, 1);
	} else if (*d->p == 'C' || (*d->p == 'D' && strchr("012345", d->p[1]))) {
		if (!d->last || !d->p[1]) {
			d->err = 1;
			return kind;
		}
		if (*d->p == 'D')
			put(d, "~", 1);
		if (d->p[1] == 'I') { /* CI1 <base>: inheriting constructor, named as the base */
			size_t n = d->n;

			d->p += 3;
			type(d);
			d->n = n;
		} else {
			d->p += 2;
		}
		put(d, d->last, d->lastlen);
		kind = C_CTOR;
	} else if (*d->p == 'U' && (d->p[1] == 'l' || d->p[1] == 't')) {
		unnamed(d);
	} else if (d->p[0] == 'c' && d->p[1] == 'v') {
		d->p += 2;
		puts_(d, "operator ");
		d->tlevel++;
		type(d);
		d->tlevel--;
		kind = C_CTOR; /* no return type either */
	} else if (d->p[0] == 'l' && d->p[1] == 'i') {
		d->p += 2;
		puts_(d, "operator\"\" ");
		source_name(d, 0);
	} else if (d->p[0] == 'v' && is_digit(d->p[1])) {
		d->p += 2;
		puts_(d, "operator ");
		source_name(d, 0);
	} else {
		for (op = operators; *op; op += strlen(op) + 1)
			if (op[0] == d->p[0] && op[1] == d->p[1])
				break;
		if (!*op || !d->p[1]) {
			d->err = 1;
			return kind;
		}
		d->p += 2;
		puts_(d, "operator");
		if (op[2] >= 'a' && op[2] <= 'z')
			put(d, " ", 1);
		puts_(d, op + 2);
	}
	while (!d->err && *d->p == 'B') { /* [abi:cxx11] */
		d->p++;
		puts_(d, "[abi:");
		source_name(d, 0);
		put(d, "]", 1);
	}
	return kind;
}

/* One component of a prefix; "::" before it unless first. */
static int component(struct dm *d, int first)
{
	if (!enter(d))
		return C_NAME;
	int kind = C_NAME;

	if (*d->p == 'I') {
		template_args(d);
	} else {
		if (!first)
			put(d, "::", 2);
		d->last_targs = 0;
		if (d->p[0] == 'S' && d->p[1] == 't') {
			d->p += 2;
			puts_(d, "std::");
			kind = unqualified(d);
		} else if (*d->p == 'S') {
			d->p++;
			substitution(d);
			kind = C_SUB;
		} else if (*d->p == 'T') {
			d->p++;
			template_param(d);
		} else if (*d->p == 'D' && (d->p[1] == 't' || d->p[1] == 'T' || d->p[1] == 'C')) {
			d->err = 1; /* decltype, structured bindings */
		} else {
			kind = unqualified(d);
		}
	}
	d->depth--;
	return kind;
}

static void prefix_until(struct dm *d, const char *end)
{
	for (int first = 1; !d->err && d->p < end; first = 0)
		component(d, first);
	if (d->p != end)
		d->err = 1;
}

/* Method qualifiers, as bits: 1 const, 2 volatile, 4 restrict, 8 &, 16 && */
static int cv_quals(struct dm *d)
{
	int cv = 0;

	for (;; d->p++) {
		if (*d->p == 'r')
			cv |= 4;
		else if (*d->p == 'V')
			cv |= 2;
		else if (*d->p == 'K')
			cv |= 1;
		else
			break;
	}
	if (*d->p == 'R' || *d->p == 'O')
		cv |= *d->p++ == 'R' ? 8 : 16;
	return cv;
}

static void put_cv(struct dm *d, int cv)
{
	if (cv & 1)
		puts_(d, " const");
	if (cv & 2)
		puts_(d, " volatile");
	if (cv & 4)
		puts_(d, " restrict");
	if (cv & 8)
		puts_(d, " &");
	if (cv & 16)
		puts_(d, " &&");
}

/* N [cv] <prefix> <last> E: every prefix is a substitution candidate,
 * the whole name is not (a type that is one adds itself).  Returns the
 * kind of the last component. */
static int nested(struct dm *d, int *cv)
{
	const char *start;
	int kind = C_NAME;

	d->p++; /* N */
	*cv = cv_quals(d);
	start = d->p;
	for (int first = 1; !d->err; first = 0) {
		if (!*d->p) {
			d->err = 1;
			break;
		}
		int k = component(d, first);

		if (!(d->last_targs && kind == C_CTOR)) /* a constructor template stays one */
			kind = k;
		if (*d->p == 'E')
			break;
		if (k != C_SUB)
			add_sub(d, start, d->p);
	}
	d->p++;
	return kind;
}

/* Z <encoding> E <entity> [<discriminator>] */
static int local(struct dm *d, int *cv)
{
	int kind = C_NAME;

	d->p++; /* Z */
	encoding(d, 0); /* c++filt shows no return type there */
	if (*d->p != 'E')
		d->err = 1;
	d->p++;
	put(d, "::", 2);
	if (*d->p == 's') {
		d->p++;
		puts_(d, "string literal");
	} else {
		kind = name(d, cv);
	}
	if (*d->p == '_') { /* _N or __NN_ */
		d->p++;
		if (*d->p == '_') {
			d->p++;
			number(d);
			if (*d->p++ != '_')
				d->err = 1;
		} else if (is_digit(*d->p)) {
			d->p++;
		}
	}
	return kind;
}

/* <name>; sets *cv for methods.  Returns the kind of its last
 * component (C_CTOR: no return type); d->last_targs says whether it
 * ended with template arguments. */
static int name(struct dm *d, int *cv)
{
	const char *start = d->p;
	int kind;

	*cv = 0;
	if (!enter(d))
		return C_NAME;
	if (*d->p == 'N') {
		kind = nested(d, cv);
	} else if (*d->p == 'Z') {
		kind = local(d, cv);
	} else {
		kind = component(d, 1);
		if (*d->p == 'I') { /* <unscoped-template-name> <template-args> */
			if (kind != C_SUB)
				add_sub(d, start, d->p);
			component(d, 0);
			kind = C_NAME;
		}
	}
	d->depth--;
	return kind;
}

/* A function type, or a pointer, reference or member pointer to one:
 * "void (*)(int)", "int (A::*)() const".  mods..f: the P/R/O letters
 * before the F; at: where the class text "A::*" of a member pointer
 * begins (else the end of the output). */
static void function_type(struct dm *d, const char *mods, const char *f, size_t at)
{
	size_t end = d->n, ret;

	d->p = f + 1;
	if (*d->p == 'Y')
		d->p++;
	type(d); /* return type */
	ret = d->n - end;
	move_front(d, at, end);
	if (f != mods || at != end)
		insert(d, at + ret + 1, '(');
	for (const char *m = f; m > mods;) {
		char c = *--m;

		puts_(d, c == 'P' ? "*" : c == 'R' ? "&" : c == 'O' ? "&&" : c == 'K' ? " const" :
			 c == 'V' ? " volatile" : " restrict");
	}
	if (f != mods || at != end)
		put(d, ")", 1);
	params(d);
	put_cv(d, cv_quals(d));
	if (*d->p != 'E')
		d->err = 1;
	d->p++;
	add_sub(d, f, NULL);
	for (const char *m = f; m > mods;)
		add_sub(d, --m, NULL);
}

/* "int [10]", "int (&) [4]": mods..a the P/R/O letters before the A. */
static void array_type(struct dm *d, const char *mods, const char *a)
{
	const char *num = a + 1;

	for (d->p = num; is_digit(*d->p);)
		d->p++;
	if (*d->p != '_' || d->p - num > 12) {
		d->err = 1;
		return;
	}
	size_t len = (size_t)(d->p++ - num);

	type(d);
	if (a != mods) {
		puts_(d, " (");
		for (const char *m = a; m > mods;) {
			char c = *--m;

			puts_(d, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
		}
		put(d, ")", 1);
	}
	puts_(d, " [");
	put(d, num, len);
	put(d, "]", 1);
	add_sub(d, a, NULL);
	for (const char *m = a; m > mods;)
		add_sub(d, --m, NULL);
}

static void type(struct dm *d)
{
	const char *start = d->p, *b;
	int push = 1, cv;
	char c = *d->p;

	if (!enter(d))
		return;
	d->tlevel++; /* template arguments in types are not the function's */
	if ((b = lookup1(builtins, c)) && c) {
		d->p++;
		puts_(d, b);
		push = 0;
	} else if (c == 'D' && d->p[1] && (b = lookup1(dbuiltins, d->p[1]))) {
		d->p += 2;
		puts_(d, b);
		push = 0;
	} else if (c == 'D' && d->p[1] == 'F') { /* _Float16 */
		d->p += 2;
		puts_(d, "_Float");
		put_num(d, (unsigned long long)number(d));
		if (*d->p++ != '_')
			d->err = 1;
		push = 0;
	} else if (c == 'D' && d->p[1] == 'p') { /* pack expansion: its elements */
		d->p += 2;
		type(d);
	} else if (c == 'r' || c == 'V' || c == 'K') {
		cv = cv_quals(d);
		if (cv > 7)
			d->err = 1;
		type(d);
		put_cv(d, cv);
	} else if (c == 'P' || c == 'R' || c == 'O') {
		const char *q = d->p;

		while (*q && strchr("PROKVr", *q))
			q++;
		if (*q == 'F') {
			function_type(d, d->p, q, d->n);
			push = 0;
		} else if (*q == 'A' && strspn(d->p, "PRO") == (size_t)(q - d->p)) {
			array_type(d, d->p, q);
			push = 0;
		} else {
			d->p++;
			type(d);
			if (last_char(d) != '&') /* references collapse: T& && is T& */
				puts_(d, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
			else if (c == 'R' && d->n > 1 && d->o[d->n - 2] == '&')
				d->n--;
		}
	} else if (c == 'F') {
		function_type(d, d->p, d->p, d->n);
		push = 0;
	} else if (c == 'A') {
		array_type(d, d->p, d->p);
		push = 0;
	} else if (c == 'M') { /* int A::*, void (A::*)(int) */
		size_t at = d->n;
		const char *q;

		d->p++;
		type(d);
		put(d, "::*", 3);
		q = d->p + strspn(d->p, "rVK");
		if (*q == 'F') { /* void (A::*)() const */
			const char *k = d->p;

			cv = cv_quals(d);
			function_type(d, d->p, d->p, at);
			put_cv(d, cv);
			if (k != q)
				add_sub(d, k, NULL);
		} else {
			size_t end = d->n;

			type(d);
			move_front(d, at, end);
		}
	} else if (c == 'T') {
		d->p++;
		template_param(d);
		if (*d->p == 'I') {
			add_sub(d, start, NULL);
			template_args(d);
		}
	} else if (c == 'u') {
		d->p++;
		source_name(d, 0);
	} else if (c == 'N' || c == 'Z') {
		name(d, &cv);
	} else if (c == 'S' || is_digit(c)) {
		push = component(d, 1) != C_SUB;
		if (*d->p == 'I') {
			if (push)
				add_sub(d, start, d->p);
			template_args(d);
			push = 1;
		}
	} else {
		d->err = 1;
	}
	if (push && !d->err)
		add_sub(d, start, NULL);
	d->tlevel--;
	d->depth--;
}

/* Thunk offsets: h <number> _ or v <number> _ <number> _ */
static void call_offset(struct dm *d)
{
	char k = *d->p++;

	for (int i = 0; i < (k == 'v' ? 2 : k == 'h' ? 1 : 0); i++) {
		if (*d->p == 'n')
			d->p++;
		number(d);
		if (*d->p++ != '_')
			d->err = 1;
	}
	if (k != 'v' && k != 'h')
		d->err = 1;
}

static const char specials[] =
	"TVvtable for \0TTVTT for \0TItypeinfo for \0TStypeinfo name for \0"
	"THTLS init function for \0TWTLS wrapper function for \0GVguard variable for \0"
	"Thnon-virtual thunk to \0Tvvirtual thunk to \0Tccovariant return thunk to \0";

/* <encoding>; ret: print the return type of a template function */
static void encoding(struct dm *d, int ret)
{
	const char *sp;
	size_t n0 = d->n, n1;
	int cv, kind;

	if (!enter(d))
		return;
	if (!strncmp(d->p, "GTt", 3)) {
		d->p += 3;
		puts_(d, "transaction clone for ");
		encoding(d, ret);
		d->depth--;
		return;
	}
	for (sp = specials; *sp; sp += strlen(sp) + 1)
		if (sp[0] == d->p[0] && sp[1] == d->p[1])
			break;
	if (*sp) {
		d->p += sp[1] == 'h' || sp[1] == 'v' ? 1 : 2; /* Th/Tv: h, v begin the offset */
		puts_(d, sp + 2);
		if (sp[1] == 'V' || sp[1] == 'T' || sp[1] == 'I' || sp[1] == 'S')
			type(d);
		else if (sp[1] == 'H' || sp[1] == 'W' || sp[0] == 'G')
			name(d, &cv);
		else {
			call_offset(d);
			if (sp[1] == 'c')
				call_offset(d);
			encoding(d, ret);
		}
		d->depth--;
		return;
	}
	kind = name(d, &cv);
	if (*d->p && *d->p != 'E' && *d->p != '.') {
		if (d->last_targs && kind != C_CTOR) {
			n1 = d->n;
			type(d);
			if (ret)
				move_front(d, n0, n1);
			else
				d->n = n1;
		}
		params(d);
		put_cv(d, cv);
	}
	d->depth--;
}

/* GCC's clone suffixes: ".cold", ".isra.0", ".constprop.1.isra.0":
 * " [clone .cold]" each, as c++filt. */
static void clones(struct dm *d)
{
	while (!d->err && *d->p == '.') {
		const char *s = d->p++;

		while ((*d->p >= 'a' && *d->p <= 'z') || *d->p == '_' || is_digit(*d->p))
			d->p++;
		while (d->p[0] == '.' && is_digit(d->p[1]))
			for (d->p++; is_digit(*d->p);)
				d->p++;
		if (d->p == s + 1 || !plain(s, (size_t)(d->p - s))) {
			d->err = 1;
			break;
		}
		puts_(d, " [clone ");
		put(d, s, (size_t)(d->p - s));
		put(d, "]", 1);
	}
}

/* ==== Rust legacy: _ZN <len><ident>... 17h<16 hex> E ==== */

static const char rust_escapes[] = "SP@\0BP*\0RF&\0LT<\0GT>\0LP(\0RP)\0C,\0";

/* One path component: $LT$ escapes, ".." as "::" */
static int rust_ident(struct dm *d, const char *s, size_t n)
{
	const char *e = s + n;

	if (n >= 2 && s[0] == '_' && s[1] == '$')
		s++;
	while (s < e && !d->err) {
		if (*s == '$') {
			const char *t = memchr(s + 1, '$', (size_t)(e - s - 1)), *x;
			size_t len;

			if (!t)
				return 0;
			len = (size_t)(t - s - 1);
			for (x = rust_escapes; *x; x += strlen(x) + 1)
				if (strlen(x) - 1 == len && !memcmp(x, s + 1, len))
					break;
			if (*x) {
				put(d, x + len, 1);
			} else if (s[1] == 'u' && len >= 2 && len <= 3) {
				unsigned v = 0;

				for (const char *h = s + 2; h < t; h++) {
					int dv = is_digit(*h) ? *h - '0' : *h >= 'a' && *h <= 'f' ? *h - 'a' + 10 : -1;

					if (dv < 0)
						return 0;
					v = v * 16 + (unsigned)dv;
				}
				if (v < ' ' || v > '~')
					return 0;
				char ch = (char)v;

				put(d, &ch, 1);
			} else {
				return 0;
			}
			s = t + 1;
		} else if (*s == '.' && s + 1 < e && s[1] == '.') {
			put(d, "::", 2);
			s += 2;
		} else {
			put(d, s++, 1);
		}
	}
	return 1;
}

static int rust_legacy(struct dm *d)
{
	const char *p = d->p + 3, *h = NULL; /* after _ZN */
	int k = 0;

	/* first pass: the shape, and where the hash is */
	while (is_digit(*p)) {
		long n = 0;

		while (is_digit(*p) && n < 100000)
			n = n * 10 + (*p++ - '0');
		if (n <= 0 || strnlen(p, (size_t)n) < (size_t)n)
			return 0;
		h = p;
		p += n;
		if (n == 17 && *h == 'h') {
			for (k = 1; k < 17 && ((h[k] >= '0' && h[k] <= '9') || (h[k] >= 'a' && h[k] <= 'f')); k++)
				;
		} else {
			k = 0;
		}
	}
	if (*p != 'E' || k != 17)
		return 0;
	for (p = d->p + 3; p < h - 2;) {
		long n = 0;

		while (is_digit(*p))
			n = n * 10 + (*p++ - '0');
		if (d->n)
			put(d, "::", 2);
		if (!plain(p, (size_t)n) || !rust_ident(d, p, (size_t)n))
			return 0;
		p += n;
	}
	return !d->err;
}

/* ==== Rust v0: _R <path> [<instantiating-crate>] ==== */

static void v0_path(struct dm *d, int in_value);
static void v0_type(struct dm *d);

/* <base-62-number>: "_" is 0, else digits "_" is value + 1 */
static uint64_t b62(struct dm *d)
{
	uint64_t v = 0;
	int k = 0;

	if (*d->p == '_') {
		d->p++;
		return 0;
	}
	for (; *d->p != '_'; d->p++) {
		char c = *d->p;
		int dv = is_digit(c) ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 :
			 c >= 'A' && c <= 'Z' ? c - 'A' + 36 : -1;

		if (dv < 0 || ++k > 12) { /* 64-bit hashes take 11 */
			d->err = 1;
			return 0;
		}
		v = v * 62 + (uint64_t)dv;
	}
	d->p++;
	return v + 1;
}

static uint64_t disambiguator(struct dm *d)
{
	if (*d->p != 's')
		return 0;
	d->p++;
	return b62(d) + 1;
}

/* <identifier>: [u] <decimal> [_] <bytes> (punycode not decoded: err) */
static size_t v0_ident(struct dm *d, const char **s)
{
	long n;

	*s = "";
	if (*d->p == 'u')
		d->err = 1;
	if (*d->p == '0') { /* "0" is a whole number: "00" is two empty names */
		d->p++;
		n = 0;
	} else {
		n = number(d);
	}
	if (*d->p == '_')
		d->p++;
	if (d->err || strnlen(d->p, (size_t)n) < (size_t)n || !plain(d->p, (size_t)n)) {
		d->err = 1;
		return 0;
	}
	*s = d->p;
	d->p += n;
	return (size_t)n;
}

/* B <base-62-number>: read again what is at that offset (backwards only) */
static void v0_backref(struct dm *d, void (*fn)(struct dm *, int), int arg)
{
	const char *at = d->p, *save; /* at the B */
	uint64_t pos;

	d->p++;
	pos = b62(d);
	if (d->err || pos >= (uint64_t)(at - d->base) || !enter(d)) {
		d->err = 1;
		return;
	}
	save = d->p;
	d->p = d->base + pos;
	fn(d, arg);
	d->p = save;
	d->depth--;
}

static void v0_type_fn(struct dm *d, int unused)
{
	v0_type(d);
}

static void v0_const(struct dm *d, int unused)
{
	char t = *d->p;
	const char *h;
	uint64_t v = 0;
	int neg = 0;

	if (t == 'p') {
		d->p++;
		put(d, "_", 1);
		return;
	}
	if (t == 'B') {
		v0_backref(d, v0_const, 0);
		return;
	}
	d->p++;
	if (*d->p == 'n' && strchr("aslxni", t)) {
		neg = 1;
		d->p++;
	}
	for (h = d->p; *d->p != '_'; d->p++) {
		char c = *d->p;

		if (d->p - h >= 16 || !(is_digit(c) || (c >= 'a' && c <= 'f'))) {
			d->err = 1;
			return;
		}
		v = v * 16 + (uint64_t)(is_digit(c) ? c - '0' : c - 'a' + 10);
	}
	d->p++;
	if (t == 'b') {
		puts_(d, v ? "true" : "false");
	} else if (t == 'c') {
		char q[3] = { '\'', (char)v, '\'' };

		if (v < ' ' || v > '~')
			d->err = 1;
		put(d, q, 3);
	} else if (strchr("hmtyojaslxni", t) && t) {
		if (neg)
			put(d, "-", 1);
		put_num(d, v);
	} else {
		d->err = 1;
	}
}

static const char v0_basic[] =
	"ai8\0bbool\0cchar\0df64\0estr\0ff32\0hu8\0iisize\0jusize\0li32\0mu32\0"
	"ni128\0ou128\0si16\0tu16\0u()\0v...\0xi64\0yu64\0z!\0p_\0";

/* L <base-62-number>: 0 is '_, else one bound by a for<...> around,
 * named 'a, 'b... from the outermost. */
static void v0_lifetime(struct dm *d, int erased_too)
{
	uint64_t lt;
	char q[3] = "'_";

	d->p++;
	lt = b62(d);
	if (lt > d->lifetimes || d->lifetimes - lt >= 26) {
		d->err = 1;
		return;
	}
	if (lt)
		q[1] = (char)('a' + (d->lifetimes - lt));
	if (lt || erased_too)
		put(d, q, 2);
	if (lt && !erased_too)
		put(d, " ", 1);
}

static void v0_generic(struct dm *d)
{
	if (*d->p == 'L') {
		v0_lifetime(d, 1);
	} else if (*d->p == 'K') {
		d->p++;
		v0_const(d, 0);
	} else {
		v0_type(d);
	}
}

/* a list up to E: "a, b" */
static int v0_list(struct dm *d, void (*fn)(struct dm *), const char *sep)
{
	int k = 0;

	for (; !d->err && *d->p != 'E'; k++) {
		if (!*d->p) {
			d->err = 1;
			break;
		}
		if (k)
			puts_(d, sep);
		fn(d);
	}
	d->p++;
	return k;
}

/* G <count - 1>: "for<'a, 'b> "; returns the lifetimes bound before */
static uint64_t v0_binder(struct dm *d)
{
	uint64_t before = d->lifetimes, n;

	if (*d->p != 'G')
		return before;
	d->p++;
	n = b62(d) + 1;
	if (n > 26 || d->lifetimes + n > 26) {
		d->err = 1;
		return before;
	}
	puts_(d, "for<");
	for (uint64_t i = 0; i < n; i++) {
		char q[4] = { '\'', (char)('a' + d->lifetimes++), ',', ' ' };

		put(d, q, i + 1 < n ? 4 : 2);
	}
	puts_(d, "> ");
	return before;
}

static void v0_dyn_trait(struct dm *d)
{
	const char *s;
	int k = 0;

	v0_path(d, 0);
	while (!d->err && *d->p == 'p') { /* Iterator<Item = u8>, Fn<(), Output = ()> */
		size_t n;

		d->p++;
		n = v0_ident(d, &s);
		if (!k++ && last_char(d) == '>')
			d->o[d->n - 1] = ',', put(d, " ", 1);
		else
			puts_(d, k > 1 ? ", " : "<");
		put(d, s, n);
		puts_(d, " = ");
		v0_type(d);
	}
	if (k)
		put(d, ">", 1);
}

static void v0_type(struct dm *d)
{
	const char *b;
	char c = *d->p;

	if (!enter(d))
		return;
	if (c >= 'a' && c <= 'z') {
		if (!(b = lookup1(v0_basic, c)))
			d->err = 1;
		else
			puts_(d, b);
		d->p++;
	} else if (c == 'A' || c == 'S') {
		d->p++;
		put(d, "[", 1);
		v0_type(d);
		if (c == 'A') {
			put(d, "; ", 2);
			v0_const(d, 0);
		}
		put(d, "]", 1);
	} else if (c == 'T') {
		d->p++;
		put(d, "(", 1);
		if (v0_list(d, v0_type, ", ") == 1)
			put(d, ",", 1);
		put(d, ")", 1);
	} else if (c == 'R' || c == 'Q') {
		d->p++;
		put(d, "&", 1);
		if (*d->p == 'L')
			v0_lifetime(d, 0);
		if (c == 'Q')
			puts_(d, "mut ");
		v0_type(d);
	} else if (c == 'P' || c == 'O') {
		d->p++;
		puts_(d, c == 'P' ? "*const " : "*mut ");
		v0_type(d);
	} else if (c == 'F') {
		uint64_t before;

		d->p++;
		before = v0_binder(d);
		if (*d->p == 'U') {
			d->p++;
			puts_(d, "unsafe ");
		}
		if (*d->p == 'K') {
			d->p++;
			puts_(d, "extern \"");
			if (*d->p == 'C') {
				d->p++;
				put(d, "C", 1);
			} else {
				const char *s;
				size_t n = v0_ident(d, &s);

				for (size_t i = 0; i < n; i++)
					put(d, s[i] == '_' ? "-" : s + i, 1);
			}
			puts_(d, "\" ");
		}
		puts_(d, "fn(");
		v0_list(d, v0_type, ", ");
		put(d, ")", 1);
		if (*d->p == 'u') {
			d->p++;
		} else {
			puts_(d, " -> ");
			v0_type(d);
		}
		d->lifetimes = before;
	} else if (c == 'D') {
		uint64_t before;

		d->p++;
		puts_(d, "dyn ");
		before = v0_binder(d);
		v0_list(d, v0_dyn_trait, " + ");
		d->lifetimes = before;
		if (*d->p == 'L') {
			size_t n = d->n;

			v0_lifetime(d, 1); /* + 'a unless erased */
			if (d->n == n + 2 && d->o[n + 1] == '_')
				d->n = n;
			else if (!d->err)
				insert(d, n, ' '), insert(d, n, '+'), insert(d, n, ' ');
		} else {
			d->err = 1;
		}
	} else if (c == 'B') {
		v0_backref(d, v0_type_fn, 0);
	} else {
		v0_path(d, 0);
	}
	d->depth--;
}

static void v0_path(struct dm *d, int in_value)
{
	const char *s;
	char c = *d->p;
	size_t n, save;

	if (!enter(d))
		return;
	d->p++;
	if (c == 'C') {
		disambiguator(d);
		n = v0_ident(d, &s);
		put(d, s, n);
	} else if (c == 'M' || c == 'X' || c == 'Y') {
		if (c != 'Y') { /* the impl's own path: not shown */
			disambiguator(d);
			save = d->n;
			v0_path(d, 0);
			d->n = save;
		}
		put(d, "<", 1);
		v0_type(d);
		if (c != 'M') {
			puts_(d, " as ");
			v0_path(d, 0);
		}
		put(d, ">", 1);
	} else if (c == 'N') {
		char ns = *d->p++;
		uint64_t dis;

		if (!ns)
			d->err = 1;
		v0_path(d, in_value);
		dis = disambiguator(d);
		n = v0_ident(d, &s);
		if (ns >= 'A' && ns <= 'Z') {
			puts_(d, "::{");
			if (ns == 'C' || ns == 'S')
				puts_(d, ns == 'C' ? "closure" : "shim");
			else
				put(d, &ns, 1);
			if (n) {
				put(d, ":", 1);
				put(d, s, n);
			}
			put(d, "#", 1);
			put_num(d, dis);
			put(d, "}", 1);
		} else if (n) {
			put(d, "::", 2);
			put(d, s, n);
		}
	} else if (c == 'I') {
		v0_path(d, in_value);
		puts_(d, in_value ? "::<" : "<");
		v0_list(d, v0_generic, ", ");
		put(d, ">", 1);
	} else if (c == 'B') {
		d->p--;
		v0_backref(d, v0_path, in_value);
	} else {
		d->err = 1;
	}
	d->depth--;
}

const char *demangle(const char *name, char *out, size_t size)
{
	/* The parsers may step a few bytes past the end after an error (a
	 * missing 'E' is skipped as if there): they read a copy followed by
	 * NULs, which every rule takes as the end, and each step checks that
	 * the cursor is still within. */
	char s[MAX_IN + PAD];
	size_t len = name ? strnlen(name, MAX_IN) : MAX_IN;
	struct dm d;

	if (len >= MAX_IN || size < 2 || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	memcpy(s, name, len);
	memset(s + len, 0, PAD);
	memset(&d, 0, sizeof(d));
	d.end = s + len;
	d.p = s;
	d.o = out;
	d.cap = size;
	if (s[1] == 'R') {
		d.p = d.base = s + 2;
		if (is_digit(*d.p)) /* a later encoding version */
			return NULL;
		v0_path(&d, 1);
		/* the instantiating crate and vendor suffixes are not shown */
	} else if (s[2] == 'N' && rust_legacy(&d)) {
		/* done */
	} else {
		d.n = 0;
		d.err = 0;
		d.p = s + 2;
		encoding(&d, 1);
		clones(&d);
		if (*d.p)
			d.err = 1;
	}
	if (d.err || !d.n || d.p > d.end)
		return NULL;
	out[d.n] = 0;
	return out;
}
