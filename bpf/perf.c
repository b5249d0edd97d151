/* perf_event_open(2) attach points and attaching BPF programs to them. */
#include "perf.h"
#include "probe.h"
#include "sys.h"
#include "tracefs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define KPROBE_GROUP "corebox"
#define EVNAME_MAX 63 /* kernel MAX_EVENT_NAME_LEN is 64 with the NUL */

int perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
	long fd;

	if (!attr->size)
		attr->size = sizeof(*attr);
	fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd_good((int)fd);
}

int perf_tp_id(const char *cat, const char *name)
{
	char rel[256], path[512], buf[32];
	char *end;
	long id;
	int r;

	snprintf(rel, sizeof(rel), "events/%s/%s/id", cat, name);
	if (!tracefs_path(path, sizeof(path), rel))
		return err_prefix(-ENOENT, "tracepoint %s:%s", cat, name);
	r = read_line(path, buf, sizeof(buf));
	if (r == -ENOENT)
		return err_set(ENOENT, "tracepoint %s:%s does not exist on this kernel", cat, name);
	if (r < 0)
		return err_prefix(r, "tracepoint %s:%s", cat, name);
	errno = 0;
	id = strtol(buf, &end, 10);
	if (errno || end == buf || id <= 0 || id > INT32_MAX)
		return err_set(EINVAL, "tracepoint %s:%s: bad id '%s' in %s", cat, name, buf, path);
	return (int)id;
}

bool perf_tp_exists(const char *cat, const char *name)
{
	char rel[256], path[512];

	snprintf(rel, sizeof(rel), "events/%s/%s", cat, name);
	return tracefs_path(path, sizeof(path), rel) && access(path, F_OK) == 0;
}

int perf_open_tracepoint(int tp_id)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)tp_id;
	a.sample_period = 1;
	a.wakeup_events = 1;
	fd = perf_event_open(&a, -1, 0, -1, 0);
	if (fd < 0)
		return err_sys(-fd, "cannot open tracepoint perf event (id %d)", tp_id);
	return fd;
}

/* PMU type from PMU_DIR/NAME/type; -ENOENT when the PMU is absent. */
static int pmu_type(const char *pmu)
{
	char path[128], buf[32];
	char *end;
	long t;

	snprintf(path, sizeof(path), PMU_DIR "/%s/type", pmu);
	if (access(path, F_OK) != 0)
		return -ENOENT;
	if (read_line(path, buf, sizeof(buf)) < 0)
		return -EIO;
	t = strtol(buf, &end, 10);
	if (end == buf || t < 0 || t > INT32_MAX)
		return err_set(EINVAL, "bad PMU type '%s' in %s", buf, path);
	return (int)t;
}

/* Bit number of a "config:N" format file (retprobe flag). */
static int pmu_format_bit(const char *pmu, const char *field)
{
	char path[160], buf[64];
	char *end;
	long bit;

	snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, field);
	if (read_line(path, buf, sizeof(buf)) < 0)
		return err_prefix(-ENOENT, "%s PMU", pmu);
	if (strncmp(buf, "config:", 7) != 0)
		return err_set(EINVAL, "unexpected %s: '%s'", path, buf);
	bit = strtol(buf + 7, &end, 10);
	if (end == buf + 7 || bit < 0 || bit > 63)
		return err_set(EINVAL, "unexpected %s: '%s'", path, buf);
	return (int)bit;
}

static bool kprobe_events_exist(void)
{
	char path[256];

	return tracefs_path(path, sizeof(path), "kprobe_events") && access(path, F_OK) == 0;
}

/* Open a probe on the kprobe or uprobe PMU: config1 names the function
 * or file, config2 is the offset, and the retprobe bit comes from the
 * PMU's format directory.  type is the PMU's type (already checked). */
static int probe_pmu_open(const char *pmu, int type, const char *target, uint64_t offset,
			  bool retprobe, int pid, uint64_t ref_ctr_off)
{
	struct perf_event_attr a;
	int bit = 0, fd;

	if (retprobe) {
		bit = pmu_format_bit(pmu, "retprobe");
		if (bit < 0)
			return bit;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = retprobe ? 1ull << bit : 0;
	if (ref_ctr_off) {
		int rb = pmu_format_bit(pmu, "ref_ctr_offset");

		if (rb < 0)
			return err_set(ENOTSUP, "this kernel's uprobes cannot maintain USDT semaphores (no ref_ctr_offset, 4.20+)");
		if (ref_ctr_off >> (64 - rb))
			return err_set(EINVAL, "USDT semaphore offset 0x%llx is too large", (unsigned long long)ref_ctr_off);
		a.config |= ref_ctr_off << rb;
	}
	a.config1 = (uint64_t)(uintptr_t)target; /* kprobe_func / uprobe_path */
	a.config2 = offset;                     /* probe_offset */
	/* pid -1 needs a cpu; the probe still fires on every cpu. */
	fd = perf_event_open(&a, pid < 0 ? -1 : pid, pid < 0 ? 0 : -1, -1, 0);
	if (fd < 0)
		return err_sys(-fd, "cannot open %s%s on %s+0x%llx", pmu, retprobe ? " return probe" : "",
			       target, (unsigned long long)offset);
	return fd;
}

int perf_open_kprobe_pmu(const char *func, uint64_t offset, bool retprobe)
{
	int type = pmu_type("kprobe");

	if (type == -ENOENT) {
		if (kprobe_events_exist())
			return err_set(ENOENT, "kernel has no kprobe PMU (use kprobe_events)");
		return err_set(ENOENT, "kernel has no kprobe support (no kprobe PMU, no kprobe_events)");
	}
	if (type < 0)
		return err_prefix(type, "kprobe PMU");
	return probe_pmu_open("kprobe", type, func, offset, retprobe, -1, 0);
}

/* ---- legacy kprobe_events ---- */

int perf_kprobe_legacy_remove(const char *evname, bool retprobe)
{
	char path[256], cmd[128];

	(void)retprobe; /* "-:GROUP/NAME" removes either kind */
	if (!tracefs_path(path, sizeof(path), "kprobe_events"))
		return -ENOENT;
	snprintf(cmd, sizeof(cmd), "-:%s/%s\n", KPROBE_GROUP, evname);
	return write_file(path, cmd, 1);
}

/* Probes on targets ("FUNC" or "FUNC+0xOFF") as one event named after
 * tag; *added: how many the kernel took. */
static int open_legacy(const char *const *targets, size_t n, bool retprobe, const char *tag, char *evname,
		       size_t evname_size, size_t *added)
{
	static unsigned seq;
	char path[256], cmd[512], name[EVNAME_MAX + 1];
	int id, fd, r = -ENOENT;

	*added = 0;
	if (!kprobe_events_exist() || !tracefs_path(path, sizeof(path), "kprobe_events"))
		return err_set(ENOENT, "kernel has no kprobe support (no kprobe PMU, no kprobe_events)");
	/* Unique part first so truncation keeps names distinct; '.' (as in
	 * "foo.isra.0") and other odd characters are not allowed. */
	snprintf(name, sizeof(name), "corebox_%d_%u_%s", (int)getpid(), seq++, tag);
	for (int i = 0; name[i]; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			name[i] = '_';
	if (strlen(name) + 1 > evname_size)
		return err_set(ENAMETOOLONG, "kprobe event name buffer too small");
	for (size_t i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "%c:%s/%s %s\n", retprobe ? 'r' : 'p', KPROBE_GROUP, name, targets[i]);
		/* one write a probe: a function refused (init code, the
		 * blacklist) costs only itself; EEXIST: a kernel before
		 * multi-probe events (5.7) */
		if ((r = write_file(path, cmd, 1)) == -EEXIST)
			break;
		*added += r == 0;
	}
	if (!*added || r == -EEXIST) {
		if (*added)
			perf_kprobe_legacy_remove(name, retprobe);
		return n == 1 ? err_prefix(r, "cannot add legacy %s for %s", retprobe ? "kretprobe" : "kprobe", tag)
			      : err_set(EEXIST, "cannot make one kprobe event of %zu functions", n);
	}
	err_clear();
	id = perf_tp_id(KPROBE_GROUP, name);
	fd = id < 0 ? id : perf_open_tracepoint(id);
	if (fd < 0) {
		perf_kprobe_legacy_remove(name, retprobe);
		return err_prefix(fd, "legacy kprobe %s", tag);
	}
	memcpy(evname, name, strlen(name) + 1);
	return fd;
}

int perf_open_kprobe_legacy(const char *func, uint64_t offset, bool retprobe,
			    char *evname, size_t evname_size)
{
	char target[300];
	const char *t = target;
	size_t added;

	snprintf(target, sizeof(target), offset ? "%s+0x%llx" : "%s", func, (unsigned long long)offset);
	return open_legacy(&t, 1, retprobe, func, evname, evname_size, &added);
}

int perf_open_kprobes_legacy(const char *const *funcs, size_t n, bool retprobe, char *evname, size_t evname_size,
			     size_t *added)
{
	return open_legacy(funcs, n, retprobe, "group", evname, evname_size, added);
}

void perf_kprobe_legacy_gc(void)
{
	char path[256], *buf, *line, *save = NULL;
	size_t len;

	if (!kprobe_events_exist())
		return;
	tracefs_path(path, sizeof(path), "kprobe_events");
	if (read_file(path, 1 << 22, &buf, &len) < 0)
		return;
	/* Lines look like "p:corebox/corebox_1234_0_vfs_read vfs_read" */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char ev[128];
		long pid;
		char *p, *end;

		p = strchr(line, ':');
		if (!p || strncmp(p + 1, KPROBE_GROUP "/corebox_", sizeof(KPROBE_GROUP "/corebox_") - 1))
			continue;
		p += 1 + sizeof(KPROBE_GROUP);
		snprintf(ev, sizeof(ev), "%.*s", (int)strcspn(p, " \t"), p);
		pid = strtol(ev + strlen("corebox_"), &end, 10);
		if (end == ev + strlen("corebox_") || *end != '_' || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* owner still alive (or not ours to judge) */
		perf_kprobe_legacy_remove(ev, line[0] == 'r');
	}
	free(buf);
	err_clear();
}

/* ---- uprobes, software events ---- */

int perf_open_uprobe(const char *path, uint64_t offset, bool retprobe, int pid)
{
	return perf_open_uprobe_ref(path, offset, retprobe, pid, 0);
}

int perf_open_uprobe_ref(const char *path, uint64_t offset, bool retprobe, int pid, uint64_t ref_ctr_off)
{
	int type = pmu_type("uprobe");

	if (type == -ENOENT)
		return err_set(ENOENT, "kernel has no uprobe PMU (" PMU_DIR "/uprobe)");
	if (type < 0)
		return err_prefix(type, "uprobe PMU");
	return probe_pmu_open("uprobe", type, path, offset, retprobe, pid, ref_ctr_off);
}

int perf_open_sw_sampling(uint32_t config, bool freq, uint64_t period_or_freq, int pid, int cpu)
{
	return perf_open_sampling(PERF_TYPE_SOFTWARE, config, freq, period_or_freq, pid, cpu);
}

int perf_open_sampling(uint32_t type, uint32_t config, bool freq, uint64_t period_or_freq, int pid, int cpu)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.freq = freq;
	if (freq)
		a.sample_freq = period_or_freq;
	else
		a.sample_period = period_or_freq;
	fd = perf_event_open(&a, pid, cpu, -1, 0);
	if (fd == -ENODEV)
		return err_set(ENODEV, "cpu %d is offline", cpu);
	if (fd < 0)
		return err_sys(-fd, "cannot open %s perf event %u on cpu %d",
			       type == PERF_TYPE_SOFTWARE ? "software" : "hardware", config, cpu);
	return fd;
}

int perf_attach_bpf(int perf_fd, int prog_fd, uint64_t cookie, int *link_fd)
{
	int lfd = -1;

	*link_fd = -1;
	/* The attach is its own probe: a link made says the kernel has perf
	 * links, and only a refused one runs probe_perf_link() (a program
	 * load, ~0.3 ms of every tool's start) to tell a kernel without them
	 * (use the ioctl) from a link refused for another reason. */
	if (!probe_disabled("perf_link")) {
		lfd = bpf_link_create(prog_fd, perf_fd, BPF_PERF_EVENT, 0, cookie);
		if (lfd < 0 && probe_perf_link())
			return err_prefix(lfd, "perf event attach");
		if (lfd < 0)
			err_clear(); /* no perf links: the ioctl below */
	}
	if (lfd < 0) {
		if (cookie)
			return err_set(EOPNOTSUPP, "kernel has no perf links, so no BPF cookies");
		if (ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0) {
			if (errno == EPROTO)
				return err_set(EPROTO, "perf event already has a BPF program attached");
			return err_sys(errno, "PERF_EVENT_IOC_SET_BPF");
		}
	}
	if (ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int e = errno;

		if (lfd >= 0)
			close(lfd);
		return err_sys(e, "PERF_EVENT_IOC_ENABLE");
	}
	*link_fd = lfd;
	return 0;
}
