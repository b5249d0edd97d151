/* applet solisten: trace IPv4 and IPv6 listen syscalls
 * readme: listen(2) on IPv4/IPv6 sockets: backlog, protocol, bound port and address, result
 *
 * libbpf-tools' flags and columns (0.26): PROTO is TCP/UDP/UNK by the
 * socket's type and v4/v6 by its family; PORT and ADDR are the socket's
 * bound ones when listen() began (0 for a socket listen() binds itself);
 * BACKLOG is listen()'s capped at net.core.somaxconn, as inet_listen gets
 * it; -t the wall clock HH:MM:SS.  Only TCP sockets, whose listen is
 * inet_listen, the function libbpf-tools probes. */
#include <stdio.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/util.h"
#include "solisten.h"

BPF_OBJ_DECLARE(solisten);

#define SOCK_STREAM 1
#define SOCK_DGRAM 2

static struct {
	int timestamp; /* -t */
	int pid;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-p PID]",
	.examples = "    solisten           # trace listen syscalls\n"
		    "    solisten -t        # output with timestamp\n"
		    "    solisten -p 1216   # only trace PID 1216\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.timestamp = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

enum { C_TIME, C_PID, C_COMM, C_RET, C_BACKLOG, C_PROTO, C_PORT, C_ADDR };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_RET] = { "ret", "RET", "%-3d ", OUT_INT },
	[C_BACKLOG] = { "backlog", "BACKLOG", "%-7d ", OUT_INT },
	[C_PROTO] = { "proto", "PROTO", "%-5s ", OUT_STR },
	[C_PORT] = { "port", "PORT", "%-5d ", OUT_INT },
	[C_ADDR] = { "addr", "ADDR", "%-32s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static const char *proto_name(const struct solisten_event *e, char *buf, size_t size)
{
	const char *p = e->type == SOCK_STREAM ? "TCP" : e->type == SOCK_DGRAM ? "UDP" : "UNK";

	snprintf(buf, size, "%sv%d", p, inet_ip_version(e->family));
	return buf;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	struct solisten_event e;
	char comm[EV_COMM_LEN + 1], hms[16], proto[8], addr[48];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = env.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_RET].i = e.ret;
	v[C_BACKLOG].i = e.backlog;
	v[C_PROTO].s = proto_name(&e, proto, sizeof(proto));
	v[C_PORT].i = e.port;
	v[C_ADDR].s = inet_addr_str(e.family, e.addr, addr, sizeof(addr));
	out_row(&table, v);
	return 0;
}

int solisten_main(int argc, char **argv)
{
	struct tool_events te = { "solisten", NULL, NULL, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(solisten);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	out_show(&table, C_TIME, env.timestamp);
	return tool_run_events(o, &te);
}
