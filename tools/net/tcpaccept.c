/* applet tcpaccept: trace TCP accepts
 * readme: TCP connections accepted (`accept`/`accept4`): remote and local address and port,
 *         port and family filters (bcc's layout; libbpf-tools has no tcpaccept)
 *
 * bcc's flags and columns: -T the wall clock (TIME), -t seconds since the
 * first event (TIME(s), 3 decimals), -p PID, -P local ports, -4/-6; COMM
 * cut at 12 as bcc prints it (JSON has it whole).  bcc's --cgroupmap and
 * --mntnsmap (maps pinned by other bcc tools) are not offered. */
#include <stdio.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/util.h"
#include "tcpaccept.h"

BPF_OBJ_DECLARE(tcpaccept);

static struct {
	int time, timestamp; /* -T, -t */
	int pid, family;
	int nports;
	uint16_t ports[INET_PORTS_MAX];
} env; /* (zero-initialized: in .bss) */

static const struct opt opts[] = {
	{ 'T', "time", NULL, "include time column on output (HH:MM:SS)" },
	{ 't', "timestamp", NULL, "include timestamp on output" },
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'P', "port", "PORTS", "comma-separated list of local ports to trace" },
	{ '4', "ipv4", NULL, "trace IPv4 family only" },
	{ '6', "ipv6", NULL, "trace IPv6 family only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-t] [-p PID] [-P PORTS] [-4 | -6]",
	.examples = "    tcpaccept           # trace all TCP accept()s\n"
		    "    tcpaccept -t        # include timestamps\n"
		    "    tcpaccept -P 80,81  # only trace port 80 and 81\n"
		    "    tcpaccept -p 181    # only trace PID 181\n"
		    "    tcpaccept -4        # trace IPv4 family\n"
		    "    tcpaccept -6        # trace IPv6 family\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.time = 1; break;
	case 't': env.timestamp = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'P': env.nports = inet_ports_parse(&help, "PORTS", arg, env.ports, INET_PORTS_MAX); break;
	case '4':
	case '6':
		if (env.family && env.family != (key == '4' ? 2 : 10))
			opt_usage_error(&help, "-4/--ipv4 and -6/--ipv6 are mutually exclusive");
		env.family = key == '4' ? 2 : 10;
		break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

enum { C_TIME, C_TS, C_PID, C_COMM, C_IP, C_RADDR, C_RPORT, C_LADDR, C_LPORT };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-9s", OUT_STR, OUT_TEXT_ONLY },
	[C_TS] = { "ts_s", "TIME(s)", "%-9.3f", OUT_FLOAT, .hfmt = "%-9s" },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-12.12s ", OUT_STR, .hfmt = "%-12s " },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_RADDR] = { "raddr", "RADDR", "%-16s ", OUT_STR },
	[C_RPORT] = { "rport", "RPORT", "%-5d ", OUT_INT },
	[C_LADDR] = { "laddr", "LADDR", "%-16s ", OUT_STR },
	[C_LPORT] = { "lport", "LPORT", "%-5d\n", OUT_INT },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t first_us;
	struct tcpaccept_event e;
	char comm[EV_COMM_LEN + 1], hms[16], la[48], ra[48];
	union out_val v[ARRAY_SIZE(cols)];
	uint64_t us;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	us = e.ts_ns / 1000; /* bcc's ts_us */
	if (!first_us)
		first_us = us;
	v[C_TIME].s = env.time ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_TS].f = (double)(us - first_us) / 1e6;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_IP].i = inet_ip_version(e.family);
	v[C_RADDR].s = inet_addr_str(e.family, e.raddr, ra, sizeof(ra));
	v[C_RPORT].i = e.rport;
	v[C_LADDR].s = inet_addr_str(e.family, e.laddr, la, sizeof(la));
	v[C_LPORT].i = e.lport;
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	return inet_ports_fill(o, "tcpaccept", "lports", env.ports, env.nports) < 0 ? -1 : 0;
}

int tcpaccept_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcpaccept",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(tcpaccept);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, target_family, (uint16_t)env.family);
	OBJ_SET(o, filter_lport, (uint8_t)(env.nports > 0));
	out_show(&table, C_TIME, env.time);
	out_show(&table, C_TS, env.timestamp);
	return tool_run_events(o, &te);
}
