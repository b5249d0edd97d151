/* applet fsdist: summarize file system operations latency
 * readme: latency histograms of one file system's reads, writes, opens, fsyncs and getattrs,
 *         or as the file system's own tool (`ext4dist`)
 * alias btrfsdist (fsdist): summarize btrfs operation latency
 * alias ext4dist (fsdist): summarize ext4 operation latency
 * alias nfsdist (fsdist): summarize nfs operation latency
 * alias xfsdist (fsdist): summarize xfs operation latency
 * alias f2fsdist (fsdist): summarize f2fs operation latency
 * alias bcachefsdist (fsdist): summarize bcachefs operation latency
 * alias zfsdist (fsdist): summarize zfs operation latency
 * alias fusedist (fsdist): summarize fuse operation latency
 *
 * libbpf-tools' flags and output.  The file system's own operations
 * through fentry/fexit where the kernel takes them, else kprobes; on a
 * kernel with neither, the system calls on files of that file system
 * type (see fsdist.bpf.c; -v says which). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "fsdist.h"
#include "fsops.h"
#include "sysops.h"

BPF_OBJ_DECLARE(fsdist);

_Static_assert((int)FD_READ == FSOPS_READ && (int)FD_WRITE == FSOPS_WRITE &&
	       (int)FD_OPEN == FSOPS_OPEN && (int)FD_FSYNC == FSOPS_FSYNC &&
	       (int)FD_GETATTR == FSOPS_GETATTR && (int)FD_MAX_OP == FSOPS_MAX,
	       "fsdist numbers the operations as fsops.h");

/* The system calls of the tracepoint path. */
static const struct sysop syscalls[] = {
	{ "read", FD_SYS(FD_SYS_FD, FD_READ) },	       { "readv", FD_SYS(FD_SYS_FD, FD_READ) },
	{ "pread64", FD_SYS(FD_SYS_FD, FD_READ) },     { "preadv", FD_SYS(FD_SYS_FD, FD_READ) },
	{ "preadv2", FD_SYS(FD_SYS_FD, FD_READ) },     { "write", FD_SYS(FD_SYS_FD, FD_WRITE) },
	{ "writev", FD_SYS(FD_SYS_FD, FD_WRITE) },     { "pwrite64", FD_SYS(FD_SYS_FD, FD_WRITE) },
	{ "pwritev", FD_SYS(FD_SYS_FD, FD_WRITE) },    { "pwritev2", FD_SYS(FD_SYS_FD, FD_WRITE) },
	{ "open", FD_SYS(FD_SYS_OPEN, FD_OPEN) },      { "openat", FD_SYS(FD_SYS_OPEN, FD_OPEN) },
	{ "openat2", FD_SYS(FD_SYS_OPEN, FD_OPEN) },   { "creat", FD_SYS(FD_SYS_OPEN, FD_OPEN) },
	{ "fsync", FD_SYS(FD_SYS_FD, FD_FSYNC) },      { "fdatasync", FD_SYS(FD_SYS_FD, FD_FSYNC) },
	{ "fstat", FD_SYS(FD_SYS_FD, FD_GETATTR) },    { "newfstat", FD_SYS(FD_SYS_FD, FD_GETATTR) },
	{ "newfstatat", FD_SYS(FD_SYS_AT_EMPTY4, FD_GETATTR) }, { "statx", FD_SYS(FD_SYS_AT_EMPTY3, FD_GETATTR) },
};

static const struct opt opts[] = {
	{ 'T', "timestamp", NULL, "Print timestamp" },
	{ 'm', "milliseconds", NULL, "Millisecond histogram" },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 't', "type", "Filesystem", "Which filesystem to trace, [btrfs/ext4/fuse/nfs/xfs/f2fs/bcachefs/zfs]" },
	{ 0 },
};

static struct tool_help help = {
	.usage = "[-h] [-t] [-T] [-m] [-p PID] [interval] [count]",
	.examples = "    fsdist -t ext4             # show ext4 operations latency as a histogram\n"
		    "    fsdist -t nfs -p 1216      # trace nfs operations with PID 1216 only\n"
		    "    fsdist -t xfs 1 10         # trace xfs operations, 1s summaries, 10 times\n"
		    "    fsdist -t btrfs -m 5       # trace btrfs operation, 5s summaries, in ms\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	const struct fs_config *fs;
	__u32 pid;
	bool ms;
	struct interval iv;
	int npos;
} env = { .iv = { INTERVAL_FOREVER, INTERVAL_FOREVER } };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.iv.timestamp = true; break;
	case 'm': env.ms = true; break;
	case 'p': env.pid = (__u32)opt_pid(&help, "PID", arg); break;
	case 't':
		if (!(env.fs = fs_by_name(arg, strlen(arg))))
			opt_usage_error(&help, "invalid filesystem '%s' (btrfs, ext4, fuse, nfs, xfs, f2fs, bcachefs, zfs)",
					arg);
		break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
	}
	return 0;
}

static const struct out_hist hist_us = { "latency", "file system operation latency", "usecs" };
static const struct out_hist hist_ms = { "latency", "file system operation latency", "msecs" };

struct report {
	int fd;
	struct fsdist_hist prev[FD_MAX_OP];
};

static int report(void *ctx)
{
	struct report *r = ctx;

	for (__u32 op = 0; op < FD_MAX_OP; op++) {
		struct fsdist_hist now, d;
		struct out_label label = { "operation", fsops_names[op] };
		char head[32];
		bool any = false;

		if (bpf_map_lookup(r->fd, &op, &now) < 0) {
			tool_err(tool_applet, "cannot read the histograms: %s", err_msg());
			return -1;
		}
		for (int i = 0; i < FSDIST_MAX_SLOTS; i++) {
			d.slots[i] = now.slots[i] - r->prev[op].slots[i];
			any |= d.slots[i] != 0;
		}
		r->prev[op] = now;
		if (!any)
			continue;
		snprintf(head, sizeof(head), "operation = '%s'\n", fsops_names[op]);
		out_hist(env.ms ? &hist_ms : &hist_us, head, &label, 1, d.slots, FSDIST_MAX_SLOTS, NULL);
		out_text("\n");
	}
	return 0;
}

int fsdist_main(int argc, char **argv)
{
	struct report r = { 0 };
	enum fs_path path;
	struct obj *o;
	int ret;

	if ((env.fs = fs_of_applet(tool_applet, "dist")))
		help.usage = "[-h] [-T] [-m] [-p PID] [interval] [count]";
	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.fs)
		opt_usage_error(&help, "filesystem must be specified using -t option.");
	o = BPF_OBJ_OPEN(fsdist);
	OBJ_SET(o, target_pid, env.pid);
	OBJ_SET(o, in_ms, (uint8_t)env.ms);
	path = fs_choose_path(o, env.fs, FD_MAX_OP);
	fs_setup(o, env.fs, FD_MAX_OP, path);
	prog_set_autoload(obj_prog(o, "fd_sys_enter"), path == FS_PATH_SYSCALLS);
	prog_set_autoload(obj_prog(o, "fd_sys_exit"), path == FS_PATH_SYSCALLS);
	if (path != FS_PATH_SYSCALLS)
		map_set_max_entries(obj_map(o, "sysops"), 1);
	if (tool_load_attach(o, tool_applet))
		return 1;
	if (path == FS_PATH_SYSCALLS && sysops_fill(tool_applet, map_fd(obj_map(o, "sysops")), syscalls,
						 ARRAY_SIZE(syscalls), FSDIST_MAX_SYSCALLS) < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_common.verbose) {
		if (path == FS_PATH_SYSCALLS)
			fprintf(stderr,
				"%s: %s has no fentry or kprobe on %s here: the read, write, open, fsync and fstat "
				"(also newfstatat/statx of an fd) system calls (sys_enter/sys_exit) on regular files of "
				"type %s%s%s; latency is the system call's; stats by path are not counted\n",
				tool_applet, env.fs->fs, env.fs->funcs[0], env.fs->types[0],
				env.fs->types[1] ? " or " : "", env.fs->types[1] ? env.fs->types[1] : "");
		else
			fs_print_path(tool_applet, env.fs, FD_MAX_OP, path);
	}
	r.fd = map_fd(obj_map(o, "hists"));
	tool_signals();
	out_info("Tracing %s operation latency... Hit Ctrl-C to end.\n", env.fs->fs);
	tool_flush();
	ret = interval_loop(&env.iv, report, &r);
	obj_close(o);
	return ret;
}
