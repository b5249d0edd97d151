/* Kernel functions and symbols a tool may hook or read: which way in the
 * running kernel offers to a function (fentry, else kprobe, else none) and
 * where a symbol is (/proc/kallsyms).  Tools with fentry and kprobe
 * variants of a program pick one with kfunc_way() and turn the other's
 * autoload off (the loader's tp_btf -> raw_tp fallback needs no help). */
#ifndef COREBOX_TOOLS_KFUNC_H
#define COREBOX_TOOLS_KFUNC_H

#include <stdbool.h>
#include <stdint.h>

struct obj;

enum kfunc_way {
	KFUNC_NONE,   /* no way in: no BTF trampolines and no kprobes (or no such function) */
	KFUNC_FENTRY, /* BTF FUNC present and the kernel loads fentry programs */
	KFUNC_KPROBE, /* in kallsyms and the kernel has kprobes (PMU or kprobe_events) */
};

/* The best way in to func (COREBOX_DISABLE=fentry,kprobe_pmu,kprobe are
 * honoured through the feature probes). */
enum kfunc_way kfunc_way(struct obj *o, const char *func);
/* The first of names[0..n) with a way in: its index and *way; -1 (and
 * KFUNC_NONE) when none has one. */
int kfunc_pick(struct obj *o, const char *const *names, int n, enum kfunc_way *way);
const char *kfunc_way_name(enum kfunc_way w); /* "fentry", "kprobe", "none" */

/* Can this kernel run kprobes at all? */
bool kfunc_have_kprobes(void);
/* Addresses of names[0..n) from /proc/kallsyms, one pass (0: absent or
 * hidden).  Returns how many were found. */
int ksym_addrs(const char *const *names, int n, uint64_t *addrs);

#endif
