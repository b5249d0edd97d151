/* applet tcplife: trace TCP sessions: endpoints, bytes, duration
 * readme: TCP sessions when they close: endpoints, bytes sent and received, duration
 *
 * libbpf-tools flags and columns; bcc's -t seconds column too. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tcplife.h"

BPF_OBJ_DECLARE(tcplife);

static struct {
	int pid, wide, time, timestamp;
	struct inet_state_filter f;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ '4', "ipv4", NULL, "Trace IPv4 only" },
	{ '6', "ipv6", NULL, "Trace IPv6 only" },
	{ 'w', "wide", NULL, "Wide column output (fits IPv6 addresses)" },
	{ 'T', "time", NULL, "Include timestamp on output" },
	{ 't', "timestamp", NULL, "Include seconds since the first session on output (bcc)" },
	{ 'L', "localport", "LOCALPORT", "Comma-separated list of local ports to trace." },
	{ 'D', "remoteport", "REMOTEPORT", "Comma-separated list of remote ports to trace." },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-4] [-6] [-L] [-D] [-T] [-w]",
	.examples = "    tcplife -p 1215             # only trace PID 1215\n"
		    "    tcplife -p 1215 -4          # trace IPv4 only\n"
		    "    tcplife -L 80,443           # only sessions on local port 80 or 443\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case '4': env.f.family = 2; break;
	case '6': env.f.family = 10; break;
	case 'w': env.wide = 1; break;
	case 'T': env.time = 1; break;
	case 't': env.timestamp = 1; break;
	case 'L': env.f.nsports = inet_ports_parse(&help, "LOCALPORT", arg, env.f.sports, INET_PORTS_MAX); break;
	case 'D': env.f.ndports = inet_ports_parse(&help, "REMOTEPORT", arg, env.f.dports, INET_PORTS_MAX); break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools' layout (-T: "TIME(s)" over HH:MM:SS rows, its quirk);
 * address columns 15 wide, 39 with -w.  JSON adds exact byte counts. */
enum { C_TIME, C_TS, C_PID, C_COMM, C_LADDR, C_LPORT, C_RADDR, C_RPORT, C_TX, C_RX, C_MS,
       C_TXB, C_RXB, C_FAM };
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[C_TS] = { "time_s", "TIME(s)", "%-9.6f ", OUT_FLOAT, .hfmt = "%-9s " },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_LADDR] = { "laddr", "LADDR", "%-15s ", OUT_STR },
	[C_LPORT] = { "lport", "LPORT", "%-5d ", OUT_INT },
	[C_RADDR] = { "raddr", "RADDR", "%-15s ", OUT_STR },
	[C_RPORT] = { "rport", "RPORT", "%-5d ", OUT_INT },
	[C_TX] = { "tx_kb", "TX_KB", "%-6.2f ", OUT_FLOAT, .hfmt = "%-6s " },
	[C_RX] = { "rx_kb", "RX_KB", "%-6.2f ", OUT_FLOAT, .hfmt = "%-6s " },
	[C_MS] = { "ms", "MS", "%-.2f\n", OUT_FLOAT, .hfmt = "%-s\n" },
	[C_TXB] = { "tx_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_RXB] = { "rx_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_FAM] = { "ip", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static uint64_t first_ns;

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcplife_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[EV_COMM_LEN + 1], hms[16], sa[64], da[64];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	if (!first_ns)
		first_ns = e.ts_ns;
	v[C_TIME].s = env.time ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_TS].f = (double)(e.ts_ns - first_ns) / 1e9;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_LADDR].s = inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	v[C_LPORT].i = e.sport;
	v[C_RADDR].s = inet_addr_str(e.family, e.daddr, da, sizeof(da));
	v[C_RPORT].i = e.dport;
	v[C_TX].f = (double)e.tx_b / 1024;
	v[C_RX].f = (double)e.rx_b / 1024;
	v[C_MS].f = (double)e.span_ns / 1e6;
	v[C_TXB].u = e.tx_b;
	v[C_RXB].u = e.rx_b;
	v[C_FAM].i = inet_ip_version(e.family);
	out_row(&table, v);
	return 0;
}

static int fill_ports(struct obj *o)
{
	return inet_state_filter_fill(o, "tcplife", &env.f);
}

int tcplife_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcplife",
				  .after_load = fill_ports, .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	if (env.wide)
		cols[C_LADDR].fmt = cols[C_RADDR].fmt = "%-39s ";
	o = BPF_OBJ_OPEN(tcplife);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	inet_state_filter_set(o, &env.f);
	out_show(&table, C_TIME, env.time);
	out_show(&table, C_TS, env.timestamp);
	return tool_run_events(o, &te);
}
