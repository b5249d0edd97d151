/* applet sofdsnoop: trace file descriptors passed via socket
 * readme: file descriptors passed over sockets (SCM_RIGHTS): SEND/RECV, thread, socket, fd and
 *         the sent file (bcc's; from the sendmsg/recvmsg system calls)
 *
 * bcc's tool (tools/sofdsnoop.py): flags and output, a line per fd.
 * Kernel side: sofdsnoop.bpf.c.  NAME is the sent fd's file as the
 * sender's /proc/TID/fd shows it when the line is printed ("N/A" once
 * it is closed); RECV lines show the fd the receiver got, without NAME,
 * as bcc prints them.  Deliberate difference: sendmmsg/recvmmsg are not
 * traced (bcc sees them with socket -1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "sofdsnoop.h"

BPF_OBJ_DECLARE(sofdsnoop);

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 't', "tid", "TID", "trace this TID only" },
	{ 'n', "name", "NAME", "only print process names containing this name" },
	{ 'd', "duration", "DURATION", "total duration of trace in seconds" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-p PID] [-t TID] [-n NAME] [-d DURATION]",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	bool ts;
	int pid, tid;
	const char *name;
	long long duration;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.ts = true; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'n': env.name = arg; break;
	case 'd': env.duration = opt_num(&help, "duration", arg, 1, 1LL << 31); break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_ACTION, C_TID, C_COMM, C_SOCKET, C_FD, C_NAME };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME(s)", "%-14.9f", OUT_FLOAT, OUT_TEXT_ONLY },
	[C_ACTION] = { "action", "ACTION", "%-6s ", OUT_STR },
	[C_TID] = { "tid", "TID", "%-6d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_SOCKET] = { "socket", "SOCKET", "%-25s ", OUT_STR }, /* "FD:FILE" */
	[C_FD] = { "fd", "FD", "%-5d ", OUT_INT },
	[C_NAME] = { "name", "NAME", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* /proc/TID/fd/FD's target, else bcc's "N/A" */
static const char *fd_file(unsigned tid, int fd, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/fd/%d", tid, fd);
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return "N/A";
	buf[n] = 0;
	return buf;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t first_us;
	struct sofdsnoop_event e;
	char comm[EV_COMM_LEN + 1], sock[300], file[256];
	union out_val v[C_NAME + 1];
	int n;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	ev_comm(comm, e.comm);
	if (env.name && !strstr(comm, env.name))
		return 0;
	if (!first_us)
		first_us = e.ts_us;
	n = e.fd_cnt < SOFDSNOOP_MAX_FD ? e.fd_cnt : SOFDSNOOP_MAX_FD;
	snprintf(sock, sizeof(sock), "%d:%s", e.sock_fd, fd_file(e.tid, e.sock_fd, file, sizeof(file)));
	v[C_TIME].f = (double)(e.ts_us - first_us) / 1e6;
	v[C_ACTION].s = e.recv ? "RECV" : "SEND";
	v[C_TID].i = e.tid;
	v[C_COMM].s = comm;
	v[C_SOCKET].s = sock;
	for (int i = 0; i < n; i++) {
		v[C_FD].i = e.fd[i];
		v[C_NAME].s = e.recv ? "" : fd_file(e.tid, e.fd[i], file, sizeof(file));
		out_row(&table, v);
	}
	return 0;
}

int sofdsnoop_main(int argc, char **argv)
{
	struct tool_events te = { .name = "sofdsnoop", .on_event = on_event, .header = &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	out_show(&table, C_TIME, env.ts);
	te.duration_ns = (uint64_t)env.duration * 1000000000ULL;
	tool_signals();
	o = BPF_OBJ_OPEN(sofdsnoop);
	OBJ_SET(o, targ_pid, (uint32_t)env.pid);
	OBJ_SET(o, targ_tid, (uint32_t)env.tid);
	return tool_run_events(o, &te);
}
