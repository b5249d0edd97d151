/* applet tcptracer: trace TCP connects, accepts and closes
 * readme: TCP connections as they are made (C), accepted (A) and closed (X), with the process
 *
 * libbpf-tools' 0.26 flags and columns: T is C, A or X; SADDR/SPORT the
 * local end, DADDR/DPORT the remote one; -t seconds since the first event
 * (%-9.3f), -U the UID; -C/--cgroupmap and -M/--mntnsmap are accepted and
 * ignored with libbpf-tools' "not implemented" warning. */
#include <stdio.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/util.h"
#include "tcptracer.h"

BPF_OBJ_DECLARE(tcptracer);

static struct {
	int timestamp, print_uid;
	int pid;
	long long uid;
} env = { .uid = -1 };

static const struct opt opts[] = {
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'U', "print-uid", NULL, "Include UID on output" },
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 'u', "uid", "UID", "Process UID to trace" },
	{ 'C', "cgroupmap", "PATH", "trace cgroups in this map" },
	{ 'M', "mntnsmap", "PATH", "trace mount namespaces in this map" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-U] [-p PID] [-u UID]",
	.examples = "    tcptracer             # trace all TCP connections\n"
		    "    tcptracer -t          # include timestamps\n"
		    "    tcptracer -p 181      # only trace PID 181\n"
		    "    tcptracer -U          # include UID\n"
		    "    tcptracer -u 1000     # only trace UID 1000\n"
		    "    tcptracer --C mappath # only trace cgroups in the map\n"
		    "    tcptracer --M mappath # only trace mount namespaces in the map\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 't': env.timestamp = 1; break;
	case 'U': env.print_uid = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'u': env.uid = opt_num(&help, "UID", arg, 0, (long long)(uint32_t)-2); break;
	case 'C': fprintf(stderr, "not implemented: --cgroupmap\n"); break;
	case 'M': fprintf(stderr, "not implemented: --mntnsmap\n"); break;
	default: return 1;
	}
	return 0;
}

enum { C_TS, C_UID, C_T, C_PID, C_COMM, C_IP, C_SADDR, C_DADDR, C_SPORT, C_DPORT };
static const struct out_col cols[] = {
	[C_TS] = { "ts_s", "TIME(s)", "%-9.3f", OUT_FLOAT, .hfmt = "%-9s" },
	[C_UID] = { "uid", "UID", "%-6lld", OUT_INT, .hfmt = "%-6s" },
	[C_T] = { "type", "T", "%s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-6lld ", OUT_INT, .hfmt = "%-6s " },
	[C_COMM] = { "comm", "COMM", "%-12.12s ", OUT_STR, .hfmt = "%-12s " },
	[C_IP] = { "ip", "IP", "%-2lld ", OUT_INT, .hfmt = "%-2s " },
	[C_SADDR] = { "saddr", "SADDR", "%-16s ", OUT_STR },
	[C_DADDR] = { "daddr", "DADDR", "%-16s ", OUT_STR },
	[C_SPORT] = { "sport", "SPORT", "%-4lld ", OUT_INT, .hfmt = "%-4s " },
	[C_DPORT] = { "dport", "DPORT", "%-4lld\n", OUT_INT, .hfmt = "%-4s\n" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t first_us;
	static const char *const types[] = { "-", "C", "A", "X" };
	struct tcptracer_event e;
	char comm[EV_COMM_LEN + 1], sa[48], da[48];
	union out_val v[ARRAY_SIZE(cols)];
	uint64_t us;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	us = e.ts_ns / 1000;
	if (!first_us)
		first_us = us;
	v[C_TS].f = (double)(us - first_us) / 1e6;
	v[C_UID].i = e.uid;
	v[C_T].s = types[e.type < 4 ? e.type : 0];
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_IP].i = inet_ip_version(e.family);
	v[C_SADDR].s = inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	v[C_DADDR].s = inet_addr_str(e.family, e.daddr, da, sizeof(da));
	v[C_SPORT].i = e.sport;
	v[C_DPORT].i = e.dport;
	out_row(&table, v);
	return 0;
}

int tcptracer_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcptracer", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(tcptracer);
	OBJ_SET(o, filter_pid, (uint32_t)env.pid);
	OBJ_SET(o, filter_uid, (uint32_t)env.uid);
	out_show(&table, C_TS, env.timestamp);
	out_show(&table, C_UID, env.print_uid);
	return tool_run_events(o, &te);
}
