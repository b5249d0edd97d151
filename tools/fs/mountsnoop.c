/* applet mountsnoop: trace mount and umount syscalls
 * readme: mount(2)/umount2(2) and the new mount API calls (fsopen, fsconfig, fsmount,
 *         move_mount) with arguments, result, latency and mount namespace (`-d` a field a
 *         line)
 *
 * libbpf-tools compatible flags and output: mount and umount as 0.26 shows
 * them, the new mount API calls as upstream's later releases do (text
 * forms in mountsnoop_fmt.c). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "mountsnoop.h"
#include "mountsnoop_fmt.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(mountsnoop);

static struct {
	int timestamp; /* -t */
	int detailed;  /* -d */
	int pid;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 't', "timestamp", NULL, "Include timestamp on output" },
	{ 'd', "detailed", NULL, "Output result in detail mode" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-t] [-p PID] [-v]",
	.examples = "    mountsnoop         # trace mount and umount syscalls\n"
		    "    mountsnoop -d      # detailed output (one line per column value)\n"
		    "    mountsnoop -p 1216 # only trace PID 1216\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.timestamp = 1; break;
	case 'd': env.detailed = 1; break;
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

enum { C_TIME, C_COMM, C_PID, C_TID, C_MNTNS, C_CALL, C_OP, C_RET, C_ERR, C_LAT, C_FS, C_SRC,
       C_DEST, C_DATA, C_FLAGS, C_FLAGNAMES, C_FD, C_TOFD, C_CMD, C_KEY, C_VALUE, C_AUX, C_ATTR };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_TID] = { "tid", "TID", "%-7d ", OUT_INT },
	[C_MNTNS] = { "mnt_ns", "MNT_NS", "%-11u ", OUT_UINT },
	[C_CALL] = { "call", "CALL", "%s\n", OUT_STR },
	[C_OP] = { "op", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_RET] = { "ret", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_ERR] = { "errno", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_LAT] = { "latency_us", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_FS] = { "fs", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_SRC] = { "source", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_DEST] = { "target", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_DATA] = { "data", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_FLAGS] = { "flags", NULL, NULL, OUT_HEX, OUT_JSON_ONLY },
	[C_FLAGNAMES] = { "flag_names", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	/* the new mount API's own arguments (0 or null for the others) */
	[C_FD] = { "fd", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_TOFD] = { "to_fd", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_CMD] = { "cmd", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_KEY] = { "key", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_VALUE] = { "value", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_AUX] = { "aux", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_ATTR] = { "attr_flags", NULL, NULL, OUT_HEX, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	static struct mountsnoop_event e; /* 8.8 KiB: not on the stack */
	static char call[2 * MOUNTSNOOP_PATH_LEN + MOUNTSNOOP_DATA_LEN + 1024];
	char comm[EV_COMM_LEN + 1], hms[16], fbuf[512], op[16];
	union out_val v[ARRAY_SIZE(cols)];
	int mount = 0;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	e.fs[sizeof(e.fs) - 1] = e.data[sizeof(e.data) - 1] = 0;
	e.src[sizeof(e.src) - 1] = e.dest[sizeof(e.dest) - 1] = 0;
	ev_comm(comm, e.comm);
	tool_hms(hms, sizeof(hms));
	if (env.detailed && !out_json()) {
		char cg[4200];

		mountsnoop_detailed(stdout, &e, comm, env.timestamp ? hms : NULL,
				    out_cfg.cgroup_column ? out_cgroup_text(cg, sizeof(cg)) : NULL);
		return 0;
	}
	mountsnoop_call(call, sizeof(call), &e);
	mount = e.op == MOUNTSNOOP_MOUNT;
	v[C_TIME].s = hms;
	v[C_COMM].s = comm;
	v[C_PID].i = e.pid;
	v[C_TID].i = e.tid;
	v[C_MNTNS].u = e.mnt_ns;
	v[C_CALL].s = call;
	/* JSON: the call's name, "move_mount" */
	snprintf(op, sizeof(op), "%s", mountsnoop_op_name(e.op));
	for (char *p = op; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	v[C_OP].s = op;
	v[C_RET].i = e.ret;
	v[C_ERR].s = e.ret < 0 ? errno_name(-e.ret) : NULL;
	v[C_LAT].u = e.delta_ns / 1000;
	v[C_FS].s = mount || e.op == MOUNTSNOOP_FSOPEN ? e.fs : NULL;
	v[C_SRC].s = mount || e.op == MOUNTSNOOP_MOVE_MOUNT ? e.src : NULL;
	v[C_DEST].s = e.op == MOUNTSNOOP_MOUNT || e.op == MOUNTSNOOP_UMOUNT ||
			      e.op == MOUNTSNOOP_MOVE_MOUNT ? e.dest : NULL;
	v[C_DATA].s = mount ? e.data : NULL;
	v[C_FLAGS].u = e.flags;
	v[C_FLAGNAMES].s = mountsnoop_flags(fbuf, sizeof(fbuf), &e);
	v[C_FD].i = e.fd;
	v[C_TOFD].i = e.to_fd;
	v[C_CMD].s = e.op == MOUNTSNOOP_FSCONFIG ? mountsnoop_cmd_name(e.cmd) : NULL;
	v[C_KEY].s = e.op == MOUNTSNOOP_FSCONFIG ? e.src : NULL;
	v[C_VALUE].s = e.op == MOUNTSNOOP_FSCONFIG ? e.data : NULL;
	v[C_AUX].i = e.aux;
	v[C_ATTR].u = e.attr_flags;
	out_row(&table, v);
	return 0;
}

int mountsnoop_main(int argc, char **argv)
{
	struct tool_events te = { "mountsnoop", NULL, NULL, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(mountsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	out_show(&table, C_TIME, env.timestamp);
	if (env.detailed)
		te.header = NULL; /* libbpf-tools prints none in detail mode */
	return tool_run_events(o, &te);
}
