/* tool_load_attach() with the -c CGROUP filter: the order the filtering
 * tools must keep (open the cgroup before the load, so a bad path costs
 * no load; fill "cgroup_map" after it) and the cleanup on each failure,
 * once instead of in every such tool. */
#include <unistd.h>

#include "common.h"

int tool_load_attach_cgroup(struct obj *o, const char *name, const char *path, int *cgfd)
{
	*cgfd = -1;
	if (path && (*cgfd = tool_cgroup_open(name, path)) < 0) {
		obj_close(o);
		return -1;
	}
	if (tool_load_attach(o, name))
		goto fail;
	if (*cgfd >= 0 && tool_cgroup_filter(o, name, path, *cgfd) < 0) {
		obj_close(o);
		goto fail;
	}
	return 0;
fail:
	if (*cgfd >= 0)
		close(*cgfd);
	*cgfd = -1;
	return -1;
}
