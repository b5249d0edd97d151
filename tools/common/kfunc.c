/* Ways in to kernel functions, and kernel symbol addresses. */
#include "kfunc.h"

#include <stdio.h>
#include <string.h>

#include "bpf/kallsyms.h"
#include "bpf/probe.h"
#include "lib/err.h"
#include "loader/obj.h"

bool kfunc_have_kprobes(void)
{
	return probe_kprobe_pmu() || probe_kprobe_legacy();
}

struct ksym_addrs {
	const char *const *names;
	int n, found;
	uint64_t *addrs;
};

static int ksym_addr_of(void *ctx, const struct kallsym *s)
{
	struct ksym_addrs *ka = ctx;

	for (int i = 0; i < ka->n; i++)
		if (!ka->addrs[i] && s->addr && ka->names[i] && !strcmp(s->name, ka->names[i])) {
			ka->addrs[i] = s->addr;
			ka->found++;
		}
	return ka->found == ka->n;
}

/* One pass over /proc/kallsyms: addrs[i] for each names[i] found (names
 * as the source has them: the reader drops LTO's ".llvm.<hash>"). */
int ksym_addrs(const char *const *names, int n, uint64_t *addrs)
{
	struct ksym_addrs ka = { names, n, 0, addrs };

	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	if (n > 0 && kallsyms_each(NULL, ksym_addr_of, &ka) < 0)
		err_clear(); /* unreadable: none found */
	return ka.found;
}

enum kfunc_way kfunc_way(struct obj *o, const char *func)
{
	uint64_t addr;

	if (obj_fentry_ok(o, func))
		return KFUNC_FENTRY;
	if (kfunc_have_kprobes() && ksym_addrs(&func, 1, &addr) == 1)
		return KFUNC_KPROBE;
	err_clear();
	return KFUNC_NONE;
}

int kfunc_pick(struct obj *o, const char *const *names, int n, enum kfunc_way *way)
{
	for (int i = 0; i < n; i++) {
		if (!names[i])
			continue;
		*way = kfunc_way(o, names[i]);
		if (*way != KFUNC_NONE)
			return i;
	}
	*way = KFUNC_NONE;
	return -1;
}

const char *kfunc_way_name(enum kfunc_way w)
{
	return w == KFUNC_FENTRY ? "fentry" : w == KFUNC_KPROBE ? "kprobe" : "none";
}
