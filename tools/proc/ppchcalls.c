/* applet ppchcalls: summarize ppc hcall counts and latencies
 * readme: PowerPC hypervisor call counts and latencies (bcc's): needs the powerpc:hcall_entry/
 *         hcall_exit tracepoints of PowerPC pSeries guests; on the architectures corebox is
 *         built for it says so in one line
 *
 * bcc's ppchcalls reads the tracepoints powerpc:hcall_entry and
 * hcall_exit, which only a powerpc kernel running under a hypervisor
 * (pSeries LPAR) has.  corebox builds for x86_64, arm64 and 32-bit arm,
 * whose kernels never have them: the tool exits 1 with that sentence
 * whatever the options (-h and -V aside), as bcc fails there (it cannot
 * attach). */
#include <string.h>

#include "tools/common/common.h"

static const struct tool_help help = {
	.usage = "[-h] [bcc's options]",
};

int ppchcalls_main(int argc, char **argv)
{
	/* -h/-V as every tool; any other argument line gets the sentence */
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && strchr("hV?-", argv[i][1]) && strcmp(argv[i], "--hcall"))
			opt_parse(argc, argv, &help, NULL, NULL);
	tool_err("ppchcalls", "this kernel has no powerpc:hcall_entry/hcall_exit tracepoints (PowerPC "
		 "pSeries guests only; corebox is not built for powerpc)");
	return 1;
}
