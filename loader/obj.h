/* The loader: an embedded BPF object (libbpf conventions) turned into
 * maps, programs and links.
 *
 *   obj_open()   parse ELF, BTF, .BTF.ext; find programs, maps, global
 *                data, externs and relocations.  No syscalls.
 *   ...          the tool adjusts: autoload, attach targets, map types and
 *                sizes, .rodata knobs (obj_global), events map mode.
 *   obj_load()   kernel BTF, externs, CO-RE, subprograms, data relocations,
 *                program BTF, maps (rodata frozen), programs.
 *   obj_attach() every loaded program by its section name, picking the
 *                best mechanism the kernel has (tp_btf -> raw_tp,
 *                fentry/kprobe per the tool's variant choice).
 *   obj_close()  detach and close everything; also undoes legacy kprobes.
 *
 * Errors: negative errno (or NULL) with a one-line err_msg(). */
#ifndef COREBOX_OBJ_H
#define COREBOX_OBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct obj;
struct prog;
struct map;
struct btf;

/* How a program is attached, from its section name. */
enum attach_kind {
	ATTACH_NONE,       /* loaded, attached by hand (perf_event) or not at all */
	ATTACH_TRACEPOINT, /* tracepoint/CAT/NAME, tp/CAT/NAME */
	ATTACH_RAW_TP,     /* raw_tracepoint/NAME, raw_tp/NAME */
	ATTACH_TP_BTF,     /* tp_btf/NAME (falls back to raw_tp) */
	ATTACH_FENTRY,     /* fentry/FUNC */
	ATTACH_FEXIT,      /* fexit/FUNC */
	ATTACH_KPROBE,     /* kprobe/FUNC[+OFF] */
	ATTACH_KRETPROBE,  /* kretprobe/FUNC */
	ATTACH_KSYSCALL,   /* ksyscall/NAME */
	ATTACH_KRETSYSCALL,
	ATTACH_UPROBE,     /* uprobe/PATH:FUNC[+OFF] */
	ATTACH_URETPROBE,
	ATTACH_ITER,       /* iter/NAME */
	ATTACH_USDT,       /* usdt/PATH:PROVIDER:NAME, usdt: loaded as a uprobe program; not attached yet */
};

/* Options that come from the command line / environment. */
struct obj_opts {
	const char *btf_path; /* --btf FILE or $COREBOX_BTF; NULL: /sys/kernel/btf/vmlinux */
	int verbose;          /* print the verifier log even on success, load steps */
	bool keep_going;      /* a program the kernel refuses stays unloaded (prog_load_error
			       * says why) instead of failing the load; all refused: fail */
	uint32_t log_level;   /* > 0: every program is verified with this log level and its
			       * log kept, loaded or not (prog_verifier_log; bpftrace -v) */
};

struct obj *obj_open(const char *name, const void *elf, size_t size);
/* The same for data that may be packed against a preset dictionary (the
 * embedded objects: lib/inflate.h, cbz_unpack; dict: the inflated one).
 * obj_open() takes plain ELF, gzip'd ELF and undictionaried cbz. */
struct obj *obj_open_dict(const char *name, const void *elf, size_t size, const void *dict, size_t dict_len);
int obj_load(struct obj *o, const struct obj_opts *opts);
int obj_attach(struct obj *o);
void obj_close(struct obj *o);

/* Programs: by C function name. */
struct prog *obj_prog(const struct obj *o, const char *name);
struct prog *obj_prog_at(const struct obj *o, size_t i); /* NULL past the end */
void prog_set_autoload(struct prog *p, bool on);
bool prog_autoload(const struct prog *p);
/* Retarget a fentry/fexit/kprobe/kretprobe/tp_btf program to another
 * function or tracepoint name (before load). */
int prog_set_attach_target(struct prog *p, const char *target);
/* A copy of p (the same code, loaded and attached on its own) named name
 * and aimed at target, before load: one fentry program per function
 * traced (its BTF id is fixed at load).  The program table grows, so
 * earlier obj_prog() pointers are stale after it (p too): look programs
 * up again.  NULL with a message after load. */
struct prog *prog_clone(struct prog *p, const char *name, const char *target);
const char *prog_name(const struct prog *p);
const char *prog_section(const struct prog *p);
/* What it attaches to (from the section; after load, tp_btf may have
 * become raw_tp) and the target named there ("" when none). */
enum attach_kind prog_kind(const struct prog *p);
const char *prog_target(const struct prog *p);
int prog_fd(const struct prog *p);
/* Why the program is not loaded (obj_opts.keep_going), or NULL. */
const char *prog_load_error(const struct prog *p);
/* The verifier's log of a program loaded with obj_opts.log_level, or NULL. */
const char *prog_verifier_log(const struct prog *p);
/* After attach: "tp_btf", "raw_tp", "tracepoint", "fentry", "fexit",
 * "kprobe", "kretprobe", "kprobe_legacy", "uprobe", "uretprobe",
 * "perf_event", or "" when not attached. */
const char *prog_mechanism(const struct prog *p);
/* Attach one loaded program by its section name (obj_attach does all;
 * on failure nothing of this program stays attached). */
int prog_attach(struct prog *p);
/* Undo prog_attach (the program stays loaded: test runs still work). */
void prog_detach(struct prog *p);
/* uprobe/uretprobe programs attached by hand to many functions: call
 * prog_set_uprobe_offsets before obj_load (the program is then loaded
 * for uprobe_multi links where the kernel has them, 6.6+), then
 * prog_attach_uprobes once per binary with every file offset: one link
 * for all of them (detached at once, one grace period), else one perf
 * uprobe each.  pid > 0: that process only.  Each call adds to what the
 * program holds; on failure this call's offsets are all undone and the
 * message names the offset refused. */
void prog_set_uprobe_offsets(struct prog *p);
/* One program on n kernel functions, detached at once (one unregister,
 * one grace period, where a kprobe or fentry link each waits for its
 * own, one after the other): a SEC("kprobe.multi") program through a
 * kprobe_multi link (5.18+ with CONFIG_FPROBE), cookies[i] its
 * bpf_get_attach_cookie() at syms[i] (the kernel refuses the link, ESRCH,
 * if one is not in available_filter_functions); a SEC("kprobe") program
 * through one legacy kprobe event with a probe on each function
 * (multi-probe events, 5.7+: Debian's 6.1 has no FPROBE), which
 * bpf_get_func_ip tells apart (functions refused are left out).
 * SEC("kretprobe.multi") / SEC("kretprobe"): on the functions' returns.
 * Returns how many functions are attached, or -errno. */
int prog_attach_kprobes(struct prog *p, const char *const *syms, const uint64_t *cookies, size_t n);
int prog_attach_uprobes(struct prog *p, const char *path, const uint64_t *offsets, size_t n, int pid);
/* Attach by hand (perf_event programs: profile opens per-CPU events). */
int prog_attach_perf_fd(struct prog *p, int perf_fd);

/* Maps: by name (BTF .maps variable name, or ".rodata", ".bss", ".data",
 * ".rodata.NAME" for data sections). */
struct map *obj_map(const struct obj *o, const char *name);
int map_fd(const struct map *m);
int map_set_type(struct map *m, uint32_t type);
int map_set_max_entries(struct map *m, uint32_t n);
int map_set_key_size(struct map *m, uint32_t n);
int map_set_value_size(struct map *m, uint32_t n);
int map_set_flags(struct map *m, uint32_t flags); /* BPF_F_* map_flags */
int map_set_autocreate(struct map *m, bool on);
uint32_t map_type(const struct map *m);
uint32_t map_key_size(const struct map *m);
uint32_t map_value_size(const struct map *m);
uint32_t map_max_entries(const struct map *m);
/* Kernel memory the map would take as now sized, roughly (bytes): lets a
 * tool refuse absurd sizes before BPF_MAP_CREATE spends minutes on them. */
uint64_t map_mem_estimate(const struct map *m);
/* Generic access (corebox run, decoders): maps by index, names, and the
 * object's own BTF with each map's key/value type ids (0 when unknown). */
struct map *obj_map_at(const struct obj *o, size_t i); /* NULL past the end */
const char *map_name(const struct map *m);
bool map_is_global_data(const struct map *m); /* .rodata/.data/.bss/.kconfig */
uint32_t map_btf_key_type(const struct map *m);
uint32_t map_btf_value_type(const struct map *m);
const struct btf *obj_btf(const struct obj *o);
/* Events maps: the BTF types (in obj_btf) of the records the programs
 * send through m, read from the code (see evtype.c): *ids points at n of
 * them, 0 when the code does not say. */
size_t map_record_types(struct map *m, const uint32_t **ids);

/* Pointer to global variable NAME (in .rodata*, .data*, .bss*).  size
 * must equal the variable's BTF size (catches user/kernel side drift).
 * Before obj_load: the initial image (edit .rodata knobs here).  After:
 * still valid; for .bss/.data it is the live mmap of the map when the
 * kernel supports mmapable arrays.  NULL with a message if missing. */
void *obj_global(struct obj *o, const char *name, size_t size);
#define OBJ_SET(o, var, val)                                                    \
	do {                                                                    \
		__typeof__(val) *p_ = obj_global((o), #var, sizeof(*p_));       \
		if (p_)                                                         \
			*p_ = (val);                                            \
	} while (0)

/* Events map: keep the BTF-declared ring buffer when the kernel has one,
 * else turn the map into a PERF_EVENT_ARRAY and set the .rodata knob
 * cb_perfbuf = 1 (see tools/include/corebox.bpf.h).  Call before load. */
int obj_setup_events(struct obj *o, const char *map_name);

/* Consume an events map (ring buffer or perf buffer, whichever it is). */
typedef int (*event_cb)(void *ctx, const void *data, size_t size);
struct events;
struct events *events_open(struct map *m, event_cb cb, void *ctx);
/* Returns number of events handled, 0 on timeout, -EINTR on a signal. */
int events_poll(struct events *ev, int timeout_ms);
uint64_t events_lost(const struct events *ev);
void events_close(struct events *ev);

/* The kernel BTF used for CO-RE (loaded on demand, NULL on error with a
 * message); valid until obj_close(). Tools use it for shape checks. */
const struct btf *obj_kernel_btf(struct obj *o, const struct obj_opts *opts);
/* Can a tp_btf program attach to tracepoint NAME / fentry to FUNC here?
 * (obj_fentry_ok leaves the reason in err_msg() when not.) */
bool obj_tp_btf_ok(struct obj *o, const char *tp);
bool obj_fentry_ok(struct obj *o, const char *func);

/* Generated objects (loader/gen.c): programs built at run time (trace,
 * funccount...) enter the same object model, so load, attach, fallbacks,
 * verifier-log reporting and cleanup are shared.  Build, then obj_load,
 * obj_attach (or prog_attach one by one), obj_close. */
struct obj *obj_new(const char *name);
/* A map; returns its index (the number emit_ldmap takes) or -errno. */
int obj_new_map(struct obj *o, const char *name, uint32_t type, uint32_t key_size, uint32_t value_size,
		uint32_t max_entries, uint32_t flags);
/* A ".bss" global variable (obj_global finds it by name): returns the
 * .bss map's index, *off = the variable's offset (emit_ldmap_value). */
int obj_new_global(struct obj *o, const char *name, uint32_t size, uint32_t *off);
/* A program: sec is a section name as in ELF objects ("tracepoint/C/E",
 * "kprobe/F", "fentry/F", "uprobe/PATH:0xOFF", "perf_event"), refs the
 * emitter's map references; label names the program in error messages
 * (the probe text).  Returns its index (obj_prog_at) or -errno. */
struct emit_mapref;
struct bpf_insn;
int obj_new_prog(struct obj *o, const char *name, const char *sec, const struct bpf_insn *insns, size_t cnt,
		 const struct emit_mapref *refs, size_t nr_refs, const char *label);
/* uprobes: restrict to one process (pid > 0), maintain a USDT semaphore. */
void prog_set_uprobe_pid(struct prog *p, int pid);
void prog_set_ref_ctr(struct prog *p, uint64_t off);

#endif
