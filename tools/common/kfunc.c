/* Ways in to kernel functions, and kernel symbol addresses. */
#include "kfunc.h"

#include <stdio.h>
#include <string.h>

#include "bpf/probe.h"
#include "lib/err.h"
#include "loader/obj.h"

bool kfunc_have_kprobes(void)
{
	return probe_kprobe_pmu() || probe_kprobe_legacy();
}

/* One pass over /proc/kallsyms: addrs[i] for each names[i] found.
 * Names may carry a ".llvm.<hash>" suffix under LTO; a kprobe needs the
 * name as it is, so only exact names count (after that suffix). */
int ksym_addrs(const char *const *names, int n, uint64_t *addrs)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	int found = 0;

	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	if (!f)
		return 0;
	while (found < n && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, sym[400], *dot;

		if (sscanf(line, "%llx %c %399s", &a, &type, sym) != 3)
			continue;
		if ((dot = strstr(sym, ".llvm.")))
			*dot = 0;
		for (int i = 0; i < n; i++)
			if (!addrs[i] && a && !strcmp(sym, names[i])) {
				addrs[i] = a;
				found++;
			}
	}
	fclose(f);
	return found;
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
