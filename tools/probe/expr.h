/* The C-expression subset of bcc's probe languages (trace predicates and
 * arguments, argdist expressions and filters), and the C types they use.
 *
 * expr_parse() turns text into a tree; nothing here knows BPF.  Types are
 * small values: a base (integer, struct from kernel BTF, void) with a
 * pointer depth and an optional array length; struct members come from
 * kernel BTF (ctype_member), everything else is built in. */
#ifndef COREBOX_PROBE_EXPR_H
#define COREBOX_PROBE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

enum ct_base { CT_VOID, CT_INT, CT_REC /* struct/union in kernel BTF */ };

struct ctype {
	uint8_t base;      /* enum ct_base */
	uint8_t size;      /* CT_INT: 1, 2, 4, 8 */
	uint8_t sign;      /* CT_INT: signed */
	uint8_t ptr;       /* pointer levels on top of the base */
	uint32_t arr;      /* > 0: an array of arr elements of (base, ptr) */
	uint32_t arr2;     /* > 0: arr arrays of arr2 elements each (int y[2][3]) */
	uint32_t btf_id;   /* CT_REC: resolved struct/union id */
	uint32_t rec_size; /* CT_REC: byte size */
	bool chr;          /* CT_INT: C's char (arrays of it are strings, not byte lists) */
	bool user;         /* user memory: declared __user, a system call's argument, or an offset from one */
};

static inline struct ctype ct_int(int size, bool sign)
{
	struct ctype t = { .base = CT_INT, .size = (uint8_t)size, .sign = sign };

	return t;
}
bool ct_is_ptr(const struct ctype *t);      /* pointer (arrays excluded) */
bool ct_is_scalar(const struct ctype *t);   /* integer or pointer, not array/struct */
bool ct_is_string(const struct ctype *t);   /* char * or char[N] */
/* Size of one object of this type (arrays: whole array). */
uint32_t ct_size(const struct ctype *t);
/* The element/pointee of a pointer or array. */
struct ctype ct_deref(const struct ctype *t);
void ct_name(const struct ctype *t, const struct btf *btf, char *buf, size_t size);

/* Parse a C type name ("unsigned long", "const char *", "struct sock *",
 * "size_t", "u32"...).  Built-in names need no BTF; struct names and
 * other typedefs are looked up in btf (may be NULL: then they fail).
 * *end (if given) gets the end of the type in text.  0 or -errno with a
 * message. */
int ctype_parse(const char *text, const struct btf *btf, struct ctype *out, const char **end);
/* Struct/union names a program declares (bpftrace's `struct Foo {...}`),
 * looked up before the kernel's own: ids in the BTF given to ctype_parse
 * (a split BTF over the kernel's).  Borrowed until replaced. */
void ctype_set_local(char *const *names, const uint32_t *ids, int n);
/* struct (or union) NAME: a program's own first, then btf's; id or -ENOENT. */
int32_t ctype_find_rec(const struct btf *btf, const char *name, bool is_union);
/* A kernel BTF type as a ctype. */
int ctype_from_btf(const struct btf *btf, uint32_t id, struct ctype *out);
/* Member name of struct t: its type, byte offset and bitfield (bit offset
 * within *off's byte, width; 0 width = not a bitfield). */
int ctype_member(const struct btf *btf, const struct ctype *t, const char *name, struct ctype *mt, uint32_t *off,
		 uint32_t *bitoff, uint32_t *bits);

/* ---- expressions ---- */

enum node_kind {
	N_NUM, N_STR, N_IDENT, N_MEMBER /* a->b or a.b */, N_INDEX, N_UNARY, N_BINARY, N_COND, N_CAST,
	N_CALL /* STRCMP("lit", e), $entry(x) */,
	N_TUPLE /* bpftrace's (a, b, ...): the elements chained from a by next */,
};

/* Binary operators: the characters for one-char ones, these for two. */
enum {
	OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_AND, OP_OR, OP_SHL, OP_SHR,
};

struct node {
	enum node_kind kind;
	int op;              /* N_UNARY: '-', '!', '~', '*', '&'; N_BINARY: char or OP_*; N_MEMBER: '.' or '>' */
	int pos;             /* offset in the text, for error carets */
	int end;             /* offset just past the node's text */
	uint64_t num;
	char *str;           /* N_IDENT name, N_STR bytes, N_MEMBER member, N_CALL function */
	size_t len;          /* N_STR length */
	struct ctype cast;   /* N_CAST */
	char *cast_text;     /* N_CAST: the type as written (resolved later with BTF) */
	struct node *a, *b, *c;
	struct node *next;    /* N_CALL: the next argument of a's list */
};

/* Parse text as one expression (all of it).  NULL on error with a
 * message and *errpos = the offending offset. */
struct node *expr_parse(const char *text, int *errpos);
void expr_free(struct node *n);
/* bpftrace's expressions (tools/probe/bt_parse.c): one expression of a
 * larger program text starting at offset start; *end gets the offset of
 * the token after it (the statement parser goes on from there).  In this
 * mode the lexer also knows '@map' names, '$1' / '$var', comments, and
 * stops at the statement tokens ('=' '+=' '++' ';' '{' '}'); a map's
 * index may be a tuple (N_INDEX, b chained by next).  EXPR_PRED: a '/'
 * outside parentheses ends the expression (a predicate /.../).
 * Node positions are offsets into text.  NULL on error (*errpos). */
enum { EXPR_BT = 1, EXPR_PRED = 2 };
struct node *expr_parse_at(const char *text, int start, unsigned flags, int *end, int *errpos);
/* Statement tokens in EXPR_BT mode, for the program parser. */
enum {
	OP_INC = 300, OP_DEC, OP_ASSIGN, OP_ADD_ASSIGN, OP_SUB_ASSIGN, OP_MUL_ASSIGN, OP_DIV_ASSIGN, OP_MOD_ASSIGN,
	OP_AND_ASSIGN, OP_OR_ASSIGN, OP_XOR_ASSIGN, OP_SHL_ASSIGN, OP_SHR_ASSIGN,
};
/* Does the tree mention identifier name (e.g. "$latency", "retval")? */
bool expr_uses(const struct node *n, const char *name);

#endif
