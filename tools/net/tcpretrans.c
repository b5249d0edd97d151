/* applet tcpretrans: trace or count TCP retransmits
 * readme: TCP retransmits (`-c` per flow, `-l` tail loss probes where kprobes/fentry exist)
 *
 * bcc's flags and columns: there is no libbpf-tools version.  -l adds tail
 * loss probes, which need fentry or kprobes (no tracepoint marks them). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/probe.h"
#include "inet.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tcpretrans.h"

BPF_OBJ_DECLARE(tcpretrans);

static struct {
	int sequence, lossprobe, count, family;
} env;

static const struct opt opts[] = {
	{ 's', "sequence", NULL, "display TCP sequence numbers" },
	{ 'l', "lossprobe", NULL, "include tail loss probe attempts" },
	{ 'c', "count", NULL, "count occurred retransmits per flow" },
	{ '4', "ipv4", NULL, "trace IPv4 family only" },
	{ '6', "ipv6", NULL, "trace IPv6 family only" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-s] [-l] [-c] [-4 | -6]",
	.examples = "    tcpretrans           # trace TCP retransmits\n"
		    "    tcpretrans -l        # include TLP attempts\n"
		    "    tcpretrans -c        # count retransmits per flow, print at Ctrl-C\n"
		    "    tcpretrans -4        # trace IPv4 family only\n"
		    "    tcpretrans -6        # trace IPv6 family only\n",
	.opts = opts,
	.flags = OPT_PROM | OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	(void)arg;
	switch (key) {
	case 's': env.sequence = 1; break;
	case 'l': env.lossprobe = 1; break;
	case 'c': env.count = 1; break;
	case '4':
	case '6':
		if (env.family)
			opt_usage_error(&help, "argument -%c: not allowed with argument -%c", key,
					env.family == 2 ? '4' : '6');
		env.family = key == '4' ? 2 : 10;
		break;
	default: return 1;
	}
	return 0;
}

/* bcc's layout: TIME PID IP LADDR:LPORT T> RADDR:RPORT STATE [SEQ]. */
enum { C_TIME, C_PID, C_IP, C_LEND, C_TYPE, C_REND, C_STATE, C_SEQ,
       C_LADDR, C_LPORT, C_RADDR, C_RPORT, C_JSEQ };
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_LEND] = { NULL, "LADDR:LPORT", "%-20s ", OUT_STR, OUT_TEXT_ONLY },
	[C_TYPE] = { "type", "T", "%1s> ", OUT_STR },
	[C_REND] = { NULL, "RADDR:RPORT", "%-20s", OUT_STR, OUT_TEXT_ONLY },
	[C_STATE] = { "state", "STATE", " %s\n", OUT_STR, .hfmt = " %-4s\n" },
	[C_SEQ] = { NULL, "SEQ", "%u\n", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-10s\n" },
	[C_LADDR] = { "laddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_LPORT] = { "lport", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_RADDR] = { "raddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_RPORT] = { "rport", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_JSEQ] = { "seq", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcpretrans_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char hms[16], sa[64], da[64], le[80], re[80];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	inet_addr_str(e.family, e.saddr, sa, sizeof(sa));
	inet_addr_str(e.family, e.daddr, da, sizeof(da));
	snprintf(le, sizeof(le), "%s:%d", sa, e.lport);
	snprintf(re, sizeof(re), "%s:%d", da, e.dport);
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_IP].i = inet_ip_version(e.family);
	v[C_LEND].s = le;
	v[C_TYPE].s = e.type == TCPRETRANS_TLP ? "L" : "R";
	v[C_REND].s = re;
	v[C_STATE].s = tcp_state_name(e.state);
	v[C_SEQ].u = e.seq;
	v[C_LADDR].s = sa;
	v[C_LPORT].i = e.lport;
	v[C_RADDR].s = da;
	v[C_RPORT].i = e.dport;
	v[C_JSEQ].u = e.seq;
	out_row(&table, v);
	return 0;
}

/* -c: at Ctrl-C, "[addr]#port <-> [addr]#port count" per flow, fewest
 * first (bcc). */
enum { F_FLOW, F_LADDR, F_LPORT, F_RADDR, F_RPORT, F_COUNT };
static const struct out_col fcols[] = {
	[F_FLOW] = { NULL, NULL, "%s ", OUT_STR, OUT_TEXT_ONLY },
	[F_LADDR] = { "laddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[F_LPORT] = { "lport", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[F_RADDR] = { "raddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[F_RPORT] = { "rport", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[F_COUNT] = { "retransmits", NULL, "%10llu\n", OUT_UINT, OUT_COUNTER,
		      .help = "TCP segments retransmitted" },
};
static struct out_table ftable = OUT_TABLE("flows", fcols);

static void flows_header(void)
{
	out_text("\n%-25s %-25s %-10s\n", "LADDR:LPORT", "RADDR:RPORT", "RETRANSMITS");
}

static void flow_row(const struct inet_flow_count *r)
{
	union out_val v[ARRAY_SIZE(fcols)];
	char sa[64], da[64], le[80], re[80], flow[200];

	inet_addr_str(r->k.family, r->k.saddr, sa, sizeof(sa));
	inet_addr_str(r->k.family, r->k.daddr, da, sizeof(da));
	snprintf(le, sizeof(le), "[%s]#%d", sa, r->k.sport);
	snprintf(re, sizeof(re), "[%s]#%d", da, r->k.dport);
	snprintf(flow, sizeof(flow), "%-20s <-> %-20s", le, re);
	v[F_FLOW].s = flow;
	v[F_LADDR].s = sa;
	v[F_LPORT].i = r->k.sport;
	v[F_RADDR].s = da;
	v[F_RPORT].i = r->k.dport;
	v[F_COUNT].u = r->n;
	out_row(&ftable, v);
}

/* After load: the banner; -c: count until Ctrl-C, print, done. */
static int after_load(struct obj *o)
{
	out_info("Tracing retransmits ... Hit Ctrl-C to end\n");
	if (!env.count)
		return 0;
	return inet_flows_report(o, "tcpretrans", 0, flows_header, flow_row);
}

int tcpretrans_main(int argc, char **argv)
{
	struct tool_events te = { .name = "tcpretrans",
				  .after_load = after_load, .on_event = on_event, .header = &table };
	struct prog *fentry, *kprobe;
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	if (out_prom_on() && !env.count)
		opt_usage_error(&help, "--prom needs -c (counts)");
	tool_signals();
	o = BPF_OBJ_OPEN(tcpretrans);
	OBJ_SET(o, target_family, (uint16_t)env.family);
	OBJ_SET(o, do_count, (uint8_t)env.count);
	fentry = obj_prog(o, "tcpretrans_tlp_fentry");
	kprobe = obj_prog(o, "tcpretrans_tlp_kprobe");
	if (!env.lossprobe) {
		prog_set_autoload(fentry, false);
		prog_set_autoload(kprobe, false);
	} else if (obj_fentry_ok(o, "tcp_send_loss_probe")) {
		prog_set_autoload(kprobe, false);
	} else if (probe_kprobe_pmu() || probe_kprobe_legacy()) {
		prog_set_autoload(fentry, false);
	} else {
		tool_err("tcpretrans", "-l (tail loss probes) needs fentry or kprobes on tcp_send_loss_probe "
			 "(no tracepoint marks them) and this kernel allows neither; without -l "
			 "retransmits are traced from a tracepoint");
		obj_close(o);
		return 1;
	}
	if (!env.count)
		map_set_max_entries(obj_map(o, "counts"), 1);
	if (env.sequence) {
		cols[C_STATE].fmt = " %-12s ";
		cols[C_STATE].hfmt = " %-12s ";
	}
	out_show(&table, C_SEQ, env.sequence);
	return tool_run_events(o, &te);
}
