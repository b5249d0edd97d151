/* The BPF objects embedded in corebox (Makefile: build/bpfobjs.S), packed
 * against a dictionary they share (tools/bpfpack.py). */
#ifndef COREBOX_TOOLS_BPFOBJS_H
#define COREBOX_TOOLS_BPFOBJS_H

#include <stddef.h>
#include <stdint.h>

/* The dictionary ({NULL, 0} when this binary has none).  Returns 0 (an
 * int, so that a dictionary stored some other way may fail). */
int bpf_dict(const void **dict, size_t *len);

/* An object as embedded (cbz, or gzip) inflated into a malloc'd *raw of
 * *len bytes; plain data (an ELF file) gives *raw = NULL, *len = size.
 * 0 or a negative errno with err_msg(). */
int bpf_obj_unpack(const void *data, size_t size, char **raw, size_t *len);

#endif
