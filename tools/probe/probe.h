/* The tracing compiler: probe text in, loaded and attached BPF programs
 * out, with no compiler or BPF object file in between.  Used by trace,
 * funccount, stackcount, argdist and funclatency (tools/trace), and meant
 * for any other front end (a bpftrace-like language) that has the same
 * needs: typed expressions over kernel and user memory, maps, records
 * for printf, stacks, histograms.
 *
 * The pipeline, and the call at each step:
 *
 *   1. parse       probe text -> struct spec (spec.h): spec_parse_trace(),
 *                  spec_parse_pattern(), spec_parse_argdist().  A spec
 *                  keeps the probe's parts as text with their offsets, so
 *                  later errors can point into the original text.  Another
 *                  front end fills a struct spec (or just the loc below)
 *                  from its own grammar.
 *   2. resolve     spec -> struct loc[] (this file): probe_resolve() finds
 *                  the attach points (functions, tracepoints, USDT probes)
 *                  and the mechanism this kernel allows for each (enum
 *                  mech), with what typing needs: the tracepoint format,
 *                  the kernel BTF prototype, the USDT operands (arch.h).
 *   3. typed tree  expression text -> struct node (expr.h): expr_parse().
 *                  Types are struct ctype values (integer, pointer depth,
 *                  array, struct from kernel BTF, __user); they are
 *                  resolved while compiling, against the location.
 *   4. build       struct gen per location (this file, codegen.c):
 *                  gen_new(), gen_begin() (context, pid/tid/uid/cpu/cgroup
 *                  filters), then the front end's own program around
 *                  gen_filter() / gen_value() / gen_string() (or the
 *                  *_node forms for a tree it parsed itself), gen_stack()
 *                  for its frame, gen_lookup() / gen_hash_add() /
 *                  gen_log2l() (hist.h) for maps, and gen_end().  Raw
 *                  instructions go through gen_emit() (bpf/insn.h); maps
 *                  are referred to by their index in the loader object.
 *   5. load        build.h: build_add() turns each finished gen into a
 *                  program of a loader object (loader/gen.c: the same
 *                  relocation, load and attach paths as the embedded
 *                  objects); build_finish() loads and attaches them all.
 *
 * Errors: functions return a negative errno with a message (lib/err.h);
 * gen_errpos() and spec errpos give the offset in the probe text, and
 * build_probe_error() prints the message with a caret under it.
 *
 * Memory: a spec owns its strings (spec_free) but not its text; locs own
 * theirs (locs_free); a gen borrows its loc and spec, which must outlive
 * it, copies its cg_opts, and owns its instructions until gen_free
 * (build_add copies them into the object); expression trees are the
 * caller's (expr_free).
 * The kernel BTF is opened once on first use and shared
 * (probe_kernel_btf; released by build_finish).
 *
 * To see what the build step produced: bpf/insn_dump.h prints a program
 * (tests/unit/test_codegen_golden.c compares those with tests/golden/). */
#ifndef COREBOX_PROBE_PROBE_H
#define COREBOX_PROBE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/insn.h"
#include "bpf/tp_format.h"
#include "expr.h"
#include "spec.h"

struct btf;
struct obj;

/* M_TP: a perf tracepoint (the context is the format's record);
 * M_RAW_TP: the same tracepoint as a raw tracepoint (context: TP_PROTO's
 * u64 arguments; no record fields, but its link detaches without the
 * RCU grace period every perf tracepoint costs at close);
 * M_SYSCALL: a syscalls:sys_{enter,exit}_NAME event served by one
 * raw_syscalls program per direction that tail-calls the probe's program
 * by syscall number (build.c); arguments come from the pt_regs. */
/* M_PERF: a perf_event program (profile, interval and software events,
 * attached by the front end to the perf events it opens);
 * M_RUN: a program run by hand with BPF_PROG_TEST_RUN (bpftrace's BEGIN
 * and END; loaded as a raw tracepoint program, attached nowhere). */
enum mech { M_TP, M_RAW_TP, M_SYSCALL, M_FENTRY, M_FEXIT, M_KPROBE, M_KRETPROBE, M_UPROBE, M_URETPROBE, M_PERF, M_RUN };

/* A USDT argument: [-]SIZE@OPERAND decoded. */
struct usdt_arg {
	uint8_t size;
	bool sign;
	enum { UA_CONST, UA_REG, UA_MEM } kind;
	int16_t reg;         /* pt_regs byte offset of the base register (-1 none) */
	int16_t idx;         /* pt_regs offset of the index register (-1 none) */
	uint8_t scale;
	int64_t val;         /* constant, or displacement */
};
/* One argument string ("-4@-12(%rbp)", "8@%rax", "4@$5", "8@[x1, 8]"). */
int usdt_arg_parse(const char *s, struct usdt_arg *a);

struct loc {
	enum mech mech;
	char *name;          /* shown: function, "cat:event" (funccount), event, USDT probe */
	char *target;        /* kernel function, "CAT/EVENT", or the binary's path */
	uint64_t off;        /* kprobe offset; uprobe/USDT file offset */
	uint64_t ref_ctr;    /* USDT semaphore file offset */
	bool user;           /* user-space probe (uprobe, USDT) */
	bool usdt;           /* argN are the USDT probe's arguments */
	bool syscall_tp;     /* sys_NAME on syscalls:sys_{enter,exit}_NAME */
	bool is_return;            /* also: M_SYSCALL on sys_exit */
	int sc_nr;                 /* M_SYSCALL: the syscall number */
	struct tp_format fmt;      /* M_TP, M_RAW_TP, M_SYSCALL */
	uint32_t proto;            /* kernel BTF FUNC_PROTO of the function (fentry/kprobe typing), 0 */
	int nparams;               /* its parameter count */
	struct usdt_arg *uargs;    /* USDT */
	char *provider;            /* USDT: the probe's provider */
	int nuargs;
};

struct resolve_opts {
	const char *tool;
	int pid;             /* -p: library lookup in /proc/PID/maps, exe of :FUNC */
	bool regex;          /* -r: POSIX extended regex instead of globs */
	bool want_return;    /* also return probes (r: in trace; funclatency) */
	bool pattern;        /* funccount style: patterns allowed, tracepoint names "cat:event" */
	bool fields;         /* the probe reads tracepoint fields (args->...): no raw tracepoints */
	bool no_format;      /* nor argN/retval of a syscall: the format files are not read */
	int verbose;
	int limit;           /* max locations (bcc: 1000) */
	bool every_name;     /* bpftrace: user functions by name (aliases of one address each one location,
			      * the separate debug file's symbols too), sorted by name */
};

/* The kernel's BTF, opened once on first use (NULL when it has none). */
const struct btf *probe_kernel_btf(void);
void probe_kernel_btf_release(void);
/* From now on probe_kernel_btf() gives btf (owned; a split BTF over the
 * kernel's with a program's own types) until released or replaced. */
void probe_set_btf_overlay(struct btf *btf);

/* Locations for one probe (is_return: r probes).  0, or -errno with a
 * one-line message naming the probe and the reason. */
int probe_resolve(const struct spec *s, const struct resolve_opts *o, bool is_return, struct loc **locs, int *n);
/* The syscall number of a syscalls event name ("sys_enter_newfstat" ->
 * fstat's), -1 when unknown; *exit: a sys_exit_ event. */
int syscall_event_nr(const char *ev, bool *exit);
void locs_free(struct loc *l, int n);
/* bcc's library lookup: path, ld.so.cache "lib<NAME>.so", /proc/PID/maps,
 * PATH.  Malloc'd path or NULL with a message. */
char *probe_find_library(const char *lib, int pid);
/* The function of binary lib named name, or (name NULL) the one holding
 * virtual address addr: its name, address and size.  0 or -ENOENT. */
int probe_ufunc_find(const char *lib, int pid, const char *name, uint64_t addr, char *out, size_t size,
		     uint64_t *start, uint64_t *len);

/* ---- code generation (codegen.c) ---- */

enum { EV_HDR = 56 }; /* trace record header, see codegen.c */

struct cg_opts {
	int pid, tid;         /* -p (tgid), -L/-t (tid); 0: none */
	int self;             /* drop events of this tgid (trace without -S) */
	long long uid;        /* -1: none (long long: uids up to 2^32-2 on 32-bit hosts) */
	int cpu;              /* -c: -1 none */
	int strsize;          /* string capture size */
	bool cgroup;          /* -c: only tasks under the cgroup in slot 0 of map cgroup_map */
	int cgroup_map;       /* (a BPF_MAP_TYPE_CGROUP_ARRAY) */
	bool bin_cmp;         /* trace -B: STRCMP's literal is a C byte list "{0x41,66,0}" */
};

struct gen;
/* Generators for one location: expressions are compiled against it. */
struct gen *gen_new(const struct loc *loc, const struct spec *s, const struct cg_opts *o);
void gen_free(struct gen *g);
struct emit *gen_emit(struct gen *g);
/* Where compilation failed in the probe text (-1 unknown). */
int gen_errpos(const struct gen *g);
/* Just past the node the error is about (0: not known). */
int gen_errend(const struct gen *g);

/* Prologue: ctx in R6, pid_tgid in R8, the filters of cg_opts (jump to
 * out on mismatch).  Returns the "out" label (r0 = 0; exit by gen_end). */
int gen_begin(struct gen *g);
void gen_end(struct gen *g, int out);
/* Compile expression text (at pos in the probe text) as a condition:
 * jump to label when it is false. */
int gen_filter(struct gen *g, const char *text, int pos, int label);
/* Compile an expression; the value (integer or pointer) in R0, its type
 * in *t.  Strings: see gen_string. */
int gen_value(struct gen *g, const char *text, int pos, struct ctype *t);
/* Compile a string expression into memory at (reg + off), size bytes,
 * NUL-terminated (empty when the pointer is NULL). */
int gen_string(struct gen *g, const char *text, int pos, int reg, int16_t off, int size);
/* An already parsed tree. */
int gen_value_node(struct gen *g, struct node *n, struct ctype *t);
int gen_string_node(struct gen *g, struct node *n, int reg, int16_t off, int size);
/* Stack space (8-aligned, below what the generator uses): returns the
 * frame offset (negative). */
int gen_stack(struct gen *g, int size);
/* Declare values of an entry probe (argdist $entry(x), $latency): map
 * holding them by tid, and what each slot is. */
void gen_set_entry(struct gen *g, int map, char **names, int n);
/* A front end's own vocabulary (bpftrace's maps, variables, builtins):
 * called first for every node compiled as a value; returns GEN_EXT_PASS
 * to let the shared generator compile it, else 0 (value in R0, type in
 * *t) or -errno.  It may compile sub-trees with gen_value_node. */
#define GEN_EXT_PASS 1
typedef int (*gen_ext_fn)(struct gen *g, struct node *n, struct ctype *t, void *ctx);
/* (With one set, / % and >> are unsigned whatever the signs, as bpftrace 0.17.) */
void gen_set_ext(struct gen *g, gen_ext_fn fn, void *ctx);
/* bpftrace -kk: fn is called after each read of memory (R0: the helper's
 * return) with the node being read (gen_read_at sets it; a read with
 * none is not checked), the helper 0.17 names there and the ext ctx. */
typedef void (*gen_read_fn)(struct gen *g, const struct node *at, const char *helper, void *ctx);
void gen_set_read_check(struct gen *g, gen_read_fn fn);
void gen_read_at(struct gen *g, const struct node *n);
/* A compile error at node n (position for the caret); returns -EINVAL. */
int gen_fail(struct gen *g, const struct node *n, const char *msg);
/* The location being compiled. */
const struct loc *gen_loc(const struct gen *g);
/* Release the last gen_stack(size) (allocations are last in, first out). */
void gen_unstack(struct gen *g, int size);
/* The current task's cgroup v2 id (bpf_get_current_cgroup_id) stored at
 * (reg + off), 8 bytes (reg: R6-R10, kept across the call): for a record whose event says which container it
 * came from (trace, funcslower, javagc under -j or --show-cgroup).  Only
 * the tools that ask emit it: their default programs stay as they were. */
void gen_cgroup_id(struct gen *g, int reg, int16_t off);
/* R0 = log2 slot of R1 as bcc's bpf_log2l (0 for 0, floor(log2)+1). */
void gen_log2l(struct gen *g);
/* R0 = map value pointer of key at fp+keyoff; jump to out when missing. */
void gen_lookup(struct gen *g, int map, int keyoff, int out);
/* map[key at fp+keyoff] += the nwords u64 at fp+valoff, each added
 * atomically, in a hash map (the values inserted when the key is absent).
 * nwords 0: one u64 += 1, written to fp+valoff only for the insert. */
void gen_hash_add(struct gen *g, int map, int keyoff, int valoff, int nwords);
/* counts[key at fp+keyoff] += 1: gen_hash_add(g, map, keyoff, valoff, 0). */
void gen_hash_inc(struct gen *g, int map, int keyoff, int valoff);
/* counts[idx] += 1 in an array map (key idx at fp+keyoff); jumps to out
 * when the lookup fails. */
void gen_array_inc(struct gen *g, int map, uint32_t idx, int keyoff, int out);
/* bpf_ringbuf_output (ring) or bpf_perf_event_output (context in R6,
 * this CPU) of size bytes of the record at register ptr, or with ptr
 * R10 at fp+rec; R0 = the helper's result. */
void gen_output(struct gen *g, int events, int ptr, int rec, int size, bool ring);

#endif
