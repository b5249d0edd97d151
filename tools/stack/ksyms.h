/* Kernel symbols from /proc/kallsyms.
 *
 * Loaded once, text symbols only (types t/T/w/W, which include the JIT'd
 * BPF programs "bpf_prog_<tag>_<name> [bpf]"), sorted by address; a lookup
 * is a binary search for the last symbol at or below the address.  Memory:
 * one 16-byte entry per symbol plus one string pool holding each name once
 * (module names are interned).  No printing: errors are a negative errno
 * with err_msg() set (lib/err.h). */
#ifndef COREBOX_STACK_KSYMS_H
#define COREBOX_STACK_KSYMS_H

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

/* Load /proc/kallsyms.  -EPERM with "kernel symbol addresses are hidden
 * (kptr_restrict) ..." when every address reads as zero (not root, or
 * kernel.kptr_restrict=2); -ENOENT when there is no /proc/kallsyms. */
int ksyms_load(struct ksyms **out);
/* Same from another file in kallsyms format ("ADDR TYPE NAME [MOD]"). */
int ksyms_load_file(const char *path, struct ksyms **out);
void ksyms_free(struct ksyms *ks);

size_t ksyms_count(const struct ksyms *ks);

/* Symbol containing addr (the nearest at or below it): 0, or -ENOENT
 * (below the first symbol; no message set, it is the common case). */
int ksyms_lookup(const struct ksyms *ks, uint64_t addr, struct ksym *out);
/* Address of a symbol by exact name (linear scan; for tests and set-up):
 * 0, or -ENOENT (no message). */
int ksyms_addr(const struct ksyms *ks, const char *name, uint64_t *addr);

/* Format one kernel frame into buf: "name", "name+0xoff" (with_offset),
 * or "[unknown]"; with_offset also appends " [mod]" for module symbols.
 * Returns buf.  ks may be NULL (prints "[unknown]"). */
char *ksyms_format(const struct ksyms *ks, uint64_t addr, int with_offset, char *buf, size_t size);

#endif
