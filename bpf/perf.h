/* perf_event_open(2) and the perf-side attach points: tracepoints,
 * kprobes (PMU, legacy kprobe_events fallback), uprobes, software events,
 * and attaching a BPF program to a perf event fd. */
#ifndef COREBOX_BPF_PERF_H
#define COREBOX_BPF_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd, unsigned long flags);

/* Tracepoint id from TRACEFS/events/CAT/NAME/id (mounts tracefs if
 * needed).  -ENOENT with a message when the tracepoint does not exist. */
int perf_tp_id(const char *cat, const char *name);
bool perf_tp_exists(const char *cat, const char *name);
/* perf fd for a tracepoint (pid -1, cpu 0: BPF sees every task anyway). */
int perf_open_tracepoint(int tp_id);

/* kprobe/kretprobe through the kprobe PMU.  -ENOENT when the kernel has
 * no kprobe PMU (then try the legacy interface). */
int perf_open_kprobe_pmu(const char *func, uint64_t offset, bool retprobe);
/* Legacy: add "p:corebox/NAME FUNC+OFF" to kprobe_events, open the event.
 * The event name is written to evname (unique per process) so
 * perf_kprobe_legacy_remove() can delete it on detach. */
int perf_open_kprobe_legacy(const char *func, uint64_t offset, bool retprobe,
			    char *evname, size_t evname_size);
int perf_kprobe_legacy_remove(const char *evname, bool retprobe);
/* One legacy kprobe event with a probe on each of n functions (the
 * multi-probe events of 5.7+): one perf event arms and disarms them all,
 * one "-:" removes them.  Functions the kernel refuses are left out;
 * *added says how many took a probe. */
int perf_open_kprobes_legacy(const char *const *funcs, size_t n, bool retprobe, char *evname, size_t evname_size,
			     size_t *added);
/* Remove every corebox legacy probe whose owner pid is gone (left behind
 * by a SIGKILLed run). */
void perf_kprobe_legacy_gc(void);

/* uprobe/uretprobe through the uprobe PMU: path + file offset, pid -1
 * for every process. */
int perf_open_uprobe(const char *path, uint64_t offset, bool retprobe, int pid);
/* Same, with a USDT semaphore (file offset of its u16) that the kernel
 * increments in every process the probe is installed in (4.20+). */
int perf_open_uprobe_ref(const char *path, uint64_t offset, bool retprobe, int pid, uint64_t ref_ctr_off);

/* Software event sampling (profile): one fd per cpu. */
int perf_open_sw_sampling(uint32_t config, bool freq, uint64_t period_or_freq, int pid, int cpu);
/* The same for any type (PERF_TYPE_HARDWARE, ...). */
int perf_open_sampling(uint32_t type, uint32_t config, bool freq, uint64_t period_or_freq, int pid, int cpu);

/* Attach prog to a perf event: BPF_LINK_CREATE(BPF_PERF_EVENT) when the
 * kernel has perf links (cookie passed), else PERF_EVENT_IOC_SET_BPF; then
 * enables the event.  *link_fd = the link fd or -1 (ioctl path; closing
 * the perf fd detaches then). */
int perf_attach_bpf(int perf_fd, int prog_fd, uint64_t cookie, int *link_fd);

#endif
