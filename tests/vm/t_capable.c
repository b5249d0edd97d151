/* VM check of capable where the kernel has no capability:cap_capable
 * tracepoint (before 6.13: the guests' 6.1 and 6.12), so the tool takes
 * fexit on cap_capable(), else a kprobe pair (the .fallback run, or arm64
 * 6.1 without trampolines) -- neither of which the build host allows.
 * Ground truth as tests/e2e/capable.sh makes it: a child (root, RLIMIT_NICE
 * 0) lowers its nice value CAP_NICES times (CAP_SYS_NICE, allowed),
 * becomes nobody (CAP_SETUID, allowed: an inset check) and tries once more
 * (CAP_SYS_NICE, denied).  capable -x -v -p CHILD must show exactly those
 * rows, in order, with UID, CAP, NAME, VERDICT, and AUDIT/INSETID from
 * cap_capable()'s options as libbpf-tools prints them (1 0, the setuid
 * 1 1); "-" for both only if a kernel's tracepoint was used. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vm.h"

#define CAP_NICES 3
#define CUE "capable: tracing with " /* -v, once attached */

static void cap_checks(void)
{
	struct rlimit zero = { 0, 0 };

	/* lowering a limit, and raising nice back to 0, cost no check */
	if (setrlimit(RLIMIT_NICE, &zero))
		_exit(1);
	for (int i = 0; i < CAP_NICES; i++)
		if (setpriority(PRIO_PROCESS, 0, 0) || setpriority(PRIO_PROCESS, 0, -1))
			_exit(1);
	if (setresuid(65534, 65534, 65534))
		_exit(1);
	if (setpriority(PRIO_PROCESS, 0, -2) == 0 || errno != EACCES)
		_exit(1);
}

static void test_capable(const char *test, const char *disable)
{
	char pidarg[16], x[] = "-x", v[] = "-v", p[] = "-p";
	char *argv[] = { "corebox", "capable", x, v, p, pidarg, NULL };
	char want[1024] = "", got[1024] = "", how[64] = "?", row[128];
	const char *s, *flags;
	int rc, n = 0;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "INSETID", cap_checks, &child)) == -1)
		return;
	if ((s = strstr(out, CUE)) && strchr(s, '\n')) /* -v: the way in */
		snprintf(how, sizeof(how), "%.*s", (int)(strchr(s, '\n') - s - strlen(CUE)), s + strlen(CUE));
	flags = strstr(how, "tracepoint") ? "- -" : "1 0";
	for (int i = 0; i < CAP_NICES + 2; i++) {
		int deny = i == CAP_NICES + 1, setuid = i == CAP_NICES;

		snprintf(row, sizeof(row), "%d %d %s %s %s|", deny ? 65534 : 0, setuid ? 7 : 23,
			 setuid ? "CAP_SETUID" : "CAP_SYS_NICE", deny ? "deny" : "allow",
			 setuid && *flags == '1' ? "1 1" : flags);
		strncat(want, row, sizeof(want) - strlen(want) - 1);
	}
	/* TIME UID PID TID COMM CAP NAME AUDIT VERDICT INSETID: the child's rows */
	for (s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char name[32], audit[8], verdict[8], insetid[8];
		int uid, pid, tid, cap;

		if (sscanf(s, "%*8s %d %d %d %*15s %d %31s %7s %7s %7s", &uid, &pid, &tid, &cap, name, audit,
			   verdict, insetid) != 8 || pid != (int)child)
			continue;
		snprintf(row, sizeof(row), "%d %d %s %s %s %s|", uid, cap, name, verdict, audit, insetid);
		strncat(got, row, sizeof(got) - strlen(got) - 1);
		n++;
	}
	result(test,
	       !strcmp(got, want) && rc == 0 && strcmp(how, "?") &&
		       !(strstr(disable, "fentry") && strstr(how, "fexit")),
	       "child %d: %d rows via %s%s%s; exit %d", (int)child, n, how,
	       strcmp(got, want) ? " (rows differ: see below)" : ", the nice/setuid/denied checks in order, AUDIT INSETID ",
	       strcmp(got, want) ? "" : flags, rc);
	if (!last_ok) {
		printf("# want %s\n# got  %s\n", want, got);
		dump_output(test);
	}
}

/* capable -j -x -v -p CHILD: the same checks as JSON lines, with "audit"
 * and "insetid" as numbers from cap_capable()'s options (1 0, the setuid
 * 1 1), or neither key where the tracepoint was used */
static void test_capable_json(const char *test, const char *disable)
{
	char pidarg[16], j[] = "-j", x[] = "-x", v[] = "-v", p[] = "-p";
	char *argv[] = { "corebox", "capable", j, x, v, p, pidarg, NULL };
	char want[512] = "", got[512] = "", how[64] = "?", row[96];
	const char *s;
	int rc, n = 0, tp;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, CUE, cap_checks, &child)) == -1)
		return;
	if ((s = strstr(out, CUE)) && strchr(s, '\n'))
		snprintf(how, sizeof(how), "%.*s", (int)(strchr(s, '\n') - s - strlen(CUE)), s + strlen(CUE));
	tp = strstr(how, "tracepoint") != NULL;
	for (int i = 0; i < CAP_NICES + 2; i++) {
		snprintf(row, sizeof(row), "%d %s|", i == CAP_NICES ? 7 : 23,
			 tp ? "none" : i == CAP_NICES ? "1 1" : "1 0");
		strncat(want, row, sizeof(want) - strlen(want) - 1);
	}
	for (s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char needle[32];
		const char *c, *a, *ins, *e = strchr(s, '\n');
		int cap, audit, insetid;

		snprintf(needle, sizeof(needle), "\"pid\":%d,", (int)child);
		if (strncmp(s, "{\"time\":", 8) || !(c = strstr(s, needle)) || (e && c > e) ||
		    !(c = strstr(s, "\"cap\":")) || sscanf(c, "\"cap\":%d", &cap) != 1)
			continue;
		a = strstr(s, "\"audit\":"), ins = strstr(s, "\"insetid\":");
		if (a && (!e || a < e) && ins && (!e || ins < e) && sscanf(a, "\"audit\":%d", &audit) == 1 &&
		    sscanf(ins, "\"insetid\":%d", &insetid) == 1)
			snprintf(row, sizeof(row), "%d %d %d|", cap, audit, insetid);
		else if ((a && (!e || a < e)) || (ins && (!e || ins < e)))
			snprintf(row, sizeof(row), "%d partial|", cap);
		else
			snprintf(row, sizeof(row), "%d none|", cap);
		strncat(got, row, sizeof(got) - strlen(got) - 1);
		n++;
	}
	result(test, !strcmp(got, want) && rc == 0 && strcmp(how, "?"), "child %d: %d JSON lines via %s%s; exit %d",
	       (int)child, n, how, strcmp(got, want) ? " (differ: see below)" : ", audit/insetid as its options", rc);
	if (!last_ok) {
		printf("# want %s\n# got  %s\n", want, got);
		dump_output(test);
	}
}

VM_TEST("capable", test_capable);
VM_TEST("capable.json", test_capable_json);
