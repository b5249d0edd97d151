/* bpftrace -h, -V and option errors as 0.17 gives them: its USAGE
 * layout on stderr (naming only the options this front end takes), and a
 * version line that starts as 0.17's ("bpftrace v0.17.0": the language
 * and output this front end follows; scripts and test suites match that
 * prefix) and says what answers it.  corebox's own help stays on -?. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tools/bpftrace/bt_print.h"
#include "tools/common/common.h"

/* The option table in 0.17's layout: -h after -e, -kk and -V after -k,
 * -d under TROUBLESHOOTING; no EXAMPLES (size). */
void bt_usage(const struct opt *o)
{
	fputs("USAGE:\n"
	      "    bpftrace [options] filename\n"
	      "    bpftrace [options] - <stdin input>\n"
	      "    bpftrace [options] -e 'program'\n\nOPTIONS:\n", stderr);
	for (; o->key; o++) {
		char label[48], name[32];
		const char *arg = o->arg ? o->arg : o->key == 'l' ? "[search]" : NULL;

		if (o->key == 'd')
			continue;
		if (o->key < 256)
			snprintf(name, sizeof(name), "-%c", o->key);
		else
			snprintf(name, sizeof(name), "--%s", o->name);
		snprintf(label, sizeof(label), "%s%s%s", name, arg ? " " : "", arg ? arg : "");
		fprintf(stderr, strlen(label) > 14 ? "    %s\n%19s%s\n" : "    %-15s%s%s\n", label, "", o->help);
		if (o->key == 'e')
			fputs("    -h, --help     show this help message\n", stderr);
		if (o->key == 'k')
			fputs("    -kk            check all bpf helper functions\n"
			      "    -V, --version  bpftrace version\n", stderr);
	}
	fputs("\nTROUBLESHOOTING OPTIONS:\n"
	      "    -v                      verbose messages\n"
	      "    -d                      (dry run) debug info\n\n"
	      "ENVIRONMENT:\n"
	      "    BPFTRACE_STRLEN             [default: 64] bytes on BPF stack per str()\n"
	      "    BPFTRACE_MAP_KEYS_MAX       [default: 4096] max keys in a map\n", stderr);
}

/* Before the shared option parser: -h/--help, -V/--version and unknown
 * short options among the options (up to the program file or "--").
 * Short options that take an argument skip it; the rest is left to
 * opt_parse. */
void bt_usage_args(int argc, char **argv, const struct opt *opts)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1] || !strcmp(a, "--"))
			return;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			bt_usage(opts);
			exit(0);
		}
		if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("bpftrace v0.17.0 (corebox %s)\n", corebox_version);
			exit(0);
		}
		if (a[1] == '-') {
			if (!strcmp(a, "--include") || !strcmp(a, "--btf"))
				i++;
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			if (!strchr("efoplcqkIdvV?", *c)) {
				/* 0.17's words, the option escaped (a control byte
				 * there would reach the terminal raw) */
				fputs("bpftrace: invalid option -- '", stderr);
				fputs_escaped((char[2]){ *c, 0 }, NULL, stderr);
				fputs("'\n", stderr);
				bt_usage(opts);
				exit(2);
			}
			if (strchr("efopcI", *c)) { /* its argument: the rest, or the next word */
				i += !c[1];
				break;
			}
		}
	}
}
