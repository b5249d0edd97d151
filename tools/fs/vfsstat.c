/* applet vfsstat: count some VFS calls, per second
 * readme: calls of vfs_read, vfs_write, vfs_fsync, vfs_open and vfs_create per second
 *         (fentry or kprobes; without them, the system calls that reach those functions)
 *
 * libbpf-tools' flags and output.  Where the kernel has neither fentry
 * nor kprobes the system calls stand in for the functions (see
 * vfsstat.bpf.c for which; -v says which way was taken): calls the kernel
 * makes on its own behalf (exec reading a binary) are not counted then. */
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
#include "sysops.h"
#include "vfsstat.h"

BPF_OBJ_DECLARE(vfsstat);

static const struct opt opts[] = {
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-v] [interval [count]]",
	.examples = "    vfsstat      # interval one second\n"
		    "    vfsstat 5 3  # interval five seconds, three output lines\n",
	.opts = opts,
	.flags = OPT_PROM,
};

static struct {
	struct interval iv;
	int npos;
} env = { .iv = { 1, INTERVAL_FOREVER, .rows = true, .keep_going = true } };

static int parse(int key, const char *arg, void *ctx)
{
	long long n;

	(void)ctx;
	if (key != 0)
		return 1;
	if (env.npos == 0) {
		env.iv.seconds = (long)opt_num(&help, "interval", arg, 1, INT_MAX);
	} else if (env.npos == 1) { /* 0: forever, as upstream */
		n = opt_num(&help, "count", arg, 0, INT_MAX);
		env.iv.times = n ? (long)n : INTERVAL_FOREVER;
	} else {
		opt_usage_error(&help, "unrecognized positional argument: %s", arg);
	}
	env.npos++;
	return 0;
}

static const char *const funcs[S_MAXSTAT] = { "vfs_read", "vfs_write", "vfs_fsync", "vfs_open", "vfs_create" };

static const struct sysop syscalls[] = {
	{ "read", S_READ | VS_NOT_EBADF },
	{ "pread64", S_READ | VS_NOT_EBADF },
	{ "write", S_WRITE | VS_NOT_EBADF },
	{ "pwrite64", S_WRITE | VS_NOT_EBADF },
	{ "fsync", S_FSYNC | VS_NOT_EBADF },
	{ "fdatasync", S_FSYNC | VS_NOT_EBADF },
	{ "open", S_OPEN | VS_OK },
	{ "openat", S_OPEN | VS_OK },
	{ "openat2", S_OPEN | VS_OK },
	{ "creat", S_OPEN | VS_OK },
	{ "open_by_handle_at", S_OPEN | VS_OK },
	{ "mknod", S_CREATE | VS_MKNOD_REG },
	{ "mknodat", S_CREATE | VS_MKNODAT_REG },
};

/* Per second in text, as upstream; the calls themselves in JSON and
 * Prometheus (a rate is the reader's to take). */
enum { C_TIME, C_R, C_W, C_F, C_O, C_C, C_NR, C_NW, C_NF, C_NO, C_NC };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s: ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-8s  " },
	[C_R] = { NULL, "READ", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %6s/s" },
	[C_W] = { NULL, "WRITE", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %6s/s" },
	[C_F] = { NULL, "FSYNC", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %6s/s" },
	[C_O] = { NULL, "OPEN", " %8llu", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %6s/s" },
	[C_C] = { NULL, "CREATE", " %8llu\n", OUT_UINT, OUT_TEXT_ONLY, .hfmt = " %6s/s\n" },
	[C_NR] = { "read", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "vfs_read calls" },
	[C_NW] = { "write", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "vfs_write calls" },
	[C_NF] = { "fsync", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "vfs_fsync calls" },
	[C_NO] = { "open", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "vfs_open calls" },
	[C_NC] = { "create", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "vfs_create calls" },
};
static struct out_table table = OUT_TABLE(NULL, cols);

struct report {
	int fd;
	struct vfsstat_counts prev;
};

static int report(void *ctx)
{
	struct report *r = ctx;
	struct vfsstat_counts now;
	union out_val v[ARRAY_SIZE(cols)];
	char hms[16];
	__u32 zero = 0;

	if (bpf_map_lookup(r->fd, &zero, &now) < 0) {
		tool_err("vfsstat", "cannot read the counts: %s", err_msg());
		return -1;
	}
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	for (int i = 0; i < S_MAXSTAT; i++) {
		__u64 n = now.stats[i] - r->prev.stats[i];

		v[C_R + i].u = n / (__u64)env.iv.seconds;
		v[C_NR + i].u = n;
	}
	r->prev = now;
	out_row(&table, v);
	return 0;
}

enum path { PATH_FENTRY, PATH_KPROBE, PATH_SYSCALLS };

static enum path choose_path(struct obj *o)
{
	if (obj_fentry_ok(o, "vfs_read"))
		return PATH_FENTRY;
	if (kfunc_way(o, "vfs_read") == KFUNC_KPROBE)
		return PATH_KPROBE;
	return PATH_SYSCALLS;
}

int vfsstat_main(int argc, char **argv)
{
	struct report r = { 0 };
	enum path path;
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(vfsstat);
	path = choose_path(o);
	for (int i = 0; i < S_MAXSTAT; i++) {
		char name[32];
		bool has = path != PATH_SYSCALLS && kfunc_way(o, funcs[i]) != KFUNC_NONE;

		/* vfs_create may be missing (inlined, renamed): its column stays 0 */
		snprintf(name, sizeof(name), "fentry_%s", funcs[i]);
		prog_set_autoload(obj_prog(o, name), path == PATH_FENTRY && has);
		snprintf(name, sizeof(name), "kprobe_%s", funcs[i]);
		prog_set_autoload(obj_prog(o, name), path == PATH_KPROBE && has);
	}
	prog_set_autoload(obj_prog(o, "vfs_sys_exit"), path == PATH_SYSCALLS);
	if (path != PATH_SYSCALLS)
		map_set_max_entries(obj_map(o, "sysops"), 1);
	if (tool_load_attach(o, "vfsstat"))
		return 1;
	if (path == PATH_SYSCALLS && sysops_fill("vfsstat", map_fd(obj_map(o, "sysops")), syscalls,
						 ARRAY_SIZE(syscalls), VFSSTAT_MAX_SYSCALLS) < 0) {
		obj_close(o);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "vfsstat: %s\n",
			path == PATH_FENTRY   ? "fentry on vfs_read, vfs_write, vfs_fsync, vfs_open, vfs_create"
			: path == PATH_KPROBE ? "kprobes on vfs_read, vfs_write, vfs_fsync, vfs_open, vfs_create"
					      : "no fentry or kprobes here: the system calls that reach vfs_read "
						"(read, pread64), vfs_write (write, pwrite64), vfs_fsync (fsync, "
						"fdatasync), vfs_open (the opens that succeeded) and vfs_create "
						"(mknod of a regular file), at their exit (sys_exit)");
	r.fd = map_fd(obj_map(o, "counts"));
	tool_signals();
	out_header(&table);
	tool_flush();
	ret = interval_loop(&env.iv, report, &r);
	obj_close(o);
	return ret;
}
