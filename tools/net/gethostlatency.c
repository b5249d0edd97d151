/* applet gethostlatency: latency of getaddrinfo/gethostbyname[2] calls
 * readme: host name lookups through the C library (getaddrinfo, gethostbyname[2]): latency and
 *         the name asked for (uprobes)
 *
 * libbpf-tools' 0.26 flags and columns: TIME (the wall clock at the
 * return), PID, COMM, LATms (%-10.3f), HOST (up to 79 bytes).  The library
 * is -l LIBC, else glibc's libc.so.6 in the usual directories (libbpf-
 * tools looks in its own /proc/self/maps, which a static binary lacks). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "gethostlatency.h"

BPF_OBJ_DECLARE(gethostlatency);

#if defined(__aarch64__)
#define TRIPLET "aarch64-linux-gnu"
#else
#define TRIPLET "x86_64-linux-gnu"
#endif

static const char *const funcs[] = { "getaddrinfo", "gethostbyname", "gethostbyname2" };

static struct {
	int pid;
	const char *libc;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 'l', "libc", "LIBC", "Specify which libc.so to use" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-l LIBC]",
	.examples = "    gethostlatency             # time getaddrinfo/gethostbyname[2] calls\n"
		    "    gethostlatency -p 1216     # only trace PID 1216\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'l':
		if (access(arg, F_OK))
			opt_usage_error(&help, "Invalid libc: %s", arg);
		env.libc = arg;
		break;
	default: return 1;
	}
	return 0;
}

/* How many of funcs the ELF file at path defines (0: not an ELF file). */
static int lookups_in(const char *path)
{
	struct elf_view ev;
	const void *data;
	size_t size;
	uint64_t off;
	int n = 0;

	if (access(path, R_OK) || elf_map_file(path, &data, &size) < 0) {
		err_clear();
		return 0;
	}
	if (elf_open(&ev, data, size) == 0)
		for (size_t i = 0; i < ARRAY_SIZE(funcs); i++)
			n += elf_func_file_offset(&ev, funcs[i], &off) == 0;
	elf_unmap_file(data, size);
	err_clear();
	return n;
}

static const char *find_libc(char *path, size_t size)
{
	static const char *const dirs[] = { "/lib/" TRIPLET, "/usr/lib/" TRIPLET, "/lib64", "/usr/lib64",
					    "/lib", "/usr/lib" };

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		snprintf(path, size, "%s/libc.so.6", dirs[d]);
		if (lookups_in(path) == (int)ARRAY_SIZE(funcs))
			return path;
	}
	return NULL;
}

enum { C_TIME, C_PID, C_COMM, C_LAT, C_HOST };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_LAT] = { "lat_ms", "LATms", "%-10.3f ", OUT_FLOAT, .hfmt = "%-10s " },
	[C_HOST] = { "host", "HOST", "%-s\n", OUT_STR },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct gethostlatency_event e;
	char comm[EV_COMM_LEN + 1], hms[16], host[GETHOST_LEN + 1];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	memcpy(host, e.host, GETHOST_LEN);
	host[GETHOST_LEN] = 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_LAT].f = (double)e.time / 1000000;
	v[C_HOST].s = host;
	out_row(&table, v);
	return 0;
}

int gethostlatency_main(int argc, char **argv)
{
	struct tool_events te = { .name = "gethostlatency", .on_event = on_event, .header = &table };
	char libc[256], target[600];
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.libc && !(env.libc = find_libc(libc, sizeof(libc)))) {
		tool_err("gethostlatency", "could not find libc.so (glibc's libc.so.6 with getaddrinfo, "
			 "gethostbyname and gethostbyname2): name one with -l LIBC");
		return 1;
	}
	tool_signals();
	o = BPF_OBJ_OPEN(gethostlatency);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	for (size_t i = 0; i < ARRAY_SIZE(funcs); i++) {
		static const char *const progs[][2] = {
			{ "getaddrinfo_entry", "getaddrinfo_return" },
			{ "gethostbyname_entry", "gethostbyname_return" },
			{ "gethostbyname2_entry", "gethostbyname2_return" },
		};

		snprintf(target, sizeof(target), "%s:%s", env.libc, funcs[i]);
		for (int r = 0; r < 2; r++) {
			struct prog *p = obj_prog(o, progs[i][r]);

			prog_set_attach_target(p, target);
			if (env.pid)
				prog_set_uprobe_pid(p, env.pid);
		}
	}
	return tool_run_events(o, &te);
}
