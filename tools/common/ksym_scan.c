#include "ksym_scan.h"

#include <string.h>

#include "bpf/kallsyms.h"
#include "lib/err.h"
#include "lib/util.h"

/* Symbols with a visible address; an unreadable file finds nothing. */
static void scan(kallsym_fn fn, void *ctx)
{
	if (kallsyms_each(NULL, fn, ctx) < 0)
		err_clear();
}

struct find_addr {
	const char *name;
	uint64_t addr;
};

static int match_name(void *ctx, const struct kallsym *s)
{
	struct find_addr *fa = ctx;

	if (!s->addr || strcmp(s->name, fa->name))
		return 0;
	fa->addr = s->addr;
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

static int match_addr(void *ctx, const struct kallsym *s)
{
	struct find_names *fn = ctx;

	if (!s->addr || !kallsym_is_text(s))
		return 0;
	for (size_t i = 0; i < fn->n; i++)
		if (fn->addrs[i] == s->addr && !fn->names[i]) {
			fn->names[i] = xstrdup(s->name);
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
