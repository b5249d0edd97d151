/* VM check of ksnoop (fentry/fexit or kprobes, which this machine's own
 * kernel lacks): a child sends itself KS_SIGS SIGUSR2 (ignored) and one
 * SIGURG; ksnoop -p CHILD traces do_send_sig_info with a predicate on the
 * signal, a member read through a pointer argument (p->pid) and the return
 * value: a mix that stashes the entry values until the return.  Every
 * SIGUSR2 call must show sig 12, the child's own pid and 0; the SIGURG
 * must not show.  Stack mode (ksnoop.stack): vfs_write and pipe_write,
 * each shown only when the one called the other: the child's KS_WRITES
 * 3-byte writes to a pipe (and its 1-byte "done" write) each show both
 * functions' entry and return, and vfs_write's count of 3; -v, the
 * child's PID namespace. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "vm.h"

#define KS_SIGS 7

static void ks_work(void)
{
	signal(SIGUSR2, SIG_IGN);
	signal(SIGURG, SIG_IGN);
	for (int i = 0; i < KS_SIGS; i++)
		kill(getpid(), SIGUSR2);
	kill(getpid(), SIGURG);
}

static void test_ksnoop(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", tr[] = "trace", spec[] = "do_send_sig_info(sig == 12, p->pid, return)";
	char *argv[] = { "corebox", "ksnoop", p, pidarg, tr, spec, NULL };
	char want[128];
	int rc, calls, pids, rets;
	uint64_t since = boot_ns();
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_work, &child);
	if (rc == -1)
		return;
	snprintf(want, sizeof(want), "\n%36s(pid_t)%d,\n", "", (int)child);
	pids = lines_with(want);
	snprintf(want, sizeof(want), "\n%36s(int)12,\n", "");
	calls = lines_with(want);
	snprintf(want, sizeof(want), "return = \n%36s(int)0\n%31s);\n", "", "");
	rets = lines_with(want);
	result(test, rc == 0 && calls == KS_SIGS && pids == KS_SIGS && rets == KS_SIGS && lines_with("(int)23") == 0,
	       "%d of the child's %d SIGUSR2 calls with sig 12, %d with its pid %d through p->pid, %d returning 0; "
	       "SIGURG filtered: %s; exit %d",
	       calls, KS_SIGS, pids, (int)child, rets, lines_with("(int)23") ? "no" : "yes", rc);
	if (!last_ok)
		dump_output(test);
	else
		report_mechanisms(test, since);
}

VM_TEST("ksnoop", test_ksnoop);

/* The same calls as JSON lines: {..., "event":"return", "values":{"sig":12,"p->pid":PID,"return":0}} */
static void test_ksnoop_json(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", j[] = "-j", tr[] = "trace", spec[] = "do_send_sig_info(sig == 12, p->pid, return)";
	char *argv[] = { "corebox", "ksnoop", j, p, pidarg, tr, spec, NULL };
	char want[160];
	int rc, n;
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "ksnoop: tracing 1 function", ks_work, &child);
	if (rc == -1)
		return;
	snprintf(want, sizeof(want), "\"function\":\"do_send_sig_info\",\"event\":\"return\",\"values\":"
		 "{\"sig\":12,\"p->pid\":%d,\"return\":0}}\n", (int)child);
	n = lines_with(want);
	result(test, rc == 0 && n == KS_SIGS && lines_with("{\"time\":") == KS_SIGS,
	       "%d of the child's %d SIGUSR2 calls as JSON lines with sig, its pid %d and 0; exit %d", n, KS_SIGS,
	       (int)child, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST_ONCE("ksnoop.json", test_ksnoop_json);

/* Container identity: the child joins the cgroup v2 directory /cbxks
 * before its calls; -j puts "cgroup":"/cbxks" and its id (the
 * directory's inode) on each of the KS_SIGS lines, --show-cgroup starts
 * each block with the path. */
#define KS_CG "/sys/fs/cgroup/cbxks"

static void ks_cg_work(void)
{
	char pid[24];
	int fd = open(KS_CG "/cgroup.procs", O_WRONLY);

	if (fd >= 0 && write(fd, pid, (size_t)snprintf(pid, sizeof(pid), "%d", (int)getpid())) < 0)
		printf("# join " KS_CG ": %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
	ks_work();
}

static void test_ksnoop_cgroup(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", j[] = "-j", sc[] = "--show-cgroup", tr[] = "trace";
	char spec[] = "do_send_sig_info(sig == 12, p->pid, return)";
	char *argv[] = { "corebox", "ksnoop", j, p, pidarg, tr, spec, NULL };
	char want[96];
	struct stat st;
	int rc, rc2, n, blocks;
	pid_t child;

	mkdir("/sys/fs/cgroup", 0755);
	if (access("/sys/fs/cgroup/cgroup.procs", F_OK) && mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL) < 0) {
		result(test, 0, "cannot mount cgroup2 on /sys/fs/cgroup: %s", strerror(errno));
		return;
	}
	rmdir(KS_CG);
	if (mkdir(KS_CG, 0755) < 0 || stat(KS_CG, &st) < 0) {
		result(test, 0, "mkdir " KS_CG ": %s", strerror(errno));
		return;
	}
	rc = run_with_child(test, argv, pidarg, disable, "ksnoop: tracing 1 function", ks_cg_work, &child);
	if (rc == -1)
		goto out;
	snprintf(want, sizeof(want), "{\"time\":");
	n = lines_with(want);
	snprintf(want, sizeof(want), ",\"cgroup\":\"/cbxks\",\"cgroup_id\":%llu,\"cpu\":", (unsigned long long)st.st_ino);
	n = n == KS_SIGS ? lines_with(want) : -n;
	argv[2] = sc;
	rc2 = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_cg_work, &child);
	if (rc2 == -1)
		goto out;
	blocks = lines_with("\n/cbxks ");
	result(test, rc == 0 && rc2 == 0 && n == KS_SIGS && blocks == KS_SIGS && lines_with("CGROUP   ") == 1,
	       "-j: %d of the child's %d calls in /cbxks (id %llu); --show-cgroup: %d blocks start with it, "
	       "header CGROUP: %s; exits %d/%d", n, KS_SIGS, (unsigned long long)st.st_ino, blocks,
	       lines_with("CGROUP   ") == 1 ? "yes" : "no", rc, rc2);
	if (!last_ok)
		dump_output(test);
out:
	rmdir(KS_CG);
}

VM_TEST_ONCE("ksnoop.cgroup", test_ksnoop_cgroup);

#define KS_WRITES 5

static void ks_writes(void)
{
	int fd[2];

	if (pipe(fd) < 0)
		return;
	for (int i = 0; i < KS_WRITES; i++)
		if (write(fd[1], "abc", 3) != 3)
			break;
}

static void test_ksnoop_stack(const char *test, const char *disable)
{
	char pidarg[16], p[] = "-p", s[] = "-s", v[] = "-v", tr[] = "trace", a[] = "vfs_write", b[] = "pipe_write";
	char *argv[] = { "corebox", "ksnoop", s, v, p, pidarg, tr, a, b, NULL };
	char want[128], ns[64] = "";
	unsigned long pidns = 0;
	int rc, outer, inner, counts, in_ns;
	uint64_t since = boot_ns();
	pid_t child;

	rc = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_writes, &child);
	if (rc == -1)
		return;
	/* -v: each event names the child's PID namespace (the driver's) */
	if (readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1) > 0)
		sscanf(ns, "pid:[%lu]", &pidns);
	snprintf(want, sizeof(want), " %8lu %8d ", pidns, (int)child);
	in_ns = lines_with(want);
	outer = lines_with(" vfs_write(\n");
	inner = lines_with(" pipe_write(\n");
	snprintf(want, sizeof(want), "count = \n%36s(size_t)3,\n", "");
	counts = lines_with(want);
	/* entry and return of each, for the KS_WRITES writes and the done byte */
	result(test, rc == 0 && outer == 2 * (KS_WRITES + 1) && inner == outer && counts == KS_WRITES &&
			     in_ns == outer + inner,
	       "vfs_write shown %d times, pipe_write %d (want %d each: entry and return of %d writes); "
	       "count 3 in %d of the %d writes; %d in PID namespace %lu; exit %d",
	       outer, inner, 2 * (KS_WRITES + 1), KS_WRITES + 1, counts, KS_WRITES, in_ns, pidns, rc);
	if (!last_ok)
		dump_output(test);
	else
		report_mechanisms(test, since);
}

VM_TEST("ksnoop.stack", test_ksnoop_stack);

/* A module's function (loop.ko, loaded by the "module" check): its
 * prototype from the module's split BTF. */
static void test_ksnoop_module(const char *test, const char *disable)
{
	char info[] = "info", f[] = "loop_queue_rq", *argv[] = { "corebox", "ksnoop", info, f, NULL };
	const char *want = "blk_status_t loop_queue_rq(struct blk_mq_hw_ctx *hctx, struct blk_mq_queue_data *bd);\n";
	struct tool_run t;
	int rc;

	if (tool_start(&t, test, argv, disable, "loop_queue_rq(") < 0)
		return;
	rc = tool_stop(&t);
	result(test, rc == 0 && lines_with(want) == 1, "%s; exit %d", lines_with(want) ? "the prototype from loop's BTF" : "not the prototype", rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST_ONCE("ksnoop.module", test_ksnoop_module);

/* ---- side by side with Debian's libbpf-tools 0.26 ksnoop ----
 * run.sh copies /usr/sbin/ksnoop and the libraries it links into x86_64
 * guests when the host has it; both tools trace the same calls of their
 * own child (sig, the siginfo struct behind info, the return value) and
 * must print the same text once what differs between two runs is masked:
 * the event's time, CPU and PID, the child's pid, the siginfo's address.
 * Blocks are compared sorted (per-CPU buffers).  (The 4th argument, type,
 * is left out: on 6.1 0.26 shows PIDTYPE_PID where corebox's fentry and
 * kprobe reads both give kill(2)'s PIDTYPE_TGID.)  On a kernel where 0.26
 * shows no event at all, a note says so and there is no result. */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>

static char *ks_text(void)
{
	return out ? strdup(out) : strdup("");
}

/* out, masked: one block per event, sorted, joined */
static int blkcmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *ks_mask(const char *in, pid_t child)
{
	char pid[16], xpid[24], *m = malloc(strlen(in) * 2 + 64), *o = m, *blocks[256], *res;
	const char *s = in, *h = strstr(in, "TIME  CPU");
	size_t n = 0, len = 0;
	int np = snprintf(pid, sizeof(pid), "%d", (int)child), nx = snprintf(xpid, sizeof(xpid), "0x%x,", (int)child);

	if (h) /* from the header on: libbpf's own warnings before it are not output */
		while (h > in && h[-1] != '\n')
			h--;
	for (s = h ? h : in; *s;) {
		const char *e = strchr(s, '\n');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		const char *f = memmem(s, l, " do_send_sig_info(", 18), *q = s;

		if (f && f - s <= 31) { /* "%16lld %4d %8u %s(": time, cpu, pid */
			o += sprintf(o, "EVENT");
			q = f;
		}
		for (const char *p = q; p < s + l; p++) {
			if (!strncmp(p, xpid, (size_t)nx)) { /* the pid as a pointer (siginfo's union) */
				o += sprintf(o, "0xPID,");
				p += nx - 1;
				continue;
			}
			if (!strncmp(p, "*(0x", 4)) {
				o += sprintf(o, "*(ADDR)");
				while (p < s + l && *p != ')')
					p++;
				continue;
			}
			if (!strncmp(p, pid, (size_t)np) && (p == q || p[-1] < '0' || p[-1] > '9') &&
			    (p[np] < '0' || p[np] > '9')) {
				o += sprintf(o, "PID");
				p += np - 1;
				continue;
			}
			*o++ = *p;
		}
		*o++ = '\n';
		s = e ? e + 1 : s + strlen(s);
	}
	*o = 0;
	/* blocks end with ");\n\n" */
	for (char *b = m, *e; *b && n < 256; b = e) {
		e = strstr(b, ");\n\n");
		e = e ? e + 4 : b + strlen(b);
		blocks[n] = strndup(b, (size_t)(e - b));
		len += strlen(blocks[n++]);
	}
	qsort(blocks, n, sizeof(*blocks), blkcmp);
	res = calloc(1, len + 1);
	for (size_t i = 0; i < n; i++) {
		strcat(res, blocks[i]);
		free(blocks[i]);
	}
	free(m);
	return res;
}

/* The oracle's output, masked: what libbpf-tools' ksnoop prints for the
 * child's calls does not depend on the mechanism corebox is made to use
 * (disable), so it runs once, for ksnoop.oracle, and .fallback compares
 * with the same text: the oracle took ~30 s of each x86_64 guest under
 * TCG, twice. */
static char *ks_oracle_masked;

static char *ks_oracle(const char *test, const char *oracle, char *pidarg, char **oargv)
{
	pid_t ochild;
	int gate, done, fd[2];
	struct tool_run t;
	uint64_t end;
	char *theirs;

	if (ks_oracle_masked)
		return ks_oracle_masked;
	if ((ochild = gated_child(&gate, &done, ks_work)) < 0 || pipe(fd) < 0) {
		result(test, 0, "cannot start the oracle's child");
		return NULL;
	}
	snprintf(pidarg, 16, "%d", (int)ochild);
	out_len = 0;
	if (out)
		out[0] = 0;
	t.pid = fork();
	if (t.pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execv(oracle, oargv);
		_exit(127);
	}
	close(fd[1]);
	t.fd = fd[0];
	end = now_ms() + 30000;
	while (!strstr(out ? out : "", "FUNCTION/ARGS") && now_ms() < end)
		if (!pump(t.fd, 100))
			break;
	open_gate(gate);
	wait_done(done, 10000);
	printf("# %s: libbpf-tools 0.26 exited %d (its output is kept for the other runs)\n", test, tool_stop(&t));
	end_child(ochild);
	theirs = ks_text();
	ks_oracle_masked = ks_mask(theirs, ochild);
	free(theirs);
	return ks_oracle_masked;
}

static void test_ksnoop_oracle(const char *test, const char *disable)
{
	char oracle[600], pidarg[16], p[] = "-p", tr[] = "trace", spec[] = "do_send_sig_info(sig, info, return)";
	char *argv[] = { "corebox", "ksnoop", p, pidarg, tr, spec, NULL };
	char *oargv[] = { "ksnoop", p, pidarg, tr, spec, NULL };
	char *ours, *mo;
	const char *mt;
	pid_t child;
	int rc, events;

	path_of(oracle, sizeof(oracle), "ksnoop-0.26");
	if (access(oracle, X_OK) < 0) {
		printf("# %s: no libbpf-tools ksnoop in this guest (run.sh copies the host's to x86_64 guests)\n", test);
		return;
	}
	rc = run_with_child(test, argv, pidarg, disable, "FUNCTION/ARGS", ks_work, &child);
	if (rc == -1)
		return;
	ours = ks_text();
	mo = ks_mask(ours, child);
	free(ours);
	if (!(mt = ks_oracle(test, oracle, pidarg, oargv))) {
		free(mo);
		return;
	}
	events = 0;
	for (const char *s = mt; (s = strstr(s, "EVENT")); s++)
		events++;
	if (!events) { /* not a result: the oracle cannot trace here */
		printf("# %s: libbpf-tools 0.26 printed no event on this kernel (it looks the function up at "
		       "the kprobe's address - 1, which misses here: IBT's endbr64?); nothing compared\n", test);
		free(mo);
		return;
	}
	events = 0;
	for (const char *s = mo; (s = strstr(s, "EVENT")); s++)
		events++;
	result(test, rc == 0 && events == 2 * (KS_SIGS + 1) && !strcmp(mo, mt),
	       "%d events (the child's %d calls, entry and return): %s libbpf-tools 0.26's once times, CPUs, "
	       "pids and addresses are masked; exit %d",
	       events, KS_SIGS + 1, strcmp(mo, mt) ? "NOT the same as" : "byte for byte", rc);
	if (!last_ok) {
		printf("# ours (masked):\n%s\n# 0.26 (masked):\n%s\n", mo, mt);
		fflush(stdout);
	}
	free(mo);
}

VM_TEST("ksnoop.oracle", test_ksnoop_oracle);
