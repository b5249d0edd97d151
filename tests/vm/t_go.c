/* VM check of stripped Go programs' names on arm64 (issue 21): run.sh
 * packs tests/e2e/helpers/cbx_go_spin.go built by the host's Go for
 * arm64 with -ldflags='-s -w' (no .symtab: only Go's function table
 * names its code), linked by Go (/cbxvm_go_static) and as a PIE by ld.lld
 * (/cbxvm_go_lld: the table's textStart is 0 in the file, the addend of
 * its relocation has it).  Each spins in main.main -> main.outerCbxgo ->
 * main.(*spinner).innerCbxgo; profile -f -p PID must name the leaf
 * main.(*spinner).innerCbxgo under main.main (the leaf keeps no frame of
 * its own, so the frame-pointer walk skips its caller).  A program the
 * host could not build for want of go is reported as SKIP with run.sh's
 * reason (NAME.skip), never as a pass; a failed build (NAME.fail) FAILs. */
#ifdef __aarch64__
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm.h"

/* Samples (folded "comm;frames... count" lines) whose frames hold
 * ";main.main;" and end in main.(*spinner).innerCbxgo; *all: every line's. */
static unsigned long named_samples(unsigned long *all)
{
	unsigned long sum = 0, c;
	char *s = out ? out : "";

	*all = 0;
	while (*s) {
		char *nl = strchr(s, '\n'), *sp, *mm;
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char line[2048];

		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		if ((sp = strrchr(line, ' ')) && sscanf(sp + 1, "%lu", &c) == 1) {
			*all += c;
			*sp = 0;
			mm = strstr(line, ";main.main;");
			if (mm && (sp - line) > 27 && !strcmp(sp - 27, ";main.(*spinner).innerCbxgo"))
				sum += c;
		}
		s += n + (nl != NULL);
	}
	return sum;
}

static void go_check(const char *test, const char *name)
{
	char path[64], skip[80], why[256] = "", pidarg[16], secs[] = "6", dur[] = "1";
	char *argv[] = { "corebox", "profile", "-F", "99", "-f", "-p", pidarg, dur, NULL };
	struct tool_run t;
	unsigned long named, all;
	int rc;
	uint64_t end;
	pid_t pid;
	FILE *f;

	snprintf(path, sizeof(path), "/%s", name);
	if (access(path, X_OK) != 0) {
		snprintf(skip, sizeof(skip), "/%s.skip", name);
		if (!(f = fopen(skip, "r"))) {
			snprintf(skip, sizeof(skip), "/%s.fail", name);
			f = fopen(skip, "r");
		}
		if (f) {
			if (!fgets(why, sizeof(why), f))
				why[0] = 0;
			fclose(f);
			why[strcspn(why, "\n")] = 0;
		}
		if (f && strstr(skip, ".skip")) {
			printf("VMTEST %s SKIP %s: %s\n", test, path, why);
			fflush(stdout);
		} else {
			result(test, 0, "%s missing (run.sh builds it from tests/e2e/helpers/cbx_go_spin.go): %s", path,
			       f ? why : "no reason left");
		}
		return;
	}
	if ((pid = fork()) == 0) {
		freopen("/dev/null", "w", stdout);
		execl(path, path, secs, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return;
	snprintf(pidarg, sizeof(pidarg), "%d", (int)pid);
	usleep(300000); /* past the Go runtime's start-up, into the spin */
	if (tool_start(&t, test, argv, "", "") < 0) {
		end_child(pid);
		return;
	}
	end = now_ms() + 30000; /* profile ends by itself after 1 s */
	while (now_ms() < end && pump(t.fd, 100))
		;
	rc = wait_bounded(t.pid, 5000);
	close(t.fd);
	end_child(pid);
	named = named_samples(&all);
	result(test, named > 0 && rc == 0,
	       "profile -f -p %d on stripped %s: %lu of %lu samples in main.main;...;main.(*spinner).innerCbxgo; exit %d",
	       (int)pid, path, named, all, rc);
	if (!last_ok)
		dump_output(test);
}

static void test_go_static(const char *test, const char *disable)
{
	(void)disable;
	go_check(test, "cbxvm_go_static");
}

static void test_go_lld(const char *test, const char *disable)
{
	(void)disable;
	go_check(test, "cbxvm_go_lld");
}

VM_TEST_ONCE("usyms.go", test_go_static);
VM_TEST_ONCE("usyms.go_lld", test_go_lld);
#endif
