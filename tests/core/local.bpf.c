/* The "local" program: every check of checks.h becomes one function in its
 * own section "core/<name>", so each section holds the relocations of one
 * check.  Built by tests/core/gen.sh with the Makefile's BPF_BASE flags. */
#include "local_types.h"
#include "checks.h"

#define SEC(n) __attribute__((section("core/" #n), used))
#define FI(x, k) __builtin_preserve_field_info(x, k)
#define FN(n, body) SEC(n) long n(void) { return body; }
#define P(t) ((t *)0)

#define FLD(n, lt, tt, f, key)                                              \
	FN(n##_off, FI(P(lt)->f, 0)) FN(n##_sz, FI(P(lt)->f, 1))           \
	FN(n##_ex, FI(P(lt)->f, 2)) FN(n##_sg, FI(P(lt)->f, 3))            \
	FN(n##_ls, FI(P(lt)->f, 4)) FN(n##_rs, FI(P(lt)->f, 5))
#define BF FLD
#define AGG(n, lt, tt, f, key)                                              \
	FN(n##_off, FI(P(lt)->f, 0)) FN(n##_sz, FI(P(lt)->f, 1))           \
	FN(n##_ex, FI(P(lt)->f, 2))
#define IDX(n, lt, tt, i, f, key) FN(n##_off, FI(P(lt)[i].f, 0))
#define LD(n, lt, tt, f, key)                                               \
	SEC(n##_ld) long n##_ld(lt *p) { return (long)p->f; }
#define TY(n, lt, tt, key)                                                  \
	FN(n##_ex, __builtin_preserve_type_info(*(lt *)0, 0))               \
	FN(n##_sz, __builtin_preserve_type_info(*(lt *)0, 1))               \
	FN(n##_id, __builtin_btf_type_id(*(lt *)0, 1))                      \
	FN(n##_lid, __builtin_btf_type_id(*(lt *)0, 0))
#define EN(n, lt, lv, tt, tv, key)                                          \
	FN(n##_ex, __builtin_preserve_enum_value(*(lt *)lv, 0))             \
	FN(n##_val, __builtin_preserve_enum_value(*(lt *)lv, 1))

CHECKS

char LICENSE[] __attribute__((section("license"), used)) = "GPL";
