/* Kernel functions as attach points: which of a tool's candidate
 * functions (renamed between kernel releases) fentry or a kprobe can
 * take on the running kernel. */
#include "common.h"

#include <stdio.h>
#include <string.h>

#include "bpf/probe.h"

bool tool_kprobes(void)
{
	return probe_kprobe_pmu() || probe_kprobe_legacy();
}

int tool_ksyms_find(const char *const *names, size_t n, bool *found)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], type, name[256];
	unsigned long long addr;
	size_t i, left = n;

	for (i = 0; i < n; i++)
		found[i] = false;
	if (!f)
		return -1;
	while (left && fgets(line, sizeof(line), f)) {
		/* "ADDR TYPE NAME [module]": functions are t or T */
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < n; i++)
			if (!found[i] && names[i] && !strcmp(name, names[i])) {
				found[i] = true;
				left--;
			}
	}
	fclose(f);
	return 0;
}

enum tool_hook tool_pick_kfunc(struct obj *o, const char *const *names, size_t n, size_t *which)
{
	bool found[16];
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && obj_fentry_ok(o, names[i])) {
			*which = i;
			return TOOL_HOOK_FENTRY;
		}
	if (n > 16 || !tool_kprobes() || tool_ksyms_find(names, n, found) < 0)
		return TOOL_HOOK_NONE;
	for (i = 0; i < n; i++)
		if (found[i]) {
			*which = i;
			return TOOL_HOOK_KPROBE;
		}
	return TOOL_HOOK_NONE;
}

const char *tool_hook_name(enum tool_hook h)
{
	return h == TOOL_HOOK_FENTRY ? "fentry" : h == TOOL_HOOK_KPROBE ? "kprobe" : "none";
}
