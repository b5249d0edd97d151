/* The BPF JIT against the interpreter (a measurement, run on request:
 * `run.sh --only armhf --tests jit`, which `make bench` does): a 32-bit
 * ARM kernel leaves bpf_jit_enable at 0, so its programs run in the
 * interpreter unless the administrator turns the JIT on.  `corebox
 * syscount` (a program on every system call's entry and exit) loaded with
 * bpf_jit_enable 0, then 1, while N getppid() calls run: the kernel's own
 * run statistics (kernel.bpf_stats_enabled: run time and count of each
 * program) give the cost per program run, which the host's load (a TCG
 * guest's clock is the host's) barely touches; the loops' wall time per
 * traced call is printed beside it.  It fails only when it could not
 * measure (no JIT switch, the tool did not start or count the calls). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define JIT_N 20000

static uint64_t loop_ns(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < JIT_N; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec;
}

/* Write v ("0"/"1") to the sysctl file; its old value in old[0]. */
static int sysctl_set(const char *path, const char *v, char *old)
{
	int fd = open(path, O_RDWR | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	if (old && read(fd, old, 1) != 1)
		old[0] = '0';
	ok = pwrite(fd, v, 1, 0) == 1;
	close(fd);
	return ok ? 0 : -1;
}

#define JIT_CTL "/proc/sys/net/core/bpf_jit_enable"
#define STATS_CTL "/proc/sys/kernel/bpf_stats_enabled"

static void test_jit(const char *test, const char *disable)
{
	char *argv[] = { "corebox", "syscount", NULL }, jit_old[2] = "0", stats_old[2] = "0";
	unsigned long long wall[2] = { 0, 0 }, counted[2] = { 0, 0 };
	uint64_t ns[2] = { 0, 0 }, runs[2] = { 0, 0 }, base;
	struct tool_run t;
	int rc[2] = { -1, -1 }, progs[2] = { 0, 0 }, jited[2] = { 0, 0 };

	if (sysctl_set(STATS_CTL, "1", stats_old) < 0 || sysctl_set(JIT_CTL, "0", jit_old) < 0) {
		result(test, 0, "cannot write %s or %s", STATS_CTL, JIT_CTL);
		return;
	}
	loop_ns(); /* (the first loop also warms the emulator's translation) */
	base = loop_ns();
	for (int j = 0; j < 2; j++) {
		if (sysctl_set(JIT_CTL, j ? "1" : "0", NULL) < 0 ||
		    tool_start(&t, test, argv, disable, "Tracing syscalls") < 0)
			break;
		wall[j] = loop_ns();
		ns[j] = prog_run_ns(t.since, &runs[j], &progs[j], &jited[j]);
		rc[j] = tool_stop(&t);
		/* the row "getppid  COUNT" */
		for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			if (!strncmp(l, "getppid ", 8))
				counted[j] = strtoull(l + 8, NULL, 10);
	}
	sysctl_set(JIT_CTL, jit_old, NULL);
	sysctl_set(STATS_CTL, stats_old, NULL);
	result(test, !rc[0] && !rc[1] && counted[0] >= JIT_N && counted[1] >= JIT_N && runs[0] >= JIT_N && runs[1] >= JIT_N &&
		     !jited[0] && progs[1] && jited[1] == progs[1],
	       "syscount per program run (bpf_stats): interpreter %llu ns, JIT %llu ns (%.1fx; %llu, %llu runs; %d of %d, %d of %d programs JIT-compiled); "
	       "wall per getppid(): untraced %llu ns, interpreter %lld ns, JIT %lld ns; %d calls (counted %llu, %llu); exit %d %d",
	       (unsigned long long)(ns[0] / (runs[0] ? runs[0] : 1)), (unsigned long long)(ns[1] / (runs[1] ? runs[1] : 1)),
	       ns[1] && runs[0] ? (double)ns[0] / (double)runs[0] / ((double)ns[1] / (double)runs[1]) : 0.0,
	       (unsigned long long)runs[0], (unsigned long long)runs[1], jited[0], progs[0], jited[1], progs[1], (unsigned long long)(base / JIT_N),
	       (long long)(wall[0] / JIT_N), (long long)(wall[1] / JIT_N), JIT_N, counted[0], counted[1], rc[0], rc[1]);
}

VM_TEST_ASKED("jit", test_jit);
