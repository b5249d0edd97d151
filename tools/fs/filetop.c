/* applet filetop: file reads and writes by process, top-style
 * readme: file reads and writes by thread and file, top-style each interval (`-C` no clear,
 *         `-r` rows, `-s all|reads|writes|rbytes|wbytes`, `-a` special files); JSON per interval
 *
 * libbpf-tools' layout: a screen clear (not with -C), "HH:MM:SS loadavg:
 * ..." (the /proc/loadavg line as it is), the header, the rows and an
 * empty line, every interval (default 1 s) COUNT times or until Ctrl-C.
 * Each interval reads and clears the counts.  The clear is the terminal
 * sequence itself where libbpf-tools runs clear(1).  Rows sort largest
 * first, where 0.26 subtracts 64-bit values into an int (wrong order past
 * 2 GiB).  vfs_read/vfs_write through fentry or kprobes, else the
 * read/pread64/write/pwrite64 system calls (-v says which). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bpf/sys.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "tools/common/top.h"
#include "lib/err.h"
#include "lib/util.h"
#include "filetop.h"
#include "sysops.h"

BPF_OBJ_DECLARE(filetop);

#define ROWS_LIMIT 10240 /* libbpf-tools' OUTPUT_ROWS_LIMIT */

enum { SORT_ALL, SORT_READS, SORT_WRITES, SORT_RBYTES, SORT_WBYTES };
static const char *const sorts[] = { "all", "reads", "writes", "rbytes", "wbytes" };

static struct top top = TOP_INIT(sorts, ROWS_LIMIT, SORT_ALL);
static struct {
	int all; /* -a */
	int pid;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'C', "noclear", NULL, "Don't clear the screen" },
	{ 'a', "all", NULL, "Include special files" },
	{ 's', "sort", "SORT", "Sort columns, default all [all, reads, writes, rbytes, wbytes]" },
	{ 'r', "rows", "ROWS", "Maximum rows to print, default 20" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [interval] [count]",
	.examples = "    filetop            # file I/O top, refresh every 1s\n"
		    "    filetop -p 1216    # only trace PID 1216\n"
		    "    filetop 5 10       # 5s summaries, 10 times\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'a': env.all = 1; break;
	default: return top_opt(&top, &help, key, arg);
	}
	return 0;
}

enum { C_TID, C_COMM, C_READS, C_WRITES, C_RKB, C_WKB, C_T, C_FILE, C_PID, C_RBYTES, C_WBYTES };
static const struct out_col cols[] = {
	[C_TID] = { "tid", "TID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_READS] = { "reads", "READS", "%-6llu ", OUT_UINT, .hfmt = "%-6s " },
	[C_WRITES] = { "writes", "WRITES", "%-6llu ", OUT_UINT, .hfmt = "%-6s " },
	[C_RKB] = { NULL, "R_Kb", "%-7llu ", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-7s " },
	[C_WKB] = { NULL, "W_Kb", "%-7llu ", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-7s " },
	[C_T] = { "type", "T", "%s ", OUT_STR, .hfmt = "%1s " },
	[C_FILE] = { "file", "FILE", "%s\n", OUT_STR },
	[C_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_RBYTES] = { "read_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[C_WBYTES] = { "write_bytes", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE("rows", cols);

static __u64 sort_value(const struct filetop_val *v)
{
	switch (top.sort) {
	case SORT_READS: return v->reads;
	case SORT_WRITES: return v->writes;
	case SORT_RBYTES: return v->read_bytes;
	case SORT_WBYTES: return v->write_bytes;
	default: return v->reads + v->writes + v->read_bytes + v->write_bytes;
	}
}

static int largest_first(const void *a, const void *b)
{
	return top_larger_first(sort_value(((const struct top_row *)a)->val),
				sort_value(((const struct top_row *)b)->val));
}

static int report(void *ctx)
{
	struct obj *o = ctx;
	union out_val v[ARRAY_SIZE(cols)];
	long n;

	top_begin(&top, true, &table);
	n = top_read(&top, map_fd(obj_map(o, "entries")), "filetop", "cannot read the counts", largest_first);
	if (n < 0)
		return -1;
	for (long i = 0; i < n && i < top.rows; i++) {
		const struct filetop_val *val = top.order[i].val;
		char comm[17], file[FILETOP_NAME_LEN + 1], type[2] = { val->type, 0 };

		memcpy(comm, val->comm, 16);
		comm[16] = 0;
		memcpy(file, val->filename, FILETOP_NAME_LEN);
		file[FILETOP_NAME_LEN] = 0;
		v[C_TID].i = val->tid;
		v[C_COMM].s = comm;
		v[C_READS].u = val->reads;
		v[C_WRITES].u = val->writes;
		v[C_RKB].u = val->read_bytes / 1024;
		v[C_WKB].u = val->write_bytes / 1024;
		v[C_T].s = type;
		v[C_FILE].s = file;
		v[C_PID].i = val->pid;
		v[C_RBYTES].u = val->read_bytes;
		v[C_WBYTES].u = val->write_bytes;
		out_row(&table, v);
	}
	out_text("\n");
	return 0;
}

static const struct sysop syscalls[] = {
	{ "read", FT_READ }, { "pread64", FT_READ }, { "write", FT_WRITE }, { "pwrite64", FT_WRITE },
};

int filetop_main(int argc, char **argv)
{
	enum kfunc_way way;
	struct obj *o;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (top_alloc(&top, "filetop", sizeof(struct filetop_key), sizeof(struct filetop_val)))
		return 1;
	o = BPF_OBJ_OPEN(filetop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, regular_file_only, (uint8_t)!env.all);
	way = obj_fentry_ok(o, "vfs_read") && obj_fentry_ok(o, "vfs_write") ? KFUNC_FENTRY
	      : kfunc_way(o, "vfs_read") == KFUNC_KPROBE			   ? KFUNC_KPROBE
										   : KFUNC_NONE;
	prog_set_autoload(obj_prog(o, "fentry_vfs_read"), way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "fentry_vfs_write"), way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "kprobe_vfs_read"), way == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(o, "kprobe_vfs_write"), way == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(o, "ft_sys_enter"), way == KFUNC_NONE);
	if (way != KFUNC_NONE)
		map_set_max_entries(obj_map(o, "sysops"), 1);
	tool_signals();
	if (tool_load_attach(o, "filetop")) {
		top_free(&top);
		return 1;
	}
	if (way == KFUNC_NONE && sysops_fill("filetop", map_fd(obj_map(o, "sysops")), syscalls,
					     ARRAY_SIZE(syscalls), FILETOP_MAX_SYSCALLS) < 0) {
		obj_close(o);
		top_free(&top);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "filetop: %s\n",
			way == KFUNC_FENTRY   ? "fentry on vfs_read, vfs_write"
			: way == KFUNC_KPROBE ? "kprobes on vfs_read, vfs_write"
					      : "no fentry or kprobes here: the system calls that reach vfs_read, "
						"vfs_write (read, pread64, write, pwrite64) at sys_enter, the file "
						"from the task's file table");
	rc = interval_loop(&top.iv, report, o);
	obj_close(o);
	top_free(&top);
	return rc;
}
