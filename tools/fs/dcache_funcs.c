/* Finding lookup_fast (dcache_funcs.h). */
#include "dcache_funcs.h"

#include <stdio.h>

const char *dcache_lookup_fast(struct obj *o, enum kfunc_way *way)
{
	static char names[6][32];
	const char *list[6];
	int i;

	snprintf(names[0], sizeof(names[0]), "lookup_fast");
	for (i = 1; i < 6; i++)
		snprintf(names[i], sizeof(names[i]), "lookup_fast.constprop.%d", i - 1);
	for (i = 0; i < 6; i++)
		list[i] = names[i];
	i = kfunc_pick(o, list, 6, way);
	return i < 0 ? NULL : names[i];
}
