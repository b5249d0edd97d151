/* bpftrace's language: the second front end of the tracing compiler.
 *
 *   bt_parse()    program text -> struct bt_prog: probes (attach point
 *                 texts), predicates, statement lists; expressions are the
 *                 shared struct node (expr.h, EXPR_BT mode).
 *   bt_check()    the semantic pass: the type of every map (key tuple,
 *                 aggregation, value), variable and printf argument, the
 *                 async actions (printf, print, clear, zero, exit) as a
 *                 table the user side reads records against.
 *   bt_gen_probe() one location's program (probe.h's struct gen: the same
 *                 prologue, expression compiler, maps and loader path as
 *                 trace and funccount).
 * The applet (tools/bpftrace) resolves the attach points, loads, runs
 * BEGIN/END, reads the records and prints the maps as bpftrace 0.17. */
#ifndef COREBOX_PROBE_BT_H
#define COREBOX_PROBE_BT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe.h"

enum bt_stmt_kind { BS_EXPR, BS_ASSIGN, BS_IF, BS_UNROLL /* body, op times */, BS_WHILE /* lhs: condition */ };

struct bt_stmt {
	enum bt_stmt_kind kind;
	int op;                      /* BS_ASSIGN: OP_ASSIGN, OP_ADD_ASSIGN..., OP_INC, OP_DEC */
	struct node *lhs, *rhs;      /* BS_EXPR: lhs; BS_IF: lhs is the condition */
	struct bt_stmt *body, *els;  /* BS_IF */
	struct bt_stmt *next;
	int pos;
	int op_pos;                  /* BS_ASSIGN: where the operator is */
};

struct bt_attach {
	char *text;                  /* "tracepoint:syscalls:sys_enter_*" */
	int pos, end;
};

struct bt_probe {
	struct bt_attach *ap;
	int nap;
	struct node *pred;
	struct bt_stmt *body;
};

/* What a key, value, variable or argument holds. */
enum bt_vt { VT_NONE, VT_INT, VT_STR, VT_KSTACK, VT_USTACK, VT_KSYM /* an address, printed as its symbol */,
	     VT_INET /* ntop(): {u64 family, 16 address bytes} */, VT_USYM /* usym(): {address, tgid} */,
	     VT_TIME /* strftime(): nanoseconds since boot; depth: its format in tfmts */,
	     VT_AGG /* a tuple, struct or array value: depth is its shape in p->shapes, size its bytes */,
	     VT_BUF /* buf(): {u64 length, size bytes} */, VT_USER /* username: the uid, named from /etc/passwd */,
	     VT_ERRNO /* strerror(): the number, worded on the user side */,
	     VT_MAC /* macaddr(): the 6 bytes in 8 */,
	     VT_CGPATH /* cgroup_path(): the cgroup id, named on the user side; depth: its filter in tfmts */ };
/* The kinds kept as one 64-bit integer (variables and maps read them so). */
static inline bool bt_vt_int(int vt)
{
	return vt == VT_INT || vt == VT_TIME || vt == VT_KSYM || vt == VT_USER || vt == VT_ERRNO || vt == VT_MAC ||
	       vt == VT_CGPATH;
}
struct bt_type {
	uint8_t vt;
	bool sign;
	bool ptr;                    /* a pointer: hex in map keys, as 0.17 prints it */
	uint8_t agg;                 /* a count()... map's value read (enum bt_agg): 0.17 types it so;
	                                (no padding: shapes compare types with memcmp) */
	uint16_t size;               /* bytes in a key, value or record */
	uint16_t depth;              /* stacks: frames printed */
};

/* The layout of a tuple, struct or array value (as bpftrace 0.17 lays
 * them out: C alignment; integers of their own width inside). */
struct bt_field {
	char *name;                  /* struct members; NULL in tuples and arrays */
	uint16_t off;
	struct bt_type t;
};
struct bt_shape {
	char kind;                   /* 't' tuple, 's' struct, 'a' array */
	uint8_t align;
	int n;
	struct bt_field *f;
};

enum bt_agg { AG_VALUE, AG_COUNT, AG_SUM, AG_MIN, AG_MAX, AG_AVG, AG_STATS, AG_HIST, AG_LHIST };

#define BT_MAX_KEYS 8
struct bt_map {
	char *name;                  /* "@", "@x" */
	int nkeys;                   /* -1: not yet known */
	struct bt_type keys[BT_MAX_KEYS];
	int key_size;                /* the tuple's bytes (+ 8 for the hist/lhist slot) */
	enum bt_agg agg;
	struct bt_type val;          /* AG_VALUE */
	int val_size;
	int64_t lmin, lmax, lstep;   /* lhist */
	struct ctype vct;            /* AG_VALUE: a pointer's C type (set by the code generator) */
	int idx;                     /* index in the loader object */
};

/* Async actions: records {u64 action index, arguments} in the ring buffer. */
enum bt_act { BA_PRINTF, BA_SYSTEM /* a printf record, run by sh */, BA_PRINT /* map < 0: a value, args[0] */, BA_CLEAR, BA_ZERO, BA_EXIT, BA_TIME, BA_JOIN, BA_CAT,
	      BA_HELPER /* -k: {id, return code} of a failed helper; fmt: its name, top: its offset */ };
#define BT_JOIN_MAX 16 /* join(): arguments read, as bpftrace */
struct bt_action {
	enum bt_act kind;
	char *fmt;                   /* printf, time: the format; join: the delimiter; cat: the file */
	int map;                     /* print, clear, zero */
	int top, div;                /* print(@m, top, div) */
	int nargs;
	struct bt_type *args;
	int *off;                    /* argument offsets in the record */
	int size;                    /* record bytes */
};

struct bt_var {
	char *name;
	int probe;                   /* scratch variables live in one probe block */
	struct bt_type t;
	struct ctype ct;             /* the C type it was given (a pointer...), when known */
};

struct bt_prog {
	const char *text;            /* the program (not owned) */
	struct bt_probe *p;
	int np;
	/* bt_check */
	struct bt_map *maps;
	int nmaps;
	struct bt_action *acts;
	int nacts;
	struct bt_var *vars;
	int nvars;
	int strlen;                  /* BPFTRACE_STRLEN: string bytes (64) */
	int name_len;                /* the longest probe or func name's bytes, rounded up to 8:
				      * what `probe` and `func` hold (0.17 cuts neither) */
	int max_rec;                 /* largest record */
	char **params;               /* $1.. */
	int nparams;
	int cpid;                    /* -c: the command's pid (builtin cpid) */
	bool unsafe;                 /* --unsafe: system() allowed */
	int helper_check;            /* -k: 1 warns of failed map deletes, -kk: 2 also of lookups that find nothing */
	bool uses_kstack, uses_ustack, uses_ksym;
	char **tfmts;                /* strftime() formats and cgroup_path() filters, one per distinct text */
	int ntfmts;
	struct bt_shape *shapes;     /* VT_AGG layouts, each once */
	int nshapes;
	/* #define NAME VALUE lines of the program (integer values) */
	char **def_names;
	int64_t *def_vals;
	int ndefs;
	/* struct/union declarations: text ranges (start, end) */
	int *decls;
	int ndecls;
	int *cpp;                    /* where its '#' lines before the probes start (#include...) */
	int ncpp;
	char **tnames;               /* their names and BTF ids (bt_declare_types) */
	uint32_t *tids;
	int ntypes;
	/* the first error (errpos -2: printed already, as clang words it) */
	int errpos, errend;
	const char *file;            /* bt_check's warnings name it ("stdin"); NULL: none printed */
};

/* 0, or -EINVAL with err_msg() and errpos/errend set. */
int bt_parse(const char *text, struct bt_prog *p);
void bt_prog_free(struct bt_prog *p);
/* The number of nodes bpftrace 0.17 counts in the parsed program (-v's
 * "INFO: node count: N"), in its tree's shape (bt_count.c). */
int bt_node_count(const struct bt_prog *p);
/* "FILE:LINE:COL-COL: ERROR: MSG", the source line, '~' under the range
 * (bpftrace's error layout) on stderr. */
void bt_report(const char *file, const char *text, int pos, int end, const char *msg);
/* The same on f with another word than ERROR ("WARNING"): 0.17 writes a
 * run-time warning (a helper's error) into the output, between the lines
 * it explains, and one found before the run on stderr. */
void bt_report_kind(FILE *f, const char *file, const char *text, int pos, int end, const char *kind, const char *msg);
/* Where 0.17 starts the range of a token at pos: its lexer moves a range's
 * start only past white space, so "((x" is one range, "(" and all. */
int bt_loc_begin(const char *text, int pos);
/* The columns 0.17 adds before pos on the line starting at ls: its lexer
 * counts the '*' or ')' closing "struct NAME" in a cast twice. */
int bt_col_skew(const char *text, int ls, int pos);

/* The program's struct declarations as BTF over the kernel's (the
 * overlay probe_kernel_btf() gives from now on): 0 or -EINVAL (errpos). */
int bt_declare_types(struct bt_prog *p);

/* Types of maps, variables and actions, checked against loc (a location
 * of each probe, for tracepoint fields): 0 or -EINVAL (errpos). */
int bt_check(struct bt_prog *p, const struct loc *const *locs);
/* 0.17's argument counts of the functions it knows (bt_nargs.c): 0 or -EINVAL (errpos). */
int bt_check_nargs(struct bt_prog *p, int pi);

/* Maps and programs in the loader object: bt_new_maps once (ring buffer
 * "events", a per-CPU record heap, stacks, one hash per @map), then
 * bt_gen_probe per location of probe pi.  probe_name: the attach point
 * as `probe` prints it; func: `func`.  0 or -errno (gen_errpos). */
#define BT_STACK_DEPTHS 8
struct bt_maps {
	int events, heap;
	/* one stack map per depth asked for (kstack(5), ustack): the kernel
	 * keys a stack by its frames up to the map's depth, so stacks that
	 * differ only deeper down count as one, as in bpftrace */
	int stacks[BT_STACK_DEPTHS], depth[BT_STACK_DEPTHS], nstacks;
};
/* "stacks_DEPTH": the name of the stack map of that depth. */
void bt_stack_map_name(int depth, char *buf, int size);
int bt_new_maps(struct bt_prog *p, struct obj *o, struct bt_maps *m, bool ring);
int bt_gen_probe(struct bt_prog *p, int pi, struct gen *g, const struct bt_maps *m, bool ring, const char *probe_name,
		 const char *func);
/* Its body only (after gen_begin(g) = out, before gen_end), for one
 * program on many functions (build_multi_add): names >= 0, an array map
 * of 2 * name_len bytes per function (`probe` then `func`, NUL-padded),
 * read at the u32 index in frame slot idx; -1: probe_name and func. */
int bt_gen_body(struct bt_prog *p, int pi, struct gen *g, const struct bt_maps *m, bool ring, const char *probe_name,
		const char *func, int names, int idx, int out);

/* Tuples, structs, arrays (bt_shape.c): the type of a tuple literal; a
 * member (tuple: "0", "1"...) of a VT_AGG type, NULL when none; into
 * made able to hold from too (-1: they cannot meet). */
struct bt_type bt_tuple_type(struct bt_prog *p, int pi, const struct loc *l, const struct node *n);
const struct bt_field *bt_field(const struct bt_prog *p, const struct bt_type *t, const char *name);
int bt_merge_type(struct bt_prog *p, struct bt_type *into, const struct bt_type *from);
void bt_shapes_free(struct bt_prog *p);
/* The C type of n known before compiling (casts, members, derefs); the
 * value a struct or array of C type ct is (else an int64). */
bool bt_ctype_of(struct bt_prog *p, int pi, const struct node *n, struct ctype *out);
struct bt_type bt_value_type(struct bt_prog *p, const struct ctype *ct);
/* bt_builtin.c: the builtins strncmp, buf, pton, numaid, sargN.
 * bt_buf_type: the type buf(...) gives (its capacity from a literal or
 * positional length, else the string size).  bt_builtin_ident: numaid,
 * sargN; GEN_EXT_PASS for other names.  bt_buf_to: buf(...) into
 * (reg + off) as {length, bytes}, cap bytes.  bt_pton: the literal's
 * address bytes (4 or 16) at out; 0 or -EINVAL. */
struct bt_type bt_buf_type(const struct bt_prog *p, const struct node *n);
int bt_builtin_ident(struct gen *g, struct node *n, struct ctype *t);
int bt_buf_to(struct gen *g, const struct bt_prog *p, struct node *n, int reg, int off, int cap);
int bt_pton(const char *text, uint8_t *out);
/* R1 = R2 bytes at the address in R3, from user memory when user (the
 * probe's or the pointer's), else by the address's half. */
void bt_read_at(struct emit *e, bool user);
/* uaddr("SYMBOL"): the address of the traced binary's data symbol, in the
 * process (uprobe and USDT probes of p's probe pi): 0 or -EINVAL. */
int bt_uaddr(struct gen *g, const struct bt_prog *p, int pi, struct node *n, const char *probe_name, struct ctype *t);
/* A positional parameter's or literal's integer (strncmp's n, buf's
 * length): true when it is one. */
bool bt_const_int(const struct bt_prog *p, const struct node *n, int64_t *v);
/* -k: the action reporting helper NAME's failure at pos..end (one per
 * place in the program). */
int bt_helper_action(struct bt_prog *p, const char *name, int pos, int end);

/* Bytes of a string/stack value by type, for the user side. */
int bt_type_size(const struct bt_type *t);

#endif
