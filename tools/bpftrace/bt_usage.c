/* bpftrace -h, -V and option errors as 0.17 gives them: its USAGE
 * layout on stderr (naming only the options this front end takes), and a
 * version line that starts as 0.17's ("bpftrace v0.17.0": the language
 * and output this front end follows; scripts and test suites match that
 * prefix) and says what answers it.  corebox's own help stays on -?. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/bpftrace/bt_print.h"
#include "tools/common/common.h"

static const char usage[] =
	"USAGE:\n"
	"    bpftrace [options] filename\n"
	"    bpftrace [options] - <stdin input>\n"
	"    bpftrace [options] -e 'program'\n"
	"\n"
	"OPTIONS:\n"
	"    -f FORMAT      output format ('text', 'json')\n"
	"    -o file        redirect bpftrace output to file\n"
	"    -e 'program'   execute this program\n"
	"    -h, --help     show this help message\n"
	"    -I DIR         add the directory to the include search path\n"
	"    --include FILE add an #include file before preprocessing\n"
	"    -l [search]    list probes\n"
	"    -p PID         enable USDT probes on PID\n"
	"    -c 'CMD'       run CMD and enable USDT probes on resulting process\n"
	"    --unsafe       allow unsafe builtin functions\n"
	"    -q             keep messages quiet\n"
	"    --info         Print information about kernel BPF support\n"
	"    -k             emit a warning when a bpf helper returns an error (except read functions)\n"
	"    -kk            check all bpf helper functions\n"
	"    -V, --version  bpftrace version\n"
	"\n"
	"TROUBLESHOOTING OPTIONS:\n"
	"    -v                      verbose messages\n"
	"    -d                      (dry run) debug info\n"
	"\n"
	"ENVIRONMENT:\n"
	"    BPFTRACE_STRLEN             [default: 64] bytes on BPF stack per str()\n"
	"    BPFTRACE_MAP_KEYS_MAX       [default: 4096] max keys in a map\n"
	"    BPFTRACE_CAT_BYTES_MAX      [default: 10k] maximum bytes read by cat builtin\n"
	"\n"
	"EXAMPLES:\n"
	"bpftrace -l '*sleep*'\n"
	"    list probes containing \"sleep\"\n"
	"bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'\n"
	"    count syscalls by process name\n";

void bt_usage(void)
{
	fputs(usage, stderr);
}

/* Before the shared option parser: -h/--help, -V/--version and unknown
 * short options among the options (up to the program file or "--").
 * Short options that take an argument skip it; the rest is left to
 * opt_parse. */
void bt_usage_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1] || !strcmp(a, "--"))
			return;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			bt_usage();
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
				fprintf(stderr, "bpftrace: invalid option -- '%c'\n", *c);
				bt_usage();
				exit(2);
			}
			if (strchr("efopcI", *c)) { /* its argument: the rest, or the next word */
				i += !c[1];
				break;
			}
		}
	}
}
