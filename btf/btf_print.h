/* Print values by their BTF type, compactly, on one line:
 *
 *   struct    a=1 b=2            (top level)    {a=1 b=2}  (nested)
 *   int       signed/unsigned per BTF, bool as true/false, bitfields
 *   char[N]   the string up to the first NUL (quoted only when needed)
 *   array     [1,2,0 x30]        (runs of 3+ equal elements collapsed)
 *   enum      its name (the number when no name matches)
 *   pointer   0x... hex          float  %g
 *   other     hex bytes
 *
 * Names (members, enumerators, variables: from the file) are escaped
 * (\xNN for control bytes).  Little-endian bitfield layout (the hosts
 * corebox runs on).  Every read
 * is bounded by the bytes given; damaged or deep BTF prints '?'. */
#ifndef COREBOX_BTF_PRINT_H
#define COREBOX_BTF_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct btf;

/* Value of type id at data (size bytes).  top: structs without braces. */
void btf_print(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size, int top);
/* The same as JSON: structs, unions and DATASECs as objects (members of
 * anonymous ones as the parent's keys), char arrays as strings (bytes
 * outside printable ASCII as \u00XX), arrays in full, enums as their
 * names, pointers and __int128 as "0x..." strings, what cannot be read
 * (and inf/nan) as null, other types as a string of hex bytes. */
void btf_print_json(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size);
/* Hex bytes, grouped by 4 ("0011aabb ccdd"). */
void btf_print_hex(FILE *f, const void *data, size_t size);
/* A DATASEC's variables, one "PREFIXname=value" line each. */
void btf_print_datasec(FILE *f, const struct btf *btf, uint32_t id, const void *data, size_t size,
		       const char *prefix);

#endif
