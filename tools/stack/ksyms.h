/* Kernel symbols from /proc/kallsyms, named on demand.
 *
 * The table is never loaded: /proc/kallsyms holds ~120k symbols (10 MB
 * of text, ~5 MB once parsed), a stack report needs a few thousand.  The
 * addresses to name are collected first (ksyms_want), then one streaming
 * pass over the file (ksyms_resolve) finds, for each, the text symbol
 * (types t/T/w/W, which include the JIT'd BPF programs
 * "bpf_prog_<tag>_<name> [bpf]") nearest at or below it, in any file
 * order.  Memory: the answers only (one entry per address asked, one
 * copy of each name found).  ksyms_lookup of an address not asked
 * before runs a pass for it (correct, but ~70 ms: batch with
 * ksyms_want/ksyms_resolve; tools/stack/stacks.c does, for every address
 * in the stack map).  No printing: errors are a negative errno with
 * err_msg() set (lib/err.h). */
#ifndef COREBOX_STACK_KSYMS_H
#define COREBOX_STACK_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* What a lookup returns: pointers stay valid until ksyms_free(). */
struct ksym {
	const char *name;
	const char *module;    /* "bpf", "ext4", ...; NULL for vmlinux */
	uint64_t addr;         /* the symbol's start */
	uint64_t offset;       /* looked-up address - addr */
};

/* Open /proc/kallsyms (reads its first lines only).  -EPERM with "kernel
 * symbol addresses are hidden (kptr_restrict) ..." when the addresses
 * read as zero (not root, or kernel.kptr_restrict=2); -ENOENT when there
 * is no /proc/kallsyms. */
int ksyms_load(struct ksyms **out);
/* Same with another file in kallsyms format ("ADDR TYPE NAME [MOD]"). */
int ksyms_load_file(const char *path, struct ksyms **out);
void ksyms_free(struct ksyms *ks);

/* Text symbols in the file (counted by the last pass; a pass if none ran). */
size_t ksyms_count(const struct ksyms *ks);

/* Note an address for the next ksyms_resolve (nothing if already named). */
void ksyms_want(struct ksyms *ks, uint64_t addr);
/* One pass over the file naming every address noted since the last one:
 * 0, or -errno with a message (the file cannot be read). */
int ksyms_resolve(struct ksyms *ks);
/* Was addr named (or found to be below every symbol) already? */
bool ksyms_known(const struct ksyms *ks, uint64_t addr);

/* Symbol containing addr (the nearest at or below it): 0, or -ENOENT
 * (below the first symbol, or the file became unreadable; no message
 * set, it is the common case). */
int ksyms_lookup(const struct ksyms *ks, uint64_t addr, struct ksym *out);
/* Address of a text symbol by exact name (a pass of its own; for tests
 * and set-up): 0, or -ENOENT (no message). */
int ksyms_addr(const struct ksyms *ks, const char *name, uint64_t *addr);

/* Format one kernel frame into buf: "name", "name+0xoff" (with_offset),
 * or "[unknown]"; with_offset also appends " [mod]" for module symbols.
 * Returns buf.  ks may be NULL (prints "[unknown]"). */
char *ksyms_format(const struct ksyms *ks, uint64_t addr, int with_offset, char *buf, size_t size);

#endif
