/* bpftrace's hardware: probes on the guests: where the guest's CPUs have
 * counters (qemu's -cpu max emulates the Arm PMU; its x86 TCG has none),
 * cpu-cycles sampled in a busy child is counted for that child; where
 * they have none, the one line that says so and exit 1. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

/* a PMU of the CPUs registered: "cpu" (x86), "armv8_pmuv3*", "armv7_*" */
static int have_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)))
		if (!strcmp(e->d_name, "cpu") || !strncmp(e->d_name, "armv8_pmuv3", 11) || !strncmp(e->d_name, "armv7_", 6))
			found = 1;
	if (d)
		closedir(d);
	return found;
}

static void spin(void)
{
	for (volatile unsigned long i = 0; i < 20000000UL; i++)
		;
}

static void test_bpftrace_hardware(const char *test, const char *disable)
{
	char pidarg[16], e[] = "-e", prog[] = "hardware:cpu-cycles:100000 /pid == $1/ { @ = count(); }";
	char *argv[] = { "corebox", "bpftrace", e, prog, pidarg, NULL };
	int rc, pmu = have_pmu();
	pid_t child;

	if (!pmu) {
		struct tool_run t;

		snprintf(pidarg, sizeof(pidarg), "1");
		if (tool_start(&t, test, argv, disable, "\n") < 0)
			return;
		rc = tool_stop(&t);
		result(test, rc == 1 && strstr(out, "ERROR: hardware:cpu-cycles:100000: this machine's CPUs have no hardware counter"),
		       "no PMU: one line, exit %d", rc);
	} else {
		const char *at;

		if ((rc = run_with_child(test, argv, pidarg, disable, "Attaching", spin, &child)) == -1)
			return;
		at = strstr(out, "\n@: ");
		result(test, rc == 0 && at && strtoull(at + 4, NULL, 10) > 0, "PMU: cpu-cycles of the busy child %d: %s; exit %d",
		       (int)child, at ? at + 1 : "no @ line", rc);
	}
	if (!last_ok)
		dump_output(test);
}

VM_TEST_ONCE("bpftrace.hardware", test_bpftrace_hardware);
