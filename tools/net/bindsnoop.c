/* applet bindsnoop: trace IPv4 and IPv6 bind syscalls
 * readme: bind(2) on IPv4/IPv6 sockets: result, protocol, socket options, device, port, address
 *
 * libbpf-tools' 0.26 flags and columns: OPTS is "FTNRr" with a '.' for
 * each option off (IP_FREEBIND, IP_TRANSPARENT, IP_BIND_ADDRESS_NO_PORT,
 * SO_REUSEADDR, SO_REUSEPORT); IF the device the socket is bound to (0:
 * none); PORT and ADDR as bound; RET 0 unless -x shows failed binds too;
 * -t the wall clock HH:MM:SS under "TIME(s)". */
#include <stdio.h>
#include <linux/types.h>

#include "inet.h"
#include "lib/util.h"
#include "bindsnoop.h"

BPF_OBJ_DECLARE(bindsnoop);

static struct {
	int timestamp, failed;
	int pid;
	const char *cgroup;
	int nports;
	uint16_t ports[INET_PORTS_MAX];
} env;

static const struct opt opts[] = {
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'c', "cgroup", "/sys/fs/cgroup/unified", "Trace process in cgroup path" },
	{ 'x', "failed", NULL, "Include errors on output." },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'P', "ports", "PORTS", "Comma-separated list of ports to trace." },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-x] [-p PID] [-P ports] [-c CG]",
	.examples = "    bindsnoop             # trace all bind syscall\n"
		    "    bindsnoop -t          # include timestamps\n"
		    "    bindsnoop -x          # include errors on output\n"
		    "    bindsnoop -p 1216     # only trace PID 1216\n"
		    "    bindsnoop -c CG       # Trace process under cgroupsPath CG\n"
		    "    bindsnoop -P 80,81    # only trace port 80 and 81\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 't': env.timestamp = 1; break;
	case 'c': env.cgroup = arg; break;
	case 'x': env.failed = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'P': env.nports = inet_ports_parse(&help, "ports", arg, env.ports, INET_PORTS_MAX); break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_PID, C_COMM, C_RET, C_PROTO, C_OPTS, C_IF, C_PORT, C_ADDR };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_RET] = { "ret", "RET", "%-3lld ", OUT_INT, .hfmt = "%-3s " },
	[C_PROTO] = { "proto", "PROTO", "%-5s ", OUT_STR },
	[C_OPTS] = { "opts", "OPTS", "%-5s ", OUT_STR },
	[C_IF] = { "if", "IF", "%-4lld ", OUT_INT, .hfmt = "%-4s " },
	[C_PORT] = { "port", "PORT", "%-5lld ", OUT_INT, .hfmt = "%-5s " },
	[C_ADDR] = { "addr", "ADDR", "%-48s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct bindsnoop_event e;
	char comm[EV_COMM_LEN + 1], hms[16], addr[48], o[] = "FTNRr";
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	for (int i = 0; o[i]; i++)
		if (!(e.opts & (1 << i)))
			o[i] = '.';
	v[C_TIME].s = env.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_RET].i = e.ret;
	v[C_PROTO].s = e.proto == 6 ? "TCP" : e.proto == 17 ? "UDP" : "UNK";
	v[C_OPTS].s = o;
	v[C_IF].i = e.bound_dev_if;
	v[C_PORT].i = e.port;
	v[C_ADDR].s = inet_addr_str(e.ver == 6 ? 10 : 2, e.addr, addr, sizeof(addr));
	out_row(&table, v);
	return 0;
}

static int after_load(struct obj *o)
{
	return inet_ports_fill(o, "bindsnoop", "ports", env.ports, env.nports) < 0 ? -1 : 0;
}

int bindsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = "bindsnoop", .cgroup = NULL, .after_load = after_load,
				  .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	te.cgroup = env.cgroup;
	tool_signals();
	o = BPF_OBJ_OPEN(bindsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, ignore_errors, (uint8_t)!env.failed);
	OBJ_SET(o, filter_by_port, (uint8_t)(env.nports > 0));
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	out_show(&table, C_TIME, env.timestamp);
	return tool_run_events(o, &te);
}
