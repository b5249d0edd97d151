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
#include "tools/common/interval.h"
#include "tools/common/kfunc.h"
#include "lib/err.h"
#include "lib/util.h"
#include "filetop.h"
#include "sysops.h"

BPF_OBJ_DECLARE(filetop);

#define ROWS_LIMIT 10240 /* libbpf-tools' OUTPUT_ROWS_LIMIT */

enum { SORT_ALL, SORT_READS, SORT_WRITES, SORT_RBYTES, SORT_WBYTES };

static struct {
	int noclear; /* -C */
	int all;     /* -a */
	int sort;
	long rows;
	int pid;
	struct interval iv;
	int npos;
} env = { .rows = 20, .iv = { .seconds = 1, .times = INTERVAL_FOREVER, .rows = true } };

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
	static const char *const sorts[] = { "all", "reads", "writes", "rbytes", "wbytes" };

	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'C': env.noclear = 1; break;
	case 'a': env.all = 1; break;
	case 's':
		for (env.sort = 0; env.sort < 5 && strcmp(arg, sorts[env.sort]); env.sort++)
			;
		if (env.sort == 5)
			opt_usage_error(&help, "invalid sort method: %s", arg);
		break;
	case 'r':
		env.rows = (long)opt_num(&help, "rows", arg, 1, 0x7fffffff);
		if (env.rows > ROWS_LIMIT)
			env.rows = ROWS_LIMIT;
		break;
	case 0: interval_arg(&help, &env.iv, &env.npos, arg); break;
	default: return 1;
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

struct run {
	struct obj *o;
	bool batch;
	struct filetop_key keys[ROWS_LIMIT];
	struct filetop_val vals[ROWS_LIMIT];
	const struct filetop_val *order[ROWS_LIMIT];
};

static __u64 sort_value(const struct filetop_val *v)
{
	switch (env.sort) {
	case SORT_READS: return v->reads;
	case SORT_WRITES: return v->writes;
	case SORT_RBYTES: return v->read_bytes;
	case SORT_WBYTES: return v->write_bytes;
	default: return v->reads + v->writes + v->read_bytes + v->write_bytes;
	}
}

static int largest_first(const void *a, const void *b)
{
	__u64 x = sort_value(*(const struct filetop_val *const *)a);
	__u64 y = sort_value(*(const struct filetop_val *const *)b);

	return x > y ? -1 : x < y;
}

static void loadavg_line(void)
{
	char buf[256] = "", hms[16];
	FILE *f = fopen("/proc/loadavg", "r");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n)
		out_text("%8s loadavg: %s\n", tool_hms(hms, sizeof(hms)), buf);
}

static int report(void *ctx)
{
	struct run *r = ctx;
	union out_val v[ARRAY_SIZE(cols)];
	long n;

	if (!env.noclear)
		out_text("\033[H\033[2J");
	loadavg_line();
	out_header(&table);
	n = tool_map_drain(map_fd(obj_map(r->o, "entries")), sizeof(struct filetop_key),
			   sizeof(struct filetop_val), r->keys, r->vals, ROWS_LIMIT, &r->batch);
	if (n < 0) {
		tool_err("filetop", "cannot read the counts: %s", err_msg());
		return -1;
	}
	for (long i = 0; i < n; i++)
		r->order[i] = &r->vals[i];
	qsort(r->order, (size_t)n, sizeof(r->order[0]), largest_first);
	for (long i = 0; i < n && i < env.rows; i++) {
		const struct filetop_val *val = r->order[i];
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
	struct run *r;
	int rc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!(r = calloc(1, sizeof(*r)))) {
		tool_err("filetop", "out of memory");
		return 1;
	}
	r->batch = true;
	r->o = BPF_OBJ_OPEN(filetop);
	OBJ_SET(r->o, target_pid, (uint32_t)env.pid);
	OBJ_SET(r->o, regular_file_only, (uint8_t)!env.all);
	way = obj_fentry_ok(r->o, "vfs_read") && obj_fentry_ok(r->o, "vfs_write") ? KFUNC_FENTRY
	      : kfunc_way(r->o, "vfs_read") == KFUNC_KPROBE			   ? KFUNC_KPROBE
										   : KFUNC_NONE;
	prog_set_autoload(obj_prog(r->o, "fentry_vfs_read"), way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(r->o, "fentry_vfs_write"), way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(r->o, "kprobe_vfs_read"), way == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(r->o, "kprobe_vfs_write"), way == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(r->o, "ft_sys_enter"), way == KFUNC_NONE);
	if (way != KFUNC_NONE)
		map_set_max_entries(obj_map(r->o, "sysops"), 1);
	tool_signals();
	if (tool_load_attach(r->o, "filetop")) {
		free(r);
		return 1;
	}
	if (way == KFUNC_NONE && sysops_fill("filetop", map_fd(obj_map(r->o, "sysops")), syscalls,
					     ARRAY_SIZE(syscalls), FILETOP_MAX_SYSCALLS) < 0) {
		obj_close(r->o);
		free(r);
		return 1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "filetop: %s\n",
			way == KFUNC_FENTRY   ? "fentry on vfs_read, vfs_write"
			: way == KFUNC_KPROBE ? "kprobes on vfs_read, vfs_write"
					      : "no fentry or kprobes here: the system calls that reach vfs_read, "
						"vfs_write (read, pread64, write, pwrite64) at sys_enter, the file "
						"from the task's file table");
	rc = interval_loop(&env.iv, report, r);
	obj_close(r->o);
	free(r);
	return rc;
}
