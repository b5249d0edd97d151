/* applet bpftrace: the bpftrace language without LLVM: probes, maps, printf, hist, stacks
 * readme: bpftrace programs (`bpftrace -e 'tracepoint:syscalls:sys_enter_openat { @[comm] = count(); }'`)
 *         compiled by corebox's own code generator; output as bpftrace 0.17
 *
 * The program is parsed and typed by tools/probe/bt_*.c, each attach
 * point resolved like trace resolves its probes, one program per location
 * generated on the shared code generator and loaded through loader/gen.c.
 * BEGIN and END run once with BPF_PROG_TEST_RUN; interval, profile and
 * software probes are perf events opened here.  Records (printf, exit,
 * print...) come through one ring buffer; maps are printed at exit. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/insn_dump.h"
#include "bpf/kallsyms.h"
#include "bpf/perf.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "bpf/tracefs.h"
#include "btf/btf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/bpftrace/bt_print.h"
#include "tools/bpftrace/bt_verbose.h"
#include "tools/common/common.h"
#include "tools/probe/bt.h"
#include "tools/probe/build.h"

/* In 0.17's order and words: -h prints them in its USAGE layout (bt_usage.c). */
static const struct opt opts[] = {
	{ 'f', NULL, "FORMAT", "output format ('text', 'json')" },
	{ 'o', NULL, "file", "redirect bpftrace output to file" },
	{ 'e', NULL, "'program'", "execute this program" },
	{ 'I', NULL, "DIR", "add the directory to the include search path" },
	{ OPT_LONG_ONLY(2), "include", "FILE", "add an #include file before preprocessing" },
	{ 'l', NULL, NULL, "list probes" },
	{ 'p', NULL, "PID", "enable USDT probes on PID" },
	{ 'c', NULL, "'CMD'", "run CMD and enable USDT probes on resulting process" },
	{ OPT_LONG_ONLY(4), "usdt-file-activation", NULL, "activate usdt semaphores based on file path" },
	{ OPT_LONG_ONLY(1), "unsafe", NULL, "allow unsafe builtin functions" },
	{ 'q', NULL, NULL, "keep messages quiet" },
	{ OPT_LONG_ONLY(3), "info", NULL, "Print information about kernel BPF support" },
	{ 'k', NULL, NULL, "emit a warning when a bpf helper returns an error (except read functions)" },
	{ 'd', NULL, NULL, "(dry run) debug info" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[options] filename\n       bpftrace [options] -e 'program' [ARG...]",
	.opts = opts,
	.flags = OPT_NO_JSON,
};

/* One attach point's location (a tracepoint or function matched, a perf
 * event, BEGIN/END). */
struct att {
	int probe;
	struct loc loc;
	char *name;          /* what `probe` says */
	char *func;
	int perf_type;       /* M_PERF: PERF_TYPE_SOFTWARE ... */
	uint64_t config, period;
	bool freq, one_cpu;
	bool begin, end;
	int prog;
};

static struct {
	const char *prog_text, *file, *format, *cmd, *out_file;
	bool list, dump, unsafe, quiet;
	int pid, helper_check;
	char **incdirs, **includes;
	int nincdirs, nincludes;
	char **params;
	int nparams;
	struct att *att;
	int natt;
	struct drop { /* a uprobe/usdt probe its binary does not have */
		int probe, ap;
		char *msg;
	} *drop;
	int ndrop;
	struct bt_prog bp;
	struct bt_out out;
	bool done, ending;
	int verbose, child_status; /* -v; -c: how the command ended by itself (-1: it did not) */
	FILE *vout;                /* -v's stdout (-o takes the other) */
	struct mset { /* atts a0.. a0+n-1 on one program (add_multi) */
		int a0, n, names;
		const struct bt_maps *maps;
		bool ring;
		int pos, end; /* a compile error's */
	} *mset;
	int nmset;
} env;

/* -p PID: 0.17's checks and words (exit 1). */
static int bt_pid_arg(const char *arg)
{
	char *end, path[32];
	long long pid, max = 4194304; /* the kernel's PID_MAX_LIMIT, as 0.17 says */

	errno = 0;
	pid = strtoll(arg, &end, 10);
	if (!*arg || *end || errno || !isdigit((unsigned char)*arg)) {
		fprintf(stderr, "ERROR: pid '%s' is not a valid decimal number\n", arg);
		exit(1);
	}
	if (pid < 1 || pid > max) {
		fprintf(stderr, "ERROR: pid '%s' out of valid pid range [1,%lld]\n", arg, max);
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/%lld", pid);
	if (access(path, F_OK) < 0) {
		fprintf(stderr, "ERROR: no process with pid %lld\n", pid);
		exit(1);
	}
	return (int)pid;
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'e': env.prog_text = arg; break;
	case 'f': env.format = arg; break;
	case 'l': env.list = true; break;
	case 'p': env.pid = bt_pid_arg(arg); break;
	case 'q': env.quiet = true; break;
	case 'k': env.helper_check++; break;
	case 'I':
		env.incdirs = xrealloc(env.incdirs, (size_t)(env.nincdirs + 1) * sizeof(char *));
		env.incdirs[env.nincdirs++] = (char *)arg;
		break;
	case OPT_LONG_ONLY(2):
		env.includes = xrealloc(env.includes, (size_t)(env.nincludes + 1) * sizeof(char *));
		env.includes[env.nincludes++] = (char *)arg;
		break;
	case OPT_LONG_ONLY(3): exit(bt_info()); /* nothing else runs, as 0.17 */
	case 'c': env.cmd = arg; break;
	case 'o': env.out_file = arg; break;
	case 'd': env.dump = true; break;
	case OPT_LONG_ONLY(1): env.unsafe = true; break;
	case OPT_LONG_ONLY(4): break; /* what it asks is always so: the kernel keeps every USDT semaphore of the
				       * file (uprobe ref_ctr_offset), in processes running or yet to start */
	case 0:
		if (!env.prog_text && !env.file && !env.list) {
			env.file = arg;
			break;
		}
		if (env.list && !env.file) {
			env.file = arg;
			break;
		}
		env.params = xrealloc(env.params, (size_t)(env.nparams + 1) * sizeof(char *));
		env.params[env.nparams++] = (char *)arg;
		break;
	default: return 1;
	}
	return 0;
}

static struct att *new_att(int probe)
{
	struct att *a;

	env.att = xrealloc(env.att, (size_t)(env.natt + 1) * sizeof(*env.att));
	a = &env.att[env.natt++];
	memset(a, 0, sizeof(*a));
	a->probe = probe;
	a->prog = -1;
	return a;
}

static const struct { const char *name; uint64_t config; uint64_t period; } sw_events[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK, 1000000 }, { "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000 },
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK, 1000000 },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS, 100 }, { "faults", PERF_COUNT_SW_PAGE_FAULTS, 100 },
	{ "page-fault", PERF_COUNT_SW_PAGE_FAULTS, 100 },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000 }, { "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000 },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN, 100 }, { "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1 },
	{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS, 1 }, { "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS, 1 },
	{ "dummy", PERF_COUNT_SW_DUMMY, 1 }, { "bpf-output", PERF_COUNT_SW_BPF_OUTPUT, 1 },
};

/* perf's generic hardware events (PERF_TYPE_HARDWARE), as -l lists them,
 * with perf's aliases and 0.17's default counts */
static const struct { const char *name, *alias; uint32_t config; uint32_t period; } hw_events[] = {
	{ "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000 },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS, 1000000 },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES, 1000000 },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES, 1000000 },
	{ "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000 },
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES, 100000 },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES, 100000 },
	{ "frontend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000 },
	{ "backend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000 },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES, 1000000 },
};

/* "ms:100" -> nanoseconds; "hz:99" -> frequency.  false when malformed. */
static bool rate(const char *unit, const char *num, struct att *a)
{
	char *end;
	unsigned long long n = strtoull(num, &end, 10);

	if (!*num || *end || !n)
		return false;
	a->perf_type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	if (!strcmp(unit, "hz")) {
		a->freq = true;
		a->period = n;
	} else if (!strcmp(unit, "s")) {
		a->period = n * 1000000000ull;
	} else if (!strcmp(unit, "ms")) {
		a->period = n * 1000000ull;
	} else if (!strcmp(unit, "us")) {
		a->period = n * 1000ull;
	} else {
		return false;
	}
	return true;
}

/* Split "a:b:c" in place into at most 4 parts.  Text in double quotes
 * is taken as it is, ':' included, without the quotes (\" and \\ inside
 * are '"' and '\'): usdt:BIN:test:"\"probe1\"", uprobe:BIN:"A::f". */
int bt_split(char *s, char **part)
{
	int n = 0;
	bool quoted = false;
	char *w = s;

	part[n++] = s;
	for (char *p = s; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (quoted && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
			*w++ = *++p;
		else if (!quoted && *p == ':' && n < 4)
			*w++ = 0, part[n++] = w;
		else
			*w++ = *p;
	}
	*w = 0;
	return n;
}

/* The binaries a uprobe or usdt path names, each given to fn as the path
 * to show: the path itself; each executable file a '*' in its last
 * component matches (DIR/NAME); with -p and no path (or "*") for usdt,
 * each file the process maps executable, as /proc/PID/root/PATH (the
 * process may live in another mount namespace).  fn's first non-zero
 * return stops it. */
static int each_binary(const char *bin, bool modules, int (*fn)(const char *path, void *ctx), void *ctx)
{
	const char *slash = strrchr(bin, '/');
	char path[4200], line[4096], last[4096] = "";
	int rc = 0;

	if (modules && env.pid && (!*bin || !strcmp(bin, "*"))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/maps", env.pid);
		if (!(f = fopen(path, "re")))
			return tool_err("bpftrace", "cannot read %s: %s", path, strerror(errno)), 1;
		while (!rc && fgets(line, sizeof(line), f)) {
			char *p = strchr(line, '/'), *perms = strchr(line, ' '); /* "START-END PERMS ..." */

			if (!p || !perms || strlen(perms) < 4 || perms[3] != 'x')
				continue;
			p[strcspn(p, "\n")] = 0;
			if (strstr(p, " (deleted)") || !strcmp(p, last))
				continue;
			snprintf(last, sizeof(last), "%s", p);
			snprintf(path, sizeof(path), "/proc/%d/root%s", env.pid, p);
			rc = fn(path, ctx);
		}
		fclose(f);
		return rc;
	}
	if (slash && strchr(slash, '*')) { /* ./dir/prog*: each program it matches */
		struct dirent *e;
		DIR *d;

		snprintf(line, sizeof(line), "%.*s", (int)(slash - bin) + 1, bin);
		if (!(d = opendir(line)))
			return tool_err("bpftrace", "cannot read %s: %s", line, strerror(errno)), 1;
		while (!rc && (e = readdir(d)))
			if (e->d_name[0] != '.' && glob_match(slash + 1, e->d_name) &&
			    snprintf(path, sizeof(path), "%s%s", line, e->d_name) > 0 && access(path, X_OK) == 0)
				rc = fn(path, ctx); /* programs only: a source file passes silently */
		closedir(d);
		return rc;
	}
	return fn(bin, ctx);
}

/* Whether the one binary a uprobe or usdt attach point names (bin as
 * typed; find: the name the library search takes) is there: 1 yes, 0 it
 * names none or many (empty, a '*': each_binary's part), -1 no, with
 * 0.17's words for that in msg. */
static int target_found(const char *type, const char *bin, const char *find, char *msg, size_t size)
{
	char *path;

	if (!*bin || strchr(bin, '*'))
		return 0;
	if ((path = probe_find_library(find, env.pid))) {
		free(path);
		return 1;
	}
	snprintf(msg, size, "%s target file '%.500s' does not exist or is not executable", type, bin);
	return -1;
}

static int attach_error(int probe, int ap, const char *msg)
{
	const struct bt_attach *a = &env.bp.p[probe].ap[ap];

	bt_report(env.file ? env.file : "stdin", env.bp.text, a->pos, a->end, msg);
	return -1;
}

/* A wrong number of parts, in 0.17's words (kind: the probe type's full name) */
static int nargs_error(int pi, int ap, const char *kind, const char *n)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "%s probe type requires %s argument%s", kind, n, strcmp(n, "1") ? "s" : "");
	return attach_error(pi, ap, msg);
}

/* A tracepoint of that event name in some category: what the kernel's
 * raw tracepoint open will look for. */
static bool raw_tp_exists(const char *ev)
{
	char path[600];
	struct dirent *c;
	struct stat st;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", tracefs_root());
	d = opendir(path);
	while (d && !found && (c = readdir(d))) {
		if (c->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs_root(), c->d_name, ev);
		found = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	}
	if (d)
		closedir(d);
	return found;
}

/* uprobe:BIN:FUNC+OFF, uprobe:BIN:"FUNC"+OFF and uprobe:BIN:ADDRESS as
 * 0.17 takes them: s->func becomes the function's name; the address
 * probe's address is returned (0: none; UINT64_MAX: refused, said).  An
 * offset inside a function is refused as 0.17 (Debian's) refuses it: on
 * x86 nothing here can tell an instruction boundary from the middle of an
 * instruction, where a breakpoint would corrupt the code. */
static uint64_t uprobe_spot(struct spec *s, const char *bin)
{
	char *f = s->func, *rest, fn[256];
	uint64_t at = 0, off = 0, start, len;

	if (*f == '"' && (rest = strchr(f + 1, '"'))) { /* "NAME"+OFF -> NAME+OFF */
		memmove(rest, rest + 1, strlen(rest));
		memmove(f, f + 1, strlen(f));
	}
	rest = strchr(f, '+');
	if (rest && *rest == '+') {
		char *end;

		off = strtoull(rest + 1, &end, 0);
		if (rest[1] && !*end)
			*rest = 0;
		else
			off = 0;
	}
	if (isdigit((unsigned char)*f)) {
		char *end;

		at = strtoull(f, &end, 0);
		if (*end)
			at = 0;
	}
	if (at) {
		if (probe_ufunc_find(s->lib, env.pid, NULL, at, fn, sizeof(fn), &start, &len) < 0) {
			fprintf(stderr, "ERROR: Could not resolve address: %s:0x%llx\n", bin, (unsigned long long)at);
			return UINT64_MAX;
		}
		off = at - start;
	} else if (off && probe_ufunc_find(s->lib, env.pid, f, 0, fn, sizeof(fn), &start, &len) == 0 && off >= len) {
		fprintf(stderr, "ERROR: Offset outside the function bounds ('%s' size is %llu)\n", fn, (unsigned long long)len);
		return UINT64_MAX;
	}
	if (off) {
		fprintf(stderr, "ERROR: Can't check if uprobe is in proper place (compiled without (k|u)probe offset support): %s:%s+%llu\n",
			bin, at ? fn : f, (unsigned long long)off);
		return UINT64_MAX;
	}
	if (at) {
		free(s->func);
		s->func = xstrdup(fn);
	}
	return at;
}

/* 0.17 refuses these (attach_probe.cpp): a kretprobe's trampoline takes
 * the same locks. */
static bool banned_kretprobe(const char *kind, const char *func)
{
	static const char *const banned[] = { "_raw_spin_lock", "_raw_spin_lock_irqsave", "_raw_spin_unlock_irqrestore",
					      "queued_spin_lock_slowpath" };

	for (size_t i = 0; !strcmp(kind, "kretprobe") && i < ARRAY_SIZE(banned); i++)
		if (!strcmp(func, banned[i])) {
			fprintf(stderr, "ERROR: error: kretprobe:%s can't be used as it might lock up your system.\n", func);
			return true;
		}
	return false;
}

/* Atts of probe pi for the nl locations resolved (locs is freed, its
 * strings move into the atts); shown: a user binary as the probe names it
 * (0.17: the path as typed, ./prog; NULL: the file found, for a library). */
static void add_atts(int pi, const struct spec *s, struct loc *locs, int nl, const char *kind, const char *shown,
		     uint64_t uaddr)
{
	char name[1200];

	/* build_attach attaches probe kinds the kernel runs newest first
	 * (kprobe, uprobe, usdt, fentry) last to first, so one block's
	 * locations go in backwards: they attach in their own order (a
	 * running process hits the first site first), and blocks sharing a
	 * location still run in program order */
	for (int j = 0; j < nl; j++) {
		int i = s->type == 't' ? j : nl - 1 - j;
		struct att *a = new_att(pi);
		const char *bin = shown ? shown : locs[i].target;

		a->loc = locs[i];
		if (a->loc.mech == M_SYSCALL && env.bp.uses_kstack)
			a->loc.mech = M_TP; /* kernel stacks as from the syscall's own tracepoint, not the
					     * raw_syscalls dispatcher's frames */
		if (s->type == 't') {
			const char *slash = strchr(a->loc.target, '/');

			snprintf(name, sizeof(name), "tracepoint:%.*s:%s", slash ? (int)(slash - a->loc.target) : 0,
				 a->loc.target, slash ? slash + 1 : a->loc.target);
		} else if (a->loc.usdt) {
			snprintf(name, sizeof(name), "usdt:%s:%s:%s", bin, a->loc.provider ? a->loc.provider : "", a->loc.name);
		} else if (a->loc.user && uaddr) { /* 0.17 names an address probe by its address, in decimal */
			snprintf(name, sizeof(name), "%s:%s:%llu", kind, bin, (unsigned long long)uaddr);
		} else if (a->loc.user) {
			snprintf(name, sizeof(name), "%s:%s:%s", kind, bin, a->loc.name);
		} else {
			snprintf(name, sizeof(name), "%s:%s", kind, a->loc.name);
		}
		a->name = xstrdup(name);
		a->func = xstrdup(a->loc.name);
	}
	free(locs);
}

struct user_files {
	struct spec *s;
	struct resolve_opts *ro;
	const char *typed, *kind;
	uint64_t uaddr;
	int pi;
	bool ret, many; /* many: a file without the probe is passed over */
	int found;
};

static int resolve_file(const char *file, void *ctx)
{
	struct user_files *u = ctx;
	struct loc *locs = NULL;
	int nl = 0, n;

	if (file != u->typed) {
		free(u->s->lib);
		u->s->lib = xstrdup(file);
	}
	if ((n = probe_resolve(u->s, u->ro, u->ret, &locs, &nl)) < 0) {
		if (!u->many)
			return n;
		err_clear();
		return 0;
	}
	add_atts(u->pi, u->s, locs, nl, u->kind, strchr(file, '/') ? file : NULL, u->uaddr);
	u->found += nl;
	return 0;
}

/* The locations of attach point ap of probe pi. */
static int resolve_attach(int pi, int ap)
{
	char buf[1024], *part[4], name[1200];
	const char *text = env.bp.p[pi].ap[ap].text;
	int n;
	size_t k = 0;

	/* $N in an attach point is the parameter's text (i:ms:$1, BEG$1) */
	for (const char *c = text; *c && k < sizeof(buf) - 1; c++) {
		if (c[0] == '$' && c[1] >= '1' && c[1] <= '9') {
			int i = (int)strtol(c + 1, (char **)&c, 10);

			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s", i <= env.nparams ? env.params[i - 1] : "");
			if (k >= sizeof(buf))
				k = sizeof(buf) - 1;
			c--;
		} else {
			buf[k++] = *c;
		}
	}
	buf[k] = 0;
	if (strchr(text, '$')) { /* what errors and `probe` show */
		free(env.bp.p[pi].ap[ap].text);
		text = env.bp.p[pi].ap[ap].text = xstrdup(buf);
	}
	n = bt_split(buf, part);
	if (!strcmp(part[0], "BEGIN") || !strcmp(part[0], "END")) {
		struct att *a = new_att(pi);

		if (n != 1)
			return nargs_error(pi, ap, part[0], "0");
		a->begin = part[0][0] == 'B';
		a->end = !a->begin;
		a->loc.mech = M_RUN;
		a->name = xstrdup(part[0]);
		return 0;
	}
	if (!strcmp(part[0], "interval") || !strcmp(part[0], "i") || !strcmp(part[0], "profile") ||
	    !strcmp(part[0], "p")) {
		struct att *a = new_att(pi);

		a->loc.mech = M_PERF;
		a->one_cpu = part[0][0] == 'i';
		if (n != 3)
			return nargs_error(pi, ap, a->one_cpu ? "interval" : "profile", "2");
		if (!rate(part[1], part[2], a) || (a->one_cpu && a->freq))
			return attach_error(pi, ap, a->one_cpu ? "interval probe must have unit of time (s, ms, us)"
							     : "profile probe must have unit of time or hz");
		snprintf(name, sizeof(name), "%s:%s:%s", a->one_cpu ? "interval" : "profile", part[1], part[2]);
		a->name = xstrdup(name);
		return 0;
	}
	if (!strcmp(part[0], "software") || !strcmp(part[0], "s") || !strcmp(part[0], "hardware") || !strcmp(part[0], "h")) {
		/* 0.17's checks, in its order and words (its wildcard
		 * message says "hardware" for both) */
		bool hw = part[0][0] == 'h';
		const char *kind = hw ? "hardware" : "software";
		size_t k, nk = hw ? ARRAY_SIZE(hw_events) : ARRAY_SIZE(sw_events);
		unsigned long long count = 0;
		char *end;
		struct att *a;

		if (n != 2 && n != 3)
			snprintf(name, sizeof(name), "%s probe type requires 1 or 2 arguments", kind);
		else if (n == 3 && strcmp(part[2], "*") && (count = strtoull(part[2], &end, 10), !*part[2] || *end))
			snprintf(name, sizeof(name), "stoull");
		else if (!*part[1])
			snprintf(name, sizeof(name), "%s probe must have a %s event name", kind, kind);
		else if (strpbrk(part[1], "*?["))
			snprintf(name, sizeof(name), "wildcards are not allowed for hardware probe type");
		else
			name[0] = 0;
		for (k = 0; !name[0] && k < nk; k++)
			if (hw ? !strcmp(part[1], hw_events[k].name) || (hw_events[k].alias && !strcmp(part[1], hw_events[k].alias))
			       : !strcmp(part[1], sw_events[k].name))
				break;
		if (!name[0] && k == nk)
			snprintf(name, sizeof(name), "%.100s is not a %s probe", part[1], kind);
		if (name[0])
			return attach_error(pi, ap, name);
		a = new_att(pi);
		a->loc.mech = M_PERF;
		a->perf_type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
		a->config = hw ? hw_events[k].config : sw_events[k].config;
		a->period = count ? count : hw ? hw_events[k].period : sw_events[k].period; /* (0: the default) */
		snprintf(name, sizeof(name), "%s:%s:%s", kind, part[1], n >= 3 ? part[2] : "");
		a->name = xstrdup(name);
		return 0;
	}
	if (!strcmp(part[0], "rawtracepoint") || !strcmp(part[0], "rt")) {
		/* a raw tracepoint by its event name (0.17 takes no category) */
		struct att *a;

		if (n != 2 || !*part[1] || strpbrk(part[1], "*?/"))
			return attach_error(pi, ap, "rawtracepoint probe must have a tracepoint name (rawtracepoint:NAME)");
		if (!raw_tp_exists(part[1])) {
			snprintf(name, sizeof(name), "no tracepoint named %.100s in %s/events", part[1], tracefs_root());
			return attach_error(pi, ap, name);
		}
		a = new_att(pi);
		a->loc.mech = M_RAW_TP;
		a->loc.target = xstrdup(part[1]);
		a->loc.name = xstrdup(part[1]);
		snprintf(name, sizeof(name), "rawtracepoint:%s", part[1]);
		a->name = xstrdup(name);
		a->func = xstrdup(part[1]);
		return 0;
	}
	{
		struct spec s = { .text = text };
		struct resolve_opts ro = { .tool = "bpftrace", .pid = env.pid, .limit = 10000, .fields = true, .every_name = true,
					   .no_format = !strstr(env.prog_text, "arg") && !strstr(env.prog_text, "retval") };
		struct loc *locs = NULL;
		int nl = 0;
		bool ret = false;
		const char *kind;
		uint64_t uaddr = 0;

		if (!strcmp(part[0], "tracepoint") || !strcmp(part[0], "t")) {
			if (n != 3)
				return nargs_error(pi, ap, "tracepoint", "2");
			s.type = 't';
			s.lib = xstrdup(part[1]);
			s.func = xstrdup(part[2]);
			kind = "tracepoint";
			ro.pattern = true;
		} else if (!strcmp(part[0], "uprobe") || !strcmp(part[0], "u") || !strcmp(part[0], "uretprobe") ||
			   !strcmp(part[0], "ur")) {
			ret = part[0][1] == 'r';
			if (n != 3)
				return nargs_error(pi, ap, ret ? "uretprobe" : "uprobe", "2");
			s.type = ret ? 'r' : 'p';
			/* bpftrace names a library "libc" where bcc says "c" */
			s.lib = xstrdup(!strchr(part[1], '/') && !strncmp(part[1], "lib", 3) && part[1][3] ? part[1] + 3
											       : part[1]);
			s.func = xstrdup(part[2]);
			kind = ret ? "uretprobe" : "uprobe";
			if ((uaddr = uprobe_spot(&s, part[1])) == UINT64_MAX) {
				spec_free(&s);
				return -1;
			}
		} else if (!strcmp(part[0], "usdt") || !strcmp(part[0], "U")) {
			/* usdt:BINARY:[PROVIDER:]PROBE, found as tplist/trace find them */
			if (n != 3 && n != 4)
				return nargs_error(pi, ap, "usdt", "2 or 3");
			s.type = 'u';
			s.lib = xstrdup(part[1]);
			s.provider = n == 4 && *part[2] ? xstrdup(part[2]) : NULL; /* usdt:BIN::NAME: any */
			s.func = xstrdup(part[n - 1]);
			kind = "usdt";
			ro.pattern = true;
		} else if (!strcmp(part[0], "kprobe") || !strcmp(part[0], "k") || !strcmp(part[0], "kretprobe") ||
			   !strcmp(part[0], "kr") || !strcmp(part[0], "kfunc") || !strcmp(part[0], "kretfunc") ||
			   !strcmp(part[0], "f") || !strcmp(part[0], "fr")) {
			ret = strstr(part[0], "ret") || !strcmp(part[0], "kr") || !strcmp(part[0], "fr");
			kind = part[0][0] == 'k' && (part[0][1] == 'p' || part[0][1] == 'r' || !part[0][1])
				       ? (ret ? "kretprobe" : "kprobe")
				       : (ret ? "kretfunc" : "kfunc");
			if (n != 2) /* (0.17's kfunc:MODULE:FUNC is not taken: "1 or 2" would promise it) */
				return kind[1] == 'p' || kind[4] == 'p' ? nargs_error(pi, ap, kind, "1")
									: attach_error(pi, ap, "kfunc probe must have a function (kfunc:FUNC)");
			s.type = ret ? 'r' : 'p';
			s.lib = xstrdup("");
			s.func = xstrdup(part[1]);
			if (banned_kretprobe(kind, part[1])) {
				spec_free(&s);
				return -1;
			}
		} else {
			char msg[200];

			snprintf(msg, sizeof(msg), "Invalid probe type: %.100s", part[0]);
			return attach_error(pi, ap, msg);
		}
		int there = 0; /* 1: a binary named by path or name, and found */

		if (kind[0] == 'u')
			there = target_found(s.type == 'u' ? "usdt" : "uprobe", part[1], s.lib, name, sizeof(name));

		if (there < 0) {
			spec_free(&s);
			return attach_error(pi, ap, name);
		}
		if (kind[0] == 'u') { /* uprobe, uretprobe, usdt: per binary the path names */
			struct user_files u = { &s, &ro, part[1], kind, uaddr, pi, ret, false, 0 };
			const char *last = strrchr(part[1], '/');

			u.many = (last && strchr(last, '*')) || (s.type == 'u' && env.pid && (!*part[1] || !strcmp(part[1], "*")));
			if ((n = each_binary(part[1], s.type == 'u', resolve_file, &u)) > 0) {
				spec_free(&s);
				return -1; /* said */
			}
			if (!n && u.many && !u.found)
				n = err_set(ENOENT, "no such probe in %s", *part[1] ? part[1] : "the files -p maps");
		} else if ((n = probe_resolve(&s, &ro, ret, &locs, &nl)) >= 0) {
			add_atts(pi, &s, locs, nl, kind, NULL, 0);
		}
		if (n < 0) {
			if (n == -ENOENT && s.type == 't' && !strpbrk(text, "*?")) {
				snprintf(name, sizeof(name), "tracepoint not found: %s:%s", s.lib, s.func);
				err_set(ENOENT, "%s", name);
			}
			spec_free(&s);
			if (n == -ENOENT && there && !uaddr) {
				/* 0.17 leaves out a function (or USDT probe) its binary
				 * does not have (glibc 2.34 moved pthread_create out of
				 * libpthread, threadsnoop.bt still names it there) and
				 * attaches the rest; said once the rest is known */
				env.drop = xrealloc(env.drop, (size_t)(env.ndrop + 1) * sizeof(*env.drop));
				env.drop[env.ndrop++] = (struct drop){ pi, ap, xstrdup(err_msg()) };
				return 0;
			}
			if (n == -ENOTSUP) { /* the kernel lacks the mechanism: one line */
				fprintf(stderr, "ERROR: %s: %s\n", text, err_msg());
				return -1;
			}
			return attach_error(pi, ap, err_msg());
		}
		spec_free(&s);
	}
	return 0;
}

/* -d: the program generated for a location, as BPF instructions (what
 * the kernel is given; corebox has no IR in between). */
static int dump_prog(const struct att *a, struct gen *g)
{
	struct emit *e = gen_emit(g);
	struct strbuf b = { 0 };
	int err = emit_finish(e);

	if (err < 0)
		return err;
	strbuf_reset(&b);
	emit_dump(&b, e);
	printf("\n%s: %zu instructions\n%s", a->name, e->cnt, b.s);
	strbuf_free(&b);
	return 0;
}

/* build_multi_add's body: the block's code, `probe` and `func` read
 * from the names map (made here with the first variant) at the index of
 * the function hit. */
static int multi_body(struct obj *o, struct gen *g, int out, int idx, void *ctx)
{
	struct mset *m = ctx;
	const struct att *a = &env.att[m->a0];

	if (m->names < 0 &&
	    (m->names = obj_new_map(o, "cbx_names", BPF_MAP_TYPE_ARRAY, 4, 2 * (uint32_t)env.bp.name_len, (uint32_t)m->n, 0)) < 0)
		return m->names;
	if (bt_gen_body(&env.bp, a->probe, g, m->maps, m->ring, a->name, a->func, m->names, idx, out) < 0) {
		m->pos = gen_errpos(g);
		m->end = gen_errend(g);
		return -EINVAL;
	}
	return 0;
}

/* A block on many kernel functions (kprobe:vfs_*): one program for all,
 * attached in one step, so the exit detaches in one step too (per
 * function: ~12 s for vfs_* on 6.1).  Atts a0.. are the block's; returns
 * how many the program covers (0: none, built one per function), or -1
 * (a compile error at *pos, *end). */
static int add_multi(struct obj *o, int a0, const struct bt_maps *maps, bool ring, int *pos, int *end)
{
	int n = 0, r;
	struct loc *locs;
	struct mset *m;

	while (a0 + n < env.natt && env.att[a0 + n].probe == env.att[a0].probe)
		n++;
	locs = xmalloc((size_t)n * sizeof(*locs));
	for (int i = 0; i < n; i++)
		locs[i] = env.att[a0 + i].loc;
	env.mset = xrealloc(env.mset, (size_t)(env.nmset + 1) * sizeof(*env.mset));
	m = &env.mset[env.nmset];
	*m = (struct mset){ a0, n, -1, maps, ring, -1, -1 };
	r = build_multi_add(o, locs, n, NULL, &(struct cg_opts){ .uid = -1, .cpu = -1, .strsize = env.bp.strlen },
			    multi_body, m);
	free(locs);
	*pos = m->pos;
	*end = m->end;
	if (r)
		return r < 0 ? -1 : 0;
	env.nmset++;
	return n;
}

/* After load: each function's `probe` and `func`, by its index. */
static int fill_names(struct obj *o)
{
	size_t len = (size_t)env.bp.name_len;
	char *v = xmalloc(2 * len);
	int err = 0;

	for (int k = 0; k < env.nmset && !err; k++)
		for (int i = 0; i < env.mset[k].n && !err; i++) {
			const struct att *a = &env.att[env.mset[k].a0 + i];
			uint32_t key = (uint32_t)i;

			memset(v, 0, 2 * len);
			memcpy(v, a->name, strnlen(a->name, len - 1));
			memcpy(v + len, a->func, strnlen(a->func, len - 1));
			err = bpf_map_update(map_fd(obj_map_at(o, (size_t)env.mset[k].names)), &key, v, 0);
		}
	free(v);
	return err;
}

static int run_prog(struct obj *o, int prog)
{
	uint64_t ctx[2] = { 0, 0 };
	uint32_t r;

	if (bpf_prog_test_run_ctx(prog_fd(obj_prog_at(o, (size_t)prog)), ctx, sizeof(ctx), &r) < 0) {
		tool_err("bpftrace", "%s", err_msg());
		return -1;
	}
	return 0;
}

/* Perf events of interval/profile/software probes: one per CPU (interval:
 * the first online CPU only). */
static int attach_perf(struct obj *o, struct att *a)
{
	int ncpu = cpus_possible() > 0 ? cpus_possible() : 1;
	bool *online = xcalloc((size_t)ncpu, sizeof(bool));
	int nopen = 0;

	if (cpus_online(online, ncpu) < 0) {
		err_clear();
		free(online);
		online = NULL;
	}
	for (int cpu = 0; cpu < ncpu; cpu++) {
		int fd;

		if (online && !online[cpu])
			continue;
		fd = perf_open_sampling((uint32_t)a->perf_type, (uint32_t)a->config, a->freq, a->period, -1, cpu);
		if (fd == -ENODEV)
			continue;
		if (a->perf_type == PERF_TYPE_HARDWARE && (fd == -ENOENT || fd == -EOPNOTSUPP)) {
			fprintf(stderr, "ERROR: %.*s: this machine's CPUs have no hardware counter for it (perf_event_open: %s); "
				"software: and profile: probes need none\n", (int)strlen(a->name) - (a->name[strlen(a->name) - 1] == ':'),
				a->name, strerror(-fd));
			free(online);
			return -1;
		}
		if (fd < 0 || prog_attach_perf_fd(obj_prog_at(o, (size_t)a->prog), fd) < 0) {
			if (fd >= 0)
				close(fd);
			tool_err("bpftrace", "cannot attach %s: %s", a->name, err_msg());
			free(online);
			return -1;
		}
		nopen++;
		if (a->one_cpu)
			break;
	}
	free(online);
	return nopen ? 0 : -1;
}

/* SIGUSR1: print the maps now, as 0.17 */
static volatile sig_atomic_t want_maps;

static void on_usr1(int sig)
{
	(void)sig;
	want_maps = 1;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	(void)ctx;
	/* after exit() or a signal 0.17 drops what is still queued, until END */
	if (env.done || (tool_exiting && !env.ending))
		return 0;
	if (bt_out_record(&env.out, data, size) == 1) {
		env.done = true;
		tool_exiting = 1;
	}
	return 0;
}

/* -c: the command, started stopped (it waits for a byte on a pipe), as
 * 0.17 runs it: split at spaces (no shell, no quoting: a
 * shell's own exec would show in the trace), the program found in PATH. */
static pid_t child_start(const char *cmd, int *go)
{
	char *argv[64], *save = NULL, *line = xstrdup(cmd);
	int fds[2], n = 0;
	pid_t pid;

	for (char *w = strtok_r(line, " ", &save); w && n < 63; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	/* a path is checked here; a name is found in PATH by execvp */
	if (!n || (strchr(argv[0], '/') && access(argv[0], X_OK) < 0) || pipe(fds) < 0) {
		char esc[256];

		fprintf(stderr, "ERROR: Failed to fork child: path '%s' does not exist or is not executable\n",
			str_escape(esc, sizeof(esc), n ? argv[0] : "", NULL));
		free(line);
		errno = 0;
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		close(fds[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	free(line);
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* -l [PATTERN]: the kernel's tracepoints as "tracepoint:CAT:NAME", sorted,
 * those the glob matches ("t:" spelled out first). */
/* -l kprobe:/kfunc:/uprobe: — the names a pattern matches, "KIND:NAME". */
struct names {
	char **v;
	size_t n;
	const char *want, *kind; /* kind: as printed ("kretprobe") */
	const char *func;        /* uprobe: the function pattern */
};

static void names_add(struct names *l, const char *name, size_t len)
{
	char full[600];

	snprintf(full, sizeof(full), "%s:%.*s", l->kind, (int)(len < 500 ? len : 500), name);
	if (!glob_match(l->want, full))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(full);
}

static int list_ksym(void *ctx, const struct kallsym *s)
{
	if (kallsym_is_text(s) && !s->mod && strncmp(s->name, "__pfx_", 6)) /* not the padding before a function */
		names_add(ctx, s->name, s->nlen);
	return 0;
}

/* kprobe: the functions ftrace can probe (available_filter_functions),
 * else the kernel's text symbols; kfunc: BTF's functions (fentry's
 * targets); uprobe:BIN:FUNC: the binary's functions, as the resolver
 * finds them.  0, or 1 with a message. */
/* uprobe/usdt: one binary's functions matching l->func, "BIN:FUNC", or
 * its USDT probes, "BIN:PROVIDER:PROBE" (BIN as shown) */
static int list_file(const char *bin, void *ctx)
{
	struct names *l = ctx;
	bool usdt = !strcmp(l->kind, "usdt");
	struct spec s = { .type = usdt ? 'u' : 'p', .text = bin };
	struct resolve_opts ro = { .tool = "bpftrace", .pid = env.pid, .limit = 100000, .pattern = true, .every_name = true };
	struct loc *locs = NULL;
	const char *want = l->want;
	char tmp[1200];
	int nl = 0, r;

	s.lib = xstrdup(!usdt && !strchr(bin, '/') && !strncmp(bin, "lib", 3) && bin[3] ? bin + 3 : bin);
	s.func = xstrdup(usdt ? "*" : l->func);
	if ((r = probe_resolve(&s, &ro, false, &locs, &nl)) < 0) {
		spec_free(&s);
		if (r == -ENOENT && access(bin, F_OK) == 0)
			return 0; /* no such function, no USDT notes: nothing listed, as bpftrace */
		return tool_err("bpftrace", "%s", err_msg()), 1;
	}
	if (!usdt)
		l->want = "*";
	for (int i = 0; i < nl; i++) {
		snprintf(tmp, sizeof(tmp), "%s:%s%s%s", strchr(bin, '/') ? bin : locs[i].target,
			 usdt ? locs[i].provider : "", usdt ? ":" : "", locs[i].name);
		names_add(l, tmp, strlen(tmp));
	}
	l->want = want;
	locs_free(locs, nl);
	spec_free(&s);
	return 0;
}

static int list_functions(struct names *l, const char *src, const char *pat)
{
	char path[512], *buf = NULL;
	size_t len;

	if (!strcmp(src, "kprobe")) {
		if (tracefs_path(path, sizeof(path), "available_filter_functions") &&
		    read_file(path, 64 << 20, &buf, &len) == 0) {
			for (char *s = buf, *nl; s < buf + len; s = nl + 1) {
				if (!(nl = memchr(s, '\n', (size_t)(buf + len - s))))
					nl = buf + len;
				if (!memchr(s, ' ', (size_t)(nl - s))) /* "name [module]": vmlinux only */
					names_add(l, s, (size_t)(nl - s));
			}
			free(buf);
			return 0;
		}
		if (kallsyms_each(NULL, list_ksym, l) < 0)
			return tool_err("bpftrace", "cannot list kernel functions: %s", err_msg()), 1;
		return 0;
	}
	if (!strcmp(src, "kfunc")) {
		const struct btf *btf = probe_kernel_btf();

		if (!btf)
			return tool_err("bpftrace", "cannot list kfuncs: the kernel has no BTF (/sys/kernel/btf/vmlinux)"), 1;
		for (uint32_t id = 1; id < btf_nr_types(btf); id++) {
			const struct btf_type *t = btf_type_by_id(btf, id);
			const char *nm = t && btf_kind(t) == BTF_KIND_FUNC ? btf_name(btf, t) : NULL;

			if (nm && *nm)
				names_add(l, nm, strlen(nm));
		}
		return 0;
	}
	if (!strcmp(src, "usdt")) { /* usdt:BIN:[PROVIDER:]PROBE; with -p and no binary: every module's */
		char tmp[600], want[700], *colon;
		const char *shape = l->want;
		int rc;

		snprintf(tmp, sizeof(tmp), "%s", strchr(pat, ':') + 1);
		if ((colon = strchr(tmp, ':')) && !strchr(colon + 1, ':')) /* no provider: any */
			snprintf(want, sizeof(want), "usdt:%.*s:*:%s", (int)(colon - tmp), tmp, colon + 1), l->want = want;
		if (colon)
			*colon = 0;
		else if (!env.pid) /* (0.17's words, here and for a file not there) */
			return bt_report("stdin", pat, 0, (int)strlen(pat), "usdt probe type requires 2 or 3 arguments"), 1;
		if (target_found("usdt", tmp, tmp, want, sizeof(want)) < 0) {
			l->want = shape;
			return bt_report("stdin", pat, 0, (int)strlen(pat), want), 1;
		}
		rc = each_binary(tmp, true, list_file, l);
		l->want = shape;
		return rc;
	}
	{ /* uprobe:BIN:PATTERN; with -p and no binary: the process's executable
	   * (0.17: by its path under /proc/PID/root) */
		char tmp[600], exe[64], path[4096], root[4200], *colon;
		ssize_t n;

		snprintf(tmp, sizeof(tmp), "%s", strchr(pat, ':') + 1);
		colon = strrchr(tmp, ':');
		l->func = colon ? colon + 1 : tmp;
		if (env.pid && (!colon || !strcmp(tmp, "*") || colon == tmp || !strncmp(tmp, "*:", 2))) {
			snprintf(exe, sizeof(exe), "/proc/%d/exe", env.pid);
			if ((n = readlink(exe, path, sizeof(path) - 1)) < 0)
				return tool_err("bpftrace", "cannot read %s: %s", exe, strerror(errno)), 1;
			path[n] = 0;
			snprintf(root, sizeof(root), "/proc/%d/root%s", env.pid, path);
			return each_binary(root, false, list_file, l);
		}
		if (!colon || colon == tmp)
			return tool_err("bpftrace", "-l uprobe: give a binary and a pattern (uprobe:/bin/bash:read*)"), 1;
		*colon = 0;
		return each_binary(tmp, false, list_file, l);
	}
}

static int list_probes(const char *pat)
{
	char path[512], full[1024], want[600];
	char **names = NULL;
	size_t n = 0;
	DIR *d, *d2;
	struct dirent *c, *e;
	/* {as written, as printed, where the names come from} */
	static const char *const kinds[][3] = {
		{ "kprobe", "kprobe", "kprobe" },  { "k", "kprobe", "kprobe" },      { "kretprobe", "kretprobe", "kprobe" },
		{ "kr", "kretprobe", "kprobe" },   { "kfunc", "kfunc", "kfunc" },     { "kretfunc", "kretfunc", "kfunc" },
		{ "f", "kfunc", "kfunc" },         { "fr", "kretfunc", "kfunc" },     { "uprobe", "uprobe", "uprobe" },
		{ "u", "uprobe", "uprobe" },       { "uretprobe", "uretprobe", "uprobe" }, { "ur", "uretprobe", "uprobe" },
		{ "usdt", "usdt", "usdt" },        { "U", "usdt", "usdt" },           { "*", "uprobe", "uprobe" },
	};

	for (const char *c = pat; c && *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-:*?./[]!,+@$", *c)) {
			char msg[40];

			snprintf(msg, sizeof(msg), isprint((unsigned char)*c) ? "invalid character '%c'" : "invalid character", *c);
			bt_report("stdin", pat, (int)(c - pat), (int)(c - pat) + 1, msg);
			return tool_finish(1);
		}
	if (pat && strchr(pat, '?')) { /* the program's parser says it (0.17 parses -l's pattern as one) */
		int q = (int)(strchr(pat, '?') - pat);

		bt_report("stdin", pat, bt_loc_begin(pat, q), q + 1, "syntax error, unexpected ?, expecting {");
		return tool_finish(1);
	}
	if (env.pid && (!pat || !strcmp(pat, "*")))
		pat = "*:*:*"; /* the process's functions and USDT probes */
	for (size_t k = 0; pat && k < ARRAY_SIZE(kinds); k++) {
		size_t kl = strlen(kinds[k][0]);

		/* "*:BIN:FUNC": a binary's functions */
		if (!strncmp(pat, kinds[k][0], kl) && pat[kl] == ':' && (k < 14 || strchr(pat + kl + 1, ':'))) {
			struct names l = { .kind = kinds[k][1] };
			int rc;

			snprintf(want, sizeof(want), "%s:%s", kinds[k][1], pat + kl + 1);
			l.want = want;
			rc = list_functions(&l, kinds[k][2], pat);
			if (!rc && *kinds[k][0] == '*') { /* "*:BIN:NAME": its USDT probes too */
				snprintf(want, sizeof(want), "usdt:%s", pat + kl + 1);
				l.kind = "usdt";
				rc = list_functions(&l, "usdt", pat);
			}
			if (l.n)
				qsort(l.v, l.n, sizeof(*l.v), cmp_str);
			for (size_t i = 0; i < l.n; i++)
				if (!i || strcmp(l.v[i], l.v[i - 1])) /* one line per name */
					printf("%s\n", l.v[i]);
			for (size_t i = 0; i < l.n; i++)
				free(l.v[i]);
			free(l.v);
			return rc ? rc : tool_finish(0);
		}
	}
	if (pat && !strncmp(pat, "t:", 2))
		snprintf(want, sizeof(want), "tracepoint:%s", pat + 2);
	else
		snprintf(want, sizeof(want), "%s", pat ? pat : "*");
	if (!tracefs_path(path, sizeof(path), "events") || !(d = opendir(path))) {
		tool_err("bpftrace", "cannot list tracepoints: %s", err_msg());
		return 1;
	}
	while ((c = readdir(d))) {
		char sub[1024];

		if (c->d_name[0] == '.' || c->d_type == DT_REG || !strcmp(c->d_name, "ftrace"))
			continue; /* ftrace's events take no BPF program */
		snprintf(sub, sizeof(sub), "%s/%s", path, c->d_name);
		if (!(d2 = opendir(sub)))
			continue;
		while ((e = readdir(d2))) {
			if (e->d_name[0] == '.' || e->d_type == DT_REG)
				continue;
			snprintf(full, sizeof(full), "tracepoint:%s:%s", c->d_name, e->d_name);
			if (!glob_match(want, full))
				continue;
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(full);
		}
		closedir(d2);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t k = 0; k < ARRAY_SIZE(sw_events) + ARRAY_SIZE(hw_events); k++) {
		snprintf(full, sizeof(full), k < ARRAY_SIZE(sw_events) ? "software:%s:" : "hardware:%s:",
			 k < ARRAY_SIZE(sw_events) ? sw_events[k].name : hw_events[k - ARRAY_SIZE(sw_events)].name);
		if (!glob_match(want, full))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(full);
	}
	{ /* a pattern of no probe type: kernel functions too (kprobe:NAME), as 0.17 */
		struct names l = { .kind = "kprobe", .want = want };

		if (list_functions(&l, "kprobe", want) == 0)
			qsort(l.v, l.n, sizeof(*l.v), cmp_str);
		for (size_t i = 0; i < l.n; i++) {
			if (!i || strcmp(l.v[i], l.v[i - 1]))
				printf("%s\n", l.v[i]);
			if (i)
				free(l.v[i - 1]);
		}
		if (l.n)
			free(l.v[l.n - 1]);
		free(l.v);
	}
	for (size_t i = 0; i < n; i++) {
		printf("%s\n", names[i]);
		free(names[i]);
	}
	free(names);
	return tool_finish(0);
}

/* The program file, or "-": standard input. */
static char *read_script(const char *path)
{
	char *buf;
	size_t len;
	ssize_t k = 0;

	if (!strcmp(path, "-")) {
		struct strbuf sb = { 0 };
		char chunk[4096];

		strbuf_reset(&sb);
		while (sb.len < (1 << 20) && ((k = read(0, chunk, sizeof(chunk))) > 0 || (k < 0 && errno == EINTR)))
			if (k > 0)
				strbuf_addn(&sb, chunk, (size_t)k);
		buf = sb.s;
		len = sb.len;
		if (k > 0) { /* more than 1 MiB */
			fprintf(stderr, "ERROR: the program on stdin is over 1 MiB\n");
			free(buf);
			return NULL;
		}
	} else if ((k = read_file(path, 1 << 20, &buf, &len)) < 0) {
		fputs("ERROR: failed to open file '", stderr); /* the name escaped: it may hold control bytes */
		fputs_escaped(path, NULL, stderr);
		fprintf(stderr, "': %s\n", strerror((int)-k));
		err_clear();
		return NULL;
	}
	if (strlen(buf) != len) {
		tool_err("bpftrace", "%s: the program holds a NUL byte", path);
		free(buf);
		return NULL;
	}
	return buf;
}

/* -v: each program as 0.17 attaches them: BEGIN (end: END), then in
 * program order the kinds the kernel runs oldest first, then the others
 * (0.17's attach_reverse: kprobe, kfunc, uprobe, uretprobe, usdt,
 * software) last to first. */
static void verbose_progs(struct obj *o, bool end)
{
	const unsigned rev = 1u << M_KPROBE | 1u << M_FENTRY | 1u << M_UPROBE | 1u << M_URETPROBE;
	char *name;

	for (int k = 0; env.verbose && k < (end ? 1 : 3) * env.natt; k++) {
		int pass = k / env.natt;
		const struct att *a = &env.att[pass < 2 ? k % env.natt : 3 * env.natt - 1 - k];
		bool reverse = (rev >> a->loc.mech & 1) || (a->loc.mech == M_PERF && a->name[0] == 's');

		int prog = a->prog;

		/* a block on many functions: its one program, at its first att */
		for (int m = 0; prog < 0 && m < env.nmset; m++)
			if (&env.att[env.mset[m].a0] == a)
				prog = build_multi_attached(o, m);
		if (prog < 0 || (pass ? a->begin || a->end || reverse != (pass == 2) : !(end ? a->end : a->begin)))
			continue;
		name = bt_verbose_name(&env.bp.p[a->probe], env.pid);
		bt_verbose_prog(env.vout, obj_prog_at(o, (size_t)prog), name);
		free(name);
	}
}

int bpftrace_main(int argc, char **argv)
{
	struct obj *o = NULL;
	struct bt_maps maps;
	struct events *ev = NULL;
	char *script = NULL;
	const struct loc **first;
	int rc = 0, go = -1, attached = 0;
	pid_t child = -1;
	bool ring = probe_ringbuf();
	const char *fname;

	glob_star_only = true; /* 0.17: '[' and '?' in an attach point are the name's own characters */
	bt_usage_args(argc, argv, opts);
	opt_parse(argc, argv, &help, parse, NULL);
	env.verbose = tool_common.verbose;
	env.child_status = -1;
	env.vout = stdout;
	if (env.verbose && env.dump) { /* (0.17's words and status) */
		fputs("ERROR: USAGE: Use either -v or -d.\n", stderr);
		return tool_finish(1);
	}
	if (env.format && strcmp(env.format, "text") && strcmp(env.format, "json")) {
		fprintf(stderr, "ERROR: Invalid output format \"%s\"\nValid formats: 'text', 'json'\n", env.format);
		return tool_finish(1);
	}
	if (env.list)
		return list_probes(env.file ? env.file : env.prog_text);
	if (!env.prog_text && !env.file) { /* as 0.17: the usage, no other word */
		bt_usage(opts);
		return tool_finish(2);
	}
	if (!env.prog_text && !(env.prog_text = script = read_script(env.file)))
		return 1;
	fname = env.file && script && strcmp(env.file, "-") ? env.file : "stdin";
	if (env.out_file && env.verbose) { /* -v writes on the first stdout (exit closes it) */
		FILE *f = fdopen(dup(1), "w");

		env.vout = f ? f : stdout;
	}
	if (env.out_file && !freopen(env.out_file, "w", stdout)) {
		tool_err("bpftrace", "cannot write %s: %s", env.out_file, strerror(errno));
		return 1;
	}
	if (bt_parse(env.prog_text, &env.bp) < 0) {
		bt_report(fname, env.prog_text, env.bp.errpos, env.bp.errend, err_msg());
		rc = 1;
		goto out;
	}
	if (bt_include_check(&env.bp, env.incdirs, env.nincdirs) < 0) {
		rc = 1;
		goto out;
	}
	tool_common.verbose = 0; /* from here -v is 0.17's: not the loader's own steps */
	build_log_level = env.verbose ? 1 : 0; /* 0.17's level: a loaded program's log is its one stats line */
	env.bp.unsafe = env.unsafe;
	env.bp.helper_check = env.helper_check;
	for (int i = 0; i < env.nincludes; i++)
		bt_include_defines(&env.bp, env.includes[i], env.incdirs, env.nincdirs);
	env.bp.params = env.params;
	env.bp.nparams = env.nparams;
	{
		const char *sl = getenv("BPFTRACE_STRLEN");

		if (sl && (atoi(sl) < 1 || atoi(sl) > 200)) {
			tool_err("bpftrace", "BPFTRACE_STRLEN must be between 1 and 200 (bytes)");
			rc = 1;
			goto out;
		}
		if (sl)
			env.bp.strlen = (atoi(sl) + 7) & ~7;
	}

	env.bp.uses_kstack = env.bp.uses_ustack = strstr(env.prog_text, "stack") != NULL;
	env.bp.uses_ksym = strstr(env.prog_text, "ksym") || strstr(env.prog_text, "usym");
	for (int pi = 0; pi < env.bp.np && !rc; pi++)
		for (int ap = 0; ap < env.bp.p[pi].nap && !rc; ap++)
			if (resolve_attach(pi, ap) < 0)
				rc = 1;
	for (int i = 0; i < env.ndrop; i++) { /* nothing left to attach: the first one's error */
		const struct bt_attach *a = &env.bp.p[env.drop[i].probe].ap[env.drop[i].ap];

		if (!rc && !env.natt)
			rc = attach_error(env.drop[i].probe, env.drop[i].ap, env.drop[i].msg) < 0;
		else if (!rc)
			bt_report_kind(stderr, env.file ? env.file : "stdin", env.bp.text, a->pos, a->end, "WARNING", env.drop[i].msg);
		free(env.drop[i].msg);
	}
	free(env.drop);
	if (rc)
		goto out;
	for (int i = 0; i < env.natt; i++) {
		size_t l = strlen(env.att[i].name) + 1, f = env.att[i].func ? strlen(env.att[i].func) + 1 : 0;

		l = l > f ? l : f;
		if ((int)l > env.bp.name_len && l < 256)
			env.bp.name_len = (int)(l + 7) & ~7;
	}
	first = xcalloc((size_t)env.bp.np, sizeof(*first));
	for (int i = env.natt - 1; i >= 0; i--)
		first[env.att[i].probe] = &env.att[i].loc;
	env.bp.file = fname;
	rc = bt_check(&env.bp, first) < 0;
	free(first);
	if (rc) {
		if (env.bp.errpos != -2) /* (-2: printed, as clang words it) */
			bt_report(fname, env.prog_text, env.bp.errpos, env.bp.errend, err_msg());
		goto out;
	}
	if (env.verbose)
		fprintf(stderr, "INFO: node count: %d\n", bt_node_count(&env.bp));
	if (env.dump)
		bt_out_dump(&env.bp);
	/* -c: the command exists now (its pid is cpid), held until attached */
	if (env.cmd && (child = child_start(env.cmd, &go)) < 0) {
		if (errno)
			tool_err("bpftrace", "cannot start %s: %s", env.cmd, strerror(errno));
		rc = 1;
		goto out;
	}
	env.bp.cpid = child > 0 ? child : 0;
	o = obj_new("bpftrace");
	if (bt_new_maps(&env.bp, o, &maps, ring) < 0) {
		tool_err("bpftrace", "%s", err_msg());
		rc = 1;
		goto out;
	}
	for (int i = 0; i < env.natt && !rc; i++) {
		struct att *a = &env.att[i];
		struct cg_opts co = { .uid = -1, .cpu = -1, .strsize = env.bp.strlen };
		struct gen *g = NULL;
		int pos = -1, end = -1, nm = 0;

		/* (-d shows each function's program, as it did) */
		if (!env.dump && (i == 0 || a[-1].probe != a->probe) && (nm = add_multi(o, i, &maps, ring, &pos, &end)) > 0) {
			i += nm - 1;
			continue;
		}
		if (nm == 0) {
			g = gen_new(&a->loc, NULL, &co);
			if (bt_gen_probe(&env.bp, a->probe, g, &maps, ring, a->name, a->func) < 0 ||
			    (env.dump ? dump_prog(a, g) : (a->prog = build_add(o, &a->loc, g, a->name, a->loc.user ? env.pid : 0))) < 0) {
				nm = -1;
				pos = gen_errpos(g);
				end = gen_errend(g);
			}
			gen_free(g);
		}
		if (nm < 0) {
			end = end > pos ? end : pos + 1;
			while (pos >= 0 && (isalnum((unsigned char)env.prog_text[end]) || env.prog_text[end] == '_'))
				end++;
			bt_report(fname, env.prog_text, pos, end, err_msg());
			rc = 1;
		}
	}
	if (rc || env.dump)
		goto out;
	env.out.prog = &env.bp;
	env.out.file = fname;
	env.out.json = (env.format && !strcmp(env.format, "json")) || out_json();
	tool_signals();
	signal(SIGUSR1, on_usr1);
	probe_kernel_btf_release();
	if (build_load(o, "bpftrace") < 0) {
		rc = 1;
		goto out;
	}
	if (fill_names(o) < 0) {
		tool_err("bpftrace", "cannot fill the probe names table: %s", err_msg());
		rc = 1;
		goto out;
	}
	if (bt_out_open(&env.out, o) < 0) {
		tool_err("bpftrace", "%s", err_msg());
		rc = 1;
		goto out;
	}
	ev = events_open(obj_map_at(o, (size_t)maps.events), on_event, NULL);
	if (!ev) {
		tool_err("bpftrace", "%s", err_msg());
		rc = 1;
		goto out;
	}
	/* BEGIN first, then the other probes (its records are read first) */
	for (int i = 0; i < env.natt && !rc; i++)
		if (env.att[i].begin && run_prog(o, env.att[i].prog) < 0)
			rc = 1;
	if (rc || build_attach(o, "bpftrace", "the probes", &attached) < 0) {
		rc = 1;
		goto out;
	}
	/* a software event runs its newest program first: attached last to first */
	for (int k = 0; k < 2 * env.natt && !rc; k++) {
		struct att *a = &env.att[k < env.natt ? k : 2 * env.natt - 1 - k];

		if (a->loc.mech == M_PERF && (k < env.natt) == (a->name[0] != 's') && attach_perf(o, a) < 0)
			rc = 1;
	}
	if (rc)
		goto out;
	/* bpftrace prints it before attaching; here it comes once the probes
	 * are in, so whoever waits for the line misses no event */
	if (!env.quiet)
		bt_out_attaching(&env.out, env.natt);
	verbose_progs(o, false);
	if (getenv("__BPFTRACE_NOTIFY_PROBES_ATTACHED")) { /* bpftrace's test hook: the probes are in */
		fflush(stdout);
		fputs("__BPFTRACE_NOTIFY_PROBES_ATTACHED\n", stderr); /* 0.17 writes it there */
	}
	if (go >= 0) {
		if (write(go, "g", 1) != 1)
			rc = 1;
		close(go);
	}
	while (!rc && !tool_exiting) {
		if (events_poll(ev, 100) < 0 && errno != EINTR)
			break;
		if (want_maps) {
			want_maps = 0;
			bt_out_maps(&env.out);
		}
		fflush(stdout);
		if (child > 0) {
			int st;

			if (waitpid(child, &st, WNOHANG) == child) {
				child = -1;
				env.child_status = st;
				events_poll(ev, 0);
				break;
			}
		}
	}
	/* after exit() 0.17 reads on (ignoring) until its buffers stay quiet
	 * for one 100 ms poll: what the probes count meanwhile is in the maps
	 * (at most 2 s here) */
	for (int k = 0; env.done && k < 20 && events_poll(ev, 100) > 0; k++)
		;
	events_poll(ev, 0);
	/* 0.17 ends the -c command (SIGTERM) as soon as tracing ends, before
	 * END and the maps: its ustack frames then print as addresses */
	if (child > 0) {
		kill(child, SIGTERM);
		for (int k = 0; k < 50 && child > 0; k++)
			if (waitpid(child, NULL, WNOHANG) == child)
				child = -1;
			else
				usleep(2000);
	}
	/* as 0.17, no probe fires once END runs (a system() per event would
	 * otherwise feed itself: the command's own context switches); after
	 * exit() they stay until the maps are read, as long as 0.17's slower
	 * exit leaves them (its tests count the events of a short workload) */
	for (size_t i = 0; !env.done && obj_prog_at(o, i); i++)
		prog_detach(obj_prog_at(o, i));
	env.done = false;
	env.ending = true;
	verbose_progs(o, true);
	for (int i = 0; i < env.natt && !rc; i++)
		if (env.att[i].end && run_prog(o, env.att[i].prog) < 0)
			rc = 1;
	env.done = false;
	events_poll(ev, 0);
	if (!tool_stdout_gone())
		bt_out_exit(&env.out);
	if (env.verbose && env.child_status >= 0) {
		int st = env.child_status;

		fflush(stdout);
		fprintf(env.vout, WIFSIGNALED(st) ? "Child terminated by signal: %d\n" : "Child exited with code: %d\n",
			WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	rc |= env.out.failed;
	tool_report_lost("bpftrace", events_lost(ev));
out:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	events_close(ev);
	bt_out_close(&env.out);
	obj_close(o);
	for (int i = 0; i < env.natt; i++) {
		struct att *a = &env.att[i];

		free(a->loc.name);
		free(a->loc.target);
		tp_format_free(&a->loc.fmt);
		free(a->loc.uargs);
		free(a->name);
		free(a->func);
	}
	free(env.att);
	free(env.mset);
	bt_prog_free(&env.bp);
	free(script);
	free(env.params);
	free(env.incdirs);
	free(env.includes);
	return tool_finish(rc);
}
