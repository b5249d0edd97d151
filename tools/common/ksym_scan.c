#include "ksym_scan.h"

#include <stdio.h>
#include <string.h>

#include "lib/util.h"

/* Calls fn for each "ADDR TYPE NAME" line until it returns non-zero. */
static void scan(int (*fn)(uint64_t addr, char type, const char *name, void *ctx), void *ctx)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[400];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type;

		if (sscanf(line, "%llx %c %399s", &a, &type, sym) != 3 || !a)
			continue;
		if (fn(a, type, sym, ctx))
			break;
	}
	fclose(f);
}

struct find_addr {
	const char *name;
	uint64_t addr;
};

static int match_name(uint64_t addr, char type, const char *name, void *ctx)
{
	struct find_addr *fa = ctx;

	(void)type;
	if (strcmp(name, fa->name))
		return 0;
	fa->addr = addr;
	return 1;
}

uint64_t ksym_scan_addr(const char *name)
{
	struct find_addr fa = { name, 0 };

	scan(match_name, &fa);
	return fa.addr;
}

struct find_names {
	const uint64_t *addrs;
	char **names;
	size_t n, found;
};

static int match_addr(uint64_t addr, char type, const char *name, void *ctx)
{
	struct find_names *fn = ctx;

	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	for (size_t i = 0; i < fn->n; i++)
		if (fn->addrs[i] == addr && !fn->names[i]) {
			fn->names[i] = xstrdup(name);
			fn->found++;
		}
	return fn->found == fn->n;
}

size_t ksym_scan_names(const uint64_t *addrs, size_t n, char **names)
{
	struct find_names fn = { addrs, names, n, 0 };

	for (size_t i = 0; i < n; i++)
		fn.found += names[i] != NULL;
	if (fn.found < n)
		scan(match_addr, &fn);
	return fn.found;
}
