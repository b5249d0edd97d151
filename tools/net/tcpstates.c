/* applet tcpstates: trace TCP state changes with the time in each state
 * readme: every TCP state change with the time spent in the old state
 *
 * libbpf-tools flags and columns. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tcpstates.h"

BPF_OBJ_DECLARE(tcpstates);

static struct {
	int wide, time;
	struct inet_state_filter f;
} env;

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ '4', "ipv4", NULL, "Trace IPv4 family only" },
	{ '6', "ipv6", NULL, "Trace IPv6 family only" },
	{ 'w', "wide", NULL, "Wide column output (fits IPv6 addresses)" },
	{ 'L', "localport", "LPORT", "Comma-separated list of local ports to trace." },
	{ 'D', "remoteport", "DPORT", "Comma-separated list of remote ports to trace." },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-4] [-6] [-T] [-L lport] [-D dport]",
	.examples = "    tcpstates                  # trace all TCP state changes\n"
		    "    tcpstates -T               # include timestamps\n"
		    "    tcpstates -L 80            # only trace local port 80\n"
		    "    tcpstates -D 80            # only trace remote port 80\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.time = 1; break;
	case '4': env.f.family = 2; break;
	case '6': env.f.family = 10; break;
	case 'w': env.wide = 1; break;
	case 'L': env.f.nsports = inet_ports_parse(&help, "LPORT", arg, env.f.sports, INET_PORTS_MAX); break;
	case 'D': env.f.ndports = inet_ports_parse(&help, "DPORT", arg, env.f.dports, INET_PORTS_MAX); break;
	default: return 1;
	}
	return 0;
}

/* libbpf-tools' two layouts: narrow (COMM cut to 10, no IP column) and
 * -w (COMM 16, IP column, addresses 39 wide). */
enum { C_TIME, C_SK, C_PID, C_COMM, C_IP, C_LADDR, C_LPORT, C_RADDR, C_RPORT, C_OLD, C_NEW, C_MS };
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[C_SK] = { "skaddr", "SKADDR", "%-16llx ", OUT_HEX, .hfmt = "%-16s " },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-10.10s ", OUT_STR, .hfmt = "%-10s " },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_LADDR] = { "laddr", "LADDR", "%-15s ", OUT_STR },
	[C_LPORT] = { "lport", "LPORT", "%-5d ", OUT_INT },
	[C_RADDR] = { "raddr", "RADDR", "%-15s ", OUT_STR },
	[C_RPORT] = { "rport", "RPORT", "%-5d ", OUT_INT },
	[C_OLD] = { "oldstate", "OLDSTATE", "%-11s -> ", OUT_STR, .hfmt = "%-11s -> " },
	[C_NEW] = { "newstate", "NEWSTATE", "%-11s ", OUT_STR },
	[C_MS] = { "ms", "MS", "%.3f\n", OUT_FLOAT, .hfmt = "%s\n" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcpstates_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[EV_COMM_LEN + 1], hms[16], sa[64], da[64];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = env.time ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_SK].u = e.skaddr;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_IP].i = inet_ip_version(e.family);
	v[C_LADDR].s = inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	v[C_LPORT].i = e.sport;
	v[C_RADDR].s = inet_addr_str(e.family, e.daddr, da, sizeof(da));
	v[C_RPORT].i = e.dport;
	v[C_OLD].s = tcp_state_name(e.oldstate);
	v[C_NEW].s = tcp_state_name(e.newstate);
	v[C_MS].f = (double)(e.delta_ns / 1000) / 1000;
	out_row(&table, v);
	return 0;
}

static int fill_ports(struct obj *o)
{
	return inet_state_filter_fill(o, "tcpstates", &env.f);
}

int tcpstates_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcpstates",
				  .after_load = fill_ports, .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	if (env.wide) {
		cols[C_COMM].fmt = "%-16s ";
		cols[C_COMM].hfmt = "%-16s ";
		cols[C_LADDR].fmt = cols[C_RADDR].fmt = "%-39s ";
	}
	o = BPF_OBJ_OPEN(tcpstates);
	inet_state_filter_set(o, &env.f);
	out_show(&table, C_TIME, env.time);
	out_show(&table, C_IP, env.wide);
	return tool_run_events(o, &te);
}
