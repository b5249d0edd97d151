/* mechtest: prove every attach mechanism of corebox's loader on the
 * running kernel.  Loads tests/vm/mech.bpf.o through the loader's public
 * API (obj_open/obj_load/obj_attach/prog_mechanism, prog_attach_perf_fd),
 * causes N known events per program and checks the counts.  Built static
 * (musl) by tests/vm/run.sh and run inside the VMs by tests/vm/driver.c,
 * several times with different COREBOX_DISABLE settings; it also runs on
 * a host for whatever subset that kernel has.
 *
 *   mechtest --obj FILE [--pass NAME] [--kfunc fentry|kprobe|kprobe_legacy|none|auto]
 *            [--tp tp_btf|raw_tp|auto] [-n N] [-v]
 *
 * --kfunc/--tp name the mechanism the loader must pick for the kernel
 * function programs and the tp_btf program ("auto": whatever it picks).
 * Output, one line per check (parsed by tests/vm/run.sh):
 *   VMTEST mech.PASS.PROG PASS|FAIL mech=M count=C want=W
 * Exit status: 0 when every check passed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "bpf/probe.h"
#include "bpf/sys.h"
#include "bpf/tracefs.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "tools/probe/arch.h"

enum { S_FENTRY, S_FEXIT, S_KPROBE, S_KRETPROBE, S_TP_BTF, S_RAW_TP, S_TRACEPOINT, S_UPROBE,
       S_URETPROBE, S_PERF_EVENT, S_UPROBE_ARGSUM, S_URETPROBE_RETSUM, S_NR };

static const char *pass_name = "default";
static int fails;

__attribute__((noinline, used)) int mech_uprobe_target(int x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}

static void check(const char *prog, const char *mech, const char *want_mech, unsigned long long count,
		  unsigned long long want, int at_least, const char *why)
{
	int ok = !why && (!want_mech || !strcmp(mech, want_mech)) &&
		 (at_least ? count >= want : count == want);

	fails += !ok;
	printf("VMTEST mech.%s.%s %s mech=%s count=%llu want=%s%llu%s%s%s%s\n", pass_name, prog,
	       ok ? "PASS" : "FAIL", *mech ? mech : "-", count, at_least ? ">=" : "", want,
	       want_mech && strcmp(mech, want_mech) ? " want_mech=" : "",
	       want_mech && strcmp(mech, want_mech) ? want_mech : "", why ? " error: " : "", why ? why : "");
	fflush(stdout);
}

static unsigned long long count_of(struct obj *o, uint32_t k)
{
	uint64_t v = 0;

	bpf_map_lookup(map_fd(obj_map(o, "counts")), &k, &v);
	return v;
}

static void burn_ms(long ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	volatile unsigned long x = 0;

	while (now_ns() < end)
		for (int i = 0; i < 10000; i++)
			x += i;
}

static int kprobe_events_clean(void)
{
	char path[256], *buf;
	size_t len;
	int clean;

	if (!tracefs_root() || !tracefs_path(path, sizeof(path), "kprobe_events"))
		return 1;
	if (read_file(path, 1 << 20, &buf, &len) < 0)
		return 1;
	clean = !strstr(buf, "corebox");
	free(buf);
	return clean;
}

int main(int argc, char **argv)
{
	const char *obj_path = NULL, *kfunc = "auto", *tp = "auto";
	struct obj_opts opts = { 0 };
	int n = 100, ncpu, pfds[64], npfd = 0, err;
	char exe[512], target[600], *data;
	const char *kfunc_used, *m;
	struct obj *o;
	size_t size;
	uint32_t *tgid;
	ssize_t len;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--obj") && i + 1 < argc)
			obj_path = argv[++i];
		else if (!strcmp(argv[i], "--pass") && i + 1 < argc)
			pass_name = argv[++i];
		else if (!strcmp(argv[i], "--kfunc") && i + 1 < argc)
			kfunc = argv[++i];
		else if (!strcmp(argv[i], "--tp") && i + 1 < argc)
			tp = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-v"))
			opts.verbose = 1;
		else {
			fprintf(stderr, "usage: mechtest --obj FILE [--pass NAME] [--kfunc M] [--tp M] [-n N] [-v]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!obj_path || read_file(obj_path, 1 << 24, &data, &size) < 0) {
		printf("VMTEST mech.%s.open FAIL cannot read %s: %s\n", pass_name, obj_path ? obj_path : "(none)",
		       err_msg());
		return 1;
	}
	o = obj_open("mech", data, size);
	if (!o) {
		printf("VMTEST mech.%s.open FAIL %s\n", pass_name, err_msg());
		return 1;
	}
	tgid = obj_global(o, "targ_tgid", sizeof(*tgid));
	if (tgid)
		*tgid = (uint32_t)getpid();
	/* getpgid(own pid) returns own pid once we lead our own group: the
	 * kprobe checks the argument, the kretprobe the return value */
	setpgid(0, 0);
	tgid = obj_global(o, "targ_pgid_arg", sizeof(*tgid));
	if (tgid)
		*tgid = (uint32_t)getpid();

	/* kernel-function variant, chosen the way tools choose theirs */
	if (obj_fentry_ok(o, ARCH_SYSCALL_PREFIX "getpgid"))
		kfunc_used = "fentry";
	else if (probe_kprobe_pmu() || probe_kprobe_legacy())
		kfunc_used = "kprobe";
	else
		kfunc_used = "none";
	err_clear();
	prog_set_autoload(obj_prog(o, "on_fentry"), !strcmp(kfunc_used, "fentry"));
	prog_set_autoload(obj_prog(o, "on_fexit"), !strcmp(kfunc_used, "fentry"));
	prog_set_autoload(obj_prog(o, "on_kprobe"), !strcmp(kfunc_used, "kprobe"));
	prog_set_autoload(obj_prog(o, "on_kretprobe"), !strcmp(kfunc_used, "kprobe"));

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0) {
		printf("VMTEST mech.%s.open FAIL readlink /proc/self/exe: %s\n", pass_name, strerror(errno));
		return 1;
	}
	exe[len] = 0;
	snprintf(target, sizeof(target), "%s:mech_uprobe_target", exe);
	prog_set_attach_target(obj_prog(o, "on_uprobe"), target);
	prog_set_attach_target(obj_prog(o, "on_uretprobe"), target);

	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	if (err) {
		printf("VMTEST mech.%s.load_attach FAIL %s\n", pass_name, err_msg());
		obj_close(o);
		return 1;
	}
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (int c = 0; c < ncpu && c < 64; c++) {
		int fd = perf_open_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, true, 1000, -1, c);

		if (fd < 0 || prog_attach_perf_fd(obj_prog(o, "on_perf_event"), fd) < 0) {
			printf("VMTEST mech.%s.perf_event FAIL cpu %d: %s\n", pass_name, c, err_msg());
			fails++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		pfds[npfd++] = fd;
	}

	for (int i = 0; i < n; i++) {
		syscall(SYS_getpgid, getpid());
		syscall(SYS_getppid);
		mech_uprobe_target(i);
	}
	burn_ms(300);

	if (strcmp(kfunc_used, "none")) {
		const char *wf = NULL, *wr = NULL;

		if (!strcmp(kfunc, "fentry"))
			wf = "fentry", wr = "fexit";
		else if (!strcmp(kfunc, "kprobe"))
			wf = "kprobe", wr = "kretprobe";
		else if (!strcmp(kfunc, "kprobe_legacy"))
			wf = "kprobe_legacy", wr = "kretprobe_legacy";
		if (!strcmp(kfunc_used, "fentry")) {
			check("fentry", prog_mechanism(obj_prog(o, "on_fentry")), wf, count_of(o, S_FENTRY), n, 0, NULL);
			check("fexit", prog_mechanism(obj_prog(o, "on_fexit")), wr, count_of(o, S_FEXIT), n, 0, NULL);
		} else {
			check("kprobe", prog_mechanism(obj_prog(o, "on_kprobe")), wf, count_of(o, S_KPROBE), n, 0, NULL);
			check("kretprobe", prog_mechanism(obj_prog(o, "on_kretprobe")), wr, count_of(o, S_KRETPROBE), n, 0,
			      NULL);
		}
	} else if (strcmp(kfunc, "none") && strcmp(kfunc, "auto")) {
		check("kfunc", "", kfunc, 0, n, 0, "kernel has neither fentry nor kprobes");
	}
	m = prog_mechanism(obj_prog(o, "on_tp_btf"));
	check("tp_btf", m, strcmp(tp, "auto") ? tp : NULL, count_of(o, S_TP_BTF), n, 0, NULL);
	check("raw_tp", prog_mechanism(obj_prog(o, "on_raw_tp")), "raw_tp", count_of(o, S_RAW_TP), n, 0, NULL);
	check("tracepoint", prog_mechanism(obj_prog(o, "on_tracepoint")), "tracepoint", count_of(o, S_TRACEPOINT), n,
	      0, NULL);
	/* uprobes: uprobe_multi links where the kernel has them (6.6+) */
	const char *wu = probe_uprobe_multi() ? "uprobe_multi" : "uprobe";
	const char *wur = probe_uprobe_multi() ? "uretprobe_multi" : "uretprobe";

	check("uprobe", prog_mechanism(obj_prog(o, "on_uprobe")), wu, count_of(o, S_UPROBE), n, 0, NULL);
	check("uretprobe", prog_mechanism(obj_prog(o, "on_uretprobe")), wur, count_of(o, S_URETPROBE), n, 0, NULL);
	/* mech_uprobe_target(0..n-1) returned 1..n */
	check("uprobe_arg", prog_mechanism(obj_prog(o, "on_uprobe")), wu, count_of(o, S_UPROBE_ARGSUM),
	      (unsigned long long)n * (n - 1) / 2, 0, NULL);
	check("uretprobe_ret", prog_mechanism(obj_prog(o, "on_uretprobe")), wur, count_of(o, S_URETPROBE_RETSUM),
	      (unsigned long long)n * (n + 1) / 2, 0, NULL);
	check("perf_event", prog_mechanism(obj_prog(o, "on_perf_event")), "perf_event", count_of(o, S_PERF_EVENT), 1,
	      1, npfd ? NULL : "no cpu-clock event attached");

	obj_close(o);
	for (int i = 0; i < npfd; i++)
		close(pfds[i]);
	if (!strcmp(kfunc_used, "kprobe")) {
		int clean = kprobe_events_clean();

		fails += !clean;
		printf("VMTEST mech.%s.cleanup %s kprobe_events %s after obj_close\n", pass_name,
		       clean ? "PASS" : "FAIL", clean ? "has no corebox probe" : "still lists a corebox probe");
	}
	free(data);
	return fails ? 1 : 0;
}
