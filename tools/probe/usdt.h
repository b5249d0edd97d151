/* The USDT probes of an ELF file: the .note.stapsdt notes SystemTap's
 * sdt.h leaves, one per probe site, walked in file order.  The tracing
 * compiler resolves probes from them (resolve.c), tplist lists them. */
#ifndef COREBOX_PROBE_USDT_H
#define COREBOX_PROBE_USDT_H

#include <stdint.h>

struct elf_view;

/* One probe site; the strings point into the file's mapping. */
struct usdt_note {
	const char *provider, *name;
	const char *args; /* "-4@%edi 8@%rsi", "" when it has none */
	uint64_t pc;      /* link-time address, moved by .stapsdt.base as prelink would */
	uint64_t sema;    /* the semaphore's link-time address, 0 for none */
};

/* Non-zero stops the walk (and is returned). */
typedef int (*usdt_note_fn)(void *ctx, const struct usdt_note *n);

/* fn for each well-formed note of ev: 0, fn's non-zero, or -ENOENT with
 * a message naming path when the file has no .note.stapsdt. */
int usdt_notes(const struct elf_view *ev, const char *path, usdt_note_fn fn, void *ctx);

/* 32-bit ARM: 0, or -ENOTSUP with a message naming the probe and path
 * when the site n (at file offset off) is Thumb code, which the arm
 * kernel's uprobes cannot probe: it decodes and writes ARM instructions
 * only (refuses an address that is not 4-aligned, and at a 4-aligned
 * one the Thumb CPU would run its ARM breakpoint as two other
 * instructions).  Told by the function symbol holding the site (its
 * Thumb bit, elf_uprobe_sym_ok), else (stripped) by the site itself: sdt.h
 * puts a nop there, Thumb's is 0xbf00 (0x46c0 before Thumb-2). */
int usdt_uprobe_ok(const struct elf_view *ev, const char *path, const struct usdt_note *n, uint64_t off);

#endif
