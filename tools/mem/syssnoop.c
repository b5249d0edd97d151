/* applet mmapsnoop: trace mmap() calls with protection, flags, size and file
 * readme: `mmap()` calls with protection, flags, size and file
 * applet shmsnoop: trace System V shared memory syscalls
 * readme: System V shared memory calls
 * applet brkstack: count brk() heap expansions by user stack
 * readme: `brk()` heap expansions by user stack
 *
 * mmapsnoop has the book's columns, shmsnoop bcc's and brkstack the book's
 * bpftrace map; all three read the syscall tracepoints, one BPF object
 * (syssnoop.bpf.c). */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "btmap.h"
#include "memcount.h"
#include "memtool.h"
#include "syssnoop.h"

BPF_OBJ_DECLARE(syssnoop);

/* The object with only the named programs on. */
static struct obj *open_syssnoop(const char *const *progs, int n, int pid, int tid)
{
	struct obj *o = BPF_OBJ_OPEN(syssnoop);
	struct prog *p;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		bool on = false;

		for (int k = 0; k < n; k++)
			on |= !strcmp(prog_name(p), progs[k]);
		prog_set_autoload(p, on);
	}
	OBJ_SET(o, targ_tgid, (uint32_t)pid);
	OBJ_SET(o, targ_tid, (uint32_t)tid);
	return o;
}

/* ---- mmapsnoop ------------------------------------------------------- */

static const struct opt mmap_opts[] = {
	{ 'T', "time", NULL, "include time column on output (HH:MM:SS)" },
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds" },
	{ 0 },
};

static const struct tool_help mmap_help = {
	.usage = "[-h] [-T] [-p PID] [-d DURATION]",
	.summary = "Trace mmap() calls system-wide: protection, flags, offset, size and the mapped file "
		   "(empty for anonymous memory).",
	.examples = "    mmapsnoop           # trace all mmap calls\n"
		    "    mmapsnoop -T        # include time column (HH:MM:SS)\n",
	.opts = mmap_opts,
	.flags = OPT_EVENTS,
};

static struct {
	bool time;
	int pid, tid;
	long duration;
	const char *name;
	unsigned long long first_ns;
} env;

static int mmap_parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.time = true; break;
	case 'p': env.pid = opt_pid(&mmap_help, "PID", arg); break;
	case 'd': env.duration = (long)opt_num(&mmap_help, "DURATION", arg, 1, INT_MAX); break;
	default: return 1;
	}
	return 0;
}

enum { M_TIME, M_PID, M_COMM, M_PROT, M_MAP, M_OFF, M_SIZE, M_FILE, M_OFFB, M_LENB, M_FD };
static const struct out_col mcols[] = {
	[M_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[M_PID] = { "pid", "PID", "%-6lld ", OUT_INT, .hfmt = "%-6s " },
	[M_COMM] = { "comm", "COMM", "%-14.14s ", OUT_STR },
	[M_PROT] = { "prot", "PROT", "%-4s ", OUT_STR },
	[M_MAP] = { "map", "MAP", "%-5s ", OUT_STR },
	[M_OFF] = { NULL, "OFFS(KB)", "%-8llu ", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[M_SIZE] = { NULL, "SIZE(KB)", "%-8llu ", OUT_UINT, OUT_TEXT_ONLY, .hfmt = "%-8s " },
	[M_FILE] = { "file", "FILE", "%s\n", OUT_STR },
	[M_OFFB] = { "offset", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[M_LENB] = { "size", NULL, NULL, OUT_UINT, OUT_JSON_ONLY },
	[M_FD] = { "fd", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
};
static struct out_table mtable = OUT_TABLE(NULL, mcols);

static int on_mmap(const struct mmap_event *e)
{
	union out_val v[ARRAY_SIZE(mcols)];
	char hms[16], comm[EV_COMM_LEN + 1], path[SYSSNOOP_PATH_LEN + 1], prot[4], map[5];

	prot[0] = e->prot & 1 ? 'R' : '-';  /* PROT_READ */
	prot[1] = e->prot & 2 ? 'W' : '-';  /* PROT_WRITE */
	prot[2] = e->prot & 4 ? 'E' : '-';  /* PROT_EXEC */
	prot[3] = 0;
	map[0] = e->flags & 0x01 ? 'S' : '-'; /* MAP_SHARED */
	map[1] = e->flags & 0x02 ? 'P' : '-'; /* MAP_PRIVATE */
	map[2] = e->flags & 0x10 ? 'F' : '-'; /* MAP_FIXED */
	map[3] = e->flags & 0x20 ? 'A' : '-'; /* MAP_ANONYMOUS */
	map[4] = 0;
	memcpy(path, e->path, SYSSNOOP_PATH_LEN);
	path[SYSSNOOP_PATH_LEN] = 0;
	v[M_TIME].s = tool_hms(hms, sizeof(hms));
	v[M_PID].i = e->pid;
	v[M_COMM].s = ev_comm(comm, e->comm);
	v[M_PROT].s = prot;
	v[M_MAP].s = map;
	v[M_OFF].u = e->off / 1024;
	v[M_SIZE].u = e->len / 1024;
	v[M_FILE].s = path;
	v[M_OFFB].u = e->off;
	v[M_LENB].u = e->len;
	v[M_FD].i = e->fd;
	out_row(&mtable, v);
	return 0;
}

/* ---- shmsnoop -------------------------------------------------------- */

static const struct opt shm_opts[] = {
	{ 'T', "timestamp", NULL, "include timestamp on output" },
	{ 'p', "pid", "PID", "trace this PID only" },
	{ 't', "tid", "TID", "trace this TID only" },
	{ 'd', "duration", "DURATION", "total duration of trace in seconds" },
	{ 'n', "name", "NAME", "only print process names containing this name" },
	{ 0 },
};

static const struct tool_help shm_help = {
	.usage = "[-h] [-T] [-p PID] [-t TID] [-d DURATION] [-n NAME]",
	.examples = "    shmsnoop           # trace all shm*() syscalls\n"
		    "    shmsnoop -T        # include timestamps\n"
		    "    shmsnoop -p 181    # only trace PID 181\n"
		    "    shmsnoop -t 123    # only trace TID 123\n"
		    "    shmsnoop -d 10     # trace for 10 seconds only\n"
		    "    shmsnoop -n main   # only print process names containing \"main\"\n",
	.opts = shm_opts,
	.flags = OPT_EVENTS,
};

static int shm_parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'T': env.time = true; break;
	case 'p': env.pid = opt_pid(&shm_help, "PID", arg); break;
	case 't': env.tid = opt_pid(&shm_help, "TID", arg); break;
	case 'd': env.duration = (long)opt_num(&shm_help, "DURATION", arg, 1, INT_MAX); break;
	case 'n': env.name = arg; break;
	default: return 1;
	}
	return 0;
}

struct flag_name {
	const char *name;
	unsigned long long value;
};

static const struct flag_name shmget_flags[] = {
	{ "IPC_CREAT", 01000 }, { "IPC_EXCL", 02000 }, { "SHM_HUGETLB", 04000 },
	{ "SHM_HUGE_2MB", 21ULL << 26 }, { "SHM_HUGE_1GB", 30ULL << 26 },
	{ "SHM_NORESERVE", 010000 }, { "SHM_EXEC", 0100000 }, { NULL, 0 },
};
static const struct flag_name shmat_flags[] = {
	{ "SHM_RDONLY", 010000 }, { "SHM_RND", 020000 }, { "SHM_REMAP", 040000 },
	{ "SHM_EXEC", 0100000 }, { NULL, 0 },
};

/* bcc's shmflg_str: "0x%x", then " (NAME|NAME|0leftover)" when non-zero. */
static void flags_str(struct strbuf *b, unsigned long long val, const struct flag_name *f)
{
	int cnt = 0;

	strbuf_addf(b, "0x%llx", val);
	if (!val)
		return;
	strbuf_add(b, " (");
	for (; f->name; f++)
		if (val & f->value) {
			strbuf_addf(b, "%s%s", cnt++ ? "|" : "", f->name);
			val &= ~f->value;
		}
	if (val || !cnt)
		strbuf_addf(b, "%s0%llo", cnt ? "|" : "", val);
	strbuf_addc(b, ')');
}

static const char *shmctl_cmd(unsigned long long cmd, char *buf, size_t size)
{
	static const struct flag_name cmds[] = {
		{ "IPC_RMID", 0 }, { "IPC_SET", 1 }, { "IPC_STAT", 2 }, { "IPC_INFO", 3 },
		{ "SHM_LOCK", 11 }, { "SHM_UNLOCK", 12 }, { "SHM_STAT", 13 }, { "SHM_INFO", 14 },
		{ "SHM_STAT_ANY", 15 }, { NULL, 0 },
	};

	for (const struct flag_name *c = cmds; c->name; c++)
		if (c->value == cmd)
			return c->name;
	snprintf(buf, size, "0x%llx", cmd);
	return buf;
}

enum { H_TS, H_ID, H_COMM, H_SYS, H_RET, H_ARGS, H_PID, H_TID };
static const struct out_col hcols[] = {
	[H_TS] = { "time_s", "TIME(s)", "%-14.9f", OUT_FLOAT, .hfmt = "%-14s" },
	[H_ID] = { NULL, "PID", "%-6lld ", OUT_INT, OUT_TEXT_ONLY, .hfmt = "%-6s " },
	[H_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[H_SYS] = { "sys", "SYS", "%6s ", OUT_STR },
	[H_RET] = { "ret", "RET", "%16llx ", OUT_HEX, .hfmt = "%16s " },
	[H_ARGS] = { "args", "ARGs", "%s\n", OUT_STR },
	[H_PID] = { "pid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[H_TID] = { "tid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
};
static struct out_col hcols_tid[ARRAY_SIZE(hcols)];
static struct out_table htable = { NULL, hcols, ARRAY_SIZE(hcols), 0 };

static int on_shm(const struct shm_event *e)
{
	static const char *const sysname[] = { "SHMGET", "SHMAT", "SHMDT", "SHMCTL" };
	union out_val v[ARRAY_SIZE(hcols)];
	struct strbuf a = { 0 };
	char comm[EV_COMM_LEN + 1], cmd[32];

	ev_comm(comm, e->comm);
	if (env.name && !strstr(comm, env.name))
		return 0;
	if (!env.first_ns)
		env.first_ns = e->ts_ns;
	strbuf_reset(&a);
	switch (e->sys) {
	case SYS_SHMGET:
		strbuf_addf(&a, "key: 0x%llx, size: %llu, shmflg: ", e->key, e->size);
		flags_str(&a, e->shmflg, shmget_flags);
		break;
	case SYS_SHMAT:
		strbuf_addf(&a, "shmid: 0x%llx, shmaddr: 0x%llx, shmflg: ", e->shmid, e->shmaddr);
		flags_str(&a, e->shmflg, shmat_flags);
		break;
	case SYS_SHMDT:
		strbuf_addf(&a, "shmaddr: 0x%llx", e->shmaddr);
		break;
	case SYS_SHMCTL:
		strbuf_addf(&a, "shmid: 0x%llx, cmd: %llu (%s), buf: 0x%llx", e->shmid, e->cmd,
			    shmctl_cmd(e->cmd, cmd, sizeof(cmd)), e->buf);
		break;
	}
	v[H_TS].f = (double)((e->ts_ns - env.first_ns) / 1000) / 1e6;
	v[H_ID].i = env.tid ? e->tid : e->pid;
	v[H_COMM].s = comm;
	v[H_SYS].s = e->sys >= 0 && e->sys < 4 ? sysname[e->sys] : "N/A";
	v[H_RET].u = (unsigned long long)e->ret;
	v[H_ARGS].s = a.s;
	v[H_PID].i = e->pid;
	v[H_TID].i = e->tid;
	out_row(&htable, v);
	strbuf_free(&a);
	return 0;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	unsigned int type; /* after the head, at the same offset in both */

	(void)ctx;
	if (size < offsetof(struct mmap_event, type) + sizeof(type))
		return 0;
	memcpy(&type, (const char *)data + offsetof(struct mmap_event, type), sizeof(type));
	if (size >= sizeof(struct mmap_event) && type == EV_MMAP)
		return on_mmap(data);
	if (size >= sizeof(struct shm_event) && type == EV_SHM)
		return on_shm(data);
	return 0;
}

int mmapsnoop_main(int argc, char **argv)
{
	static const char *const progs[] = { "mmap_enter" };
	struct tool_events te = { .name = "mmapsnoop", .on_event = on_event, .header = &mtable };
	struct obj *o;

	opt_parse(argc, argv, &mmap_help, mmap_parse, NULL);
	tool_signals();
	o = open_syssnoop(progs, 1, env.pid, 0);
	map_set_autocreate(obj_map(o, "counts"), false);
	map_set_autocreate(obj_map(o, "stackmap"), false);
	map_set_autocreate(obj_map(o, "shm_args"), false);
	out_show(&mtable, M_TIME, env.time);
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	return tool_run_events(o, &te);
}

int shmsnoop_main(int argc, char **argv)
{
	static const char *const progs[] = { "shmget_enter", "shmat_enter", "shmdt_enter", "shmctl_enter",
					     "shmget_exit", "shmat_exit", "shmdt_exit", "shmctl_exit" };
	struct tool_events te = { .name = "shmsnoop", .on_event = on_event, .header = &htable };
	struct obj *o;

	opt_parse(argc, argv, &shm_help, shm_parse, NULL);
	tool_signals();
	o = open_syssnoop(progs, 8, env.tid ? 0 : env.pid, env.tid);
	map_set_autocreate(obj_map(o, "counts"), false);
	map_set_autocreate(obj_map(o, "stackmap"), false);
	if (env.tid) { /* bcc: the first column becomes TID */
		memcpy(hcols_tid, hcols, sizeof(hcols));
		hcols_tid[H_ID].head = "TID";
		htable.cols = hcols_tid;
	}
	out_show(&htable, H_TS, env.time);
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	return tool_run_events(o, &te);
}

/* ---- brkstack -------------------------------------------------------- */

static const struct opt brk_opts[] = {
	{ 'p', "pid", "PID", "only brk() calls of this process" },
	{ 'd', "duration", "DURATION", "trace for DURATION seconds (default: until Ctrl-C)" },
	{ 'f', "folded", NULL, "folded output (comm;frames count), for flame graphs" },
	{ 0 },
};

static const struct tool_help brk_help = {
	.usage = "[-h] [-p PID] [-d DURATION] [-f]",
	.examples = "    brkstack            # brk() calls by user stack and process name, until Ctrl-C\n",
	.opts = brk_opts,
};

static bool brk_folded;

static int brk_parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&brk_help, "PID", arg); break;
	case 'd': env.duration = (long)opt_num(&brk_help, "DURATION", arg, 1, INT_MAX); break;
	case 'f': brk_folded = true; break;
	default: return 1;
	}
	return 0;
}

int brkstack_main(int argc, char **argv)
{
	static const char *const progs[] = { "brk_enter" };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &brk_help, brk_parse, NULL);
	tool_signals();
	o = open_syssnoop(progs, 1, env.pid, 0);
	map_set_autocreate(obj_map(o, "shm_args"), false);
	map_set_autocreate(obj_map(o, "events"), false);
	if (tool_load_attach(o, "brkstack"))
		return 1;
	if (!brk_folded)
		btmap_attaching(1);
	tool_flush();
	if (env.duration)
		tool_sleep_ms(env.duration * 1000);
	else
		while (!tool_exiting)
			tool_sleep_ms(1000000);
	ret = btmap_print(o, "brkstack", BTMAP_USTACK_COMM, brk_folded);
	obj_close(o);
	return ret;
}
