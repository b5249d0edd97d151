/* Generated programs into one loader object, loaded and attached. */
#ifndef COREBOX_PROBE_BUILD_H
#define COREBOX_PROBE_BUILD_H

#include "probe.h"

struct obj;

/* "tracepoint/CAT/EV", "kprobe/F", "uprobe/PATH:0xOFF" ... */
void loc_section(const struct loc *l, char *buf, size_t size);
/* Finish g's code and add it as a program for l (label: the probe text
 * for error messages; pid: uprobe process filter).  Program index or
 * -errno (message set). */
int build_add(struct obj *o, const struct loc *l, struct gen *g, const char *label, int pid);
/* Load everything, attach each program; probes that fail to attach are
 * skipped with a warning unless all fail.  Prints its own errors.
 * *attached = programs attached. */
int build_load_attach(struct obj *o, const char *tool, const char *what, int *attached);
/* The same in two steps, for a front end that runs programs between
 * (bpftrace's BEGIN before the other probes attach). */
int build_load(struct obj *o, const char *tool);
/* The verifier log level build_load asks for (0: a log only for a program
 * refused; bpftrace -v: 1, each program's log kept, prog_verifier_log). */
extern uint32_t build_log_level;
int build_attach(struct obj *o, const char *tool, const char *what, int *attached);
/* After generating the programs (rc: 0, or the exit status of a failure):
 * release the kernel BTF and, when rc is 0, load and attach.  Returns
 * the exit status so far: rc, or 1 when loading or attaching failed. */
int build_finish(struct obj *o, int rc, const char *tool, const char *what, int *attached);
/* One program for all n locations when every one is a kernel
 * function's entry (funccount 'vfs_*'), or every one its return (a
 * kretprobe.multi link, else one legacy kretprobe event: bpftrace's
 * kretprobe:vfs_*), attached in one step, so the
 * detach is one step too: a kprobe_multi link keyed by cookie i, else one
 * legacy kprobe event holding every function, keyed by the function's
 * address (bpf_get_func_ip) in a hash addr -> i.  body(o, g, out, idx,
 * ctx) adds the tool's maps to o and its code to g after gen_begin; idx:
 * the frame offset of the u32 i of locs[i] being hit (want_index; else
 * 0).  Returns the object loaded and attached (*attached: functions), or
 * NULL with nothing left behind where the kernel refuses: the caller
 * then builds one program per location (COREBOX_DISABLE=kprobe_multi,
 * kprobe_group force those steps). */
typedef int (*build_body_fn)(struct obj *o, struct gen *g, int out, int idx, void *ctx);
/* The same program for a front end whose maps and other programs share
 * one object o (bpftrace): added before load, both ways (the loader
 * keeps a variant the kernel refuses unloaded), build_attach attaching
 * the first the kernel takes.  Deciding before load would take a
 * kernel probe that still could not tell whether the link takes these
 * functions; loading both costs one program more.  Per function
 * instead is decided here, before load: 1 when the locations do not fit
 * or both ways are off (COREBOX_DISABLE, no legacy kprobes, a kernel
 * before 5.15); else 0 or -errno (compile error). */
int build_multi_add(struct obj *o, const struct loc *locs, int n, const struct spec *s, const struct cg_opts *co,
		    build_body_fn body, void *ctx);
/* The nth build_multi_add program set of o: the program index of the
 * variant attached (-1: none attached). */
int build_multi_attached(struct obj *o, int nth);
/* addrs: build_func_addrs(locs, n) (the caller has them for its
 * report), or NULL: looked up here. */
struct obj *build_multi(const char *tool, const struct loc *locs, int n, const uint64_t *addrs, const struct spec *s,
			const struct cg_opts *co, bool want_index, build_body_fn body, void *ctx, int *attached);
/* The n kernel functions' addresses (0: unknown), then _sinittext's and
 * _einittext's (kallsyms still names the init code freed after boot,
 * which no probe can take), from one pass over kallsyms; free() it. */
uint64_t *build_func_addrs(const struct loc *locs, int n);
/* The counting body (funccount, vfscount): counts[i] += 1 for the
 * function i hit, counts an array of n (made here), the same keys as one
 * program per function would count in. */
struct build_counts {
	int n, counts;
};
int build_count_body(struct obj *o, struct gen *g, int out, int idx, void *ctx);
/* A compile error in probe s: with a caret when the position is known
 * (returns 2, a usage error), else one line (returns 1). */
int build_probe_error(const char *tool, const struct spec *s, struct gen *g);
/* One line "TOOL: probe 'TEXT': MSG", TEXT escaped (it is the user's). */
void build_probe_msg(const char *tool, const char *text, const char *msg);

#endif
