/* Symbol demangling for stack traces: Itanium C++ (_Z...), Rust legacy
 * (_ZN...17h<hash>E) and Rust v0 (_R...), libc only.
 *
 * C++ names print as c++filt (binutils) prints them, arguments included:
 * "ns::Box<int>::get() const", "void ns::swap<int>(int&, int&)",
 * "foo() [clone .cold]".  Rust names print as rustc-demangle's alternate
 * form ({:#}): paths without the hash or crate disambiguators.
 *
 * Symbol names come from files of any origin: recursion depth, work and
 * output size are bounded; a name that is not one of these manglings, uses
 * a construct not handled (C++ expressions in template arguments, Rust
 * punycode) or would not fit gives NULL, and the caller prints it raw. */
#ifndef COREBOX_DEMANGLE_H
#define COREBOX_DEMANGLE_H

#include <stddef.h>

/* Demangle NUL-terminated s into out (size bytes, NUL-terminated).
 * Returns out, or NULL when s cannot be demangled (out then undefined). */
const char *demangle(const char *s, char *out, size_t size);

#endif
