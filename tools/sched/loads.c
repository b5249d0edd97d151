/* applet loads: print the 1, 5 and 15 minute load averages every second, to three decimals
 * readme: the 1/5/15-minute load averages every second, to three decimals (the book's `loads.bt`)
 *
 * As the book's bpftrace tool loads.bt prints them.
 *
 * The values are the kernel's avenrun[], read by a BPF program
 * (loads.bpf.c) when kallsyms has the variable's address
 * (CONFIG_KALLSYMS_ALL); else /proc/loadavg, which has two decimals
 * (the third then prints as 0; -v says which source is used). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/common/ksym_scan.h"

BPF_OBJ_DECLARE(loads);

static const struct opt opts[] = {
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-v] [interval] [count]",
	.examples =
		"    loads           # every second until Ctrl-C\n"
		"    loads 5 3       # every 5 seconds, 3 times\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	struct interval iv;
	int npos;
} env = { { 1, INTERVAL_FOREVER, false }, 0 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_L1S, C_L5S, C_L15S, C_L1, C_L5, C_L15 };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, NULL, "%s load averages: ", OUT_STR, OUT_TEXT_ONLY },
	[C_L1S] = { NULL, NULL, "%s ", OUT_STR, OUT_TEXT_ONLY },
	[C_L5S] = { NULL, NULL, "%s ", OUT_STR, OUT_TEXT_ONLY },
	[C_L15S] = { NULL, NULL, "%s\n", OUT_STR, OUT_TEXT_ONLY },
	[C_L1] = { "load1", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY | OUT_GAUGE, .help = "1 minute load average" },
	[C_L5] = { "load5", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY | OUT_GAUGE, .help = "5 minute load average" },
	[C_L15] = { "load15", NULL, NULL, OUT_FLOAT, OUT_JSON_ONLY | OUT_GAUGE, .help = "15 minute load average" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)

/* avenrun-style fixed point from /proc/loadavg's "12.34" (two decimals). */
static int parse_loadavg(uint64_t v[3], double d[3])
{
	char buf[128];
	unsigned long i[3], f[3];

	if (read_line("/proc/loadavg", buf, sizeof(buf)) < 0)
		return -1;
	if (str_scan(buf, "%lu.%lu %lu.%lu %lu.%lu", &i[0], &f[0], &i[1], &f[1], &i[2], &f[2]) != 6)
		return err_set(EINVAL, "unexpected /proc/loadavg: %s", buf);
	for (int k = 0; k < 3; k++) { /* + half a thousandth: %03d truncates back to .f0 */
		v[k] = ((uint64_t)i[k] << FSHIFT) + ((uint64_t)f[k] * 10 * FIXED_1 + FIXED_1 / 2) / 1000;
		d[k] = (double)i[k] + (double)f[k] / 100;
	}
	return 0;
}

/* Run the program once (BPF_PROG_TEST_RUN): 0, or -errno with a message. */
static int run_bpf(int prog_fd)
{
	union bpf_attr a;
	int r;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (uint32_t)prog_fd;
	r = sys_bpf(BPF_PROG_TEST_RUN, &a, sizeof(a));
	if (r < 0)
		return err_sys(-r, "BPF_PROG_TEST_RUN");
	if (a.test.retval)
		return err_set(EFAULT, "reading avenrun: %s", strerror((int)a.test.retval));
	return 0;
}

int loads_main(int argc, char **argv)
{
	struct obj *o = NULL;
	int pfd = -1, bss_fd = -1, ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (ksym_scan_addr("avenrun")) {
		struct obj_opts oo = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
		int err;

		o = BPF_OBJ_OPEN(loads);
		if ((err = obj_load(o, &oo)) < 0 || map_value_size(obj_map(o, ".bss")) != 3 * sizeof(uint64_t) ||
		    (err = run_bpf(pfd = prog_fd(obj_prog(o, "read_loads")))) < 0) {
			if (tool_common.verbose)
				fprintf(stderr, "loads: cannot read avenrun with BPF (%s): reading /proc/loadavg\n",
					err_msg());
			obj_close(o);
			o = NULL;
		} else {
			bss_fd = map_fd(obj_map(o, ".bss"));
			if (tool_common.verbose)
				fprintf(stderr, "loads: reading the kernel's avenrun with BPF\n");
		}
	} else if (tool_common.verbose) {
		fprintf(stderr, "loads: avenrun is not in /proc/kallsyms (no CONFIG_KALLSYMS_ALL, or "
			"hidden): reading /proc/loadavg (two decimals)\n");
	}
	tool_signals();
	out_info("Reading load averages... Hit Ctrl-C to end.\n");
	tool_flush();
	for (long n = env.iv.times; n > 0; n--) {
		char ts[16], s[3][32];
		uint64_t v[3], zero = 0;
		double d[3];
		union out_val row[ARRAY_SIZE(cols)];
		int err;

		tool_sleep_ms(env.iv.seconds * 1000);
		if (tool_stdout_gone())
			break;
		if (o) {
			err = run_bpf(pfd) < 0 ? -1 : bpf_map_lookup(bss_fd, &zero, v);
			for (int k = 0; k < 3; k++)
				d[k] = (double)v[k] / FIXED_1;
		} else {
			err = parse_loadavg(v, d);
		}
		if (err < 0) {
			tool_err("loads", "cannot read the load averages: %s", err_msg());
			ret = 1;
			break;
		}
		row[C_TIME].s = tool_hms(ts, sizeof(ts));
		for (int k = 0; k < 3; k++) {
			snprintf(s[k], sizeof(s[k]), "%llu.%03llu", (unsigned long long)(v[k] >> FSHIFT),
				 (unsigned long long)(((v[k] & (FIXED_1 - 1)) * 1000) >> FSHIFT));
			row[C_L1S + k].s = s[k];
			row[C_L1 + k].f = d[k];
		}
		out_doc_begin();
		out_row(&table, row);
		if (out_doc_end() < 0)
			ret = 1;
		tool_flush();
		if (ret || tool_exiting)
			break;
	}
	obj_close(o);
	return ret;
}
