/* VM checks of the dynamic-tracing tools' generated programs, on every
 * architecture: the registers a function's arguments and return value are
 * read from (x86 rdi/rsi/rax, arm64 x0/x1/x0: tools/probe/arch.c), and a
 * kernel function probe (fentry where the kernel has it, else kprobes).
 * Ground truth: a child calls cbxvm_traced(i, 1000 + i) for i = 0..N-1
 * (it returns the sum); another sleeps 1 ms M times (M do_nanosleep());
 * another calls getpgid(100000 + i) N times (a syscall tracepoint). */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define TRACED_N 20
#define NANOSLEEP_M 30

__attribute__((noinline)) int cbxvm_traced(int x, int y)
{
	__asm__ __volatile__("" : "+r"(x), "+r"(y));
	return x + y;
}

static void call_traced(void)
{
	for (int i = 0; i < TRACED_N; i++)
		cbxvm_traced(i, 1000 + i);
}

static void sleep_m_times(void)
{
	struct timespec ts = { 0, 1000 * 1000 };

	for (int i = 0; i < NANOSLEEP_M; i++)
		nanosleep(&ts, NULL);
}

static void test_trace_args(const char *test, const char *disable)
{
	char pidarg[16], probe[600], want[64];
	char *argv[] = { "corebox", "trace", "-p", pidarg, probe, NULL };
	int rc, all = 1;
	pid_t child;

	snprintf(probe, sizeof(probe), "%s:cbxvm_traced \"cbxargs %%d %%d\", arg1, arg2", self);
	if ((rc = run_with_child(test, argv, pidarg, disable, "PID", call_traced, &child)) == -1)
		return;
	for (int i = 0; i < TRACED_N; i++) {
		snprintf(want, sizeof(want), "cbxargs %d %d\n", i, 1000 + i);
		all &= lines_with(want) == 1;
	}
	result(test, all && lines_with("cbxargs ") == TRACED_N && rc == 0,
	       "uprobe on %s:cbxvm_traced, -p %d: %d lines, %s; exit %d", self, (int)child,
	       lines_with("cbxargs "), all ? "every (arg1, arg2) = (i, 1000 + i)" : "NOT every (i, 1000 + i)", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_trace_retval(const char *test, const char *disable)
{
	char pidarg[16], probe[600];
	char *argv[] = { "corebox", "trace", "-p", pidarg, probe, NULL };
	int rc;
	pid_t child;

	/* i + 1000 + i == 1010 for i = 5 only */
	snprintf(probe, sizeof(probe), "r:%s:cbxvm_traced (retval == 1010) \"cbxret %%d\", retval", self);
	if ((rc = run_with_child(test, argv, pidarg, disable, "PID", call_traced, &child)) == -1)
		return;
	result(test, lines_with("cbxret 1010\n") == 1 && lines_with("cbxret ") == 1 && rc == 0,
	       "uretprobe with a filter on retval, -p %d: %d line(s) 'cbxret 1010' of %d; exit %d", (int)child,
	       lines_with("cbxret 1010\n"), lines_with("cbxret "), rc);
	if (!last_ok)
		dump_output(test);
}

static void getpgid_n_times(void)
{
	for (int i = 0; i < TRACED_N; i++)
		syscall(__NR_getpgid, 100000 + i); /* no such process: ESRCH */
}

/* A tracepoint's field, laid out as its tracefs format file says (on a
 * 32-bit kernel the syscall arguments are 4-byte longs): the pids the
 * child passed to getpgid(2). */
static void test_trace_tp(const char *test, const char *disable)
{
	char pidarg[16], probe[] = "t:syscalls:sys_enter_getpgid \"cbxtp %d\", args->pid", want[64];
	char *argv[] = { "corebox", "trace", "-p", pidarg, probe, NULL };
	int rc, all = 1;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "PID", getpgid_n_times, &child)) == -1)
		return;
	for (int i = 0; i < TRACED_N; i++) {
		snprintf(want, sizeof(want), "cbxtp %d\n", 100000 + i);
		all &= lines_with(want) == 1;
	}
	result(test, all && lines_with("cbxtp ") == TRACED_N && rc == 0,
	       "syscalls:sys_enter_getpgid, -p %d: %d lines, %s; exit %d", (int)child, lines_with("cbxtp "),
	       all ? "every pid = 100000 + i" : "NOT every 100000 + i", rc);
	if (!last_ok)
		dump_output(test);
}

static void test_funccount_kernel(const char *test, const char *disable)
{
	char pidarg[16], fn[] = "do_nanosleep";
	char *argv[] = { "corebox", "funccount", "-p", pidarg, fn, NULL }, *s;
	unsigned long long count = 0;
	int rc;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "Tracing", sleep_m_times, &child)) == -1)
		return;
	if ((s = strstr(out, "\ndo_nanosleep ")))
		sscanf(s + 1 + strlen(fn), "%llu", &count);
	result(test, count == NANOSLEEP_M && rc == 0, "%s -p %d: counted %llu (slept %d times); exit %d", fn, (int)child,
	       count, NANOSLEEP_M, rc);
	if (!last_ok)
		dump_output(test);
}

/* funcslower on a kernel function: each of the child's M 1 ms sleeps is
 * a do_nanosleep() call above 500 us, so exactly M rows */
static void test_funcslower_kernel(const char *test, const char *disable)
{
	char pidarg[16], fn[] = "do_nanosleep", u[] = "-u", us[] = "500";
	char *argv[] = { "corebox", "funcslower", u, us, "-p", pidarg, fn, NULL };
	int rc, rows;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "LAT(us)", sleep_m_times, &child)) == -1)
		return;
	rows = lines_with(" do_nanosleep \n");
	result(test, rows == NANOSLEEP_M && rc == 0, "%s -u 500 -p %d: %d rows (slept 1 ms %d times); exit %d", fn,
	       (int)child, rows, NANOSLEEP_M, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("trace.args", test_trace_args);
VM_TEST("trace.retval", test_trace_retval);
VM_TEST("trace.tp", test_trace_tp);
VM_TEST("funccount.kfunc", test_funccount_kernel);
VM_TEST("funcslower.kfunc", test_funcslower_kernel);
