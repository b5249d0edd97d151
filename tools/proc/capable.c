/* applet capable: trace security capability checks
 * readme: capability checks (cap_capable) with their verdict, `-x` thread ids, `-u pid` (or cgroup)
 *         each once; from the capability:cap_capable tracepoint (Linux 6.13+), which lacks
 *         the audit and insetid flags: AUDIT and INSETID show `-`; no `-K`/`-U` stacks
 *
 * libbpf-tools compatible flags and columns.  The kernel's tracepoint
 * carries the capability and the verdict but not cap_capable()'s options
 * word, where libbpf-tools' kprobe reads whether the check is audited and
 * whether it is an inset check: those two columns print "-" rather than a
 * guess.  On a kernel without the tracepoint (before 6.13) a kprobe or
 * fentry on cap_capable() would give the same, with both flags. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "capable.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(capable);

static struct {
	int pid;
	int extra;   /* -x */
	int unique;  /* -u: enum capable_unique */
	const char *cgroup;
} env;

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 'c', "cgroup", "/sys/fs/cgroup/unified", "Trace process in cgroup path" },
	{ 'x', "extra-fields", NULL, "extra fields: show TID and INSETID columns" },
	{ 'u', "unique", "off", "Print unique output for <pid> or <cgroup> (default:off)" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID | -c CG | -x] [-u TYPE]",
	.examples = "    capable                  # Trace capability checks\n"
		    "    capable -p 185           # Trace this PID only\n"
		    "    capable -c CG            # Trace process under cgroupsPath CG\n"
		    "    capable -x               # Extra fields: show TID and INSETID columns\n"
		    "    capable -u TYPE          # Print unique output for TYPE=[pid | cgroup] (default:off)\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'c': env.cgroup = arg; break;
	case 'x': env.extra = 1; break;
	case 'u':
		if (strcmp(arg, "pid") == 0)
			env.unique = CAPABLE_UNQ_PID;
		else if (strcmp(arg, "cgroup") == 0)
			env.unique = CAPABLE_UNQ_CGROUP;
		else
			opt_usage_error(&help, "Unknown unique type %s", arg);
		break;
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

/* include/uapi/linux/capability.h, 0..CAP_LAST_CAP */
static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID",
	"CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_LINUX_IMMUTABLE",
	"CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW",
	"CAP_IPC_LOCK", "CAP_IPC_OWNER", "CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT",
	"CAP_SYS_PTRACE", "CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD", "CAP_LEASE",
	"CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP", "CAP_MAC_OVERRIDE",
	"CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM", "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ",
	"CAP_PERFMON", "CAP_BPF", "CAP_CHECKPOINT_RESTORE",
};

static const char *cap_name(int cap)
{
	return cap >= 0 && (size_t)cap < ARRAY_SIZE(cap_names) ? cap_names[cap] : "?";
}

/* libbpf-tools' widths: "%-8s %-5d %-7d [%-7d] %-16s %-7d %-20s %-7d %-7s [%-7d]" */
enum { C_TIME, C_UID, C_PID, C_TID, C_COMM, C_CAP, C_NAME, C_AUDIT, C_VERDICT, C_INSETID };
/* not const: VERDICT ends the line unless -x adds INSETID after it */
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_UID] = { "uid", "UID", "%-5d ", OUT_INT },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_TID] = { "tid", "TID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_CAP] = { "cap", "CAP", "%-7d ", OUT_INT },
	[C_NAME] = { "cap_name", "NAME", "%-20s ", OUT_STR },
	/* not in the tracepoint (see above): "-" in text, absent from JSON */
	[C_AUDIT] = { NULL, "AUDIT", "%-7s ", OUT_STR, OUT_TEXT_ONLY },
	[C_VERDICT] = { "verdict", "VERDICT", "%-7s\n", OUT_STR },
	[C_INSETID] = { NULL, "INSETID", "%-7s\n", OUT_STR, OUT_TEXT_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct capable_event e;
	char comm[EV_COMM_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_UID].i = e.uid;
	v[C_PID].i = e.pid;
	v[C_TID].i = e.tid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_CAP].i = e.cap;
	v[C_NAME].s = cap_name(e.cap);
	v[C_AUDIT].s = "-";
	v[C_VERDICT].s = e.ret ? "deny" : "allow";
	v[C_INSETID].s = "-";
	out_row(&table, v);
	return 0;
}

int capable_main(int argc, char **argv)
{
	struct tool_events te = { "capable", NULL, NULL, on_event, &table };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(capable);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, my_pid, (uint32_t)getpid());
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	OBJ_SET(o, unique_type, (uint8_t)env.unique);
	te.cgroup = env.cgroup;
	te.load_hint = "the capability:cap_capable tracepoint is new in Linux 6.13; "
		       "a kprobe or fentry on cap_capable() would work where it is missing";
	if (env.extra)
		cols[C_VERDICT].fmt = "%-7s ";
	out_show(&table, C_TID, env.extra);
	out_show(&table, C_INSETID, env.extra);
	return tool_run_events(o, &te);
}
