/* One pass over /proc/kallsyms for a few symbols, without holding the
 * whole table (tools/stack/ksyms.h does that, for stacks): the CPU tools
 * need one address (a variable the BPF side reads) or the names of a
 * handful of function addresses (smpcalls). */
#ifndef COREBOX_TOOLS_KSYM_SCAN_H
#define COREBOX_TOOLS_KSYM_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Address of symbol name (any type), 0 when absent or hidden. */
uint64_t ksym_scan_addr(const char *name);
/* names[i] = malloc'd name of the symbol that starts exactly at addrs[i]
 * (text symbols), or left NULL.  Returns how many were found. */
size_t ksym_scan_names(const uint64_t *addrs, size_t n, char **names);

#endif
