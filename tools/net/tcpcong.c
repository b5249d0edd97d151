/* applet tcpcong: summarize TCP congestion control state durations
 * readme: per TCP connection, time in each congestion state (open, disorder, recovery, CWR,
 *         loss) and state changes, or histograms per state (`-d`); bcc's, from
 *         tcp:tcp_cong_state_set
 *
 * bcc's tool (tools/tcpcong.py): flags and output, on the tracepoint it
 * prefers (Linux 5.19+; bcc's fallback, fentry or kprobes on
 * tcp_fastretrans_alert and four more functions, is not built: without
 * the tracepoint the tool says so).  As there, each interval starts the
 * flows afresh (a flow's first event only notes its state), the tables
 * print flows with changes sorted by local port, the header only when
 * the family has flows.  Deliberate difference: -d sections in state
 * order (bcc: hash order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/tracefs.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "inet.h"
#include "tcpcong.h"

BPF_OBJ_DECLARE(tcpcong);

static const struct opt opts[] = {
	{ 'L', "localport", "LOCALPORT", "trace local ports only" },
	{ 'R', "remoteport", "REMOTEPORT", "trace the dest ports only" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'd', "dist", NULL, "show distributions as histograms" },
	{ 'u', "microseconds", NULL, "output in microseconds" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-L LOCALPORT] [-R REMOTEPORT] [-T] [-d] [-u] [interval] [outputs]",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	bool us;
	struct tcpcong_cfg cfg;
	struct interval iv;
	int npos;
} env = { .cfg = { { 0, 65535 }, { 0, 65535 }, 0, 0 }, .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER, false } };

/* "A-B" or "A" (bcc swaps a reversed range) */
static void port_range(const char *what, const char *arg, uint16_t r[2])
{
	const char *dash = strchr(arg, '-');
	char a[16];

	if (dash && (size_t)(dash - arg) < sizeof(a)) {
		memcpy(a, arg, (size_t)(dash - arg));
		a[dash - arg] = 0;
		r[0] = (uint16_t)opt_num(&help, what, a, 0, 65535);
		r[1] = (uint16_t)opt_num(&help, what, dash + 1, 0, 65535);
	} else {
		r[0] = r[1] = (uint16_t)opt_num(&help, what, arg, 0, 65535);
	}
	if (r[0] > r[1]) {
		uint16_t t = r[0];

		r[0] = r[1];
		r[1] = t;
	}
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'L': port_range("local port range", arg, env.cfg.lport); break;
	case 'R': port_range("remote port range", arg, env.cfg.rport); break;
	case 'T': env.iv.timestamp = true; break;
	case 'd': env.cfg.dist = 1; break;
	case 'u': env.us = true; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

static const char *const state_names[TCPCONG_STATES] = { "open", "disorder", "cwr", "recovery", "loss" };
/* the columns' order: open, disorder, recovery, cwr, loss (as state indexes) */
static const int col_state[5] = { 0, 1, 3, 2, 4 };

/* durations: JSON and Prometheus in the unit shown, scaled to seconds */
static struct out_metric metric[5] = { { "open_seconds", 1e-3 }, { "disorder_seconds", 1e-3 },
					{ "recovery_seconds", 1e-3 }, { "cwr_seconds", 1e-3 },
					{ "loss_seconds", 1e-3 } };

/* bcc's IPv4 formats; print_family puts in the IPv6 ones (its header has
 * no space after LAddrPort; its IPv6 rows other widths than their header) */
enum { C_LA, C_RA, C_DUR, C_CHGS = C_DUR + 5 };
static struct out_col cols[] = {
	[C_LA] = { "local", "LAddrPort", "%-21s ", OUT_STR, OUT_LABEL, .hfmt = "%-21s" },
	[C_RA] = { "remote", "RAddrPort", "%-21s ", OUT_STR, OUT_LABEL },
	[C_DUR] = { "open", NULL, "%-7llu ", OUT_UINT, OUT_COUNTER, .metric = &metric[0] },
	[C_DUR + 1] = { "disorder", NULL, "%-6llu ", OUT_UINT, OUT_COUNTER, .metric = &metric[1] },
	[C_DUR + 2] = { "recovery", NULL, "%-7llu ", OUT_UINT, OUT_COUNTER, .metric = &metric[2] },
	[C_DUR + 3] = { "cwr", NULL, "%-7llu ", OUT_UINT, OUT_COUNTER, .metric = &metric[3] },
	[C_DUR + 4] = { "loss", NULL, "%-6llu ", OUT_UINT, OUT_COUNTER, .metric = &metric[4] },
	[C_CHGS] = { "changes", "Chgs", "%-5llu\n", OUT_UINT, OUT_COUNTER, .help = "congestion state changes" },
};
static struct out_table table = OUT_TABLE("flows", cols);

static struct out_hist hist = { "duration", "time in a congestion state", "msecs", .bcc = true };

struct flow {
	struct tcpcong_key k;
	struct tcpcong_val v;
};

static int cmp_flow(const void *a, const void *b)
{
	const struct flow *x = a, *y = b;

	return (x->k.lport > y->k.lport) - (x->k.lport < y->k.lport);
}

static void print_family(struct flow *f, long n, int family)
{
	bool any = false;

	for (long i = 0; i < n; i++)
		any |= f[i].k.family == family;
	if (!any)
		return;
	if (family == 10) {
		cols[C_LA].head = "LAddrPort6";
		cols[C_RA].head = "RAddrPort6";
		cols[C_LA].fmt = cols[C_RA].fmt = "%-32s ";
		cols[C_LA].hfmt = "%-32s ";
		cols[C_DUR + 1].fmt = "%-7llu ";
		cols[C_DUR + 1].hfmt = "%-6s ";
		cols[C_DUR + 3].fmt = "%-6llu ";
		cols[C_DUR + 3].hfmt = "%-7s ";
	}
	out_header(&table);
	for (long i = 0; i < n; i++) {
		char a[48], la[64], ra[64];
		union out_val v[C_CHGS + 1];

		if (f[i].k.family != family || !f[i].v.changes)
			continue;
		snprintf(la, sizeof(la), "%s/%u", inet_addr_str(family, f[i].k.saddr, a, sizeof(a)), f[i].k.lport);
		snprintf(ra, sizeof(ra), "%s/%u", inet_addr_str(family, f[i].k.daddr, a, sizeof(a)), f[i].k.dport);
		v[C_LA].s = la;
		v[C_RA].s = ra;
		for (int c = 0; c < 5; c++)
			v[C_DUR + c].u = f[i].v.dura_us[col_state[c]] / (env.us ? 1 : 1000);
		v[C_CHGS].u = f[i].v.changes;
		out_row(&table, v);
	}
}

struct maps {
	int flows, hists;
};

static int report(void *ctx)
{
	static struct tcpcong_key keys[TCPCONG_MAX_FLOWS];
	static struct tcpcong_val vals[TCPCONG_MAX_FLOWS];
	static struct flow f[TCPCONG_MAX_FLOWS];
	static bool batch = true;
	const struct maps *m = ctx;
	long n = tool_map_drain(m->flows, sizeof(*keys), sizeof(*vals), keys, vals, TCPCONG_MAX_FLOWS, &batch);

	if (n < 0) {
		tool_err("tcpcong", "cannot read the flows: %s", strerror((int)-n));
		return -1;
	}
	if (env.cfg.dist) {
		__u32 sk[TCPCONG_STATES];
		struct tcpcong_hist h[TCPCONG_STATES], byst[TCPCONG_STATES] = { 0 };
		bool seen[TCPCONG_STATES] = { 0 };
		long nh = tool_map_drain(m->hists, sizeof(*sk), sizeof(*h), sk, h, TCPCONG_STATES, &batch);

		for (long i = 0; i < nh; i++)
			if (sk[i] < TCPCONG_STATES) {
				byst[sk[i]] = h[i];
				seen[sk[i]] = true;
			}
		for (int s = 0; s < TCPCONG_STATES; s++) {
			struct out_label l = { "tcp_congest_state", state_names[s] };
			char head[64];

			if (!seen[s])
				continue;
			snprintf(head, sizeof(head), "\ntcp_congest_state = %s\n", state_names[s]);
			out_hist(&hist, head, &l, 1, byst[s].slots, TCPCONG_SLOTS, NULL);
		}
		return 0;
	}
	for (long i = 0; i < n; i++) {
		f[i].k = keys[i];
		f[i].v = vals[i];
	}
	qsort(f, (size_t)n, sizeof(*f), cmp_flow);
	print_family(f, n, 2);
	print_family(f, n, 10);
	return 0;
}

int tcpcong_main(int argc, char **argv)
{
	static const char *const heads[2][5] = { { "Open_ms", "Dod_ms", "Rcov_ms", "Cwr_ms", "Los_ms" },
						 { "Open_us", "Dod_us", "Rcov_us", "Cwr_us", "Los_us" } };
	struct maps m;
	struct obj *o;
	int ret;
	char tp[256];

	opt_parse(argc, argv, &help, parse, NULL);
	if (!tracefs_path(tp, sizeof(tp), "events/tcp/tcp_cong_state_set") || access(tp, F_OK)) {
		tool_err("tcpcong", "this kernel has no tcp:tcp_cong_state_set tracepoint (Linux 5.19+)");
		return 1;
	}
	for (int c = 0; c < 5; c++) {
		cols[C_DUR + c].head = heads[env.us][c];
		if (env.us)
			metric[c].scale = 1e-6;
	}
	if (env.us)
		hist.unit = "usecs";
	o = BPF_OBJ_OPEN(tcpcong);
	env.cfg.dist_ms = !env.us;
	OBJ_SET(o, cfg, env.cfg);
	if (tool_load_attach(o, "tcpcong"))
		return 1;
	m.flows = map_fd(obj_map(o, "flows"));
	m.hists = map_fd(obj_map(o, "hists"));
	tool_signals();
	out_info("Tracing tcp congestion control status duration... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &m);
	obj_close(o);
	return ret;
}
