/* applet tcppktlat: TCP latency from a packet's arrival to the reader picking it up
 * readme: per read: time from a TCP data segment's arrival to the process reading it (`-l`/`-r`
 *         ports, `-p`/`-t`, minimum usecs)
 *
 * libbpf-tools' layout (upstream; Debian's 0.26 predates the tool):
 * PID TID COMM LADDR LPORT RADDR RPORT MS, addresses 15 wide (-w: 26),
 * MS with two decimals; -T the wall clock first; the positional
 * argument a minimum latency in microseconds. */
#include <stdio.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/util.h"
#include "tcppktlat.h"

BPF_OBJ_DECLARE(tcppktlat);

static struct {
	int timestamp, wide;
	int pid, tid;
	long lport, rport;
	long long min_us;
	int npos;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 't', "tid", "TID", "Thread TID to trace" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'l', "lport", "LPORT", "filter for local port" },
	{ 'r', "rport", "RPORT", "filter for remote port" },
	{ 'w', "wide", NULL, "Wide column output (fits IPv6 addresses)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help] [-T] [-p PID] [-t TID] [-l LPORT] [-r RPORT] [-w] [-v] [min_us]",
	.examples = "    tcppktlat             # Trace all TCP packet picked up latency\n"
		    "    tcppktlat -T          # summarize with timestamps\n"
		    "    tcppktlat -p          # filter for pid\n"
		    "    tcppktlat -t          # filter for tid\n"
		    "    tcppktlat -l          # filter for local port\n"
		    "    tcppktlat -r          # filter for remote port\n"
		    "    tcppktlat 1000        # filter for latency higher than 1000us\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'T': env.timestamp = 1; break;
	case 'l': env.lport = (long)opt_num(&help, "lport", arg, 0, 65535); break;
	case 'r': env.rport = (long)opt_num(&help, "rport", arg, 0, 65535); break;
	case 'w': env.wide = 1; break;
	case 0:
		if (env.npos++)
			opt_usage_error(&help, "Unrecognized positional argument: %s", arg);
		env.min_us = opt_num(&help, "delay (in us)", arg, 1, 0x7fffffffffffffffLL);
		break;
	default: return 1;
	}
	return 0;
}

static void ms_text(FILE *f, const struct out_col *c, const union out_val *v)
{
	fprintf(f, c->fmt, v->f);
}

enum { C_TIME, C_PID, C_TID, C_COMM, C_LADDR, C_LPORT, C_RADDR, C_RPORT, C_MS };
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_TID] = { "tid", "TID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_LADDR] = { "laddr", "LADDR", "%-15s ", OUT_STR },
	[C_LPORT] = { "lport", "LPORT", "%-5lld ", OUT_INT, .hfmt = "%-5s " },
	[C_RADDR] = { "raddr", "RADDR", "%-15s ", OUT_STR },
	[C_RPORT] = { "rport", "RPORT", "%-5lld ", OUT_INT, .hfmt = "%-5s " },
	[C_MS] = { "ms", "MS", "%-.2f\n", OUT_FLOAT, .hfmt = "%-s\n", .text = ms_text },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcppktlat_event e;
	char comm[EV_COMM_LEN + 1], hms[16], la[48], ra[48];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = env.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_PID].i = e.pid;
	v[C_TID].i = e.tid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_LADDR].s = inet_addr_str(e.family, e.saddr, la, sizeof(la));
	v[C_LPORT].i = e.sport;
	v[C_RADDR].s = inet_addr_str(e.family, e.daddr, ra, sizeof(ra));
	v[C_RPORT].i = e.dport;
	v[C_MS].f = (double)e.delta_us / 1000.0;
	out_row(&table, v);
	return 0;
}

int tcppktlat_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcppktlat", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(tcppktlat);
	OBJ_SET(o, targ_pid, (uint32_t)env.pid);
	OBJ_SET(o, targ_tid, (uint32_t)env.tid);
	OBJ_SET(o, targ_sport, (uint16_t)env.lport);
	OBJ_SET(o, targ_dport, (uint16_t)env.rport);
	OBJ_SET(o, targ_min_us, (uint64_t)env.min_us);
	if (env.wide)
		cols[C_LADDR].fmt = cols[C_RADDR].fmt = "%-26s ";
	out_show(&table, C_TIME, env.timestamp);
	return tool_run_events(o, &te);
}
