/* VM checks of tools that read only tracepoint records (so they run on a
 * kernel without BTF too, the records relocated from the format files):
 * sigsnoop in both modes (signal:signal_generate, and the kill syscall's
 * enter/exit records) and statsnoop (the stat syscalls' records).
 * Ground truth: a child sends itself SIGUSR1 (handled) SIG_N times with
 * kill(); another stat()s a path that does not exist STAT_N times. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm.h"

#define SIG_N 3
#define STAT_N 4

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void kill_self_n_times(void)
{
	signal(SIGUSR1, on_usr1);
	for (int i = 0; i < SIG_N; i++)
		kill(getpid(), SIGUSR1);
}

static const char missing[] = "/cbxvm-statsnoop-missing";

static void stat_n_times(void)
{
	struct stat st;

	for (int i = 0; i < STAT_N; i++)
		stat(missing, &st);
}

/* Rows "TIME PID COMM SIG TPID RESULT" of pid to itself, SIGUSR1, result 0. */
static int sig_rows(pid_t pid)
{
	int n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		int p, sig, tp, res;

		if (sscanf(l, "%*s %d %*s %d %d %d", &p, &sig, &tp, &res) == 4 && p == pid && tp == pid &&
		    sig == SIGUSR1 && res == 0)
			n++;
	}
	return n;
}

static void sigsnoop_mode(const char *test, const char *disable, int kill_mode)
{
	char pidarg[16], k[] = "-k";
	char *argv[] = { "corebox", "sigsnoop", "-p", pidarg, kill_mode ? k : NULL, NULL };
	int rc, n;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "TPID", kill_self_n_times, &child)) == -1)
		return;
	n = sig_rows(child);
	result(test, n == SIG_N && rc == 0, "%s-p %d: %d rows of SIGUSR1 to itself, result 0 (sent %d); exit %d",
	       kill_mode ? "-k " : "", (int)child, n, SIG_N, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_sigsnoop(const char *test, const char *disable)
{
	sigsnoop_mode(test, disable, 0);
}

static void test_sigsnoop_kill(const char *test, const char *disable)
{
	sigsnoop_mode(test, disable, 1);
}

/* statsnoop -p PID: "PID COMM RET ERR PATH", each stat() of the missing
 * path one row with ERR ENOENT */
static void test_statsnoop(const char *test, const char *disable)
{
	char pidarg[16], *argv[] = { "corebox", "statsnoop", "-p", pidarg, NULL };
	int rc, n = 0;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "PATH", stat_n_times, &child)) == -1)
		return;
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char path[64];
		int p, ret, err;

		if (sscanf(l, "%d %*s %d %d %63s", &p, &ret, &err, path) == 4 && p == child && ret == -1 &&
		    err == ENOENT && !strcmp(path, missing))
			n++;
	}
	result(test, n == STAT_N && rc == 0, "-p %d: %d rows of %s with ERR %d (stat() %d times); exit %d", (int)child,
	       n, missing, ENOENT, STAT_N, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("sigsnoop", test_sigsnoop);
VM_TEST("sigsnoop.kill", test_sigsnoop_kill);
VM_TEST("statsnoop", test_statsnoop);
