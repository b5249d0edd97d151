/* applet tcpconnect: trace or count active TCP connects
 * readme: active TCP connects (`-c` counts per flow), port, uid and cgroup filters
 *
 * libbpf-tools flags and columns; --cgroup PATH filters by cgroup v2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tcpconnect.h"

BPF_OBJ_DECLARE(tcpconnect);

#define KEY_CGROUP OPT_LONG_ONLY(1)

static struct {
	int timestamp, count, print_uid, source_port;
	int pid;
	long long uid;
	int nports;
	uint16_t ports[INET_PORTS_MAX];
	const char *cgroup;
} env; /* (zero-initialized: in .bss, not 2 KB of .data) */

static const struct opt opts[] = {
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'c', "count", NULL, "Count connects per src ip and dst ip/port" },
	{ 'U', "print-uid", NULL, "Include UID on output" },
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 'u', "uid", "UID", "Process UID to trace" },
	{ 's', "source-port", NULL, "Consider source port when counting" },
	{ 'P', "port", "PORTS", "Comma-separated list of destination ports to trace" },
	{ KEY_CGROUP, "cgroup", "PATH", "Only connects from processes in this cgroup (v2 directory)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-t] [-c] [-U] [-p PID] [-u UID] [-s] [-P PORTS] [--cgroup PATH]",
	.examples = "    tcpconnect             # trace all TCP connect()s\n"
		    "    tcpconnect -t          # include timestamps\n"
		    "    tcpconnect -p 181      # only trace PID 181\n"
		    "    tcpconnect -P 80       # only trace port 80\n"
		    "    tcpconnect -P 80,81    # only trace port 80 and 81\n"
		    "    tcpconnect -U          # include UID\n"
		    "    tcpconnect -u 1000     # only trace UID 1000\n"
		    "    tcpconnect -c          # count connects per src, dest, port\n"
		    "    tcpconnect --cgroup CG # only trace processes in cgroup v2 directory CG\n",
	.opts = opts,
	.flags = OPT_PROM | OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 't': env.timestamp = 1; break;
	case 'c': env.count = 1; break;
	case 'U': env.print_uid = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'u': env.uid = opt_num(&help, "UID", arg, 0, (long long)(uint32_t)-2); break;
	case 's': env.source_port = 1; break;
	case 'P': env.nports = inet_ports_parse(&help, "PORTS", arg, env.ports, INET_PORTS_MAX); break;
	case KEY_CGROUP: env.cgroup = arg; break;
	default: return 1;
	}
	return 0;
}

/* Events: libbpf-tools' layout (its TIME(s) and UID columns have no
 * separator of their own). */
enum { C_TS, C_UID, C_PID, C_COMM, C_IP, C_SADDR, C_DADDR, C_SPORT, C_DPORT, C_JUID, C_JSPORT };
static const struct out_col cols[] = {
	[C_TS] = { "time_s", "TIME(s)", "%-9.3f", OUT_FLOAT, .hfmt = "%-9s" },
	[C_UID] = { NULL, "UID", "%-6d", OUT_INT, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16.16s ", OUT_STR, .hfmt = "%-16s " },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_SADDR] = { "saddr", "SADDR", "%-16s ", OUT_STR },
	[C_DADDR] = { "daddr", "DADDR", "%-16s", OUT_STR },
	[C_SPORT] = { NULL, "SPORT", " %-5d", OUT_INT, OUT_TEXT_ONLY },
	[C_DPORT] = { "dport", "DPORT", " %-5d\n", OUT_INT, .hfmt = " %-5s\n" },
	/* JSON always has them */
	[C_JUID] = { "uid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_JSPORT] = { "sport", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcpconnect_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char comm[EV_COMM_LEN + 1], sa[64], da[64];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TS].f = inet_since_first_s(e.ts_ns);
	v[C_UID].i = e.uid;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_IP].i = inet_ip_version(e.family);
	v[C_SADDR].s = inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	v[C_DADDR].s = inet_addr_str(e.family, e.daddr, da, sizeof(da));
	v[C_SPORT].i = e.sport;
	v[C_DPORT].i = e.dport;
	v[C_JUID].i = e.uid;
	v[C_JSPORT].i = e.sport;
	out_row(&table, v);
	return 0;
}

/* -c: at the end, one row per flow (IPv4 before IPv6, then by count). */
enum { F_LADDR, F_RADDR, F_LPORT, F_RPORT, F_COUNT };
static const struct out_col fcols[] = {
	[F_LADDR] = { "laddr", "LADDR", "%-25s ", OUT_STR, OUT_LABEL },
	[F_RADDR] = { "raddr", "RADDR", "%-25s", OUT_STR, OUT_LABEL },
	[F_LPORT] = { "lport", "LPORT", " %-20d", OUT_INT, OUT_LABEL },
	[F_RPORT] = { "rport", "RPORT", " %-20d", OUT_INT, OUT_LABEL },
	[F_COUNT] = { "connects", "CONNECTS", " %-10llu\n", OUT_UINT, OUT_COUNTER,
		      .hfmt = " %-10s\n", .help = "active TCP connects" },
};
static struct out_table ftable = OUT_TABLE("flows", fcols);

static void flows_header(void)
{
	out_text("\n");
	out_header(&ftable);
}

static void flow_row(const struct inet_flow_count *r)
{
	union out_val v[ARRAY_SIZE(fcols)];
	char sa[64], da[64];

	v[F_LADDR].s = inet_addr_str(r->k.family, r->k.saddr, sa, sizeof(sa));
	v[F_RADDR].s = inet_addr_str(r->k.family, r->k.daddr, da, sizeof(da));
	v[F_LPORT].i = r->k.sport;
	v[F_RPORT].i = r->k.dport;
	v[F_COUNT].u = r->n;
	out_row(&ftable, v);
}

/* After load: the port filter; -c: count until Ctrl-C, print, done. */
static int after_load(struct obj *o)
{
	if (inet_ports_fill(o, "tcpconnect", "dports", env.ports, env.nports) < 0)
		return -1;
	if (!env.count)
		return 0;
	out_show(&ftable, F_LPORT, env.source_port);
	out_info("Tracing connect ... Hit Ctrl-C to end\n");
	return inet_flows_report(o, "tcpconnect", 1, flows_header, flow_row);
}

int tcpconnect_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcpconnect",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct obj *o;

	env.uid = -1;
	opt_parse(argc, argv, &help, parse, NULL);
	if (out_prom_on() && !env.count)
		opt_usage_error(&help, "--prom needs -c (counts)");
	tool_signals();
	o = BPF_OBJ_OPEN(tcpconnect);
	OBJ_SET(o, filter_pid, (uint32_t)env.pid);
	OBJ_SET(o, filter_uid, (uint32_t)env.uid);
	OBJ_SET(o, filter_dport, (uint8_t)(env.nports > 0));
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	OBJ_SET(o, do_count, (uint8_t)env.count);
	OBJ_SET(o, source_port, (uint8_t)env.source_port);
	if (!env.count)
		map_set_max_entries(obj_map(o, "counts"), 1);
	te.cgroup = env.cgroup;
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_UID, env.print_uid);
	out_show(&table, C_SPORT, env.source_port);
	return tool_run_events(o, &te);
}
