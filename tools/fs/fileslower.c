/* applet fileslower: trace slow synchronous file reads and writes
 * readme: synchronous file reads and writes slower than a threshold (bcc's; vfs_read/vfs_write
 *         through fentry or kprobes, else the read/write system calls)
 *
 * bcc's flags and output (libbpf-tools has no fileslower).  bcc prints a
 * note on stdout when the kernel lacks __vfs_read (every kernel since
 * 4.14); corebox traces vfs_read/vfs_write directly and prints none.
 * Without fentry and kprobes, the read, pread64, write and pwrite64
 * system calls stand in (-v says which way was taken).  The tool's own
 * reads and writes are not traced (its output, written to a file, would
 * feed back into itself). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "fileslower.h"
#include "sysops.h"

BPF_OBJ_DECLARE(fileslower);

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'a', "all-files", NULL, "include non-regular file types (sockets, FIFOs, etc)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-a] [min_ms]",
	.examples = "    ./fileslower             # trace sync file I/O slower than 10 ms (default)\n"
		    "    ./fileslower 1           # trace sync file I/O slower than 1 ms\n"
		    "    ./fileslower -p 185      # trace PID 185 only\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	__u32 pid;
	bool all;
	long long min_ms;
	int npos;
} env = { .min_ms = 10 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = (__u32)opt_pid(&help, "PID", arg); break;
	case 'a': env.all = true; break;
	case 0:
		if (env.npos++)
			opt_usage_error(&help, "unrecognized arguments: %s", arg);
		env.min_ms = opt_num(&help, "min_ms", arg, 0, 1000000000);
		break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_COMM, C_TID, C_D, C_BYTES, C_LAT, C_FILE };
static const struct out_col cols[] = {
	[C_TIME] = { "time_s", "TIME(s)", "%-8.3f ", OUT_FLOAT, .hfmt = "%-8s " },
	[C_COMM] = { "comm", "COMM", "%-14.14s ", OUT_STR }, /* bcc's: cut at 14 */
	[C_TID] = { "tid", "TID", "%-6lld ", OUT_INT, .hfmt = "%-6s " },
	[C_D] = { "dir", "D", "%s ", OUT_STR, .hfmt = "%1s " },
	[C_BYTES] = { "bytes", "BYTES", "%-7llu ", OUT_UINT, .hfmt = "%-7s " },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%7.2f ", OUT_FLOAT, .hfmt = "%7s " },
	[C_FILE] = { "file", "FILENAME", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct fileslower_event e;
	char comm[EV_COMM_LEN + 1], name[FILESLOWER_NAME_LEN + 1];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	memcpy(name, e.name, sizeof(e.name));
	name[sizeof(e.name)] = 0;
	/* bcc reads DNAME_INLINE_LEN (32) bytes and marks a longer name by
	 * its last three as "..." */
	if (strlen(name) > 32)
		memcpy(name + 29, "...", 4);
	v[C_TIME].f = tool_elapsed();
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_TID].i = e.tid;
	v[C_D].s = e.mode == FSL_WRITE ? "W" : "R";
	v[C_BYTES].u = e.sz;
	v[C_LAT].f = (double)e.delta_us / 1000;
	v[C_FILE].s = name;
	out_row(&table, v);
	return 0;
}

enum path { PATH_FENTRY, PATH_KPROBE, PATH_SYSCALLS };
static enum path path;

static int after_load(struct obj *o)
{
	static const struct sysop syscalls[] = { { "read", 1 + FSL_READ }, { "pread64", 1 + FSL_READ },
			 { "write", 1 + FSL_WRITE }, { "pwrite64", 1 + FSL_WRITE } };

	if (path == PATH_SYSCALLS && sysops_fill("fileslower", map_fd(obj_map(o, "sysops")), syscalls,
						 ARRAY_SIZE(syscalls), FILESLOWER_MAX_SYSCALLS) < 0)
		return -1;
	if (tool_common.verbose)
		fprintf(stderr, "fileslower: %s\n",
			path == PATH_FENTRY   ? "fentry/fexit on vfs_read, vfs_write"
			: path == PATH_KPROBE ? "kprobe/kretprobe on vfs_read, vfs_write"
					      : "no fentry or kprobes here: the read, pread64, write and pwrite64 "
						"system calls (sys_enter/sys_exit), the file from the task's file table; "
						"latency is the system call's");
	out_info("Tracing sync read/writes slower than %lld ms\n", env.min_ms);
	out_header(&table);
	tool_elapsed(); /* TIME(s) counts from here, as bcc's from its header */
	return 0;
}

int fileslower_main(int argc, char **argv)
{
	static const char *const progs[][4] = {
		{ "fentry_vfs_read", "fexit_vfs_read", "fentry_vfs_write", "fexit_vfs_write" },
		{ "kprobe_vfs_read", "kretprobe_vfs_read", "kprobe_vfs_write", "kretprobe_vfs_write" },
		{ "fsl_sys_enter", "fsl_sys_exit", NULL, NULL },
	};
	struct tool_events te = { "fileslower", .after_load = after_load, .on_event = on_event };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(fileslower);
	OBJ_SET(o, target_tgid, env.pid);
	OBJ_SET(o, self_tgid, (__u32)getpid());
	OBJ_SET(o, all_files, (uint8_t)env.all);
	OBJ_SET(o, min_us, (uint64_t)env.min_ms * 1000);
	if (obj_fentry_ok(o, "vfs_read") && obj_fentry_ok(o, "vfs_write"))
		path = PATH_FENTRY;
	else if (kfunc_way(o, "vfs_read") == KFUNC_KPROBE)
		path = PATH_KPROBE;
	else
		path = PATH_SYSCALLS;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4 && progs[i][j]; j++)
			prog_set_autoload(obj_prog(o, progs[i][j]), (int)path == i);
	if (path != PATH_SYSCALLS)
		map_set_max_entries(obj_map(o, "sysops"), 1);
	tool_signals();
	return tool_run_events(o, &te);
}
