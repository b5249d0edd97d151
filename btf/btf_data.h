/* A kernel value printed by its BTF type the way libbpf's
 * btf_dump__dump_type_data() prints it (libbpf 1.1, the one Debian's
 * libbpf-tools 0.26 links; ksnoop shows its arguments with it):
 *
 *   (struct foo){
 *    .a = (int)1,
 *    .name = (char[8])['a','b',],
 *    .next = (struct foo *)0xffff8881...,
 *   }
 *
 * Zero members are left out; arrays show every element (char arrays
 * their non-zero chars); bitfields print as hex; enums by name.  libbpf's
 * quirks are kept so the text matches byte for byte: a struct counts as
 * zero (and is left out) when its first member is; once a char array was
 * seen, every later 1-byte integer in the same dump prints as a char.
 *
 * Differences: a name used by two different types is not given libbpf's
 * "___2" suffix; VAR and DATASEC (never a function's argument) and
 * 16-byte floats (the kernel has none) are not printed; a NULL pointer
 * inside an array prints as glibc's "(nil)".
 *
 * Every read is bounded by size: a base value past the end stops the
 * dump with -E2BIG (the caller says it was cut); bytes past the end count
 * as non-zero where libbpf reads them unchecked.  Nesting is capped, so
 * crafted BTF (self-containing structs, pointer cycles) cannot recurse
 * without end; names are printed with control bytes escaped. */
#ifndef COREBOX_BTF_DATA_H
#define COREBOX_BTF_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct btf;

/* Value of type id at data[0..size), each line indented by indent
 * spaces plus one per nesting level.  Returns the type's size, or a
 * negative errno: -E2BIG cut short by size, -EINVAL bad BTF, -ENOTSUP a
 * kind with no value (after what could be printed). */
int btf_dump_data(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size, int indent);
/* The C type of id as libbpf writes a cast, without the parentheses and
 * without qualifiers: "struct sock *", "char[16]", "void (*)(int)". */
void btf_dump_cast(FILE *f, const struct btf *btf, uint32_t id);

#endif
