/* Filling a VFS tool's syscall table (sysops.h). */
#include "sysops.h"

#include <stdint.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "tools/common/common.h"

int sysops_fill(const char *tool, int fd, const struct sysop *ops, size_t n, unsigned max)
{
	for (size_t i = 0; i < n; i++) {
		int nr = syscall_nr(ops[i].name);
		uint32_t key = (uint32_t)nr;

		if (nr < 0 || (unsigned)nr >= max)
			continue;
		if (bpf_map_update(fd, &key, &ops[i].val, 0) < 0) {
			tool_err(tool, "cannot fill the system call table: %s", err_msg());
			return -1;
		}
	}
	return 0;
}
