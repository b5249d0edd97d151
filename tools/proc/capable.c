/* applet capable: trace security capability checks
 * readme: capability checks (cap_capable) with their verdict, `-x` thread ids, `-u pid` (or cgroup)
 *         each once; from the capability:cap_capable tracepoint (Linux 6.13+), which lacks
 *         the audit and insetid flags (AUDIT and INSETID show `-`), else fexit or a kprobe on
 *         cap_capable(), which have them; `-K`/`-U` stacks
 *
 * libbpf-tools compatible flags and columns.  The kernel's tracepoint
 * carries the capability and the verdict but not cap_capable()'s options
 * word, where libbpf-tools' kprobe reads whether the check is audited and
 * whether it is an inset check: those two columns print "-" rather than a
 * guess.  On a kernel without the tracepoint (before 6.13) fexit on
 * cap_capable(), else a kprobe/kretprobe pair, give the same with both
 * flags, printed as libbpf-tools prints them (0 or 1); JSON then carries
 * "audit" (and with -x "insetid") as numbers, and leaves them out where
 * the tracepoint cannot tell.
 *
 * -K/-U: after each event its own stacks, in 0.26's lines ("    name",
 * user frames "[unknown]" when unnamed, then "    -                COMM
 * (PID)"); 0.26 prints every stack seen so far after each event. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "tools/common/kfunc.h"
#include "bpf/perf.h"
#include "tools/stack/stacks.h"
#include "capable.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(capable);

static struct {
	int pid;
	int extra;   /* -x */
	int unique;  /* -u: enum capable_unique */
	const char *cgroup;
	bool kstack, ustack;
	bool from_tp; /* the tracepoint: no options word */
	const char *way;
	long depth, storage;
	struct stacks stacks;
	struct strbuf frames[2];
} env = { .depth = 127, .storage = 1024 };

#define KEY_DEPTH OPT_LONG_ONLY(1)
#define KEY_STORAGE OPT_LONG_ONLY(2)

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "Trace this PID only" },
	{ 'c', "cgroup", "/sys/fs/cgroup/unified", "Trace process in cgroup path" },
	{ 'x', "extra-fields", NULL, "extra fields: show TID and INSETID columns" },
	{ 'u', "unique", "off", "Print unique output for <pid> or <cgroup> (default:off)" },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 'K', "kernel-stack", NULL, "output kernel stack trace" },
	{ 'U', "user-stack", NULL, "output user stack trace" },
	{ KEY_DEPTH, "perf-max-stack-depth", "PERF-MAX-STACK-DEPTH",
	  "the limit for both kernel and user stack traces (default 127)" },
	{ KEY_STORAGE, "stack-storage-size", "STACK-STORAGE-SIZE",
	  "the number of unique stack traces that can be stored and displayed (default 1024)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID | -c CG | -K | -U | -x] [-u TYPE] [--perf-max-stack-depth] [--stack-storage-size]",
	.examples = "    capable                  # Trace capability checks\n"
		    "    capable -p 185           # Trace this PID only\n"
		    "    capable -c CG            # Trace process under cgroupsPath CG\n"
		    "    capable -K               # Add kernel stacks to trace\n"
		    "    capable -x               # Extra fields: show TID and INSETID columns\n"
		    "    capable -U               # Add user-space stacks to trace\n"
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
	case 'K': env.kstack = true; break;
	case 'U': env.ustack = true; break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 20); break;
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
enum { C_TIME, C_UID, C_PID, C_TID, C_COMM, C_CAP, C_NAME, C_AUDIT, C_VERDICT, C_INSETID, C_AUDIT_J, C_INSETID_J,
       C_KSTACK, C_USTACK };
/* not const: VERDICT ends the line unless -x adds INSETID after it */
static struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_UID] = { "uid", "UID", "%-5d ", OUT_INT },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_TID] = { "tid", "TID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_CAP] = { "cap", "CAP", "%-7d ", OUT_INT },
	[C_NAME] = { "cap_name", "NAME", "%-20s ", OUT_STR },
	/* from the options word: "-" from the tracepoint (see above); text only */
	[C_AUDIT] = { NULL, "AUDIT", "%-7s ", OUT_STR, OUT_TEXT_ONLY },
	[C_VERDICT] = { "verdict", "VERDICT", "%-7s\n", OUT_STR },
	[C_INSETID] = { NULL, "INSETID", "%-7s\n", OUT_STR, OUT_TEXT_ONLY },
	/* JSON: numbers, and only from fexit or the kprobes, which read them */
	[C_AUDIT_J] = { "audit", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_INSETID_J] = { "insetid", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_KSTACK] = { "kernel_stack", NULL, NULL, OUT_STRV, OUT_JSON_ONLY },
	[C_USTACK] = { "user_stack", NULL, NULL, OUT_STRV, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* The frames of stack id (pid < 0: kernel), NUL-separated, into b; how
 * many (0 when missed or not taken). */
static int frames(int32_t id, int pid, struct strbuf *b)
{
	const uint64_t *ips;
	char sym[256];
	int n = id < 0 ? -1 : stacks_read(&env.stacks, id, pid < 0, &ips);

	strbuf_reset(b);
	for (int i = 0; i < n; i++) {
		if (pid < 0)
			stacks_ksym(&env.stacks, ips[i], sym, sizeof(sym));
		else
			stacks_usym(&env.stacks, pid, ips[i], sym, sizeof(sym));
		strbuf_addn(b, sym, strlen(sym) + 1);
	}
	return n < 0 ? 0 : n;
}

static void print_frames(const struct strbuf *b, int n)
{
	const char *p = b->s;

	for (int i = 0; i < n; i++, p += strlen(p) + 1)
		printf("    %s\n", p);
}

static const char *flag_str(int8_t f)
{
	return f < 0 ? "-" : f ? "1" : "0";
}

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
	v[C_AUDIT].s = flag_str(e.audit);
	v[C_VERDICT].s = e.ret ? "deny" : "allow";
	v[C_INSETID].s = flag_str(e.insetid);
	v[C_AUDIT_J].i = e.audit;
	v[C_INSETID_J].i = e.insetid;
	if (env.kstack) {
		v[C_KSTACK].strv.n = frames(e.kstack_id, -1, &env.frames[0]);
		v[C_KSTACK].strv.p = env.frames[0].s;
		v[C_KSTACK].strv.size = env.frames[0].len;
		if (e.kstack_id < 0)
			fprintf(stderr, "    [Missed Kernel Stack]\n");
	}
	if (env.ustack) {
		v[C_USTACK].strv.n = frames(e.ustack_id, (int)e.pid, &env.frames[1]);
		v[C_USTACK].strv.p = env.frames[1].s;
		v[C_USTACK].strv.size = env.frames[1].len;
	}
	out_row(&table, v);
	if ((env.kstack || env.ustack) && !out_json()) {
		if (env.kstack)
			print_frames(&env.frames[0], v[C_KSTACK].strv.n);
		if (env.ustack)
			print_frames(&env.frames[1], v[C_USTACK].strv.n);
		printf("    %-16s %s (%u)\n", "-", comm, e.pid);
	}
	return 0;
}

/* The way in: the tracepoint, else fexit, else the kprobe pair; the
 * others are not loaded.  NULL after a message when there is none. */
static const char *choose_way(struct obj *o)
{
	bool tp = perf_tp_exists("capability", "cap_capable");
	enum kfunc_way w = tp ? KFUNC_NONE : kfunc_way(o, "cap_capable");

	prog_set_autoload(obj_prog(o, "capable_check"), tp);
	prog_set_autoload(obj_prog(o, "capable_fexit"), w == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "capable_kprobe"), w == KFUNC_KPROBE);
	prog_set_autoload(obj_prog(o, "capable_kretprobe"), w == KFUNC_KPROBE);
	if (w != KFUNC_KPROBE)
		map_set_max_entries(obj_map(o, "calls"), 1);
	env.from_tp = tp;
	if (tp)
		return "the capability:cap_capable tracepoint";
	if (w == KFUNC_NONE)
		tool_err("capable", "no capability:cap_capable tracepoint (Linux 6.13+) and no fentry or kprobe on "
			 "cap_capable() here: a kernel with BPF trampolines or CONFIG_KPROBES would work");
	return w == KFUNC_FENTRY ? "fexit on cap_capable()" : w == KFUNC_KPROBE ? "kprobes on cap_capable()" : NULL;
}

/* -K/-U: the stack map is read once loaded.  -v names the way in here,
 * once attached (the VM check's cue in JSON mode, which has no header). */
static int after_load(struct obj *o)
{
	unsigned flags = STACKS_SKIP_TRACE | (env.kstack ? 0 : STACKS_NO_KERNEL) | (env.ustack ? 0 : STACKS_NO_USER);

	if ((env.kstack || env.ustack) &&
	    stacks_init(&env.stacks, map_fd(obj_map(o, "stackmap")), (unsigned)env.depth, flags) < 0) {
		tool_err("capable", "%s", err_msg());
		return -1;
	}
	if (tool_common.verbose)
		fprintf(stderr, "capable: tracing with %s\n", env.way);
	return 0;
}

int capable_main(int argc, char **argv)
{
	struct tool_events te = { "capable", NULL, after_load, on_event, &table };
	const char *way;
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(capable);
	if (!(way = choose_way(o))) {
		obj_close(o);
		return 1;
	}
	env.way = way;
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, my_pid, (uint32_t)getpid());
	OBJ_SET(o, filter_cg, (uint8_t)(env.cgroup != NULL));
	OBJ_SET(o, unique_type, (uint8_t)env.unique);
	OBJ_SET(o, kernel_stack, (uint8_t)env.kstack);
	OBJ_SET(o, user_stack, (uint8_t)env.ustack);
	map_set_max_entries(obj_map(o, "stackmap"), env.kstack || env.ustack ? (uint32_t)env.storage : 1);
	te.cgroup = env.cgroup;
	if (env.extra)
		cols[C_VERDICT].fmt = "%-7s ";
	out_show(&table, C_TID, env.extra);
	out_show(&table, C_INSETID, env.extra);
	out_show(&table, C_AUDIT_J, !env.from_tp);
	out_show(&table, C_INSETID_J, !env.from_tp && env.extra);
	out_show(&table, C_KSTACK, env.kstack);
	out_show(&table, C_USTACK, env.ustack);
	ret = tool_run_events(o, &te);
	if (env.kstack || env.ustack) {
		stacks_report_missed(&env.stacks, stderr);
		stacks_fini(&env.stacks);
	}
	strbuf_free(&env.frames[0]);
	strbuf_free(&env.frames[1]);
	return ret;
}
