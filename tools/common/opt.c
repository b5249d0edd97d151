#include "opt.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

struct tool_common tool_common;

#define KEY_BTF OPT_LONG_ONLY(200)

static const struct opt common_opts[] = {
	{ KEY_BTF, "btf", "FILE", "kernel BTF to use instead of /sys/kernel/btf/vmlinux" },
	{ 'h', "help", NULL, "show this help and exit" },
	{ 0 },
};

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

static void print_help(const struct tool_help *h)
{
	const struct opt *o;

	printf("Usage: %s %s\n\n%s\n\nOptions:\n", h->name, h->usage ? h->usage : "[OPTION...]",
	       h->summary);
	for (o = h->opts; o && o->key; o++)
		print_opt(stdout, o);
	for (o = common_opts; o->key; o++)
		print_opt(stdout, o);
	if (h->examples)
		printf("\nExamples:\n%s", h->examples);
}

void opt_usage_error(const struct tool_help *h, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", h->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", h->name);
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

int opt_pid(const struct tool_help *h, const char *what, const char *arg)
{
	int pid = (int)opt_num(h, what, arg, 1, 0x7fffffff);
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", pid); /* TIDs resolve here too */
	if (access(path, F_OK) < 0) {
		fprintf(stderr, "%s: no process with %s %d\n", h->name, what, pid);
		exit(2);
	}
	return pid;
}

static void add_opt(struct option *lo, int *nl, char *so, int *ns, const struct opt *o)
{
	if (o->key > 0 && o->key < 256) {
		so[(*ns)++] = (char)o->key;
		if (o->arg)
			so[(*ns)++] = ':';
	}
	if (o->name) {
		lo[*nl].name = o->name;
		lo[*nl].has_arg = o->arg ? required_argument : no_argument;
		lo[*nl].flag = NULL;
		lo[*nl].val = o->key;
		(*nl)++;
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

	if (env && *env)
		tool_common.btf_path = env;
	so[ns++] = '+'; /* stop at the first positional (like argp with no permute) */
	so[ns++] = ':'; /* report missing arguments as ':' */
	for (o = h->opts; o && o->key && nl < 90; o++)
		add_opt(lo, &nl, so, &ns, o);
	for (o = common_opts; o->key; o++)
		add_opt(lo, &nl, so, &ns, o);
	so[ns] = 0;
	memset(&lo[nl], 0, sizeof(lo[nl]));

	opterr = 0;
	optind = 1;
	for (;;) {
		int li = -1;

		c = getopt_long(argc, argv, so, lo, &li);
		if (c == -1) {
			if (optind >= argc)
				break;
			/* a positional argument: hand it over and go on parsing */
			if (fn(0, argv[optind], ctx))
				opt_usage_error(h, "unexpected argument '%s'", argv[optind]);
			optind++;
			continue;
		}
		if (c == '?') {
			if (optopt && optopt < 256)
				opt_usage_error(h, "invalid option -- '%c'", optopt);
			opt_usage_error(h, "unrecognized option '%s'", argv[optind - 1]);
		}
		if (c == ':')
			opt_usage_error(h, "option '%s' requires an argument", argv[optind - 1]);
		if (c == 'h') {
			print_help(h);
			exit(0);
		}
		if (c == KEY_BTF) {
			tool_common.btf_path = optarg;
			continue;
		}
		if (fn(c, optarg, ctx)) {
			const char *name = li >= 0 ? lo[li].name : NULL;

			if (name)
				opt_usage_error(h, "invalid argument for --%s: '%s'", name, optarg ? optarg : "");
			opt_usage_error(h, "invalid argument for -%c: '%s'", c, optarg ? optarg : "");
		}
	}
}
