/* applet tcpsynbl: summarize TCP SYN backlog as a histogram
 * readme: the accept backlog of listen sockets at each completed handshake, a log2 histogram per
 *     backlog limit (sock:inet_sock_set_state)
 *
 * libbpf-tools' flags and layout (0.26): "Tracing SYN backlog size.
 * Ctrl-C to end.", then per report an empty line (-T: the time), and per
 * backlog limit "backlog_max = N" and the log2 histogram of "backlog". */
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "lib/util.h"
#include "tcpsynbl.h"

BPF_OBJ_DECLARE(tcpsynbl);

static const struct opt opts[] = {
	{ '4', "ipv4", NULL, "Trace IPv4 family only" },
	{ '6', "ipv6", NULL, "Trace IPv6 family only" },
	{ 'T', "timestamp", NULL, "Include timestamp on output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-4] [-6] [interval] [count]",
	.examples = "    tcpsynbl              # summarize TCP SYN backlog as a histogram\n"
		    "    tcpsynbl 1 10         # print 1 second summaries, 10 times\n"
		    "    tcpsynbl -T 1         # 1s summaries with timestamps\n"
		    "    tcpsynbl -4           # trace IPv4 family only\n"
		    "    tcpsynbl -6           # trace IPv6 family only\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	int family;
	int npos;
	struct interval iv;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case '4': env.family = 2; break;
	case '6': env.family = 10; break;
	case 'T': env.iv.timestamp = true; break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

struct entry {
	__u64 max;
	struct tcpsynbl_hist hist;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->max < y->max ? -1 : x->max > y->max;
}

struct report {
	int fd;
	bool batch;
	__u64 *keys;
	struct tcpsynbl_hist *vals;
	struct entry *entries;
};

static const struct out_hist hist_bl = { "backlog", "TCP accept backlog at each completed handshake",
					 "backlog" };

/* Read and delete every histogram; print them by backlog limit (libbpf-tools: hash order). */
static int report(void *ctx)
{
	struct report *r = ctx;
	long n = tool_map_drain(r->fd, sizeof(*r->keys), sizeof(*r->vals), r->keys, r->vals,
				TCPSYNBL_MAX_ENTRIES, &r->batch);
	char head[48], max[24];

	if (n < 0) {
		tool_err("tcpsynbl", "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (long i = 0; i < n; i++) {
		r->entries[i].max = r->keys[i];
		r->entries[i].hist = r->vals[i];
	}
	qsort(r->entries, (size_t)n, sizeof(*r->entries), cmp_entry);
	for (long i = 0; i < n; i++) {
		struct out_label label = { "backlog_max", max };

		snprintf(max, sizeof(max), "%llu", (unsigned long long)r->entries[i].max);
		snprintf(head, sizeof(head), "backlog_max = %s\n", max);
		out_hist(&hist_bl, head, &label, 1, r->entries[i].hist.slots, TCPSYNBL_MAX_SLOTS, NULL);
	}
	return 0;
}

int tcpsynbl_main(int argc, char **argv)
{
	struct report r = { .batch = true };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(tcpsynbl);
	if (!o)
		return 1;
	OBJ_SET(o, target_family, (uint16_t)env.family);
	if (tool_load_attach(o, "tcpsynbl"))
		return 1;
	r.fd = map_fd(obj_map(o, "hists"));
	r.keys = xcalloc(TCPSYNBL_MAX_ENTRIES, sizeof(*r.keys));
	r.vals = xcalloc(TCPSYNBL_MAX_ENTRIES, sizeof(*r.vals));
	r.entries = xcalloc(TCPSYNBL_MAX_ENTRIES, sizeof(*r.entries));
	out_info("Tracing SYN backlog size. Ctrl-C to end.\n");
	tool_flush();
	ret = interval_loop(&env.iv, report, &r);
	free(r.keys);
	free(r.vals);
	free(r.entries);
	obj_close(o);
	return ret;
}
