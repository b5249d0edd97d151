/* dcstat and dcsnoop: where lookup_fast and d_lookup are, and how to get
 * in (user side). */
#ifndef COREBOX_FS_DCACHE_FUNCS_H
#define COREBOX_FS_DCACHE_FUNCS_H

#include "tools/common/kfunc.h"

struct obj;

/* lookup_fast, or the first .constprop clone of it the kernel has (bcc
 * attaches to either): its name (static storage) and way in; NULL and
 * KFUNC_NONE when there is none. */
const char *dcache_lookup_fast(struct obj *o, enum kfunc_way *way);

/* The one-line reason printed when neither function can be reached. */
#define DCACHE_NO_WAY                                                                             \
	"the dcache lookups (lookup_fast, d_lookup) have no tracepoint, and this kernel has no "  \
	"kprobes and refuses fentry: a kernel with either (CONFIG_KPROBES, or BPF trampolines) "   \
	"is needed"

#endif
