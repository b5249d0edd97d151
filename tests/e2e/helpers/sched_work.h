/* Scheduler workloads with known shapes, shared by the e2e helper
 * (tests/e2e/helpers/cbx_sched.c) and the VM checks (tests/vm/t_sched.c):
 * CPU hogs pinned to a CPU, a periodic sleeper, on-CPU bursts of a known
 * length, and SMP calls (membarrier IPIs, TLB shootdowns) from two
 * threads on two CPUs.  Plain libc + raw syscalls (musl and glibc). */
#ifndef CBX_SCHED_WORK_H
#define CBX_SCHED_WORK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* before any system header: the includer's first line */
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef MEMBARRIER_CMD_PRIVATE_EXPEDITED
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#endif

static inline uint64_t sw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* sched_setscheduler as the kernel has it (musl's returns ENOSYS). */
static inline int sw_setsched(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return (int)syscall(SYS_sched_setscheduler, 0, policy, &sp);
}

/* Pin the calling thread to one CPU: 0, or -1. */
static inline int sw_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* A child spinning on cpu until killed (or after max_s seconds, a bound
 * for a test that dies); its pid. */
static inline pid_t sw_hog(int cpu, int max_s)
{
	pid_t p = fork();

	if (p == 0) {
		uint64_t end = sw_now_ns() + (uint64_t)max_s * 1000000000ull;
		volatile unsigned long x = 0;

		sw_pin(cpu);
		while (sw_now_ns() < end)
			for (int i = 0; i < 100000; i++)
				x++;
		_exit(0);
	}
	return p;
}

/* Sleep ms milliseconds (restarting after signals). */
static inline void sw_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Spin for ns nanoseconds of wall time. */
static inline void sw_spin_ns(uint64_t ns)
{
	uint64_t end = sw_now_ns() + ns;

	while (sw_now_ns() < end)
		;
}

/* Wait (at most max_ms) until fd is readable: the go signal of a test. */
static inline int sw_wait_go(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? 0 : -1;
}

/* The sleeper of runqlat: iters wakeups, one every period_ms, on cpu as
 * a SCHED_IDLE task (else nice 19): its wakeups never preempt a normal
 * task, so a hog on that CPU keeps it waiting until the hog's slice ends
 * (a tick or more). */
static inline void sw_sleeper(int cpu, int iters, long period_ms)
{
	sw_pin(cpu);
	if (sw_setsched(SCHED_IDLE, 0) < 0)
		setpriority(PRIO_PROCESS, 0, 19);
	for (int i = 0; i < iters; i++)
		sw_sleep_ms(period_ms);
}

/* n bursts of burst_us on-CPU then sleep_ms off, on cpu; SCHED_FIFO when
 * allowed, so nothing preempts a burst (it ends by sleeping). */
static inline int sw_bursts(int cpu, int n, long burst_us, long sleep_ms)
{
	int fifo = sw_setsched(SCHED_FIFO, 10) == 0;

	sw_pin(cpu);
	for (int i = 0; i < n; i++) {
		sw_spin_ns((uint64_t)burst_us * 1000);
		sw_sleep_ms(sleep_ms);
	}
	return fifo;
}

/* ---- SMP calls: a spinner thread on one CPU keeps the mm live there;
 * the caller on another makes expedited membarriers (function ipi_mb)
 * and write-protects of a written page (TLB shootdowns, flush_tlb_func).
 *
 * A membarrier IPIs only the CPUs whose current task runs the caller's
 * mm, so how many IPIs it sends depends on whether the spinner was on its
 * CPU: other load, RT throttling and 6.12's fair server push a SCHED_FIFO
 * spinner off now and then (a TCG guest once saw 76 IPIs for 200 calls).
 * The caller therefore proves, call by call, that the spinner ran
 * throughout: its progress counter moved after the last reading of its
 * context switches (so it was on the CPU then), and its switch count
 * (voluntary + involuntary, /proc/self/task/TID/status) is the same after
 * the membarrier (so it never left).  Such a call must IPI the spinner's
 * CPU exactly once; the caller goes on until n calls were such (at most
 * 8n calls). ---- */

struct sw_smp {
	int spin_cpu;
	volatile int tid, running, stop;
	volatile unsigned long progress;
};

struct sw_smp_count {
	int made; /* membarriers that returned 0 (-1: none could be made) */
	int sure; /* of them, made while the spinner was on its CPU throughout */
};

/* SCHED_FIFO when allowed: other load on its CPU must seldom push it off;
 * the test lasts a few seconds at most. */
static inline void *sw_spinner(void *arg)
{
	struct sw_smp *s = arg;

	sw_pin(s->spin_cpu);
	sw_setsched(SCHED_FIFO, 1);
	s->tid = (int)syscall(SYS_gettid);
	s->running = 1;
	while (!s->stop)
		s->progress++;
	return NULL;
}

/* The kernel's count of the thread's context switches (the fd of its
 * /proc status, read again from the start each time); -1 when unreadable. */
static inline long sw_switches(int fd)
{
	char buf[4096], *p;
	long sum = 0, v;
	int found = 0;
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	/* the progress read after this one is ordered after it */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	for (p = buf; (p = strstr(p, "ctxt_switches:\t")); found++) {
		p += strlen("ctxt_switches:\t");
		v = strtol(p, &p, 10);
		sum += v;
	}
	return found == 2 ? sum : -1;
}

static inline struct sw_smp_count sw_smp_calls(int call_cpu, int spin_cpu, int n)
{
	struct sw_smp s = { .spin_cpu = spin_cpu };
	struct sw_smp_count c = { -1, 0 };
	char *page, path[64];
	pthread_t t;
	long sw0, sw1;
	int fd, reg;

	sw_pin(call_cpu);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return c;
	reg = (int)syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
	if (pthread_create(&t, NULL, sw_spinner, &s)) {
		munmap(page, 4096);
		return c;
	}
	for (int i = 0; i < 200 && !s.running; i++) /* the spinner is on its CPU */
		sw_sleep_ms(10);
	sw_sleep_ms(10);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", s.tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	sw0 = fd < 0 ? -1 : sw_switches(fd);
	if (reg == 0)
		c.made = 0;
	for (int i = 0; i < 8 * n && (c.made < 0 || c.sure < n); i++) {
		unsigned long p0 = s.progress, p1;
		int made;

		page[0] = (char)i;
		mprotect(page, 4096, PROT_READ);
		mprotect(page, 4096, PROT_READ | PROT_WRITE);
		/* under TCG (one host thread for both vCPUs) the spinner's
		 * vCPU may not have run since: wait for it, up to a second (the
		 * guest's clock runs on while a loaded host holds qemu) */
		for (uint64_t end = sw_now_ns() + 1000000000; (p1 = s.progress) == p0 && sw_now_ns() < end;)
			;
		made = c.made >= 0 && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		sw1 = fd < 0 ? -1 : sw_switches(fd);
		if (made) {
			c.made++;
			c.sure += p1 != p0 && sw0 >= 0 && sw1 == sw0;
		}
		sw0 = sw1;
		if (c.made < 0 && i + 1 >= n) /* no membarriers: n shootdowns */
			break;
	}
	if (fd >= 0)
		close(fd);
	s.stop = 1;
	pthread_join(t, NULL);
	munmap(page, 4096);
	return c;
}

#ifdef COREBOX_VM_H
/* The VM checks' setup for runqlat and runqslower (tests/vm/t_sched.c,
 * t_schedtp.c): a hog on cpu, a gated child running fn beside it, the tool
 * (argv, with the child's pid written into pidarg, 16 bytes) started until
 * its output holds ready; then the gate opened, the child's work awaited
 * (up to wait_ms: *finished 1 when it came), the tool stopped, both ended.
 * The tool's exit status with out holding its output; -1 when it did not
 * start (a FAIL line is out). */
static inline int sw_vm_beside_hog(const char *test, char *const argv[], char *pidarg, const char *disable,
				   const char *ready, int cpu, void (*fn)(void), int wait_ms, int *finished,
				   pid_t *childp)
{
	struct tool_run t;
	pid_t hog = sw_hog(cpu, 60), child;
	int gate, done, rc;

	*childp = child = gated_child(&gate, &done, fn);
	snprintf(pidarg, 16, "%d", (int)child);
	if (tool_start(&t, test, argv, disable, ready) < 0) {
		close(gate);
		close(done);
		end_child(child);
		end_child(hog);
		return -1;
	}
	open_gate(gate);
	*finished = wait_done(done, wait_ms);
	rc = tool_stop(&t);
	end_child(child);
	end_child(hog);
	return rc;
}
#endif

#endif
