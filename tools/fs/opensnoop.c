/* applet opensnoop: trace open() family syscalls
 * readme: `open`/`openat`/`openat2` with PID, FD, error and path
 *
 * libbpf-tools compatible flags and output, plus bcc's -f flag filter. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bpf/perf.h"
#include "tools/common/common.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/util.h"
#include "opensnoop.h"

BPF_OBJ_DECLARE(opensnoop);

static struct {
	int pid, tid;
	unsigned int uid;
	long duration;
	int timestamp;  /* -T */
	int print_uid;  /* -U */
	int extended;   /* -e */
	int failed;     /* -x */
	int full_path;  /* -F */
	const char *name;
	unsigned int flags_mask; /* -f */
	int want_rdonly;
} env = {
	.uid = OPENSNOOP_INVALID_UID,
};

static const struct opt opts[] = {
	{ 'd', "duration", "DURATION", "trace for this many seconds, then exit" },
	{ 'e', "extended-fields", NULL, "add the FLAGS (octal) and MODE columns" },
	{ 'n', "name", "NAME", "only show processes whose name contains NAME" },
	{ 'p', "pid", "PID", "only trace this process id" },
	{ 't', "tid", "TID", "only trace this thread id" },
	{ 'T', "timestamp", NULL, "add a HH:MM:SS column" },
	{ 'u', "uid", "UID", "only trace this user id" },
	{ 'U', "print-uid", NULL, "add a UID column" },
	{ 'x', "failed", NULL, "only show opens that failed" },
	{ 'F', "full-path", NULL, "prefix relative paths with the process's working directory" },
	{ 'f', "flag_filter", "FLAG", "only show opens with this flag (O_WRONLY, O_CREAT, ...); repeatable" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-T] [-U] [-x] [-p PID] [-t TID] [-u UID] [-d DURATION]\n"
		 "                 [-n NAME] [-e] [-F] [-f FLAG]",
	.examples = "  opensnoop            # every open\n"
		    "  opensnoop -T         # with a HH:MM:SS column\n"
		    "  opensnoop -U         # with a UID column\n"
		    "  opensnoop -x         # only failed opens\n"
		    "  opensnoop -p 181     # only process 181\n"
		    "  opensnoop -t 123     # only thread 123\n"
		    "  opensnoop -u 1000    # only user id 1000\n"
		    "  opensnoop -d 10      # trace for 10 seconds\n"
		    "  opensnoop -n main    # only process names containing \"main\"\n"
		    "  opensnoop -e         # with flags and mode\n"
		    "  opensnoop -F         # full paths\n"
		    "  opensnoop -f O_WRONLY -f O_RDWR   # only opens for writing\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

/* Kernel open flag bits by name (the libc values are the kernel's, except
 * O_LARGEFILE which libc may define as 0 on 64-bit targets). */
static const struct {
	const char *name;
	unsigned int bits;
} oflags[] = {
	{ "O_RDONLY", 0 },
	{ "O_WRONLY", O_WRONLY },
	{ "O_RDWR", O_RDWR },
	{ "O_CREAT", O_CREAT },
	{ "O_EXCL", O_EXCL },
	{ "O_NOCTTY", O_NOCTTY },
	{ "O_TRUNC", O_TRUNC },
	{ "O_APPEND", O_APPEND },
	{ "O_NONBLOCK", O_NONBLOCK },
	{ "O_NDELAY", O_NONBLOCK },
	{ "O_DSYNC", O_DSYNC },
	{ "O_ASYNC", O_ASYNC },
	{ "O_DIRECT", O_DIRECT },
#if defined(__x86_64__) || defined(__i386__)
	{ "O_LARGEFILE", 0100000 },
#elif defined(__aarch64__) || defined(__arm__)
	{ "O_LARGEFILE", 0400000 },
#endif
	{ "O_DIRECTORY", O_DIRECTORY },
	{ "O_NOFOLLOW", O_NOFOLLOW },
	{ "O_NOATIME", O_NOATIME },
	{ "O_CLOEXEC", O_CLOEXEC },
	{ "O_SYNC", O_SYNC },
	{ "O_RSYNC", O_SYNC },
	{ "O_PATH", O_PATH },
	{ "O_TMPFILE", O_TMPFILE },
};

static int add_flag(const char *arg)
{
	char want[32];
	size_t i;

	if (!arg || strlen(arg) + 3 > sizeof(want))
		return -1;
	snprintf(want, sizeof(want), "%s%s", strncasecmp(arg, "O_", 2) ? "O_" : "", arg);
	for (i = 0; i < ARRAY_SIZE(oflags); i++) {
		if (strcasecmp(oflags[i].name, want))
			continue;
		if (oflags[i].bits == 0)
			env.want_rdonly = 1;
		else
			env.flags_mask |= oflags[i].bits;
		return 0;
	}
	return -1;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'd': env.duration = (long)opt_num(&help, "duration", arg, 1, 100000000); break;
	case 'e': env.extended = 1; break;
	case 'n': env.name = arg; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.tid = opt_pid(&help, "TID", arg); break;
	case 'T': env.timestamp = 1; break;
	case 'u':
		env.uid = (unsigned int)opt_num(&help, "UID", arg, 0, (long long)OPENSNOOP_INVALID_UID - 1);
		break;
	case 'U': env.print_uid = 1; break;
	case 'x': env.failed = 1; break;
	case 'F': env.full_path = 1; break;
	case 'f':
		if (add_flag(arg))
			opt_usage_error(&help, "unknown open flag '%s' (try O_WRONLY, O_CREAT, ...)", arg);
		break;
	default: return 1;
	}
	return 0;
}

static struct opensnoop_event ev_copy;

static const char *slot(const struct opensnoop_event *e, int i)
{
	return e->fname + (size_t)i * OPENSNOOP_NAME_MAX;
}

/* The path as libbpf-tools prints it (with -F, the cwd components the
 * BPF side walked, root side first). */
static void build_path(const struct opensnoop_event *e, struct strbuf *b)
{
	const char *f0 = slot(e, 0);
	int d;

	strbuf_reset(b);
	if (!env.full_path || f0[0] == '/' || !f0[0]) {
		strbuf_add(b, f0);
		return;
	}
	/* cwd components, root side first; a mount root's "/" adds nothing;
	 * when the walk stopped early the top part has no leading '/' */
	for (d = e->path_depth; d >= 1; d--) {
		const char *c = slot(e, d);

		if (c[0] == '/' && c[1] == 0)
			continue;
		if (!(e->get_path_failed && d == e->path_depth))
			strbuf_addc(b, '/');
		strbuf_add(b, c);
	}
	if (!(e->get_path_failed && e->path_depth == 0))
		strbuf_addc(b, '/');
	strbuf_add(b, f0);
}

enum { C_TIME, C_UID, C_PID, C_COMM, C_FD, C_ERR, C_FLAGS, C_MODE, C_MODE_NUM, C_PATH };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_UID] = { "uid", "UID", "%-7d ", OUT_INT },
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_FD] = { "fd", "FD", "%3d ", OUT_INT },
	[C_ERR] = { "err", "ERR", "%3d ", OUT_INT },
	[C_FLAGS] = { "flags", "FLAGS", "%08o ", OUT_INT },
	[C_MODE] = { NULL, "MODE", "%-4s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-5s " },
	[C_MODE_NUM] = { "mode", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_PATH] = { "path", "PATH", "%s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct opensnoop_event *e = &ev_copy;
	size_t hdr = offsetof(struct opensnoop_event, fname);
	static struct strbuf path;
	union out_val v[ARRAY_SIZE(cols)];
	char hms[16], mode[8];
	int depth;

	(void)ctx;
	if (size < hdr)
		return 0;
	if (size > sizeof(*e))
		size = sizeof(*e);
	/* copy: perf buffer records are not aligned */
	memcpy(e, data, size);
	memset((char *)e + size, 0, sizeof(*e) - size);
	/* keep every string terminated whatever the kernel sent */
	depth = e->path_depth;
	if (depth < 0 || depth >= OPENSNOOP_MAX_DEPTH)
		depth = 0;
	e->path_depth = depth;
	if (env.full_path)
		for (int i = 0; i < OPENSNOOP_MAX_DEPTH; i++)
			e->fname[(size_t)i * OPENSNOOP_NAME_MAX + OPENSNOOP_NAME_MAX - 1] = 0;
	else
		e->fname[sizeof(e->fname) - 1] = 0;
	e->comm[sizeof(e->comm) - 1] = 0;

	if (env.name && !strstr(e->comm, env.name))
		return 0;

	v[C_TIME].s = env.timestamp ? tool_hms(hms, sizeof(hms)) : NULL;
	v[C_UID].i = (int)e->uid;
	v[C_PID].i = e->pid;
	v[C_COMM].s = e->comm;
	v[C_FD].i = e->ret >= 0 ? e->ret : -1;
	v[C_ERR].i = e->ret >= 0 ? 0 : -e->ret;
	v[C_FLAGS].i = (unsigned int)e->flags;
	/* the mode means something only when the call may create a file */
	if (e->mode == 0 && !(e->flags & O_CREAT) && (e->flags & O_TMPFILE) != O_TMPFILE) {
		v[C_MODE].s = "n/a";
		v[C_MODE_NUM].i = -1;
	} else {
		snprintf(mode, sizeof(mode), "%04o", (unsigned int)e->mode & 07777);
		v[C_MODE].s = mode;
		v[C_MODE_NUM].i = e->mode;
	}
	build_path(e, &path);
	v[C_PATH].s = path.s;
	out_row(&table, v);
	return 0;
}

int opensnoop_main(int argc, char **argv)
{
	static const char *const variants[] = { "open", "openat", "openat2" };
	struct tool_events te = { .name = "opensnoop", .on_event = on_event, .header = &table };
	struct obj *o;
	size_t i;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();

	o = BPF_OBJ_OPEN(opensnoop);
	OBJ_SET(o, targ_tgid, (int)env.pid);
	OBJ_SET(o, targ_tid, (int)env.tid);
	OBJ_SET(o, targ_uid, (unsigned int)env.uid);
	OBJ_SET(o, targ_failed, (int)env.failed);
	OBJ_SET(o, full_path, (int)env.full_path);
	OBJ_SET(o, flags_mask, (unsigned int)env.flags_mask);
	OBJ_SET(o, want_rdonly, (int)env.want_rdonly);

	/* open() does not exist on arm64, openat2() before 5.6 */
	for (i = 0; i < ARRAY_SIZE(variants); i++) {
		char enter[48], exit_[48], tp_enter[48];

		snprintf(tp_enter, sizeof(tp_enter), "sys_enter_%s", variants[i]);
		if (perf_tp_exists("syscalls", tp_enter))
			continue;
		snprintf(enter, sizeof(enter), "opensnoop_enter_%s", variants[i]);
		snprintf(exit_, sizeof(exit_), "opensnoop_exit_%s", variants[i]);
		if (obj_prog(o, enter))
			prog_set_autoload(obj_prog(o, enter), false);
		if (obj_prog(o, exit_))
			prog_set_autoload(obj_prog(o, exit_), false);
	}
	out_show(&table, C_TIME, env.timestamp);
	out_show(&table, C_UID, env.print_uid);
	out_show(&table, C_FLAGS, env.extended);
	out_show(&table, C_MODE, env.extended);
	out_show(&table, C_MODE_NUM, env.extended);
	te.duration_ns = (uint64_t)env.duration * 1000000000ull;
	return tool_run_events(o, &te);
}
