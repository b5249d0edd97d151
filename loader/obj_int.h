/* Loader internals shared by the loader sources (not for tools). */
#ifndef COREBOX_OBJ_INT_H
#define COREBOX_OBJ_INT_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf/btf.h"
#include "elf/elf.h"
#include "kbtf.h"
#include "obj.h"

/* A piece of a program's final instruction array that came from a
 * section: final[start .. start+len) = section[sec_start .. +len). */
struct seg {
	size_t start;
	size_t sec;       /* ELF section index */
	size_t sec_start; /* instruction index within the section */
	size_t len;
};

/* A CO-RE relocation that poisoned an instruction of a section (kept
 * during obj_load to name it if the verifier finds the code reachable). */
struct core_poison {
	size_t insn;      /* instruction index in the section */
	size_t n;         /* instructions poisoned: 1, or 2 for an ld_imm64 */
	char *desc;       /* "struct task_struct::__state (0:1) not found in kernel BTF" */
};

/* Per executable section: a patched (CO-RE) copy of its instructions and
 * its relocations sorted by instruction index. */
struct code_sec {
	size_t sec;            /* ELF section index */
	const char *name;
	struct bpf_insn *insns;
	size_t cnt;
	struct sec_reloc *relocs;
	size_t nr_relocs;
	struct core_poison *poisons; /* during obj_load only */
	size_t nr_poisons;
};
struct sec_reloc {
	size_t insn;      /* instruction index in the section */
	size_t sym;       /* symbol table index */
};

struct prog {
	struct obj *obj;
	char *name;
	char *sec_name;
	struct code_sec *code;   /* section holding the entry function */
	size_t start, len;       /* entry function, in instructions */
	bool autoload;
	enum attach_kind kind;
	char *target;            /* attach target from the section or set by the tool */
	uint32_t type, expected_attach_type;
	uint32_t attach_btf_id;
	int attach_btf_obj_fd;   /* target in a module: its BTF object (owned by obj->mods) */
	bool sleepable;
	bool uprobe_multi;       /* uprobe/uretprobe with a target: loaded for an uprobe_multi link */
	bool grouped;            /* attached through another program's uprobe_multi link (same code) */
	bool by_offsets;         /* attached by hand with prog_attach_uprobes (load it as uprobe_multi) */
	/* built at load time */
	struct bpf_insn *insns;
	size_t cnt, cap;
	struct seg *segs;
	size_t nr_segs;
	void *func_info, *line_info;
	uint32_t nr_func_info, nr_line_info;
	void *core_relos;        /* its CO-RE records, for the kernel to apply (obj.kernel_core) */
	uint32_t nr_core_relos;
	int fd;
	/* attach state */
	int link_fd, perf_fd;
	char legacy_event[64];
	bool legacy_retprobe;
	const char *mech;
	int *extra_fds;          /* perf fds attached by hand */
	size_t nr_extra;
	/* generated programs (gen.c) */
	char *label;             /* what to name in errors (the probe text), or NULL */
	char *load_err;          /* obj_opts.keep_going: why it was not loaded */
	char *vlog;              /* obj_opts.log_level: the verifier's log */
	int upid;                /* uprobe: only this process (0: all) */
	uint64_t ref_ctr_off;    /* uprobe: USDT semaphore file offset, or 0 */
};

enum map_kind { MAP_USER, MAP_DATA, MAP_KCONFIG };

struct map {
	struct obj *obj;
	char *name;
	enum map_kind kind;
	uint32_t type, key_size, value_size, max_entries, flags;
	uint64_t map_extra;
	uint32_t btf_key_id, btf_value_id;
	size_t sec;          /* ELF section (.maps or the data section) */
	uint64_t sec_off;    /* .maps: offset of the map variable */
	bool autocreate;
	bool readonly;       /* .rodata*, .kconfig: frozen after fill */
	void *image;         /* data maps: initial/live contents (page-aligned mmap) */
	size_t image_size;   /* rounded to pages */
	bool live_mmap;      /* image now maps the kernel map */
	int fd;
	uint32_t *rec_types; /* events maps: record types found in the code (evtype.c) */
	size_t nr_rec_types;
};

struct ext_var {
	char *name;
	size_t sym;
	bool is_kconfig;     /* else __ksym */
	bool weak;
	uint32_t btf_id;     /* VAR or FUNC in program BTF */
	uint32_t size;
	uint32_t kconfig_off;
	/* ksym resolution */
	uint64_t addr;
	int32_t kbtf_id;
	bool resolved;
};

struct obj {
	char *name;
	const uint8_t *data;
	size_t size;
	uint8_t *owned;           /* inflated copy of a gzip'd object, or NULL */
	struct elf_view ev;
	struct elf_symtab symtab;
	struct btf *btf;          /* program BTF (private copy), NULL if none */
	struct btf_ext ext;
	bool has_ext;
	char license[128];
	uint32_t kern_version;

	struct code_sec *code;
	size_t nr_code;
	struct prog *progs;
	size_t nr_progs;
	struct map *maps;
	size_t nr_maps;
	struct ext_var *exts;
	size_t nr_exts;
	size_t maps_sec;          /* .maps section index, 0 if none */

	struct kbtf kbtf;         /* CO-RE target: --btf FILE or the kernel's */
	bool kbtf_loaded;
	bool kbtf_tracefs;        /* kbtf is kbtf_from_tracefs's: the kernel has no BTF */
	struct kbtf sys;          /* the running kernel's BTF when kbtf is another file */
	bool sys_loaded, sys_failed;
	struct kmod_btf *mods;    /* kernel modules' BTF (split on the kernel's), lazily */
	size_t nr_mods;
	bool mods_loaded;
	int btf_fd;
	bool btf_no_func_info;    /* BTF loaded, but the kernel knows no FUNC kinds */
	char btf_note[160];       /* why programs load without BTF func_info, if they do */
	bool kernel_core;         /* the kernel applies the CO-RE records (load.c) */
	bool loaded;
	int verbose;
	uint32_t log_level;       /* obj_opts.log_level */
	void *gen;                /* generated object (gen.c): its symbol table */
	bool rec_types_done;      /* evtype.c ran */
};

struct kmod_btf {
	char *name;
	struct kbtf k;
	int fd;                   /* kernel BTF object (attach_btf_obj_fd), 0 until needed */
};

/* gen.c */
void obj_gen_free(struct obj *o);
/* obj_open.c */
struct code_sec *obj_code_sec(struct obj *o, size_t sec);
/* maps.c */
int maps_collect(struct obj *o);
int maps_create(struct obj *o);
void maps_destroy(struct obj *o);
struct map *map_by_sec(struct obj *o, size_t sec, uint64_t off);
/* Does the kernel take object names (4.15+)?  Without them sys.c must
 * get NULL names. */
bool kernel_takes_names(const struct obj *o);
/* externs.c */
int externs_collect(struct obj *o);
int externs_resolve(struct obj *o);
/* relocate.c */
int relocate_core(struct obj *o);
/* Has a program that will load (or a subprogram) a CO-RE record? */
bool core_needed(const struct obj *o);
int relocate_prog(struct obj *o, struct prog *p);
/* The relocation of instruction idx of section c, or NULL. */
const struct sec_reloc *code_reloc_at(const struct code_sec *c, size_t idx);
/* The poisoning CO-RE relocation behind instruction idx of p's final
 * code, or NULL; freed by core_poisons_free (end of obj_load). */
const char *prog_poison_desc(const struct obj *o, const struct prog *p, size_t idx);
void core_poisons_free(struct obj *o);
/* obj_kbtf.c */
/* The CO-RE target BTF (--btf FILE or the kernel's), opened once. */
int kernel_btf_ensure(struct obj *o, const struct obj_opts *opts);
/* The same, finding the wanted names (btf_find_prepare_wanted) as the
 * file is parsed, or in a pass of their own when it is open already. */
int kernel_btf_ensure_wanted(struct obj *o, const struct obj_opts *opts, const struct btf_wanted *want);
/* The running kernel's BTF (ids for tp_btf/fentry/iter targets and typed
 * ksyms): the CO-RE BTF when it is that one, else /sys/kernel/btf/vmlinux
 * on its own; NULL (message set) when the kernel has no BTF. */
const struct btf *obj_sys_btf(struct obj *o);
/* i-th kernel module BTF (loaded on first use), NULL past the end. */
struct kmod_btf *obj_kmod(struct obj *o, size_t i);
/* Find a type in the modules: its id and module, or -ENOENT. */
int32_t obj_kmod_find(struct obj *o, const char *name, int kind, struct kmod_btf **mod);
/* Unmap every kernel BTF (CO-RE, running kernel, modules); obj_close. */
void obj_kernel_btf_release(struct obj *o);
/* kbtf_tracefs.c */
/* Without kernel BTF: a CO-RE target holding the trace_event_raw_* types
 * the object's CO-RE records name, made from tracepoint format files;
 * -ENOENT when no format describes any of them. */
int kbtf_from_tracefs(struct obj *o, struct kbtf *k);
/* load.c */
/* Program BTF rewritten for a kernel that lacks the kinds in `missing`
 * (BTF_MISSING_* bits), as libbpf does: a malloc'd blob. */
enum {
	BTF_MISSING_FUNC = 1, BTF_MISSING_GLOBAL_FUNC = 2, BTF_MISSING_DATASEC = 4, BTF_MISSING_FLOAT = 8,
	BTF_MISSING_DECL_TAG = 16, BTF_MISSING_TYPE_TAG = 32, BTF_MISSING_ENUM64 = 64,
};
void *btf_sanitized(const struct btf *btf, unsigned missing, size_t *size);
/* sec.c: kind, program type and target from the section name. */
int prog_setup_type(struct prog *p);
/* target.c */
int prog_resolve_btf_target(struct obj *o, struct prog *p);
bool prog_needs_kernel_btf(const struct prog *p);
/* attach.c */
/* Close every program's links and perf events at once (obj_close). */
void obj_detach_parallel(struct obj *o);

#endif
