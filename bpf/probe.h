/* Kernel feature probes, each run at most once and cached.  They really
 * ask the kernel (tiny map creates and program loads), because a kernel's
 * version says little: these machines refuse fentry with EPERM and have no
 * kprobes at all.
 *
 * The environment variable COREBOX_DISABLE=feat[,feat...] forces a probe
 * to say "no" (tests use it to exercise fallbacks): ringbuf, tp_btf,
 * fentry, raw_tp, kprobe_pmu, kprobe, perf_link, mmap, bpf_cookie, uprobe_multi;
 * BTF kinds in program BTF: btf (all BTF), btf_func, btf_global_func,
 * btf_datasec, btf_float, btf_decl_tag, btf_type_tag, btf_enum64. */
#ifndef COREBOX_PROBE_H
#define COREBOX_PROBE_H

#include <stdbool.h>
#include <stdint.h>

bool probe_disabled(const char *feat); /* COREBOX_DISABLE lists it */
bool probe_ringbuf(void);
bool probe_mmapable_array(void);
bool probe_perf_link(void);
bool probe_bpf_cookie(void);
bool probe_prog_name(void);
bool probe_raw_tp(void);     /* raw_tp programs with tail calls (4.17+) */
bool probe_kprobe_pmu(void);
bool probe_kprobe_legacy(void);
bool probe_kprobe_func_ip(void); /* bpf_get_func_ip in kprobe programs (5.15+) */
bool probe_uprobe_multi(void); /* uprobe_multi links (6.6+) */
bool probe_bounded_loop(void); /* 5.3+, not cached */
bool probe_helper(int func); /* a helper of tracepoint programs (BPF_FUNC_...), not cached */
/* tp_btf / fentry need the target's vmlinux BTF id (the loader finds it). */
bool probe_tp_btf(uint32_t btf_trace_typedef_id);
bool probe_fentry(uint32_t func_btf_id);
/* The same for a module's function: its id in the module's BTF object. */
bool probe_fentry_module(uint32_t func_btf_id, int btf_obj_fd);
/* BTF kinds the kernel accepts in program BTF (for sanitizing). */
bool probe_btf(void);           /* any BTF at all (BPF_BTF_LOAD, 4.18+) */
bool probe_btf_func(void);
bool probe_btf_global_func(void);
bool probe_btf_datasec(void);
bool probe_btf_float(void);
bool probe_btf_decl_tag(void);
bool probe_btf_type_tag(void);
bool probe_btf_enum64(void);

#endif
