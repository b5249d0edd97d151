/* applet filelife: trace the lifespan of short-lived files
 * readme: files created and deleted while tracing, with their age (fentry or kprobes
 *         on vfs_create/vfs_open/vfs_unlink; else the open, mknod and unlink system calls)
 *
 * libbpf-tools' flags and output.  Without fentry and kprobes the system
 * calls stand in (see filelife.bpf.c): a file is then matched by its
 * name between creation and deletion; -v says which way was taken. */
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "btf/btf.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "filelife.h"
#include "sysops.h"

BPF_OBJ_DECLARE(filelife);

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process PID to trace" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[--help] [-p PID]",
	.examples = "    filelife         # trace all events\n"
		    "    filelife -p 123  # trace pid 123\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static __u32 targ_pid;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': targ_pid = (__u32)opt_pid(&help, "PID", arg); break;
	default: return 1;
	}
	return 0;
}

enum { C_TIME, C_PID, C_COMM, C_AGE, C_FILE };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-6lld ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_AGE] = { "age_s", "AGE(s)", "%-7.2f ", OUT_FLOAT },
	[C_FILE] = { "file", "FILE", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct filelife_event e;
	char comm[EV_COMM_LEN + 1], file[FILELIFE_NAME_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	memcpy(file, e.file, sizeof(e.file));
	file[sizeof(e.file)] = 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.tgid;
	v[C_COMM].s = ev_comm(comm, e.task);
	v[C_AGE].f = (double)e.delta_ns / 1e9;
	v[C_FILE].s = file;
	out_row(&table, v);
	return 0;
}

/* 1 or 2: the position of func's parameter named "dentry" in the
 * kernel's BTF (2 since the idmap/user namespace argument came first);
 * 2 when the BTF does not say. */
static int dentry_arg(const struct btf *btf, const char *func)
{
	const struct btf_type *t;
	int32_t id;

	if (!btf || (id = btf_find(btf, func, BTF_KIND_FUNC)) <= 0 ||
	    !(t = btf_type_by_id(btf, (uint32_t)id)) || !(t = btf_type_by_id(btf, t->type)) ||
	    btf_kind(t) != BTF_KIND_FUNC_PROTO)
		return 2;
	for (uint32_t i = 0; i < btf_vlen(t) && i < 4; i++) {
		const char *n = btf_str(btf, btf_params(t)[i].name_off);

		if (n && !strcmp(n, "dentry"))
			return i == 1 ? 1 : 2;
	}
	return 2;
}

enum path { PATH_FENTRY, PATH_KPROBE, PATH_SYSCALLS };
static enum path path;

static const struct sysop syscalls[] = {
	{ "open", FL_OPEN },	 { "openat", FL_OPEN },	  { "openat2", FL_OPEN },     { "creat", FL_OPEN },
	{ "mknod", FL_MKNOD }, { "mknodat", FL_MKNODAT }, { "unlink", FL_UNLINK }, { "unlinkat", FL_UNLINKAT },
};

static int after_load(struct obj *o)
{
	if (path == PATH_SYSCALLS && sysops_fill("filelife", map_fd(obj_map(o, "sysops")), syscalls,
						 ARRAY_SIZE(syscalls), FILELIFE_MAX_SYSCALLS) < 0)
		return -1;
	if (tool_common.verbose)
		fprintf(stderr, "filelife: %s\n",
			path == PATH_FENTRY   ? "fentry on vfs_create, vfs_open, security_inode_create, vfs_unlink"
			: path == PATH_KPROBE ? "kprobes on vfs_create, vfs_open, security_inode_create, vfs_unlink"
					      : "no fentry or kprobes here: the open, mknod and unlink system calls at "
						"their exit (sys_exit); files are matched by name");
	out_info("Tracing the lifespan of short-lived files ... Hit Ctrl-C to end.\n");
	out_header(&table);
	return 0;
}

int filelife_main(int argc, char **argv)
{
	static const char *const fns[] = { "vfs_create", "vfs_open", "security_inode_create", "vfs_unlink" };
	struct tool_events te = { "filelife", .after_load = after_load, .on_event = on_event };
	struct obj_opts oo = { 0 };
	const struct btf *kbtf;
	int ca = 2, ua = 2;
	struct obj *o;
	bool on[4];

	opt_parse(argc, argv, &help, parse, NULL);
	o = BPF_OBJ_OPEN(filelife);
	OBJ_SET(o, targ_tgid, targ_pid);
	if (obj_fentry_ok(o, "vfs_unlink") && obj_fentry_ok(o, "vfs_open"))
		path = PATH_FENTRY;
	else if (kfunc_way(o, "vfs_unlink") == KFUNC_KPROBE && kfunc_way(o, "vfs_open") == KFUNC_KPROBE)
		path = PATH_KPROBE;
	else
		path = PATH_SYSCALLS;
	for (int i = 0; i < 4; i++) /* vfs_create, security_inode_create: where they exist */
		on[i] = path != PATH_SYSCALLS && (i == 1 || i == 3 || kfunc_way(o, fns[i]) != KFUNC_NONE);
	if (path != PATH_SYSCALLS) {
		oo.btf_path = tool_common.btf_path;
		kbtf = obj_kernel_btf(o, &oo);
		ca = dentry_arg(kbtf, "vfs_create");
		ua = dentry_arg(kbtf, "vfs_unlink");
		map_set_max_entries(obj_map(o, "sysops"), 1);
	}
	for (int k = 0; k < 2; k++) {
		const char *pre = k ? "kprobe_" : "fentry_";
		bool use = path == (k ? PATH_KPROBE : PATH_FENTRY);
		char name[48];

		for (int a = 1; a <= 2; a++) {
			snprintf(name, sizeof(name), "%svfs_create_%d", pre, a);
			prog_set_autoload(obj_prog(o, name), use && on[0] && a == ca);
			snprintf(name, sizeof(name), "%svfs_unlink_%d", pre, a);
			prog_set_autoload(obj_prog(o, name), use && a == ua);
		}
		snprintf(name, sizeof(name), "%svfs_open", pre);
		prog_set_autoload(obj_prog(o, name), use);
		snprintf(name, sizeof(name), "%ssecurity_inode_create", pre);
		prog_set_autoload(obj_prog(o, name), use && on[2]);
	}
	prog_set_autoload(obj_prog(o, "fl_sys_exit"), path == PATH_SYSCALLS);
	tool_signals();
	return tool_run_events(o, &te);
}
