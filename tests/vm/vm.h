/* What the VM test driver (tests/vm/driver.c) shares with the tool
 * checks (tests/vm/t_*.c).  A check file registers its tests with
 * VM_TEST(name, fn): the driver runs each one twice, as the tools choose
 * and with every fallback forced (`disable` is then the COREBOX_DISABLE
 * value to pass on), naming the second run "name.fallback".  Register with
 * VM_TEST_ONCE for a check that means nothing under forced fallbacks, and
 * VM_TEST_ASKED for a measurement that runs only when --only names it (it
 * would cost every CI run minutes of guest time).
 * New tool batches add a file; run.sh links every tests/vm/t_*.c. */
#ifndef COREBOX_VM_H
#define COREBOX_VM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct vm_test {
	const char *name;
	void (*fn)(const char *test, const char *disable);
	int once; /* 1: no .fallback run; 2: that, and only when asked for */
};
#define VM_TEST_(id, nm, f, o)                                                             \
	static const struct vm_test vm_test_##id __attribute__((used, section("vmtests"),  \
								  aligned(sizeof(void *)))) = { nm, f, o }
#define VM_TEST(name, fn) VM_TEST_(fn, name, fn, 0)
#define VM_TEST_ONCE(name, fn) VM_TEST_(fn, name, fn, 1)
#define VM_TEST_ASKED(name, fn) VM_TEST_(fn, name, fn, 2)
extern const struct vm_test __start_vmtests[], __stop_vmtests[];

extern int fails, last_ok;
extern const char *dir;    /* "" in the VM: files at /corebox etc. */
extern const char *expect; /* "auto": any mechanism is fine (own kernels) */
extern char self[512];     /* this driver (a marked program to exec) */
extern char *out;          /* the running tool's output (tool_start..tool_stop) */
extern size_t out_len, out_cap;
extern int loop_dev;       /* /dev/loopN holding /cbxvm_disk, or -1 */

/* One result line: "VMTEST test PASS|FAIL detail". */
void result(const char *test, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t now_ms(void);
uint64_t boot_ns(void);
/* DIR/name (or /name in the VM). */
void path_of(char *buf, size_t size, const char *name);
/* Attach /cbxvm_disk to a loop device (biolatency and the block tools): its number, or -1. */
int setup_loop(void);
/* Wait for pid at most ms; its status, or -2 after killing it. */
int wait_bounded(pid_t pid, int ms);
/* Print VMTEST-MECH for every program loaded since `since` (boot ns). */
void report_mechanisms(const char *test, uint64_t since);
/* The kernel's run statistics (kernel.bpf_stats_enabled) of the programs
 * loaded since `since`: their summed run time (ns); *runs their runs,
 * *progs how many, *jited how many of them the JIT compiled. */
uint64_t prog_run_ns(uint64_t since, uint64_t *runs, int *progs, int *jited);

/* A tool run with its output through a pipe. */
struct tool_run {
	pid_t pid;
	int fd;
	uint64_t since;
};
/* Start corebox argv (argv[0] = tool) with COREBOX_DISABLE=disable, wait
 * (bounded) until its output holds `ready`.  0, or -1 after a FAIL line. */
int tool_start(struct tool_run *t, const char *test, char *const argv[], const char *disable,
	       const char *ready);
/* SIGINT, collect the rest of the output (bounded), reap: exit status. */
int tool_stop(struct tool_run *t);
/* Read what is there within ms; 0 at EOF. */
int pump(int fd, int ms);
/* The tool's output (last lines) after a failure. */
void dump_output(const char *test);

/* A child that runs fn once the gate opens, says done, then waits to be
 * killed (at most a minute): tools read its /proc/PID files when they
 * print, after the run.  *gate, *done: the parent's pipe ends. */
pid_t gated_child(int *gate, int *done, void (*fn)(void));
void open_gate(int gate);
/* Wait up to ms for the child's done byte: 1 when it came (closes done). */
int wait_done(int done, int ms);
/* SIGKILL and reap. */
void end_child(pid_t child);
/* The start of run_with_child: the gated child (its pid in *childp and
 * pidarg) and corebox argv started (*t), the gate opened, the child's done
 * awaited.  1: the child finished; 0: it did not; -1: nothing started (a
 * FAIL line is out, the child is ended).  The caller stops t and ends the
 * child. */
int start_with_child(struct tool_run *t, const char *test, char **argv, char *pidarg, const char *disable,
		     const char *ready, void (*fn)(void), pid_t *childp);
/* corebox argv against a gated child running fn (its pid written into
 * pidarg, 16 bytes, before the start): the tool's exit status, -1 when it
 * did not start (a FAIL line is out), -3 when the child did not finish;
 * out holds the output. */
int run_with_child(const char *test, char **argv, char *pidarg, const char *disable, const char *ready,
		   void (*fn)(void), pid_t *childp);
/* The BPF links in the system (BPF_LINK_GET_NEXT_ID, 5.8+). */
int bpf_links(void);
/* kprobe_events entries of corebox process pid (-1: unreadable). */
int own_kprobe_events(pid_t pid);
/* Occurrences of needle in out. */
int lines_with(const char *needle);

#endif
