#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"

volatile sig_atomic_t tool_exiting;

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

void tool_err(const char *name, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
	struct obj *o = obj_open(name, data, size);

	if (!o) {
		tool_err(name, "cannot open embedded BPF object: %s", err_msg());
		exit(1);
	}
	drop_absent_syscalls(o);
	return o;
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

	while (!tool_exiting) {
		uint64_t now = now_ns();
		struct timespec ts;

		if (now >= end)
			break;
		ts.tv_sec = (time_t)((end - now) / 1000000000ull);
		ts.tv_nsec = (long)((end - now) % 1000000000ull);
		if (nanosleep(&ts, NULL) == 0)
			break;
	}
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

static void print_stars(unsigned val, unsigned val_max, int width)
{
	int num_stars, num_spaces, i;
	int need_plus;

	num_stars = (int)((val < val_max ? val : val_max) * (uint64_t)width / (val_max ? val_max : 1));
	num_spaces = width - num_stars;
	need_plus = val > val_max;
	for (i = 0; i < num_stars; i++)
		putchar('*');
	for (i = 0; i < num_spaces; i++)
		putchar(' ');
	if (need_plus)
		putchar('+');
}

void print_log2_hist(const uint32_t *vals, int n, const char *unit)
{
	int stars_max = 40, idx_max = -1, i;
	unsigned val_max = 0;

	for (i = 0; i < n; i++) {
		if (vals[i] > 0)
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (idx_max < 0)
		return;
	printf("%*s%-*s : count    distribution\n", idx_max <= 32 ? 5 : 15, "",
	       idx_max <= 32 ? 19 : 29, unit);
	if (idx_max <= 32)
		stars_max = 40;
	else
		stars_max = 20;
	for (i = 0; i <= idx_max; i++) {
		unsigned long long low = (1ULL << (i + 1)) >> 1;
		unsigned long long high = (1ULL << (i + 1)) - 1;

		if (low == high)
			low -= 1;
		printf("%*llu -> %-*llu : %-8u |", idx_max <= 32 ? 10 : 20, low,
		       idx_max <= 32 ? 10 : 20, high, vals[i]);
		print_stars(vals[i], val_max, stars_max);
		printf("|\n");
	}
}

void print_linear_hist(const uint32_t *vals, int n, unsigned base, unsigned step, const char *unit)
{
	int i, first = -1, last = -1;
	unsigned val_max = 0;

	for (i = 0; i < n; i++) {
		if (vals[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (first < 0)
		return;
	printf("     %-13s : count     distribution\n", unit);
	for (i = first; i <= last; i++) {
		printf("        %-10u : %-8u |", base + (unsigned)i * step, vals[i]);
		print_stars(vals[i], val_max, 40);
		printf("|\n");
	}
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
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		tool_err(name, "cannot open cgroup %s: %s", path, strerror(errno));
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

void tool_report_lost(const char *name, uint64_t lost)
{
	if (lost)
		fprintf(stderr, "%s: lost %llu events (consumer too slow; try a filter)\n", name,
			(unsigned long long)lost);
}
