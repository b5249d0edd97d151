/* applet tcprtt: summarize TCP RTT as a histogram
 * readme: TCP smoothed RTT as a log2 histogram (tcp:tcp_probe), per local (`-b`) or remote (`-B`)
 *     address, filtered by ports (`-p`/`-P`) and addresses (`-a`/`-A`)
 *
 * libbpf-tools' flags and layout (0.26): "All Addresses = ****** " (or
 * "Local Address = ADDR " / "Remote Address = ADDR "), "[AVG N]" with
 * -e, then the log2 histogram in usecs (msecs with -m); -i INTERVAL
 * reports every INTERVAL seconds, -d DURATION ends after the report that
 * passes DURATION seconds.  One deliberate difference: -d without -i
 * reports once after DURATION seconds (libbpf-tools then sleeps its
 * default interval of 99999999 s before it looks at the duration). */
#include <arpa/inet.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "inet.h"
#include "tcprtt.h"

BPF_OBJ_DECLARE(tcprtt);

static const struct opt opts[] = {
	{ 'i', "interval", "INTERVAL", "summary interval, seconds" },
	{ 'd', "duration", "DURATION", "total duration of trace, seconds" },
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'm', "millisecond", NULL, "millisecond histogram" },
	{ 'p', "lport", "LPORT", "filter for local port" },
	{ 'P', "rport", "RPORT", "filter for remote port" },
	{ 'a', "laddr", "LADDR", "filter for local address" },
	{ 'A', "raddr", "RADDR", "filter for remote address" },
	{ 'b', "byladdr", NULL, "show sockets histogram by local address" },
	{ 'B', "byraddr", NULL, "show sockets histogram by remote address" },
	{ 'e', "extension", NULL, "show extension summary(average)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-i INTERVAL] [-d DURATION] [-T] [-m] [-p LPORT] [-P RPORT] [-a LADDR] [-A RADDR] [-b] [-B] [-e]",
	.examples = "    tcprtt            # summarize TCP RTT\n"
		    "    tcprtt -i 1 -d 10 # print 1 second summaries, 10 times\n"
		    "    tcprtt -m -T      # summarize in millisecond, and timestamps\n"
		    "    tcprtt -p         # filter for local port\n"
		    "    tcprtt -P         # filter for remote port\n"
		    "    tcprtt -a         # filter for local address\n"
		    "    tcprtt -A         # filter for remote address\n"
		    "    tcprtt -b         # show sockets histogram by local address\n"
		    "    tcprtt -B         # show sockets histogram by remote address\n"
		    "    tcprtt -e         # show extension summary(average)\n",
	.opts = opts,
	.flags = OPT_PROM,
};

/* -a / -A: an IPv4 or IPv6 address */
struct addr_filter {
	uint16_t family; /* 0: none */
	uint8_t addr[16];
};

static struct {
	long interval, duration;
	bool ms, laddr_hist, raddr_hist, extended;
	uint16_t lport, rport;
	struct addr_filter laddr, raddr;
	struct interval iv;
} env = { .interval = INTERVAL_FOREVER, .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER } };

static void addr_arg(struct addr_filter *f, const char *what, const char *arg)
{
	memset(f, 0, sizeof(*f));
	f->family = strchr(arg, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(f->family, arg, f->addr) != 1)
		opt_usage_error(&help, "invalid %s address: %s", what, arg);
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'i': env.interval = (long)opt_num(&help, "interval", arg, 1, INT_MAX); break;
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, INT_MAX); break;
	case 'T': env.iv.timestamp = true; break;
	case 'm': env.ms = true; break;
	case 'p': env.lport = (uint16_t)opt_num(&help, "lport", arg, 0, 65535); break;
	case 'P': env.rport = (uint16_t)opt_num(&help, "rport", arg, 0, 65535); break;
	case 'a': addr_arg(&env.laddr, "local", arg); break;
	case 'A': addr_arg(&env.raddr, "remote", arg); break;
	case 'b': env.laddr_hist = true; break;
	case 'B': env.raddr_hist = true; break;
	case 'e': env.extended = true; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

struct entry {
	struct tcprtt_key key;
	struct tcprtt_hist hist;
};

/* IPv4 before IPv6, then by address: a stable order for the per-address
 * histograms (libbpf-tools prints them in hash order) */
static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key.family != y->key.family)
		return x->key.family < y->key.family ? -1 : 1;
	return memcmp(x->key.addr, y->key.addr, sizeof(x->key.addr));
}

static const struct out_hist hist_us = { "rtt", "TCP smoothed round-trip time", "usecs" };
static const struct out_hist hist_ms = { "rtt", "TCP smoothed round-trip time", "msecs" };

struct report {
	int fd;
	bool batch;
	struct tcprtt_key *keys;
	struct tcprtt_hist *vals;
	struct entry *entries;
};

static void print_hist(const struct entry *e)
{
	struct strbuf head = { 0 };
	struct out_label label;
	char addr[48] = "";
	double sum = (double)e->hist.latency;
	int nl = 0;

	if (env.laddr_hist || env.raddr_hist) {
		inet_addr_str(e->key.family, e->key.addr, addr, sizeof(addr));
		strbuf_addf(&head, "%s Address = %s ", env.laddr_hist ? "Local" : "Remote", addr);
		label = (struct out_label){ env.laddr_hist ? "laddr" : "raddr", addr };
		nl = 1;
	} else {
		strbuf_addf(&head, "All Addresses = ****** ");
	}
	if (env.extended && e->hist.cnt)
		strbuf_addf(&head, "[AVG %llu]", (unsigned long long)(e->hist.latency / e->hist.cnt));
	strbuf_addc(&head, '\n');
	out_hist(env.ms ? &hist_ms : &hist_us, head.s, &label, nl, e->hist.slots, TCPRTT_MAX_SLOTS, &sum);
	strbuf_free(&head);
}

/* Read and delete every histogram, print them. */
static int report(void *ctx)
{
	struct report *r = ctx;
	long n = tool_map_drain(r->fd, sizeof(*r->keys), sizeof(*r->vals), r->keys, r->vals, TCPRTT_MAX_ENTRIES,
				&r->batch);
	long i;

	if (n < 0) {
		tool_err("tcprtt", "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (i = 0; i < n; i++) {
		r->entries[i].key = r->keys[i];
		r->entries[i].hist = r->vals[i];
	}
	qsort(r->entries, (size_t)n, sizeof(*r->entries), cmp_entry);
	for (i = 0; i < n; i++)
		print_hist(&r->entries[i]);
	return 0;
}

/* a 16-byte .rodata knob (OBJ_SET assigns scalars) */
static void set_addr(struct obj *o, const char *name, const uint8_t addr[16])
{
	uint8_t *p = obj_global(o, name, 16);

	if (p)
		memcpy(p, addr, 16);
}

int tcprtt_main(int argc, char **argv)
{
	struct report r = { .batch = true };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.laddr.family && env.raddr.family && env.laddr.family != env.raddr.family) {
		tool_err("tcprtt", "It is not permitted to filter by both IPv4 and IPv6");
		return 1;
	}
	env.iv.seconds = env.interval;
	if (env.duration) {
		if (env.interval == INTERVAL_FOREVER)
			env.iv.seconds = env.duration;
		env.iv.times = (env.duration + env.iv.seconds - 1) / env.iv.seconds;
	}
	tool_signals();
	o = BPF_OBJ_OPEN(tcprtt);
	if (!o)
		return 1;
	OBJ_SET(o, by_laddr, (uint8_t)env.laddr_hist);
	OBJ_SET(o, by_raddr, (uint8_t)env.raddr_hist);
	OBJ_SET(o, ms, (uint8_t)env.ms);
	OBJ_SET(o, targ_lport, env.lport);
	OBJ_SET(o, targ_rport, env.rport);
	OBJ_SET(o, targ_lfamily, env.laddr.family);
	OBJ_SET(o, targ_rfamily, env.raddr.family);
	set_addr(o, "targ_laddr", env.laddr.addr);
	set_addr(o, "targ_raddr", env.raddr.addr);
	if (tool_load_attach(o, "tcprtt"))
		return 1;
	r.fd = map_fd(obj_map(o, "hists"));
	r.keys = xcalloc(TCPRTT_MAX_ENTRIES, sizeof(*r.keys));
	r.vals = xcalloc(TCPRTT_MAX_ENTRIES, sizeof(*r.vals));
	r.entries = xcalloc(TCPRTT_MAX_ENTRIES, sizeof(*r.entries));
	if (env.duration)
		out_info("Tracing TCP RTT for %ld secs.\n", env.duration);
	else
		out_info("Tracing TCP RTT... Hit Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &r);
	free(r.keys);
	free(r.vals);
	free(r.entries);
	obj_close(o);
	return ret;
}
