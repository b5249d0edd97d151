/* applet tcptop: TCP send/receive throughput top, by process and connection
 * readme: TCP bytes sent/received per process and connection, top-style each interval (`-C` no
 *         clear, `-r` rows, `-s all|sent|received`); JSON: a document per interval
 *
 * libbpf-tools' 0.26 layout: a screen clear (not with -C), "HH:MM:SS
 * loadavg: ..." (not with -S), the IPv4 header, the rows (IPv4 first),
 * an IPv6 header before the first IPv6 row, an empty line; every
 * interval (default 1 s), COUNT times or until Ctrl-C; each interval
 * reads and clears the counts.  Rows sort by their byte counts, largest
 * first, compared as 64-bit values where 0.26 subtracts them into an int
 * (wrong order past 2 GiB).  The clear is the terminal sequence itself
 * where libbpf-tools runs clear(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "tools/common/top.h"
#include "bpf/perf.h"
#include "bpf/probe.h"
#include "lib/err.h"
#include "lib/util.h"
#include "inet.h"
#include "tcptop.h"

BPF_OBJ_DECLARE(tcptop);

enum { SORT_ALL, SORT_SENT, SORT_RECEIVED };
static const char *const sorts[] = { "all", "sent", "received" };

static struct top top = TOP_INIT(sorts, TCPTOP_MAX_ENTRIES, SORT_ALL);
static struct {
	int nosummary;
	int family;
	int pid;
	const char *cgroup;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'c', "cgroup", "/sys/fs/cgroup/unified", "Trace process in cgroup path" },
	{ '4', "ipv4", NULL, "trace IPv4 family only" },
	{ '6', "ipv6", NULL, "trace IPv6 family only" },
	{ 'S', "nosummary", NULL, "Skip system summary line" },
	{ 'C', "noclear", NULL, "Don't clear the screen" },
	{ 's', "sort", "SORT", "Sort columns, default all [all, sent, received]" },
	{ 'r', "rows", "ROWS", "Maximum rows to print, default 20" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [interval] [count]",
	.examples = "    tcptop            # TCP top, refresh every 1s\n"
		    "    tcptop -p 1216    # only trace PID 1216\n"
		    "    tcptop -c path    # only trace the given cgroup path\n"
		    "    tcptop 5 10       # 5s summaries, 10 times\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'c': env.cgroup = arg; break;
	case 'S': env.nosummary = 1; break;
	case '4':
	case '6':
		if (env.family)
			opt_usage_error(&help, "Only one --ipvX option should be used");
		env.family = key == '4' ? 2 : 10;
		break;
	default: return top_opt(&top, &help, key, arg);
	}
	return 0;
}

/* Text: "ADDR:PORT" in one column 21 wide (IPv4) or 51 (IPv6), and the
 * kilobytes; JSON and Prometheus: the parts, and the bytes. */
enum { C_PID, C_COMM, C_LADDR_PORT, C_RADDR_PORT, C_RXKB, C_TXKB, C_LADDR, C_LPORT, C_RADDR, C_RPORT,
       C_RX, C_TX };
static struct out_col cols[] = {
	[C_PID] = { "pid", "PID", "%-6lld ", OUT_INT, OUT_LABEL, .hfmt = "%-6s " },
	[C_COMM] = { "comm", "COMM", "%-12.12s ", OUT_STR, OUT_LABEL, .hfmt = "%-12s " },
	[C_LADDR_PORT] = { NULL, "LADDR", "%-21s ", OUT_STR, OUT_TEXT_ONLY },
	[C_RADDR_PORT] = { NULL, "RADDR", "%-21s ", OUT_STR, OUT_TEXT_ONLY },
	[C_RXKB] = { NULL, "RX_KB", "%6lld ", OUT_INT, OUT_TEXT_ONLY, .hfmt = "%6s " },
	[C_TXKB] = { NULL, "TX_KB", "%6lld\n", OUT_INT, OUT_TEXT_ONLY, .hfmt = "%6s\n" },
	[C_LADDR] = { "laddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_LPORT] = { "lport", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[C_RADDR] = { "raddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_RPORT] = { "rport", NULL, NULL, OUT_INT, OUT_JSON_ONLY | OUT_LABEL },
	[C_RX] = { "rx_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		   .help = "TCP bytes received (read by the process)" },
	[C_TX] = { "tx_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER,
		   .help = "TCP bytes sent (written by the process)" },
};
static struct out_table table = OUT_TABLE("rows", cols);

static __u64 sort_value(const struct tcptop_val *v)
{
	switch (top.sort) {
	case SORT_SENT: return v->sent;
	case SORT_RECEIVED: return v->received;
	default: return v->sent + v->received;
	}
}

/* IPv4 first, then largest first */
static int row_order(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	const struct tcptop_key *kx = x->key, *ky = y->key;

	if (kx->family != ky->family)
		return kx->family < ky->family ? -1 : 1;
	return top_larger_first(sort_value(x->val), sort_value(y->val));
}

static void print_row(const struct top_row *r, bool shown)
{
	const struct tcptop_key *k = r->key;
	const struct tcptop_val *val = r->val;
	char comm[TCPTOP_COMM_LEN + 1], la[48], ra[48], lap[56], rap[56];
	union out_val v[ARRAY_SIZE(cols)];

	memcpy(comm, k->name, TCPTOP_COMM_LEN);
	comm[TCPTOP_COMM_LEN] = 0;
	inet_addr_str(k->family, k->saddr, la, sizeof(la));
	inet_addr_str(k->family, k->daddr, ra, sizeof(ra));
	snprintf(lap, sizeof(lap), "%s:%d", la, k->lport);
	snprintf(rap, sizeof(rap), "%s:%d", ra, k->dport);
	v[C_PID].i = k->pid;
	v[C_COMM].s = comm;
	v[C_LADDR_PORT].s = lap;
	v[C_RADDR_PORT].s = rap;
	v[C_RXKB].i = (long long)(val->received / 1024);
	v[C_TXKB].i = (long long)(val->sent / 1024);
	v[C_LADDR].s = la;
	v[C_LPORT].i = k->lport;
	v[C_RADDR].s = ra;
	v[C_RPORT].i = k->dport;
	v[C_RX].u = val->received;
	v[C_TX].u = val->sent;
	if (shown)
		out_row(&table, v);
	else
		out_row_unshown(&table, v);
}

/* (the header after the counts are read, as 0.26 prints it) */
static int report(void *ctx)
{
	bool v6_header = false;
	long n;

	top_begin(&top, !env.nosummary, NULL);
	n = top_read(&top, map_fd(obj_map(ctx, "ip_map")), "tcptop", "cannot read the counts", row_order);
	if (n < 0)
		return -1;
	cols[C_LADDR_PORT].fmt = cols[C_RADDR_PORT].fmt = "%-21s ";
	out_header(&table);
	for (long i = 0; i < n; i++) {
		if (i < top.rows && ((const struct tcptop_key *)top.order[i].key)->family == 10 && !v6_header) {
			out_text("\n%-6s %-12s %-51s %-51s %6s %6s\n", "PID", "COMM", "LADDR6", "RADDR6",
				 "RX_KB", "TX_KB");
			cols[C_LADDR_PORT].fmt = cols[C_RADDR_PORT].fmt = "%-51s ";
			v6_header = true;
		}
		print_row(&top.order[i], i < top.rows);
	}
	out_text("\n");
	return 0;
}
/* The stable events where the kernel has them (6.3+), else fentry, else
 * kprobes on the functions libbpf-tools probes.  What was chosen, or
 * NULL after a message. */
static const char *choose_hooks(struct obj *o)
{
	static const char *const names[][2] = {
		{ "tcptop_send_tp", "tcptop_recv_tp" },
		{ "tcptop_send_fentry", "tcptop_recv_fentry" },
		{ "tcptop_send_kprobe", "tcptop_recv_kprobe" },
	};
	int use;

	if (!probe_disabled("sock_tp") && perf_tp_exists("sock", "sock_send_length") &&
	    perf_tp_exists("sock", "sock_recv_length"))
		use = 0;
	else {
		enum kfunc_way a = kfunc_way(o, "tcp_sendmsg"), b = kfunc_way(o, "tcp_cleanup_rbuf");

		if (a == KFUNC_FENTRY && b == KFUNC_FENTRY)
			use = 1;
		else if (a != KFUNC_NONE && b != KFUNC_NONE)
			use = 2;
		else {
			tool_err("tcptop", "this kernel has neither the sock:sock_send_length/sock_recv_length "
				 "tracepoints (6.3+) nor fentry or kprobes on tcp_sendmsg and tcp_cleanup_rbuf; "
				 "a kernel with either would do");
			return NULL;
		}
	}
	for (int i = 0; i < 3; i++)
		if (i != use) {
			prog_set_autoload(obj_prog(o, names[i][0]), false);
			prog_set_autoload(obj_prog(o, names[i][1]), false);
		}
	return use == 0 ? "the sock:sock_send_length/sock_recv_length tracepoints"
	       : use == 1 ? "fentry on tcp_sendmsg and tcp_cleanup_rbuf"
			  : "kprobes on tcp_sendmsg and tcp_cleanup_rbuf";
}

int tcptop_main(int argc, char **argv)
{
	const char *how;
	struct obj *o;
	int rc, cgfd = -1;

	opt_parse(argc, argv, &help, parse, NULL);
	if (top_alloc(&top, "tcptop", sizeof(struct tcptop_key), sizeof(struct tcptop_val)))
		return 1;
	o = BPF_OBJ_OPEN(tcptop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, target_family, (uint16_t)env.family);
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	if (!(how = choose_hooks(o))) {
		obj_close(o);
		top_free(&top);
		return 1;
	}
	tool_signals();
	if (tool_load_attach_cgroup(o, "tcptop", env.cgroup, &cgfd) < 0) {
		top_free(&top);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "tcptop: counting from %s\n", how);
	rc = interval_loop(&top.iv, report, o);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	top_free(&top);
	return rc;
}
