/* applet tcpconnlat: trace TCP connect latency
 * readme: TCP connect latency (SYN_SENT to ESTABLISHED)
 *
 * One line per connection that got established (libbpf-tools flags and
 * columns). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/err.h"
#include "lib/strdouble.h"
#include "lib/util.h"
#include "tcpconnlat.h"

BPF_OBJ_DECLARE(tcpconnlat);

static struct {
	uint64_t min_ns;
	int pid, timestamp, lport, npos;
} env;

static const struct opt opts[] = {
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 'L', "lport", NULL, "Include LPORT on output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help] [-t] [-p PID] [-L] [min_ms]",
	.examples = "    tcpconnlat              # trace all TCP connects\n"
		    "    tcpconnlat 1            # trace connection latency slower than 1 ms\n"
		    "    tcpconnlat 0.1          # trace connection latency slower than 100 us\n"
		    "    tcpconnlat -t           # include timestamps\n"
		    "    tcpconnlat -p 185       # trace PID 185 only\n"
		    "    tcpconnlat -L           # include LPORT while printing outputs\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	double ms;

	(void)ctx;
	switch (key) {
	case 't': env.timestamp = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'L': env.lport = 1; break;
	case 0:
		if (env.npos++)
			opt_usage_error(&help, "unrecognized positional argument: %s", arg);
		if (str_double(arg, &ms) || !(ms > 0) || ms > 1e9)
			opt_usage_error(&help, "invalid delay (in ms): '%s'", arg);
		env.min_ns = (uint64_t)(ms * 1e6);
		break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools: COMM cut to 12; LPORT only with -L. */
enum { C_TS, C_PID, C_COMM, C_IP, C_SADDR, C_LPORT, C_DADDR, C_DPORT, C_LAT, C_JLPORT };
static const struct out_col cols[] = {
	[C_TS] = { "time_s", "TIME(s)", "%-9.3f ", OUT_FLOAT, .hfmt = "%-9s " },
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-12.12s ", OUT_STR, .hfmt = "%-12s " },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_SADDR] = { "saddr", "SADDR", "%-16s ", OUT_STR },
	[C_LPORT] = { NULL, "LPORT", "%-6d ", OUT_INT, OUT_TEXT_ONLY },
	[C_DADDR] = { "daddr", "DADDR", "%-16s ", OUT_STR },
	[C_DPORT] = { "dport", "DPORT", "%-5d ", OUT_INT },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%.2f\n", OUT_FLOAT, .hfmt = "%s\n" },
	[C_JLPORT] = { "lport", NULL, NULL, OUT_INT, OUT_JSON_ONLY }, /* JSON always has it */
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcpconnlat_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[EV_COMM_LEN + 1], sa[64], da[64];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TS].f = inet_since_first_s(e.ts_ns);
	v[C_PID].i = e.tgid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_IP].i = inet_ip_version(e.family);
	v[C_SADDR].s = inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	v[C_LPORT].i = e.lport;
	v[C_DADDR].s = inet_addr_str(e.family, e.daddr, da, sizeof(da));
	v[C_DPORT].i = e.dport;
	v[C_LAT].f = (double)(e.delta_ns / 1000) / 1000;
	v[C_JLPORT].i = e.lport;
	out_row(&table, v);
	return 0;
}

int tcpconnlat_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcpconnlat", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(tcpconnlat);
	OBJ_SET(o, targ_min_ns, env.min_ns);
	OBJ_SET(o, targ_tgid, (uint32_t)env.pid);
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_LPORT, env.lport);
	return tool_run_events(o, &te);
}
