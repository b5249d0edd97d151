/* /proc/kallsyms, streamed: the one reader of the kernel's symbol table.
 *
 * The file is ~120k lines (10 MB of text) and no caller needs all of it:
 * each wants a few addresses or names, so it is read in 16 KiB pieces and
 * every line is handed to a callback, never stored.  Names lose the
 * ".llvm.<hash>" suffix clang's LTO gives promoted static functions, so
 * every caller sees the name the source (and BTF) has. */
#ifndef COREBOX_BPF_KALLSYMS_H
#define COREBOX_BPF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line, "ADDR TYPE NAME [MODULE]".  The strings point into the read
 * buffer: valid during the callback only. */
struct kallsym {
	uint64_t addr;    /* 0 for every symbol when kptr_restrict hides them */
	char type;        /* 't', 'T', 'd', 'b', ... as nm prints */
	const char *name; /* NUL-terminated, without a ".llvm.<hash>" suffix */
	size_t nlen;
	const char *mod;  /* "ext4", "bpf", ...: NUL-terminated; NULL for vmlinux */
	size_t mlen;
};

/* Called for each line; non-zero stops the pass. */
typedef int (*kallsym_fn)(void *ctx, const struct kallsym *s);

/* One pass over path (NULL: /proc/kallsyms): fn for each well-formed
 * line, in file order, until it returns non-zero.  0, or -errno with a
 * message when the file cannot be opened or read. */
int kallsyms_each(const char *path, kallsym_fn fn, void *ctx);

/* Text symbols (t/T, weak w/W): what kprobes and stack frames name. */
static inline bool kallsym_is_text(const struct kallsym *s)
{
	return s->type == 't' || s->type == 'T' || s->type == 'w' || s->type == 'W';
}

#endif
