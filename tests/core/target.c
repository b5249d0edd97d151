/* A target "kernel": TARGET_H's types, compiled by clang -g so its .BTF
 * becomes the target BTF.  Globals make every type reach BTF. */
#include TARGET_H

#define G(t, n) t n __attribute__((used));
TARGET_TYPES(G)
