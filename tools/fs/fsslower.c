/* applet fsslower: trace file system operations slower than a threshold
 * readme: file system reads, writes, opens, fsyncs slower than a threshold, or as the
 *         file system's own tool (`ext4slower 0` shows every one)
 * alias ext4slower (fsslower): trace slow ext4 operations
 * alias xfsslower (fsslower): trace slow xfs operations
 * alias btrfsslower (fsslower): trace slow btrfs operations
 * alias nfsslower (fsslower): trace slow nfs operations
 * alias f2fsslower (fsslower): trace slow f2fs operations
 * alias fuseslower (fsslower): trace slow fuse operations
 * alias bcachefsslower (fsslower): trace slow bcachefs operations
 * alias zfsslower (fsslower): trace slow zfs operations
 *
 * libbpf-tools' fsslower flags and output; bcc's positional min_ms and -j
 * CSV flag as well.
 *
 * The file system's own file operations are traced with fentry/fexit
 * where the kernel takes them, else kprobes; on a kernel with neither,
 * the system calls' tracepoints, keeping the calls on files of that file
 * system type (-v says which). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "fsops.h"
#include "fsslower.h"

BPF_OBJ_DECLARE(fsslower);

_Static_assert((int)FS_OP_READ == FSOPS_READ && (int)FS_OP_WRITE == FSOPS_WRITE &&
	       (int)FS_OP_OPEN == FSOPS_OPEN && (int)FS_OP_FSYNC == FSOPS_FSYNC,
	       "fsslower numbers the operations as fsops.h (no getattr)");

/* The system calls of the tracepoint path. */
static const struct {
	const char *name;
	unsigned char val;
} syscalls[] = {
	{ "read", FS_SYS(FS_SYS_FD_CUR, FS_OP_READ) },
	{ "readv", FS_SYS(FS_SYS_FD_CUR, FS_OP_READ) },
	{ "pread64", FS_SYS(FS_SYS_FD_POS, FS_OP_READ) },
	{ "preadv", FS_SYS(FS_SYS_FD_POS, FS_OP_READ) },
	{ "preadv2", FS_SYS(FS_SYS_FD_POS2, FS_OP_READ) },
	{ "write", FS_SYS(FS_SYS_FD_CUR, FS_OP_WRITE) },
	{ "writev", FS_SYS(FS_SYS_FD_CUR, FS_OP_WRITE) },
	{ "pwrite64", FS_SYS(FS_SYS_FD_POS, FS_OP_WRITE) },
	{ "pwritev", FS_SYS(FS_SYS_FD_POS, FS_OP_WRITE) },
	{ "pwritev2", FS_SYS(FS_SYS_FD_POS2, FS_OP_WRITE) },
	{ "open", FS_SYS(FS_SYS_OPEN, FS_OP_OPEN) },
	{ "openat", FS_SYS(FS_SYS_OPEN, FS_OP_OPEN) },
	{ "openat2", FS_SYS(FS_SYS_OPEN, FS_OP_OPEN) },
	{ "creat", FS_SYS(FS_SYS_OPEN, FS_OP_OPEN) },
	{ "fsync", FS_SYS(FS_SYS_FSYNC, FS_OP_FSYNC) },
	{ "fdatasync", FS_SYS(FS_SYS_FSYNC, FS_OP_FSYNC) },
};

static const char op_char[FS_OP_MAX] = { 'R', 'W', 'O', 'F' };
static const struct opt opts[] = {
	{ 't', "type", "FS", "Which filesystem to trace: btrfs, ext4, fuse, nfs, xfs, f2fs, bcachefs, zfs" },
	{ 'm', "min", "MIN", "Min latency to trace, in ms (default 10; 0 traces every operation)" },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'd', "duration", "DURATION", "Total duration of trace in seconds" },
	{ 'c', "csv", NULL, "Output as csv" },
	{ 'j', NULL, NULL, "Output as csv (bcc's flag; --json is JSON)" },
	{ 0 },
};

static struct tool_help help = {
	.usage = "[-h] [-t FS] [-p PID] [-m MIN] [-d DURATION] [-c] [min_ms]",
	.examples =
		"    fsslower -t ext4             # trace ext4 operations slower than 10 ms\n"
		"    fsslower -t nfs -p 1216      # trace nfs operations with PID 1216 only\n"
		"    fsslower -t xfs -c -d 1      # trace xfs operations for 1s with csv output\n"
		"    ext4slower 1                 # ext4 operations slower than 1 ms\n"
		"    ext4slower 0                 # every ext4 operation\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	const struct fs_config *fs;
	__u32 pid;
	long duration;
	long long min_ms;
	bool csv;
} env = { .min_ms = 10 };

/* how many positional min_ms were given: a second is a usage error */
static int min_ms_given;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 't':
		if (!(env.fs = fs_by_name(arg, strlen(arg))))
			opt_usage_error(&help, "invalid filesystem '%s' (btrfs, ext4, fuse, nfs, xfs, f2fs, bcachefs, zfs)",
					arg);
		break;
	case 'm': env.min_ms = opt_num(&help, "latency (in ms)", arg, 0, LLONG_MAX / 1000000); break;
	case 'p': env.pid = (__u32)opt_pid(&help, "PID", arg); break;
	case 'd': env.duration = (long)opt_num(&help, "DURATION", arg, 1, INT_MAX); break;
	case 'c':
	case 'j': env.csv = true; break;
	case 0: /* bcc's positional min_ms: one, as bcc's argparse takes */
		if (min_ms_given++)
			opt_usage_error(&help, "unexpected argument '%s' (one min_ms at most)", arg);
		env.min_ms = opt_num(&help, "min_ms", arg, 0, LLONG_MAX / 1000000);
		break;
	default:
		return 1;
	}
	return 0;
}

enum { C_TIME, C_COMM, C_PID, C_T, C_BYTES_TXT, C_BYTES, C_OFF_KB, C_OFFSET, C_LAT, C_FILE };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_T] = { "op", "T", "%s ", OUT_STR, .hfmt = "%1s " },
	[C_BYTES_TXT] = { NULL, "BYTES", "%-7s ", OUT_STR, OUT_TEXT_ONLY },
	[C_BYTES] = { "bytes", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_OFF_KB] = { NULL, "OFF_KB", "%-8lld ", OUT_INT, OUT_TEXT_ONLY },
	[C_OFFSET] = { "offset", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%7.2f ", OUT_FLOAT },
	[C_FILE] = { "file", "FILENAME", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct fsslower_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char raw[FSSLOWER_FILE_LEN + 1], file[4 * FSSLOWER_FILE_LEN + 1], task[4 * FSSLOWER_COMM_LEN + 1];
	char hms[16], bytes[24], op[2];

	(void)ctx;
	if (size < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e)); /* perf buffer records are not aligned */
	/* names from the kernel: escaped for a terminal (JSON escapes its own) */
	memcpy(raw, e.file, sizeof(e.file));
	raw[sizeof(e.file)] = 0;
	if (out_json())
		snprintf(file, sizeof(file), "%s", raw);
	else
		str_escape(file, sizeof(file), raw, NULL);
	memcpy(raw, e.task, sizeof(e.task));
	raw[sizeof(e.task)] = 0;
	if (out_json())
		snprintf(task, sizeof(task), "%s", raw);
	else
		str_escape(task, sizeof(task), raw, NULL);
	op[0] = e.op < FS_OP_MAX ? op_char[e.op] : '?';
	op[1] = 0;
	if (e.size == LLONG_MAX)
		snprintf(bytes, sizeof(bytes), "LL_MAX");
	else
		snprintf(bytes, sizeof(bytes), "%lld", (long long)e.size);
	if (env.csv && !out_json()) {
		printf("%llu,%s,%u,%c,%s,%lld,%llu,%s\n", (unsigned long long)e.end_ns, task, e.pid, op[0], bytes,
		       (long long)e.offset, (unsigned long long)e.delta_us, file);
		return 0;
	}
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_COMM].s = task;
	v[C_PID].i = e.pid;
	v[C_T].s = op;
	v[C_BYTES_TXT].s = bytes;
	v[C_BYTES].i = e.size;
	v[C_OFF_KB].i = e.offset / 1024;
	v[C_OFFSET].i = e.offset;
	v[C_LAT].f = (double)e.delta_us / 1000;
	v[C_FILE].s = file;
	out_row(&table, v);
	return 0;
}

/* The syscall path: tell the BPF side what each number means. */
static int set_syscalls(struct obj *o, struct strbuf *which)
{
	int mapfd = map_fd(obj_map(o, "sysops")), err;

	for (size_t i = 0; i < ARRAY_SIZE(syscalls); i++) {
		int nr = syscall_nr(syscalls[i].name);
		__u32 key = (__u32)nr;
		__u8 val = syscalls[i].val;

		if (nr < 0 || nr >= FSSLOWER_MAX_SYSCALLS)
			continue; /* open() and creat() on arm64 */
		if ((err = bpf_map_update(mapfd, &key, &val, 0)) < 0)
			return err;
		strbuf_addf(which, "%s%s", which->len ? ", " : "", syscalls[i].name);
	}
	return 0;
}

static enum fs_path path; /* how the operations are traced (choose_path) */

/* Once loaded: the system call table of the syscall path; -v: how the
 * operations are traced; the banner and header (or the CSV one). */
static int after_load(struct obj *o)
{
	struct strbuf which = { 0 };

	strbuf_reset(&which);
	if (path == FS_PATH_SYSCALLS && set_syscalls(o, &which) < 0) {
		tool_err(tool_applet, "cannot fill the system call table: %s", err_msg());
		strbuf_free(&which);
		return -1;
	}
	if (tool_common.verbose) {
		if (path == FS_PATH_SYSCALLS)
			fprintf(stderr,
				"%s: %s has no fentry or kprobe on %s here: tracing the system calls %s (raw tracepoints "
				"sys_enter/sys_exit, %s) on regular files of type %s%s%s; latency is the system call's "
				"(opens include the path lookup); I/O by other means (mmap, splice, io_uring, aio) is not "
				"seen\n",
				tool_applet, env.fs->fs, env.fs->funcs[0], which.s,
				prog_mechanism(obj_prog(o, "fs_sys_enter")), env.fs->types[0],
				env.fs->types[1] ? " or " : "", env.fs->types[1] ? env.fs->types[1] : "");
		else
			fs_print_path(tool_applet, env.fs, FS_OP_MAX, path);
	}
	strbuf_free(&which);
	if (env.csv && !out_json()) {
		printf("ENDTIME_ns,TASK,PID,TYPE,BYTES,OFFSET_b,LATENCY_us,FILE\n");
	} else {
		if (env.min_ms)
			out_info("Tracing %s operations slower than %lld ms", env.fs->fs, env.min_ms);
		else
			out_info("Tracing %s operations", env.fs->fs);
		if (env.duration)
			out_info(" for %ld secs.\n", env.duration);
		else
			out_info("... Hit Ctrl-C to end.\n");
		out_header(&table);
	}
	return 0;
}

int fsslower_main(int argc, char **argv)
{
	const struct fs_config *alias = fs_of_applet(tool_applet, "slower");
	struct tool_events te = { .after_load = after_load, .on_event = on_event };
	struct obj *o;

	if (alias) {
		help.usage = "[-h] [-p PID] [-m MIN] [-d DURATION] [-c] [min_ms]";
		env.fs = alias;
	}
	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.fs)
		opt_usage_error(&help, "filesystem must be specified using -t option");

	o = BPF_OBJ_OPEN(fsslower);
	OBJ_SET(o, target_pid, env.pid);
	OBJ_SET(o, self_pid, (__u32)getpid());
	OBJ_SET(o, min_lat_ns, (uint64_t)env.min_ms * 1000000);
	path = fs_choose_path(o, env.fs, FS_OP_MAX);
	fs_setup(o, env.fs, FS_OP_MAX, path);
	if (path != FS_PATH_SYSCALLS) {
		prog_set_autoload(obj_prog(o, "fs_sys_enter"), false);
		prog_set_autoload(obj_prog(o, "fs_sys_exit"), false);
		map_set_max_entries(obj_map(o, "sysops"), 1);
	}
	tool_signals();
	te.name = tool_applet;
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	return tool_run_events(o, &te);
}
