#include "opt.h"
#include "common.h"
#include "out.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/util.h"

struct tool_common tool_common;

#define KEY_BTF OPT_LONG_ONLY(200)
#define KEY_JSON OPT_LONG_ONLY(201)
#define KEY_PROM OPT_LONG_ONLY(202)
#define KEY_USAGE OPT_LONG_ONLY(203)
#define KEY_NO_DEMANGLE OPT_LONG_ONLY(204)
#define KEY_SHOW_CGROUP OPT_LONG_ONLY(205)
#define KEY_LISTEN OPT_LONG_ONLY(206)

/* Shared by every tool; entries whose short letter the tool already uses
 * lose it (fsslower's -j is CSV output: there --json stays); a tool with
 * its own --verbose (stackcount's raw addresses) keeps it. */
static const struct opt common_opts[] = {
	{ 'v', "verbose", NULL, "say how the tool traces; the loader's steps and the verifier log" },
	{ 'j', "json", NULL, "one JSON object per line: per event, or per interval report "
			     "(\"time\": RFC 3339 wall clock)" },
	{ KEY_PROM, "prom", "FILE", "write Prometheus text format to FILE after each report "
				    "(for node_exporter's textfile collector)" },
	{ KEY_LISTEN, "listen", "ADDR:PORT", "serve the same series at http://ADDR:PORT/metrics (with an interval: "
					 "updated at each report)" },
	{ KEY_SHOW_CGROUP, "show-cgroup", NULL, "start each event with its cgroup v2 path (the container; "
						"JSON always has \"cgroup\")" },
	{ KEY_BTF, "btf", "FILE", "kernel BTF to use instead of /sys/kernel/btf/vmlinux" },
	{ KEY_NO_DEMANGLE, "no-demangle", NULL, "show C++ and Rust function names as mangled in the binary" },
	{ 'V', "version", NULL, "print the version and exit" },
	{ KEY_USAGE, "usage", NULL, "print a short usage message and exit" },
	{ 'h', "help", NULL, "show this help and exit" },
	{ 0 },
};

static const struct opt *common(int key)
{
	const struct opt *o;

	for (o = common_opts; o->key && o->key != key; o++)
		;
	return o;
}

/* Which common options apply to h, and with which key: its own key, 0
 * (not for this tool), KEY_JSON (-j taken: --json only) or -1 (-V taken:
 * --version only). */
static int common_key(const struct tool_help *h, const struct opt *c)
{
	if ((c->key == KEY_PROM || c->key == KEY_LISTEN) && !(h->flags & OPT_PROM))
		return 0;
	if (c->key == KEY_SHOW_CGROUP && !(h->flags & OPT_EVENTS))
		return 0;
	if (c->key == KEY_NO_DEMANGLE && !(h->flags & OPT_USTACKS))
		return 0;
	if (c->key == 'j' && (h->flags & OPT_NO_JSON))
		return 0;
	if (c->key == 'v' && (h->flags & OPT_NO_VERBOSE))
		return 0;
	for (const struct opt *o = h->opts; o && o->key; o++) {
		if (o->name && c->name && !strcmp(o->name, c->name))
			return 0; /* the tool has its own --NAME */
		if (o->key == c->key)
			return c->key == 'j' ? KEY_JSON : (c->key == 'V' ? -1 : 0);
	}
	return c->key;
}

static void print_opt(FILE *f, const struct opt *o)
{
	char left[64];
	int n = 0;

	if (o->key > 0 && o->key < 256)
		n += snprintf(left + n, sizeof(left) - n, "-%c%s", o->key, o->name ? ", " : "");
	else
		n += snprintf(left + n, sizeof(left) - n, "    ");
	if (o->name)
		n += snprintf(left + n, sizeof(left) - n, "--%s", o->name);
	if (o->arg)
		snprintf(left + n, sizeof(left) - n, "%s%s", o->name ? "=" : " ", o->arg);
	fprintf(f, "  %-26s %s\n", left, o->help);
}

static const char *help_name(const struct tool_help *h)
{
	return h->name ? h->name : tool_applet;
}

/* The tool's own paragraph, else its applet's one-line summary as a
 * sentence: "summarize ... histogram" -> "Summarize ... histogram." */
static void print_summary(const struct tool_help *h)
{
	const char *s = h->summary ? h->summary : tool_applet_summary ? tool_applet_summary : "";

	if (h->summary || !*s)
		fputs(s, stdout);
	else
		printf("%c%s.", toupper((unsigned char)*s), s + 1);
}

static void print_help(const struct tool_help *h)
{
	const struct opt *o;

	printf("Usage: %s %s\n\n", help_name(h), h->usage ? h->usage : "[OPTION...]");
	print_summary(h);
	printf("\n\nOptions:\n");
	for (o = h->opts; o && o->key; o++)
		print_opt(stdout, o);
	for (o = common_opts; o->key; o++) {
		int k = common_key(h, o);
		struct opt c = *o;

		if (!k)
			continue;
		if (k == KEY_JSON || k == -1)
			c.key = k == KEY_JSON ? KEY_JSON : OPT_LONG_ONLY(299);
		print_opt(stdout, &c);
	}
	if (h->examples)
		printf("\nExamples:\n%s", h->examples);
}

/* The message quotes the user's own words (a PID, a syscall name, a
 * path): escaped as the output layer escapes, on one line, so a newline
 * or ESC in an argument cannot forge a line or drive the terminal. */
void opt_usage_error(const struct tool_help *h, const char *fmt, ...)
{
	struct strbuf b = { 0 };
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	strbuf_reset(&b);
	out_escaped(&b, msg ? msg : fmt);
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", help_name(h), b.s, help_name(h));
	exit(2);
}

long long opt_num(const struct tool_help *h, const char *what, const char *arg,
		  long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg ? arg : "", &end, 0);
	if (!arg || !*arg || *end || errno)
		opt_usage_error(h, "invalid %s: '%s'", what, arg ? arg : "");
	if (v < min || v > max)
		opt_usage_error(h, "%s must be between %lld and %lld: '%s'", what, min, max, arg);
	return v;
}

long long opt_one_num(const struct tool_help *h, int *npos, const char *what, const char *arg,
		      long long min, long long max)
{
	if ((*npos)++)
		opt_usage_error(h, "unrecognized positional argument: %s", arg);
	return opt_num(h, what, arg, min, max);
}

int opt_pid(const struct tool_help *h, const char *what, const char *arg)
{
	int pid = (int)opt_num(h, what, arg, 1, 0x7fffffff);
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", pid); /* TIDs resolve here too */
	if (access(path, F_OK) < 0) {
		fprintf(stderr, "%s: no process with %s %d\n", help_name(h), what, pid);
		exit(2);
	}
	return pid;
}

static void add_opt(struct option *lo, int *nl, char *so, int *ns, const struct opt *o, int key)
{
	if (key > 0 && key < 256) {
		so[(*ns)++] = (char)key;
		if (o->arg)
			so[(*ns)++] = ':';
	}
	if (o->name) {
		lo[*nl].name = o->name;
		lo[*nl].has_arg = o->arg ? required_argument : no_argument;
		lo[*nl].flag = NULL;
		lo[*nl].val = key;
		(*nl)++;
	}
}

/* The option (tool's or common) that getopt reports as key. */
static const struct opt *find_opt(const struct tool_help *h, int key)
{
	const struct opt *o;

	for (o = h->opts; o && o->key; o++)
		if (o->key == key)
			return o;
	for (o = common_opts; o->key; o++) {
		int k = common_key(h, o);

		if (k == key || (k == -1 && key == OPT_LONG_ONLY(299)))
			return o;
	}
	return NULL;
}

/* "-u/--uid", "-u" or "--uid". */
static const char *opt_label(const struct opt *o, int key, char *buf, size_t size)
{
	if (key > 0 && key < 256 && o && o->name)
		snprintf(buf, size, "-%c/--%s", key, o->name);
	else if (key > 0 && key < 256)
		snprintf(buf, size, "-%c", key);
	else
		snprintf(buf, size, "--%s", o && o->name ? o->name : "?");
	return buf;
}

/* getopt said '?': say what it means: an unknown short option, a long
 * option that is unknown, ambiguous, or given a value it does not take. */
static void bad_option(const struct tool_help *h, const struct option *lo, const char *arg)
{
	char name[64], list[256] = "";
	size_t n, len = 0;
	int matches = 0;
	const struct option *exact = NULL;

	if (!arg || strncmp(arg, "--", 2)) {
		if (optopt > 0 && optopt < 256)
			opt_usage_error(h, "invalid option -- '%c'", optopt);
		opt_usage_error(h, "invalid option '%s'", arg ? arg : "");
	}
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)(n < 60 ? n : 60), arg + 2);
	for (const struct option *l = lo; l->name; l++) {
		if (strncmp(l->name, name, n))
			continue;
		if (strlen(l->name) == n)
			exact = l;
		matches++;
		len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0, " '--%s'",
					l->name);
		if (len >= sizeof(list))
			len = sizeof(list) - 1;
	}
	if ((exact || matches == 1) && arg[2 + n] == '=')
		opt_usage_error(h, "option '--%s' doesn't allow an argument",
				exact ? exact->name : list + 4 /* " '--" */);
	if (matches > 1 && !exact)
		opt_usage_error(h, "option '--%s' is ambiguous; possibilities:%s", name, list);
	opt_usage_error(h, "unrecognized option '--%s'", name);
}

/* A --btf FILE (or $COREBOX_BTF) that cannot be BTF is an error for every
 * tool, also one that never needs kernel BTF (loads, profile, run
 * --dry-run): a typo must not pass unnoticed until the day the file is
 * needed.  Same checks and message as the loader (open_regular: missing,
 * a directory, a FIFO, a device), and an empty file; whether the bytes
 * parse is left to the loader, which maps the file when it needs it. */
static void check_btf_path(const struct tool_help *h)
{
	struct stat st;
	int fd;

	if (!tool_common.btf_path)
		return;
	fd = open_regular(tool_common.btf_path, &st);
	if (fd >= 0) {
		close(fd);
		if (st.st_size > 0)
			return;
		err_set(EINVAL, "%s is empty", tool_common.btf_path);
	}
	tool_err(help_name(h), "kernel BTF: %s", err_msg());
	exit(1);
}

/* --prom FILE is checked before tracing starts, as --svg is: a device or
 * FIFO of that name must not be replaced, and a missing directory must
 * not pass unnoticed until the first report. */
static void check_prom_path(const struct tool_help *h)
{
	if (out_cfg.prom_path && out_prom_check(out_cfg.prom_path) < 0) {
		tool_err(help_name(h), "%s", err_msg());
		exit(1);
	}
}

void opt_parse(int argc, char **argv, const struct tool_help *h,
	       int (*fn)(int key, const char *arg, void *ctx), void *ctx)
{
	struct option lo[96];
	char so[192];
	int nl = 0, ns = 0, c;
	const struct opt *o;
	const char *env = getenv("COREBOX_BTF");
	char label[80];

	out_cfg.tool = help_name(h);
	if (env && *env)
		tool_common.btf_path = env;
	so[ns++] = '+'; /* stop at the first positional (like argp with no permute) */
	so[ns++] = ':'; /* report missing arguments as ':' */
	for (o = h->opts; o && o->key && nl < 80; o++)
		add_opt(lo, &nl, so, &ns, o, o->key);
	for (o = common_opts; o->key; o++) {
		int k = common_key(h, o);

		if (k)
			add_opt(lo, &nl, so, &ns, o, k == -1 ? OPT_LONG_ONLY(299) : k);
	}
	so[ns] = 0;
	memset(&lo[nl], 0, sizeof(lo[nl]));

	opterr = 0;
	optind = 1;
	for (;;) {
		int li = -1, cur = optind;

		c = getopt_long(argc, argv, so, lo, &li);
		if (c == -1 && optind > 1 && optind < argc && !strcmp(argv[optind - 1], "--")) {
			/* "--" ends the options: the rest is positional, whatever it
			 * looks like.  Handed over here in one go: glibc's getopt
			 * (the sanitizer builds) moves optind back to the first
			 * argument after "--" on every later call, so `bpftrace -- -1`
			 * looped forever. */
			for (; optind < argc; optind++)
				if (!fn || fn(0, argv[optind], ctx))
					opt_usage_error(h, "unexpected argument '%s'", argv[optind]);
		}
		if (c == -1) {
			if (optind >= argc) {
				check_btf_path(h);
				check_prom_path(h);
				if (out_cfg.listen && tool_listen_open(help_name(h), out_cfg.listen) < 0)
					exit(1);
				break;
			}
			/* a positional argument: hand it over and go on parsing */
			if (!fn || fn(0, argv[optind], ctx))
				opt_usage_error(h, "unexpected argument '%s'", argv[optind]);
			optind++;
			continue;
		}
		if (c == '?') {
			if (optopt == '?') { /* -? is help, as in argp */
				print_help(h);
				exit(0);
			}
			bad_option(h, lo, cur < argc ? argv[cur] : NULL);
		}
		if (c == ':') { /* musl leaves argv[optind - 1] NULL here: name it from optopt */
			const struct opt *m = find_opt(h, optopt);

			opt_usage_error(h, "option %s requires an argument%s%s%s",
					opt_label(m, optopt, label, sizeof(label)), m && m->arg ? " (" : "",
					m && m->arg ? m->arg : "", m && m->arg ? ")" : "");
		}
		switch (c) {
		case 'h':
			print_help(h);
			exit(0);
		case 'V':
		case OPT_LONG_ONLY(299):
			if (c == 'V' && common_key(h, common('V')) != 'V')
				break; /* the tool's own -V */
			printf("%s (corebox) %s\n", help_name(h), corebox_version);
			exit(0);
		case KEY_USAGE:
			printf("Usage: %s %s\n", help_name(h), h->usage ? h->usage : "[OPTION...]");
			exit(0);
		case KEY_BTF:
			tool_common.btf_path = optarg;
			continue;
		case KEY_NO_DEMANGLE:
			tool_common.no_demangle = 1;
			continue;
		case 'v':
			if (common_key(h, common('v')) == 'v') {
				tool_common.verbose++; /* -vv: more (run) */
				continue;
			}
			break;
		case KEY_JSON:
			out_cfg.format = OUT_JSON;
			continue;
		case 'j':
			if (common_key(h, common('j')) == 'j') {
				out_cfg.format = OUT_JSON;
				continue;
			}
			break;
		case KEY_PROM:
			out_cfg.prom_path = optarg;
			continue;
		case KEY_LISTEN:
			out_cfg.listen = optarg;
			continue;
		case KEY_SHOW_CGROUP:
			out_cfg.cgroup_column = true;
			continue;
		}
		if (!fn || fn(c, optarg, ctx)) {
			const char *name = li >= 0 ? lo[li].name : NULL;

			if (name)
				opt_usage_error(h, "invalid argument for --%s: '%s'", name, optarg ? optarg : "");
			opt_usage_error(h, "invalid argument for -%c: '%s'", c, optarg ? optarg : "");
		}
	}
}
