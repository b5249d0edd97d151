/* systrace's argument formats and beautifiers (see systrace_fmt.h). */
#include "systrace_fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "bpf/tracefs.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"

enum kind {
	K_INT, K_UINT, K_HEX, K_FD, K_DFD, K_STR, K_OPEN_FLAGS, K_MODE, K_ACCMODE, K_PROT,
	K_MMAP_FLAGS, K_SIG, K_WHENCE, K_SIGHOW, K_CLOCKID, K_FUTEX_OP,
};

struct arg_fmt {
	char name[24];
	uint8_t kind;
};

struct sc_fmt {
	uint8_t state; /* 0: not read yet, 1: read, 2: no format (raw) */
	uint8_t nargs;
	uint8_t strmask;
	struct arg_fmt args[6];
};

static struct sc_fmt *fmts;
static unsigned nfmts;

const char *st_sc_name(unsigned nr, char *buf, unsigned size)
{
	const char *n = syscall_name(nr);

	if (n)
		return n;
	snprintf(buf, size, "[unknown: %u]", nr);
	return buf;
}

static int one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

/* The beautifier for argument `name` of type `type` in syscall `sc`. */
static enum kind classify(const char *sc, const char *type, const char *name)
{
	static const char *const opens[] = { "open", "openat", "creat", NULL };
	static const char *const modes[] = { "open", "openat", "creat", "mkdir", "mkdirat", "chmod",
					     "fchmod", "fchmodat", "fchmodat2", "mknod", "mknodat",
					     "umask", NULL };
	static const char *const accs[] = { "access", "faccessat", "faccessat2", NULL };
	static const char *const sigs[] = { "kill", "tkill", "tgkill", "rt_sigaction", "rt_sigqueueinfo",
					    "rt_tgsigqueueinfo", "pidfd_send_signal", NULL };
	static const char *const clocks[] = { "clock_gettime", "clock_settime", "clock_getres",
					      "clock_nanosleep", "timer_create", "clock_adjtime", NULL };
	size_t n = strlen(name);
	int ptr = strchr(type, '*') != NULL;

	if (!ptr && n >= 2 && !strcmp(name + n - 2, "fd"))
		return (!strcmp(name, "dfd") || !strcmp(name, "olddfd") || !strcmp(name, "newdfd")) ? K_DFD
														 : K_FD;
	if (ptr && strstr(type, "char") && (strstr(name, "name") || strstr(name, "path")))
		return K_STR;
	if (!strcmp(name, "flags") && one_of(sc, opens))
		return K_OPEN_FLAGS;
	if (!strcmp(name, "mode") && one_of(sc, modes))
		return K_MODE;
	if (!strcmp(name, "mode") && one_of(sc, accs))
		return K_ACCMODE;
	if (!strcmp(name, "prot"))
		return K_PROT;
	if (!strcmp(name, "flags") && !strcmp(sc, "mmap"))
		return K_MMAP_FLAGS;
	if (!strcmp(name, "off") && !strcmp(sc, "mmap"))
		return K_HEX;
	if (!strcmp(name, "sig") && one_of(sc, sigs))
		return K_SIG;
	if (!strcmp(name, "whence"))
		return K_WHENCE;
	if (!strcmp(name, "how") && !strcmp(sc, "rt_sigprocmask"))
		return K_SIGHOW;
	if (!strcmp(name, "which_clock") && one_of(sc, clocks))
		return K_CLOCKID;
	if (!strcmp(name, "op") && !strcmp(sc, "futex"))
		return K_FUTEX_OP;
	if (ptr || strstr(name, "addr") || !strcmp(name, "start") || !strcmp(name, "brk"))
		return K_HEX;
	if (!strncmp(type, "unsigned", 8) || !strncmp(type, "u32", 3) || !strncmp(type, "u64", 3) ||
	    !strcmp(type, "size_t") || !strcmp(type, "umode_t") || !strcmp(type, "key_serial_t") ||
	    !strncmp(type, "__u", 3) || !strcmp(type, "qid_t") || !strcmp(type, "uid_t") || !strcmp(type, "gid_t"))
		return K_UINT;
	return K_INT;
}

/* Tracepoint names that differ from the syscall's. */
static const char *tp_name(const char *sc)
{
	static const char *const alias[][2] = {
		{ "umount2", "umount" }, { "sendfile", "sendfile64" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(sc, alias[i][0]))
			return alias[i][1];
	return sc;
}

/* "\tfield:const char * filename;\toffset:24;..." -> type, name */
static int parse_field(const char *line, char *type, size_t tsize, char *name, size_t nsize)
{
	const char *p = strstr(line, "field:"), *semi, *sp;
	size_t n;

	if (!p)
		return -1;
	p += 6;
	semi = strchr(p, ';');
	if (!semi)
		return -1;
	for (sp = semi; sp > p && sp[-1] != ' ' && sp[-1] != '*'; sp--)
		;
	if (sp == p)
		return -1;
	n = (size_t)(semi - sp);
	if (!n || n >= nsize)
		return -1;
	memcpy(name, sp, n);
	name[n] = 0;
	n = (size_t)(sp - p);
	while (n && p[n - 1] == ' ')
		n--;
	if (n >= tsize)
		n = tsize - 1;
	memcpy(type, p, n);
	type[n] = 0;
	return 0;
}

static void load_fmt(unsigned nr, struct sc_fmt *f)
{
	const char *sc = syscall_name(nr);
	char rel[160], path[512], *buf = NULL, *line, *save = NULL;
	size_t len;

	f->state = 2;
	if (!sc || !tracefs_root()) {
		err_clear();
		return;
	}
	snprintf(rel, sizeof(rel), "events/syscalls/sys_enter_%s/format", tp_name(sc));
	if (!tracefs_path(path, sizeof(path), rel) || read_file(path, 1 << 16, &buf, &len) < 0) {
		snprintf(rel, sizeof(rel), "events/syscalls/sys_enter_new%s/format", sc);
		if (!tracefs_path(path, sizeof(path), rel) || read_file(path, 1 << 16, &buf, &len) < 0) {
			err_clear();
			return;
		}
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type[64], name[64];

		if (parse_field(line, type, sizeof(type), name, sizeof(name)) < 0 ||
		    !strncmp(name, "common_", 7) || !strcmp(name, "__syscall_nr"))
			continue;
		if (f->nargs >= 6)
			break;
		snprintf(f->args[f->nargs].name, sizeof(f->args[0].name), "%.23s", name);
		f->args[f->nargs].kind = (uint8_t)classify(sc, type, name);
		if (f->args[f->nargs].kind == K_STR)
			f->strmask |= (uint8_t)(1u << f->nargs);
		f->nargs++;
	}
	free(buf);
	f->state = 1;
}

static const struct sc_fmt *get_fmt(unsigned nr)
{
	if (!fmts) {
		nfmts = syscall_max();
		fmts = xcalloc(nfmts ? nfmts : 1, sizeof(*fmts));
	}
	if (nr >= nfmts)
		return NULL;
	if (!fmts[nr].state)
		load_fmt(nr, &fmts[nr]);
	return fmts[nr].state == 1 ? &fmts[nr] : NULL;
}

unsigned st_fmt_strmask(unsigned nr)
{
	const struct sc_fmt *f = get_fmt(nr);

	return f ? f->strmask : 0;
}

/* ---- fd -> path, per process ------------------------------------------ */

struct fdent {
	uint32_t pid;
	int fd;
	char *path; /* NULL: empty slot */
};
static struct fdent *fdtab;
static size_t fdcap, fdused, fdbytes;

/* The cache is bounded by the memory it holds (the table and the paths,
 * with malloc's overhead per path), not by entries: 65536 slots of paths
 * up to 511 bytes grew systrace's RSS with every process it saw.  When a
 * new entry would pass the bound it starts over: the paths are looked up
 * again in /proc (a closed fd of a process gone is then unknown, shown as
 * the number alone). */
#define FD_CACHE_BYTES (256u * 1024)
#define FD_PATH_COST(len) ((len) + 1 + 16)

static size_t fd_slot(uint32_t pid, int fd)
{
	size_t h = ((size_t)pid * 2654435761u) ^ (size_t)(unsigned)fd * 40503u;

	h &= fdcap - 1;
	while (fdtab[h].path && !(fdtab[h].pid == pid && fdtab[h].fd == fd))
		h = (h + 1) & (fdcap - 1);
	return h;
}

static void fd_clear(void)
{
	for (size_t i = 0; i < fdcap; i++)
		free(fdtab[i].path);
	free(fdtab);
	fdtab = NULL;
	fdcap = fdused = fdbytes = 0;
}

static void fd_cache_set(uint32_t pid, int fd, const char *path)
{
	size_t h;

	size_t cost;
	char *copy;

	if (fd < 0 || !path)
		return;
	copy = xstrdup(path); /* first: path may be an entry (dup) that starting over frees */
	cost = FD_PATH_COST(strlen(copy));
	if (fdcap && (fdbytes + cost > FD_CACHE_BYTES ||
		      ((fdused + 1) * 2 > fdcap && fdbytes + fdcap * sizeof(*fdtab) + cost > FD_CACHE_BYTES)))
		fd_clear(); /* full (or no room to grow the table): start over */
	if (!fdcap || (fdused + 1) * 2 > fdcap) {
		struct fdent *old = fdtab;
		size_t oldcap = fdcap;

		fdcap = fdcap ? fdcap * 2 : 256;
		fdtab = xcalloc(fdcap, sizeof(*fdtab));
		fdbytes += (fdcap - oldcap) * sizeof(*fdtab);
		fdused = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].path) {
				h = fd_slot(old[i].pid, old[i].fd);
				fdtab[h] = old[i];
				fdused++;
			}
		free(old);
	}
	h = fd_slot(pid, fd);
	if (fdtab[h].path) {
		fdbytes -= FD_PATH_COST(strlen(fdtab[h].path));
		free(fdtab[h].path);
	} else {
		fdused++;
	}
	fdtab[h].pid = pid;
	fdtab[h].fd = fd;
	fdtab[h].path = copy;
	fdbytes += cost;
}

/* Removal in open addressing: empty the slot, reinsert the cluster after it. */
static void fd_del(uint32_t pid, int fd)
{
	size_t h, j;

	if (!fdcap)
		return;
	h = fd_slot(pid, fd);
	if (!fdtab[h].path)
		return;
	fdbytes -= FD_PATH_COST(strlen(fdtab[h].path));
	free(fdtab[h].path);
	fdtab[h].path = NULL;
	fdused--;
	for (j = (h + 1) & (fdcap - 1); fdtab[j].path; j = (j + 1) & (fdcap - 1)) {
		struct fdent e = fdtab[j];

		fdtab[j].path = NULL;
		fdtab[fd_slot(e.pid, e.fd)] = e;
	}
}

static const char *fd_path(uint32_t pid, int fd)
{
	char proc[64], link[512];
	ssize_t n;
	size_t h;

	if (fd < 0)
		return NULL;
	if (fdcap) {
		h = fd_slot(pid, fd);
		if (fdtab[h].path)
			return fdtab[h].path[0] ? fdtab[h].path : NULL;
	}
	snprintf(proc, sizeof(proc), "/proc/%u/fd/%d", pid, fd);
	n = readlink(proc, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0; /* "" remembers that it is unknown */
	fd_cache_set(pid, fd, link);
	return link[0] ? fd_path(pid, fd) : NULL;
}

void st_fd_track(const struct st_call *c)
{
	const char *sc = syscall_name(c->nr);
	int ret = (int)c->ret;

	if (!sc)
		return;
	if (!strcmp(sc, "close")) {
		fd_del(c->pid, (int)c->args[0]);
		return;
	}
	if (c->ret < 0)
		return;
	if (!strcmp(sc, "open") || !strcmp(sc, "creat"))
		fd_cache_set(c->pid, ret, c->str[0]);
	else if (!strcmp(sc, "openat") || !strcmp(sc, "openat2"))
		fd_cache_set(c->pid, ret, c->str[1]);
	else if (!strcmp(sc, "dup") || !strcmp(sc, "dup2") || !strcmp(sc, "dup3")) {
		const char *p = fd_path(c->pid, (int)c->args[0]);

		if (p)
			fd_cache_set(c->pid, ret, p);
	}
}

/* ---- beautifiers ---------------------------------------------------------- */

struct flag_name {
	unsigned long v;
	const char *name;
};

/* "A|B|0x40" (names of the set bits, then what is left in hex) */
static void add_flags(struct strbuf *b, unsigned long v, const struct flag_name *t, size_t n)
{
	int first = 1;

	for (size_t i = 0; i < n; i++)
		if (t[i].v && (v & t[i].v) == t[i].v) {
			strbuf_addf(b, "%s%s", first ? "" : "|", t[i].name);
			v &= ~t[i].v;
			first = 0;
		}
	if (v || first)
		strbuf_addf(b, "%s%#lx", first ? "" : "|", v);
}

static void open_flags(struct strbuf *b, unsigned long v)
{
	static const struct flag_name t[] = {
		{ O_SYNC, "SYNC" }, { O_CREAT, "CREAT" }, { O_EXCL, "EXCL" }, { O_NOCTTY, "NOCTTY" }, { O_TRUNC, "TRUNC" },
		{ O_APPEND, "APPEND" }, { O_NONBLOCK, "NONBLOCK" }, { O_DSYNC, "DSYNC" },
		{ O_DIRECT, "DIRECT" }, { O_LARGEFILE, "LARGEFILE" }, { O_DIRECTORY, "DIRECTORY" },
		{ O_NOFOLLOW, "NOFOLLOW" }, { O_NOATIME, "NOATIME" }, { O_CLOEXEC, "CLOEXEC" },
		{ O_PATH, "PATH" }, { O_TMPFILE & ~O_DIRECTORY, "TMPFILE" }, { O_ASYNC, "ASYNC" },
	};
	unsigned long acc = v & O_ACCMODE;

	strbuf_add(b, acc == O_WRONLY ? "WRONLY" : acc == O_RDWR ? "RDWR" : acc == O_RDONLY ? "RDONLY" : "ACC3");
	v &= ~(unsigned long)O_ACCMODE;
	if (v) {
		strbuf_addc(b, '|');
		add_flags(b, v, t, ARRAY_SIZE(t));
	}
}

static const char *const sig_names[] = {
	NULL, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
	"PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
	"XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
};

static void add_value(struct strbuf *b, const struct st_call *c, int i, enum kind k)
{
	uint64_t v = c->args[i];
	static const struct flag_name prot[] = {
		{ PROT_READ, "READ" }, { PROT_WRITE, "WRITE" }, { PROT_EXEC, "EXEC" },
		{ PROT_GROWSDOWN, "GROWSDOWN" }, { PROT_GROWSUP, "GROWSUP" },
	};
	static const struct flag_name mflags[] = {
		{ MAP_SHARED, "SHARED" }, { MAP_PRIVATE, "PRIVATE" }, { MAP_FIXED, "FIXED" },
		{ MAP_ANONYMOUS, "ANONYMOUS" }, { MAP_GROWSDOWN, "GROWSDOWN" }, { MAP_DENYWRITE, "DENYWRITE" },
		{ MAP_EXECUTABLE, "EXECUTABLE" }, { MAP_LOCKED, "LOCKED" }, { MAP_NORESERVE, "NORESERVE" },
		{ MAP_POPULATE, "POPULATE" }, { MAP_NONBLOCK, "NONBLOCK" }, { MAP_STACK, "STACK" },
		{ MAP_HUGETLB, "HUGETLB" }, { MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" },
	};
	static const char *const clocks[] = { "REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID",
					      "THREAD_CPUTIME_ID", "MONOTONIC_RAW", "REALTIME_COARSE",
					      "MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM",
					      "BOOTTIME_ALARM", NULL, "TAI" };
	static const char *const futex_ops[] = { "WAIT", "WAKE", "FD", "REQUEUE", "CMP_REQUEUE",
						 "WAKE_OP", "LOCK_PI", "UNLOCK_PI", "TRYLOCK_PI",
						 "WAIT_BITSET", "WAKE_BITSET", "WAIT_REQUEUE_PI",
						 "CMP_REQUEUE_PI", "LOCK_PI2" };
	const char *p;
	int fd;

	switch (k) {
	case K_DFD:
		if ((int)v == AT_FDCWD) {
			strbuf_add(b, "CWD");
			return;
		}
		/* fall through */
	case K_FD:
		fd = (int)v;
		strbuf_addf(b, "%d", fd);
		if (fd >= 0 && (p = fd_path(c->pid, fd))) {
			strbuf_addc(b, '<');
			out_escaped(b, p); /* a path: on one line */
			strbuf_addc(b, '>');
		}
		return;
	case K_STR:
		if (c->str[i] && !c->str[i][0])
			strbuf_add(b, "\"\"");
		else if (c->str[i])
			out_escaped(b, c->str[i]);
		else
			strbuf_addf(b, "%#llx", (unsigned long long)v);
		return;
	case K_OPEN_FLAGS:
		open_flags(b, (unsigned long)v);
		return;
	case K_MODE:
		strbuf_addf(b, "0%llo", (unsigned long long)v);
		return;
	case K_ACCMODE:
		if (!v)
			strbuf_add(b, "F");
		else
			strbuf_addf(b, "%s%s%s", v & 4 ? "R" : "", v & 2 ? "W" : "", v & 1 ? "X" : "");
		return;
	case K_PROT:
		if (!v)
			strbuf_add(b, "NONE");
		else
			add_flags(b, (unsigned long)v, prot, ARRAY_SIZE(prot));
		return;
	case K_MMAP_FLAGS:
		add_flags(b, (unsigned long)v, mflags, ARRAY_SIZE(mflags));
		return;
	case K_SIG:
		if (v < ARRAY_SIZE(sig_names) && sig_names[v])
			strbuf_add(b, sig_names[v]);
		else if ((int)v >= 32 && (int)v <= 64)
			strbuf_addf(b, "RTMIN+%d", (int)v - 32);
		else
			strbuf_addf(b, "%d", (int)v);
		return;
	case K_WHENCE:
		strbuf_add(b, v == 0 ? "SET" : v == 1 ? "CUR" : v == 2 ? "END" : v == 3 ? "DATA" : v == 4 ? "HOLE" : "?");
		if (v > 4)
			strbuf_addf(b, "%llu", (unsigned long long)v);
		return;
	case K_SIGHOW:
		if (v <= 2)
			strbuf_add(b, v == 0 ? "BLOCK" : v == 1 ? "UNBLOCK" : "SETMASK");
		else
			strbuf_addf(b, "%llu", (unsigned long long)v);
		return;
	case K_CLOCKID:
		if (v < ARRAY_SIZE(clocks) && clocks[v])
			strbuf_add(b, clocks[v]);
		else
			strbuf_addf(b, "%d", (int)v);
		return;
	case K_FUTEX_OP:
		if ((v & 127) < ARRAY_SIZE(futex_ops))
			strbuf_add(b, futex_ops[v & 127]);
		else
			strbuf_addf(b, "%llu", (unsigned long long)(v & 127));
		if (v & 128)
			strbuf_add(b, "|PRIVATE_FLAG");
		if (v & 256)
			strbuf_add(b, "|CLOCK_REALTIME");
		return;
	case K_HEX:
		strbuf_addf(b, "%#llx", (unsigned long long)v);
		return;
	case K_UINT:
		strbuf_addf(b, "%llu", (unsigned long long)v);
		return;
	case K_INT:
	default:
		strbuf_addf(b, "%lld", (long long)v);
		return;
	}
}

void st_fmt_entry(struct strbuf *b, const struct st_call *c)
{
	const struct sc_fmt *f = get_fmt(c->nr);
	char nbuf[32];
	int first = 1;

	strbuf_add(b, st_sc_name(c->nr, nbuf, sizeof(nbuf)));
	strbuf_addc(b, '(');
	if (!f) { /* no format: the six registers */
		for (int i = 0; i < 6; i++)
			strbuf_addf(b, "%s%#llx", i ? ", " : "", (unsigned long long)c->args[i]);
		return;
	}
	for (int i = 0; i < f->nargs; i++) {
		enum kind k = (enum kind)f->args[i].kind;

		/* perf: an anonymous mapping's fd and offset mean nothing */
		if (i >= 4 && f->nargs == 6 && f->args[3].kind == K_MMAP_FLAGS && (c->args[3] & MAP_ANONYMOUS))
			break;
		/* as perf: zero values are left out unless 0 means something */
		if (!c->args[i] && k != K_FD && k != K_OPEN_FLAGS && k != K_ACCMODE && k != K_SIG &&
		    k != K_WHENCE && k != K_SIGHOW && k != K_CLOCKID && k != K_FUTEX_OP)
			continue;
		strbuf_addf(b, "%s%s: ", first ? "" : ", ", f->args[i].name);
		add_value(b, c, i, k);
		first = 0;
	}
}

void st_fmt_ret(struct strbuf *b, const struct st_call *c)
{
	static const char *const hexret[] = { "mmap", "mremap", "brk", "shmat", NULL };
	static const char *const timeout[] = { "poll", "ppoll", "select", "pselect6", "epoll_wait",
					       "epoll_pwait", "epoll_pwait2", "semtimedop", NULL };
	const char *sc = syscall_name(c->nr), *e;
	char nbuf[32];

	if (c->ret < 0 && c->ret >= -4095) {
		int err = (int)-c->ret;

		e = errno_name(err);
		if (!e) {
			snprintf(nbuf, sizeof(nbuf), "E%d", err);
			e = nbuf;
		}
		strbuf_addf(b, "-1 %s (%s)", e, err < 512 ? strerror(err) : "kernel-internal error");
	} else if (sc && one_of(sc, hexret)) {
		strbuf_addf(b, "%#llx", (unsigned long long)c->ret);
	} else if (!c->ret && sc && one_of(sc, timeout)) {
		strbuf_add(b, "0 (Timeout)");
	} else {
		strbuf_addf(b, "%lld", (long long)c->ret);
	}
}

void st_fmt_line(struct strbuf *b, double ts_ms, double dur_ms, const char *comm, const struct st_call *c)
{
	char name[15];
	size_t start, printed, pad;

	/* perf's %.14s of the name, then escaped (never cut mid-escape) */
	snprintf(name, sizeof(name), "%s", comm);
	strbuf_addf(b, "%10.3f (%6.3f ms): ", ts_ms, dur_ms);
	out_escaped(b, name);
	strbuf_addf(b, "/%u ", c->tid);
	start = b->len;
	st_fmt_entry(b, c);
	/* perf: the entry string and its ')' padded to 70 columns, at least one space */
	printed = b->len - start + 1;
	pad = printed < 70 ? 70 - printed : 1;
	strbuf_addc(b, ')');
	strbuf_addf(b, "%*s= ", (int)pad, " ");
	st_fmt_ret(b, c);
}
