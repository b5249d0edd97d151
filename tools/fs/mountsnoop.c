/* applet mountsnoop: trace mount and umount syscalls
 * readme: mount(2)/umount2(2) calls with arguments, result, latency and mount namespace (`-d`
 *         one line per field)
 *
 * libbpf-tools 0.26 compatible flags and output, its flag names included:
 * they are the MS_* names by bit position as its table lists them (bit 14,
 * MS_REC, reads MS_VERBOSE; umount's flags go through the same table). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "mountsnoop.h"
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

static const char *const flag_names[32] = {
	"MS_RDONLY", "MS_NOSUID", "MS_NODEV", "MS_NOEXEC", "MS_SYNCHRONOUS", "MS_REMOUNT",
	"MS_MANDLOCK", "MS_DIRSYNC", "MS_NOSYMFOLLOW", "MS_NOATIME", "MS_NODIRATIME", "MS_BIND",
	"MS_MOVE", "MS_REC", "MS_VERBOSE", "MS_SILENT", "MS_POSIXACL", "MS_UNBINDABLE",
	"MS_PRIVATE", "MS_SLAVE", "MS_SHARED", "MS_RELATIME", "MS_KERNMOUNT", "MS_I_VERSION",
	"MS_STRICTATIME", "MS_LAZYTIME", "MS_SUBMOUNT", "MS_NOREMOTELOCK", "MS_NOSEC", "MS_BORN",
	"MS_ACTIVE", "MS_NOUSER",
};

/* "0x0", or the names of the low 32 bits joined by " | " */
static const char *flags_str(char *buf, size_t size, uint64_t flags)
{
	size_t n = 0;

	if (!flags)
		return "0x0";
	buf[0] = 0;
	for (int i = 0; i < 32 && n < size; i++)
		if (flags & (1ull << i))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " | " : "", flag_names[i]);
	return buf;
}

/* "0", "-ENOENT", or the number when the error has no name */
static const char *ret_str(char *buf, size_t size, int ret)
{
	const char *name = ret < 0 ? errno_name(-ret) : NULL;

	if (!ret)
		return "0";
	if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "%d", ret);
	return buf;
}

enum { C_TIME, C_COMM, C_PID, C_TID, C_MNTNS, C_CALL, C_OP, C_RET, C_ERR, C_LAT, C_FS, C_SRC,
       C_DEST, C_DATA, C_FLAGS, C_FLAGNAMES };
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
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* -d: libbpf-tools' one field a line, a blank line after each event */
static void print_detailed(const struct mountsnoop_event *e, const char *comm, const char *ret,
			   const char *flags, const char *hms)
{
	const char *in = env.timestamp ? "    " : "";

	if (env.timestamp)
		printf("%s \n", hms);
	printf("%sPID:    %u\n%sTID:    %u\n%sCOMM:   %s\n", in, e->pid, in, e->tid, in, comm);
	printf("%sOP:     %s\n%sRET:    %s\n", in, e->op == MOUNTSNOOP_MOUNT ? "MOUNT" : "UMOUNT", in,
	       ret);
	printf("%sLAT:    %lluus\n%sMNT_NS: %u\n", in, (unsigned long long)(e->delta_ns / 1000), in,
	       e->mnt_ns);
	printf("%sFS:     %s\n%sSOURCE: %s\n%sTARGET: %s\n", in, e->fs, in, e->src, in, e->dest);
	printf("%sDATA:   %s\n%sFLAGS:  %s\n\n", in, e->data, in, flags);
}

static int on_event(void *ctx, const void *data, size_t size)
{
	static struct mountsnoop_event e; /* 8.8 KiB: not on the stack */
	static char call[2 * MOUNTSNOOP_PATH_LEN + MOUNTSNOOP_DATA_LEN + 1024];
	char comm[EV_COMM_LEN + 1], hms[16], rbuf[32], fbuf[512];
	const char *ret, *flags;
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	e.fs[sizeof(e.fs) - 1] = e.data[sizeof(e.data) - 1] = 0;
	e.src[sizeof(e.src) - 1] = e.dest[sizeof(e.dest) - 1] = 0;
	ev_comm(comm, e.comm);
	tool_hms(hms, sizeof(hms));
	ret = ret_str(rbuf, sizeof(rbuf), e.ret);
	flags = flags_str(fbuf, sizeof(fbuf), e.flags);
	if (env.detailed && !out_json()) {
		print_detailed(&e, comm, ret, flags, hms);
		return 0;
	}
	if (e.op == MOUNTSNOOP_MOUNT)
		snprintf(call, sizeof(call), "mount(\"%s\", \"%s\", \"%s\", %s, \"%s\") = %s", e.src,
			 e.dest, e.fs, flags, e.data, ret);
	else
		snprintf(call, sizeof(call), "umount(\"%s\", %s) = %s", e.dest, flags, ret);
	v[C_TIME].s = hms;
	v[C_COMM].s = comm;
	v[C_PID].i = e.pid;
	v[C_TID].i = e.tid;
	v[C_MNTNS].u = e.mnt_ns;
	v[C_CALL].s = call;
	v[C_OP].s = e.op == MOUNTSNOOP_MOUNT ? "mount" : "umount";
	v[C_RET].i = e.ret;
	v[C_ERR].s = e.ret < 0 ? errno_name(-e.ret) : NULL;
	v[C_LAT].u = e.delta_ns / 1000;
	v[C_FS].s = e.op == MOUNTSNOOP_MOUNT ? e.fs : NULL;
	v[C_SRC].s = e.op == MOUNTSNOOP_MOUNT ? e.src : NULL;
	v[C_DEST].s = e.dest;
	v[C_DATA].s = e.op == MOUNTSNOOP_MOUNT ? e.data : NULL;
	v[C_FLAGS].u = e.flags;
	v[C_FLAGNAMES].s = flags;
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
