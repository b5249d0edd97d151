/* applet sigsnoop: trace standard and real-time signals
 * readme: signals generated: sender, signal, target, result (`-k` the kill syscalls only, `-n`
 *         names; `-s` takes a list where 0.26 takes one signal)
 * alias killsnoop (sigsnoop): trace signals sent by the kill syscalls (sigsnoop -k)
 *
 * libbpf-tools compatible flags and output (0.26's columns: no TCOMM).
 * Run as killsnoop it traces the kill syscalls only, as libbpf-tools'
 * link of that name does.  -s takes a list (1,9,15) where 0.26 takes one
 * number: the list is upstream's later form and covers the single one. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>

#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "sigsnoop.h"
#include "lib/util.h"

BPF_OBJ_DECLARE(sigsnoop);

static struct {
	int failed;  /* -x */
	int kill;    /* -k */
	int names;   /* -n */
	int pid;
	uint64_t sig_mask;
} env;

static const struct opt opts[] = {
	{ 'x', "failed", NULL, "Trace failed signals only." },
	{ 'k', "kill", NULL, "Trace signals issued by kill syscall only." },
	{ 'p', "pid", "PID", "Process ID to trace" },
	{ 's', "signal", "SIGNAL", "Signals to trace (a number, or a list: 1,9,15)." },
	{ 'n', "name", NULL, "Output signal name instead of signal number." },
	{ 'v', "verbose", NULL, "Verbose debug output" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-x] [-k] [-n] [-p PID] [-s SIGNAL]",
	.examples = "    sigsnoop             # trace signals system-wide\n"
		    "    sigsnoop -k          # trace signals issued by kill syscall only\n"
		    "    sigsnoop -x          # trace failed signals only\n"
		    "    sigsnoop -p 1216     # only trace PID 1216\n"
		    "    sigsnoop -s 1,9,15   # trace signal 1, 9, 15\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

/* "1,9,15": each 1..64 (the kernel's _NSIG) */
static void parse_signals(const char *arg)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		opt_usage_error(&help, "invalid SIGNAL: '%s'", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		env.sig_mask |= 1ull << (opt_num(&help, "SIGNAL", tok, 1, 64) - 1);
	if (!env.sig_mask)
		opt_usage_error(&help, "invalid SIGNAL: '%s'", arg);
}

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'x': env.failed = 1; break;
	case 'k': env.kill = 1; break;
	case 'n': env.names = 1; break;
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 's': parse_signals(arg); break;
	case 'v': tool_common.verbose = 1; break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

/* libbpf-tools 0.26's names: 0 (kill's existence check) as N/A, the
 * real-time signals (32..64) by number even with -n (NULL: no name). */
static const char *const sig_names[32] = {
	"N/A", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
	"SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM",
	"SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG",
	"SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
};

static const char *sig_name(int sig)
{
	return sig >= 0 && sig < 32 ? sig_names[sig] : NULL;
}

/* SIG: the number, or with -n its name where it has one (libbpf-tools) */
static void sig_text(FILE *f, const struct out_col *c, const union out_val *v)
{
	const char *name = env.names ? sig_name((int)v->i) : NULL;

	(void)c;
	if (name)
		fprintf(f, "%-9s ", name);
	else
		fprintf(f, "%-9lld ", v->i);
}

enum { C_TIME, C_PID, C_COMM, C_SIG, C_TPID, C_RET, C_SIGNAME };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_SIG] = { "sig", "SIG", NULL, OUT_INT, .hfmt = "%-9s ", .text = sig_text },
	[C_TPID] = { "tpid", "TPID", "%-7d ", OUT_INT },
	[C_RET] = { "result", "RESULT", "%-6d\n", OUT_INT, .hfmt = "%-6s\n" },
	[C_SIGNAME] = { "sig_name", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	struct sigsnoop_event e;
	char comm[EV_COMM_LEN + 1], hms[16];
	union out_val v[ARRAY_SIZE(cols)];

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_COMM].s = ev_comm(comm, e.comm);
	v[C_SIG].i = e.sig;
	v[C_TPID].i = e.tpid;
	v[C_RET].i = e.ret;
	v[C_SIGNAME].s = sig_name(e.sig);
	out_row(&table, v);
	return 0;
}

/* The programs of one way in (see sigsnoop.bpf.c) */
static void choose_programs(struct obj *o, int kill_only)
{
	static const char *const kill_progs[] = {
		"sigsnoop_kill_entry", "sigsnoop_kill_exit", "sigsnoop_tkill_entry",
		"sigsnoop_tkill_exit", "sigsnoop_tgkill_entry", "sigsnoop_tgkill_exit",
	};
	struct prog *p;

	for (size_t i = 0; i < ARRAY_SIZE(kill_progs); i++)
		if ((p = obj_prog(o, kill_progs[i])) && !kill_only)
			prog_set_autoload(p, false);
	if ((p = obj_prog(o, "sigsnoop_generate")) && kill_only)
		prog_set_autoload(p, false);
}

int sigsnoop_main(int argc, char **argv)
{
	struct tool_events te = { tool_applet, NULL, NULL, on_event, &table };
	struct obj *o;

	env.kill = strcmp(tool_applet, "killsnoop") == 0;
	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(sigsnoop);
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, sig_mask, env.sig_mask);
	OBJ_SET(o, failed_only, (uint8_t)env.failed);
	choose_programs(o, env.kill);
	return tool_run_events(o, &te);
}
