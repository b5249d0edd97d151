/* VM checks of USDT probes on 32-bit ARM (the armhf guests): run.sh
 * packs /cbxvm_usdt (tests/vm/usdt_thumb.c, Thumb-2 code with one ARM
 * function, a USDT site in each) and its stripped copy
 * /cbxvm_usdt_stripped.  The arm kernel's uprobes decode and patch ARM
 * instructions only (arch/arm/probes/uprobes/core.c: an address that is
 * not 4-aligned is refused, a 4-aligned Thumb one gets an ARM breakpoint
 * word the Thumb CPU runs as two other instructions), so
 *  - usdt.arm: trace on the ARM site counts the program's N calls with
 *    their argument (100 + i);
 *  - usdt.thumb: trace on the Thumb site refuses in one line naming the
 *    probe, the binary and why, exit 1 -- from the function symbol's
 *    Thumb bit, and in the stripped copy from the site's instruction. */
#ifdef __arm__
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm.h"

#define USDT_N 5 /* CBXVM_USDT_N of usdt_thumb.c */

/* Run the program at path to its end (stdin: one byte, its go): its
 * exit status, 128 + signal, or -1/-2 (not run / killed after 10 s). */
static int run_prog(const char *path)
{
	int p[2];
	pid_t pid;
	char c = 1;

	if (pipe(p) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		freopen("/dev/null", "w", stdout);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	if (pid < 0 || write(p[1], &c, 1) != 1) {
		close(p[1]);
		return pid < 0 ? -1 : wait_bounded(pid, 10000);
	}
	close(p[1]);
	return wait_bounded(pid, 10000);
}

static void test_usdt_arm(const char *test, const char *disable)
{
	char probe[] = "u:/cbxvm_usdt:cbxvm:arm_site \"cbxusdt %d\", arg1", want[32];
	char *argv[] = { "corebox", "trace", probe, NULL };
	struct tool_run t;
	int rc, prc, all = 1;

	if (access("/cbxvm_usdt", X_OK) != 0) {
		result(test, 0, "/cbxvm_usdt missing (run.sh builds it from tests/vm/usdt_thumb.c)");
		return;
	}
	if (tool_start(&t, test, argv, disable, "PID") < 0)
		return;
	prc = run_prog("/cbxvm_usdt");
	rc = tool_stop(&t);
	for (int i = 0; i < USDT_N; i++) {
		snprintf(want, sizeof(want), "cbxusdt %d\n", 100 + i);
		all &= lines_with(want) == 1;
	}
	result(test, all && lines_with("cbxusdt ") == USDT_N && rc == 0 && prc == 0,
	       "USDT cbxvm:arm_site (ARM code in a Thumb program): %d lines, %s (made %d); program exit %d; exit %d",
	       lines_with("cbxusdt "), all ? "every arg1 = 100 + i" : "NOT every 100 + i", USDT_N, prc, rc);
	if (!last_ok)
		dump_output(test);
}

/* trace on the Thumb site of bin: refused before anything is attached.
 * Were it not, the program runs under the probe, to say what that did. */
static int thumb_refused(const char *test, const char *bin, const char *disable)
{
	char probe[128], line[512];
	char *argv[] = { "corebox", "trace", probe, NULL };
	struct tool_run t;
	int rc, prc, ok;
	uint64_t end;

	snprintf(probe, sizeof(probe), "u:%s:cbxvm:thumb_site \"cbxthumb %%d\", arg1", bin);
	if (tool_start(&t, test, argv, disable, "") < 0)
		return 0;
	end = now_ms() + 20000; /* the refusal: output, then EOF */
	while (now_ms() < end && pump(t.fd, 100))
		;
	if (now_ms() >= end) { /* still tracing: attached to Thumb code */
		prc = run_prog(bin);
		rc = tool_stop(&t);
		result(test, 0, "%s: trace attached to the Thumb site (exit %d); the program under it exited %d, %d of %d hits",
		       bin, rc, prc, lines_with("cbxthumb "), USDT_N);
		dump_output(test);
		return 0;
	}
	rc = wait_bounded(t.pid, 5000);
	close(t.fd);
	snprintf(line, sizeof(line), "%s", out ? out : "");
	line[strcspn(line, "\n")] = 0;
	ok = rc == 1 && lines_with("\n") == 1 && strstr(line, "cbxvm:thumb_site") && strstr(line, bin) &&
	     strstr(line, "Thumb") && strstr(line, "-marm");
	result(test, ok, "%s: exit %d, %d line(s): %s", bin, rc, lines_with("\n"), line);
	return ok;
}

static void test_usdt_thumb(const char *test, const char *disable)
{
	if (access("/cbxvm_usdt", X_OK) != 0 || access("/cbxvm_usdt_stripped", X_OK) != 0) {
		result(test, 0, "/cbxvm_usdt or /cbxvm_usdt_stripped missing (run.sh builds them from tests/vm/usdt_thumb.c)");
		return;
	}
	if (thumb_refused(test, "/cbxvm_usdt", disable))
		thumb_refused(test, "/cbxvm_usdt_stripped", disable);
}

VM_TEST_ONCE("usdt.arm", test_usdt_arm);
VM_TEST_ONCE("usdt.thumb", test_usdt_thumb);
#endif
