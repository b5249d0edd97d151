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
};

/* A piece of a program's final instruction array that came from a
 * section: final[start .. start+len) = section[sec_start .. +len). */
struct seg {
	size_t start;
	size_t sec;       /* ELF section index */
	size_t sec_start; /* instruction index within the section */
	size_t len;
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
	bool sleepable;
	/* built at load time */
	struct bpf_insn *insns;
	size_t cnt, cap;
	struct seg *segs;
	size_t nr_segs;
	void *func_info, *line_info;
	uint32_t nr_func_info, nr_line_info;
	int fd;
	/* attach state */
	int link_fd, perf_fd;
	char legacy_event[64];
	bool legacy_retprobe;
	const char *mech;
	int *extra_fds;          /* perf fds attached by hand */
	size_t nr_extra;
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

	struct kbtf kbtf;
	bool kbtf_loaded;
	int btf_fd;
	bool loaded;
	int verbose;
};

/* obj_open.c */
struct code_sec *obj_code_sec(struct obj *o, size_t sec);
/* maps.c */
int maps_collect(struct obj *o);
int maps_create(struct obj *o);
void maps_destroy(struct obj *o);
struct map *map_by_sec(struct obj *o, size_t sec, uint64_t off);
/* externs.c */
int externs_collect(struct obj *o);
int externs_resolve(struct obj *o);
/* relocate.c */
int relocate_core(struct obj *o);
int relocate_prog(struct obj *o, struct prog *p);
/* attach.c */
int prog_setup_type(struct prog *p);
int prog_resolve_btf_target(struct obj *o, struct prog *p);
void prog_detach(struct prog *p);
bool prog_needs_kernel_btf(const struct prog *p);
int kernel_btf_ensure(struct obj *o, const struct obj_opts *opts);

#endif
