/* VM checks of the stack tools, on every architecture: profile and
 * offcputime against ground truth the check creates -- a child spinning in
 * known functions (main -> cbxvm_prof_outer -> cbxvm_prof_inner), one
 * sleeping 6 x 50 ms in a known function -- so that user stacks are walked
 * by frame pointers (x86 rbp, arm64 x29/x30 frame records), symbolized
 * from /init's symbol table, and kernel frames from /proc/kallsyms.
 * run.sh builds /init with -fno-omit-frame-pointer
 * -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls (32-bit arm:
 * -marm -mapcs-frame, the frame records the arm kernel's user stack walk
 * reads). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

volatile unsigned long cbxvm_sink;

/* O0 (with -mno-omit-leaf-frame-pointer from run.sh): a frame record even
 * in the leaf, on x86 (gcc omits it there at -Os whatever the flags) and
 * on arm64 alike, so the walk reaches every caller */
#define CBXVM_FRAMED __attribute__((noinline, optimize("O0")))

CBXVM_FRAMED void cbxvm_prof_inner(void)
{
	for (int i = 0; i < 100000; i++)
		cbxvm_sink += (unsigned long)i * 7;
}

CBXVM_FRAMED void cbxvm_prof_outer(uint64_t end_ms)
{
	while (now_ms() < end_ms) {
		cbxvm_prof_inner();
		__asm__ __volatile__("" ::: "memory");
	}
}

CBXVM_FRAMED void cbxvm_offcpu_sleep(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

#ifdef __arm__
	/* the system call from here: the arm kernel walks user stacks by
	 * APCS frame records only (fp), and musl's armhf syscall path is
	 * Thumb code without them, using fp as a plain register: past it,
	 * the walk found nothing but [unknown] */
	register long r0 __asm__("r0") = CLOCK_MONOTONIC, r1 __asm__("r1") = 0;
	register long r2 __asm__("r2") = (long)&ts, r3 __asm__("r3") = 0, r7 __asm__("r7") = 407;

	/* 407: clock_nanosleep_time64 (the EABI number; musl's timespec) */
	__asm__ volatile("svc #0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r7) : "memory");
#else
	nanosleep(&ts, NULL);
#endif
}

static void spin_1min(void)
{
	cbxvm_prof_outer(now_ms() + 60000);
}

#define OFFCPU_SLEEPS 6
CBXVM_FRAMED void cbxvm_offcpu_loop(void)
{
	for (int i = 0; i < OFFCPU_SLEEPS; i++)
		cbxvm_offcpu_sleep();
}

/* Is frame f one of the '|'-separated names in alts? */
static int frame_is(const char *f, const char *alts)
{
	size_t n = strlen(f);

	for (const char *a = alts; a && *a;) {
		const char *bar = strchr(a, '|');
		size_t len = bar ? (size_t)(bar - a) : strlen(a);

		if (len == n && !strncmp(a, f, n))
			return 1;
		a = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* Sum the counts of the multi-line stacks (frames "    name", leaf first,
 * then "    -  comm (pid)", then "        count") of pid whose frames
 * hold seq[0], seq[1], ... in this order (each "a|b": either name);
 * *other sums the stacks of any other pid. */
static unsigned long long stack_sum(int pid, const char *const *seq, int nseq, unsigned long long *other)
{
	unsigned long long sum = 0;
	char *s = out ? out : "";
	int matched = 0;

	*other = 0;
	while (*s) {
		char *nl = strchr(s, '\n'), line[256], comm[64];
		int n = nl ? (int)(nl - s) : (int)strlen(s), p = -1;
		unsigned long long v;

		snprintf(line, sizeof(line), "%.*s", n, s);
		if (!strncmp(line, "    -", 5) && sscanf(line, "    - %63s (%d)", comm, &p) == 2) {
			if (nl && sscanf(nl + 1, "%llu", &v) == 1) { /* the count, next line */
				if (p != pid)
					*other += v;
				else if (matched == nseq)
					sum += v;
			}
			matched = 0;
		} else if (!strncmp(line, "    ", 4)) {
			if (matched < nseq && frame_is(line + 4, seq[matched]))
				matched++;
		} else {
			matched = 0;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	return sum;
}

static void test_profile(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "profile", "-F", "99", "-p", pidarg, NULL };
	static const char *const chain[] = { "cbxvm_prof_inner", "cbxvm_prof_outer", "main" };
	unsigned long long sum, other;
	struct tool_run t;
	int gate, done, rc;
	pid_t child = gated_child(&gate, &done, spin_1min);

	if (child < 0)
		return;
	close(done);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Sampling at") < 0) {
		close(gate);
		end_child(child);
		return;
	}
	open_gate(gate);
	usleep(1500000);
	rc = tool_stop(&t);
	end_child(child);
	sum = stack_sum(child, chain, 3, &other);
	result(test, sum > 0 && other == 0 && rc == 0,
	       "-F 99 -p %d: %llu samples of the spinning child with the user stack main -> "
	       "cbxvm_prof_outer -> cbxvm_prof_inner, %llu of other processes; exit %d",
	       (int)child, sum, other, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_offcputime(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "offcputime", "-p", pidarg, NULL };
	/* kernel frames first (kallsyms), then the user ones (frame pointers;
	 * on x86 musl's frameless syscall code hides cbxvm_offcpu_sleep) */
	static const char *const chain[] = { "do_nanosleep|hrtimer_nanosleep", "cbxvm_offcpu_loop", "main" };
	unsigned long long sum, other;
	struct tool_run t;
	int gate, done, rc, slept;
	pid_t child = gated_child(&gate, &done, cbxvm_offcpu_loop);

	if (child < 0)
		return;
	snprintf(pidarg, sizeof(pidarg), "%d", (int)child);
	if (tool_start(&t, test, argv, disable, "Tracing off-CPU") < 0) {
		close(gate);
		close(done);
		end_child(child);
		return;
	}
	open_gate(gate);
	slept = wait_done(done, 10000);
	rc = tool_stop(&t);
	end_child(child);
	sum = stack_sum(child, chain, 3, &other);
	result(test, slept && sum >= OFFCPU_SLEEPS * 50000ull * 9 / 10 && other == 0 && rc == 0,
	       "-p %d: %llu us off CPU in stacks main -> cbxvm_offcpu_loop -> ... -> do_nanosleep "
	       "(slept %d x 50 ms%s), %llu us of other processes; exit %d",
	       (int)child, sum, OFFCPU_SLEEPS, slept ? "" : ": NOT finished", other, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("profile", test_profile);
VM_TEST("offcputime", test_offcputime);
