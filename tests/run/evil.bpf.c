/* An object whose section name holds a terminal escape and is no known
 * section: the error must quote it escaped (\x1b), never raw. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

SEC("\x1b[2Jevil\n#include")
int evil(void *ctx)
{
	return 0;
}
