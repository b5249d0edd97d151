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
 * the caller on another makes n expedited membarriers (one IPI each to
 * the spinner's CPU, function ipi_mb) and n write-protects of a written
 * page (a TLB shootdown each, flush_tlb_func). ---- */

struct sw_smp {
	int spin_cpu;
	volatile int running, stop;
};

/* SCHED_FIFO when allowed: other load on its CPU must not push it off
 * (an expedited membarrier only IPIs CPUs running the caller's mm); the
 * test lasts well under a second. */
static inline void *sw_spinner(void *arg)
{
	struct sw_smp *s = arg;
	volatile unsigned long x = 0;

	sw_pin(s->spin_cpu);
	sw_setsched(SCHED_FIFO, 1);
	s->running = 1;
	while (!s->stop)
		x++;
	return NULL;
}

/* Returns the number of membarrier calls that succeeded (-1: none could
 * be made). */
static inline int sw_smp_calls(int call_cpu, int spin_cpu, int n)
{
	struct sw_smp s = { spin_cpu, 0, 0 };
	pthread_t t;
	char *page;
	int ok = 0;

	sw_pin(call_cpu);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) < 0)
		ok = -1;
	if (pthread_create(&t, NULL, sw_spinner, &s))
		return -1;
	for (int i = 0; i < 200 && !s.running; i++) /* the spinner is on its CPU */
		sw_sleep_ms(10);
	sw_sleep_ms(10);
	for (int i = 0; i < n; i++) {
		if (ok >= 0 && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
			ok++;
		page[0] = (char)i;
		mprotect(page, 4096, PROT_READ);
		mprotect(page, 4096, PROT_READ | PROT_WRITE);
	}
	s.stop = 1;
	pthread_join(t, NULL);
	munmap(page, 4096);
	return ok;
}

#endif
