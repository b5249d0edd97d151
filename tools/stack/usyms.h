/* User-space symbols of live processes, read with corebox's ELF reader.
 *
 * One `struct usyms` serves every process a tool sees:
 *  - per pid: the executable mappings of /proc/PID/maps (read once, on the
 *    first lookup for that pid) and, lazily, its JIT map /tmp/perf-PID.map
 *    (perf-map-agent, node --perf-basic-prof; also looked for under
 *    /proc/PID/root/tmp/perf-NSPID.map for processes in a pid namespace);
 *  - per ELF file, keyed by (device, inode): the names found so far for
 *    addresses in it, from FUNC symbols of .symtab; else of the .symtab
 *    of a separate debug file (build-id, .gnu_debuglink) or of the
 *    MiniDebugInfo image (.gnu_debugdata, xz), and .dynsym, looked for
 *    only when .dynsym leaves an address asked unnamed; with no
 *    .symtab functions, Go's .gopclntab too (for Go code; found in a
 *    PIE, and in .data.rel.ro where a system linker merged it).  The
 *    table is never loaded: addresses are collected (usyms_want) and one
 *    pass over the symbols names them all (usyms_resolve), giving the
 *    table's pages back as it goes, so memory stays small however big
 *    the binaries (a lookup of an address not asked runs a pass for it:
 *    batch).  A binary or library shared by many processes is opened
 *    once.  Files are opened through
 *    /proc/PID/map_files/START-END (works for deleted or replaced files),
 *    else /proc/PID/root/PATH, else PATH; the inode is checked.
 *  - [vdso]: read from /proc/PID/mem (same kernel: one image, cached once),
 *    else taken from corebox's own vdso.
 * Address rule (PIE, non-PIE and shared libraries alike):
 *   file offset = addr - map_start + map_pgoff, then through the PT_LOAD
 *   segment holding that offset to a virtual address:
 *   vaddr = off - p_offset + p_vaddr; then the symbol at or below vaddr
 *   (within its st_size when that is non-zero).
 * No printing; lookups never fail loudly (an unreadable process or file
 * just gives unknown frames). */
#ifndef COREBOX_STACK_USYMS_H
#define COREBOX_STACK_USYMS_H

#include <stddef.h>
#include <stdint.h>

struct usyms;

enum {
	USYMS_RAW_NAMES = 1u << 0,  /* keep mangled C++/Rust names as they are */
	USYMS_NO_PERFMAP = 1u << 1, /* do not read /tmp/perf-PID.map */
};

struct usym {
	const char *name;      /* NULL when unknown */
	const char *module;    /* mapping's path ("/usr/lib/.../libc.so.6",
				* "[vdso]", "perf-123.map"); NULL if unmapped */
	uint64_t offset;       /* addr - symbol start (0 when name is NULL) */
	uint64_t file_off;     /* offset in the module's file (0 if none) */
};

/* For the tools' usyms_new() calls: the names the user asked for
 * (--no-demangle, tools/common/opt.h), expanded where the tool links the
 * option parser. */
#define USYMS_NAMES (tool_common.no_demangle ? USYMS_RAW_NAMES : 0u)

/* flags: USYMS_*.  Never fails (allocation failure exits, lib/util.h). */
struct usyms *usyms_new(unsigned flags);
void usyms_free(struct usyms *us);

/* Symbolize addr in process pid.  Returns 0 when a symbol was found,
 * -ENOENT when not (out->name NULL; out->module set when the address lies
 * in a known mapping), -ESRCH when the process is gone/unreadable (its
 * mappings could not be read; remembered, so asked once).  Pointers stay
 * valid until usyms_forget(pid) / usyms_free(). */
int usyms_lookup(struct usyms *us, int pid, uint64_t addr, struct usym *out);

/* Batch naming: note the addresses a report will show, then name them
 * in one pass per ELF file. */
void usyms_want(struct usyms *us, int pid, uint64_t addr);
void usyms_resolve(struct usyms *us);

/* Drop what is cached for pid (e.g. after exec, or to re-read a growing
 * perf map).  ELF files stay cached. */
void usyms_forget(struct usyms *us, int pid);

/* Format one user frame into buf; returns buf:
 *   found:   "name" or "name+0xoff" (with_offset)
 *   unknown: "[unknown]", or "[unknown] (libfoo.so)" when with_module and
 *            the mapping is known (basename of the path). */
char *usyms_format(struct usyms *us, int pid, uint64_t addr, int with_offset,
		   int with_module, char *buf, size_t size);

/* Stats for tests and make bench. */
struct usyms_stats {
	unsigned procs, elfs, elf_loads, syms;
	unsigned minidebug;    /* MiniDebugInfo images decompressed */
	unsigned debug;        /* debug files read (MiniDebugInfo included):
				* only for a file whose own symbols left an
				* address asked unnamed */
};
void usyms_stats(const struct usyms *us, struct usyms_stats *st);

#endif
