/* The user side offcputime and offwaketime share (offtime.h). */
#include "offtime.h"

#include <limits.h>

#include "loader/obj.h"

long long offtime_state = -1;

int offtime_parse(struct stacktool_env *e, int key, const char *arg)
{
	if (key == OFFTIME_KEY_STATE) {
		offtime_state = opt_num(e->help, "state", arg, 0, INT_MAX);
		return 0;
	}
	return stacktool_parse(e, key, arg);
}

void offtime_check(const struct stacktool_env *e)
{
	stacktool_check_threads(e);
	stacktool_check_stacks(e);
	stacktool_check_block(e);
}

int offtime_start(struct obj *o, const struct stacktool_env *e, const char *tool)
{
	stacktool_set_knobs(o, e);
	OBJ_SET(o, min_block_us, (uint64_t)e->min_us);
	OBJ_SET(o, max_block_us, (uint64_t)e->max_us);
	if (tool_load_attach(o, tool))
		return 1;
	if (stacktool_fill_filters(o, e, "tgids", "pids") < 0) {
		obj_close(o);
		return 1;
	}
	tool_signals();
	return 0;
}
