#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/statfs.h>

#include "bpf/sys.h"
#include "bpfobjs.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "loader/kbtf.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

volatile sig_atomic_t tool_exiting;
const char *tool_applet;
const char *tool_applet_summary;

static void on_signal(int sig)
{
	(void)sig;
	tool_exiting = 1;
}

void tool_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Messages quote names from files and the kernel and the user's own
 * arguments: never let their bytes reach the terminal raw, nor a newline
 * in an argument forge a second line (everything is escaped, newlines
 * too).  The one text that keeps its lines is lib/err.c's message (a
 * verifier log tail), quoted here through err_msg(): lib/err.c escaped it
 * already, so it is copied as it is rather than escaped twice. */
void tool_err(const char *name, const char *fmt, ...)
{
	struct strbuf b = { 0 };
	const char *em = err_msg();
	char *msg = NULL, *at;
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	strbuf_reset(&b);
	strbuf_add_escaped(&b, name, "");
	strbuf_add(&b, ": ");
	at = msg && em[0] ? strstr(msg, em) : NULL;
	if (at) {
		*at = 0;
		strbuf_add_escaped(&b, msg, "");
		strbuf_add(&b, em);
		strbuf_add_escaped(&b, at + strlen(em), "");
	} else {
		strbuf_add_escaped(&b, msg ? msg : fmt, "");
	}
	fprintf(stderr, "%s\n", b.s);
	strbuf_free(&b);
	free(msg);
}

/* ---- stdout: write errors and a reader that went away ------------------ */

static int stdout_err;     /* first error writing stdout (EPIPE: the reader left) */
static int stdout_pollable = -1;

static void stdout_failed(int err)
{
	if (stdout_err)
		return;
	stdout_err = err ? err : EIO;
	tool_exiting = 1;
	if (stdout_err != EPIPE) /* a closed pipe is a normal way to stop */
		fprintf(stderr, "%s: cannot write the output: %s\n", out_cfg.tool ? out_cfg.tool : "corebox",
			strerror(stdout_err));
}

/* A write inside printf() may have failed already (stdio keeps only the
 * error flag): errno still holds why, as nothing failed since. */
static int flush_errno(void)
{
	int before = errno;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return errno ? errno : before;
}

int tool_flush(void)
{
	int err;

	if (stdout_err)
		return -1;
	if (!(err = flush_errno()))
		return 0;
	stdout_failed(err);
	return -1;
}

/* poll() with no events still reports POLLERR on a pipe whose reader has
 * closed it (POLLHUP on a hung-up tty or socket); a regular file, a tty or
 * /dev/null report nothing.  So waiting in poll() on fd 1 is a sleep that
 * ends when the output goes away. */
/* mask: the signal mask to wait with (ppoll), signals being blocked
 * until then (not with --listen: its wait is a plain poll); NULL: no
 * wait */
static int wait_stdout(int timeout_ms, const sigset_t *mask)
{
	struct pollfd p = { .fd = 1, .events = 0 };
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	int r;

	if (stdout_pollable < 0) {
		r = poll(&p, 1, 0);
		stdout_pollable = !(r == 1 && (p.revents & POLLNVAL));
		p.revents = 0;
	}
	if (tool_listening()) { /* the same wait, answering /metrics meanwhile */
		if (tool_listen_poll(stdout_pollable ? 1 : -1, timeout_ms) & (POLLERR | POLLHUP)) {
			stdout_failed(EPIPE);
			return -1;
		}
		return 0;
	}
	r = ppoll(&p, stdout_pollable ? 1 : 0, &ts, mask);
	if (r == 1 && (p.revents & (POLLERR | POLLHUP))) {
		stdout_failed(EPIPE);
		return -1;
	}
	return 0;
}

bool tool_stdout_gone(void)
{
	return stdout_err || wait_stdout(0, NULL) < 0;
}

int tool_finish(int rc)
{
	if (!stdout_err) {
		int err = flush_errno();

		if (err)
			stdout_failed(err);
	}
	if (stdout_err == EPIPE) {
		/* everything is detached by now: die of SIGPIPE as a tool
		 * that never ignored it would (status 141 in a shell) */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		return 141;
	}
	return stdout_err ? 1 : rc;
}

/* The syscall a program's section names, or NULL: tracepoint/syscalls/
 * sys_{enter,exit}_X (also tp/), ksyscall/X, kretsyscall/X, and
 * kprobe/kretprobe/fentry/fexit on a syscall wrapper (__x64_sys_X,
 * __arm64_sys_X). */
static const char *section_syscall(const char *sec)
{
	static const char *const tps[] = { "tracepoint/syscalls/sys_enter_", "tracepoint/syscalls/sys_exit_",
					   "tp/syscalls/sys_enter_", "tp/syscalls/sys_exit_",
					   "ksyscall/", "kretsyscall/" };
	static const char *const fns[] = { "kprobe/", "kretprobe/", "fentry/", "fexit/" };
	static const char *const wrappers[] = { "__x64_sys_", "__arm64_sys_" };

	for (size_t i = 0; i < ARRAY_SIZE(tps); i++)
		if (!strncmp(sec, tps[i], strlen(tps[i])))
			return sec + strlen(tps[i]);
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++) {
		if (strncmp(sec, fns[i], strlen(fns[i])))
			continue;
		sec += strlen(fns[i]);
		for (size_t k = 0; k < ARRAY_SIZE(wrappers); k++)
			if (!strncmp(sec, wrappers[k], strlen(wrappers[k])))
				return sec + strlen(wrappers[k]);
		return NULL;
	}
	return NULL;
}

/* Programs on syscalls this architecture does not have (arm64 has no
 * open, stat, fork, ...: the generic table) are not loaded, so one BPF
 * source serves every architecture. */
static void drop_absent_syscalls(struct obj *o)
{
	struct prog *p;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		const char *sec = prog_section(p), *sc = sec ? section_syscall(sec) : NULL;

		if (sc && *sc && syscall_nr(sc) < 0)
			prog_set_autoload(p, false);
	}
}

struct obj *tool_open(const char *name, const void *data, size_t size)
{
	const void *dict;
	size_t dict_len;
	struct obj *o = NULL;

	if (bpf_dict(&dict, &dict_len) == 0)
		o = obj_open_dict(name, data, size, dict, dict_len);
	if (!o) {
		tool_err(name, "cannot open embedded BPF object: %s", err_msg());
		exit(1);
	}
	drop_absent_syscalls(o);
	return o;
}

bool tool_no_kbtf(void)
{
	char vmlinux[300];

	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", kbtf_sysfs_dir());
	return !tool_common.btf_path && access(vmlinux, R_OK) != 0;
}

/* The loader names the object (the tool) itself: don't say it twice. */
static void load_error(const char *name, int err)
{
	const char *msg = err_msg();
	size_t n = strlen(name);

	if (!strncmp(msg, name, n) && msg[n] == ':' && msg[n + 1] == ' ')
		msg += n + 2;
	if (err == -EPERM && geteuid() != 0)
		tool_err(name, "%s (BPF tracing needs root, or CAP_BPF with CAP_PERFMON)", msg);
	else
		tool_err(name, "%s", msg);
}

int tool_load_attach(struct obj *o, const char *name)
{
	struct obj_opts opts = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
	int err = obj_load(o, &opts);

	if (err >= 0)
		err = obj_attach(o);
	if (err < 0) {
		load_error(name, err);
		obj_close(o);
		return 1;
	}
	return 0;
}

void tool_sleep_ms(long ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	sigset_t stop, old;

	/* a Ctrl-C between the check of tool_exiting and the wait would be
	 * lost (seen under emulation, with SIGINT sent as the tool printed
	 * "Tracing..."): signals are blocked but during the wait */
	sigfillset(&stop);
	sigprocmask(SIG_BLOCK, tool_listening() ? NULL : &stop, &old); /* NULL: only read */
	while (!tool_exiting) {
		uint64_t now = now_ns(), left;

		if (now >= end)
			break;
		left = (end - now + 999999) / 1000000;
		if (wait_stdout(left > 1000000 ? 1000000 : (int)left, &old) < 0)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

char *tool_hms(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%H:%M:%S", &tm);
	return buf;
}

double tool_elapsed(void)
{
	static uint64_t start;
	uint64_t now = now_ns();

	if (!start)
		start = now;
	return (double)(now - start) / 1e9;
}

long tool_map_drain(int fd, size_t key_size, size_t val_size, void *keys, void *vals, uint32_t max,
		    bool *batch)
{
	char *k = keys, *v = vals;
	uint32_t n = 0, i;
	int r;

	if (*batch) {
		uint64_t in = 0, out = 0;
		bool first = true;

		for (;;) {
			uint32_t count = max - n;

			if (!count)
				break;
			r = bpf_map_lookup_batch(fd, first ? NULL : &in, &out, k + n * key_size,
						 v + n * val_size, &count, 1);
			if (r < 0 && r != -ENOENT) {
				if (first && n == 0 && (r == -EINVAL || r == -ENOTSUP || r == -524)) {
					*batch = false;
					break;
				}
				return r;
			}
			n += count;
			if (r == -ENOENT)
				break;
			in = out;
			first = false;
		}
	}
	if (!*batch) {
		while (n < max && bpf_map_next_key(fd, n ? k + (n - 1) * key_size : NULL, k + n * key_size) == 0)
			n++;
		for (i = 0; i < n; i++) {
			if (bpf_map_lookup(fd, k + i * key_size, v + i * val_size) < 0)
				memset(v + i * val_size, 0, val_size);
			bpf_map_delete(fd, k + i * key_size);
		}
	}
	return n;
}

int tool_cgroup_open(const char *name, const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs sf;
	char mnt[512];

	if (fd < 0 && errno != ENOTDIR) {
		tool_err(name, "cannot open cgroup %s: %s", path, strerror(errno));
		return -1;
	}
	if (fd < 0 || fstatfs(fd, &sf) < 0 || (unsigned long)sf.f_type != CGROUP2_SUPER_MAGIC) {
		if (cgroup2_mount(mnt, sizeof(mnt)))
			tool_err(name, "%s is not a cgroup v2 directory (cgroup v2 is mounted at %s)", path, mnt);
		else
			tool_err(name, "%s is not a cgroup v2 directory (no cgroup2 file system is mounted: "
				 "mount -t cgroup2 none DIR)", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int tool_cgroup_filter(struct obj *o, const char *name, const char *path, int cgfd)
{
	uint32_t zero = 0, v = (uint32_t)cgfd;

	if (bpf_map_update(map_fd(obj_map(o, "cgroup_map")), &zero, &v, 0) < 0) {
		tool_err(name, "cannot add cgroup %s to the filter map: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A lost event is one record the kernel side could not hand over (the
 * buffer was full), counted once when it failed: it passed the filters
 * the kernel applies (-p, -t, -u, -c...), not yet those the tool applies
 * to what it reads (opensnoop's -n), so it may be another process's. */
void tool_report_lost(const char *name, uint64_t lost)
{
	if (lost)
		fprintf(stderr,
			"%s: lost %llu events (consumer too slow; try a filter): records the kernel found the buffer "
			"full for, before the tool's own name filters\n",
			name, (unsigned long long)lost);
}
