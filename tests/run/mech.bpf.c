/* Programs whose mechanism a kernel may lack, for `corebox run`: fentry
 * and kprobe variants of one function (fentry wins where the kernel takes
 * it; where it has neither, both are skipped with one line each), a USDT
 * program (loaded, not attached yet), a tracepoint program that always
 * attaches, and one whose tracepoint name holds a terminal escape (no
 * such tracepoint: skipped, and the name printed escaped). */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

u64 reads, getppids, usdt_hits;

SEC("fentry/vfs_read")
int read_fentry(u64 *ctx)
{
	__sync_fetch_and_add(&reads, 1);
	return 0;
}

SEC("kprobe/vfs_read")
int read_kprobe(void *ctx)
{
	__sync_fetch_and_add(&reads, 1);
	return 0;
}

SEC("usdt")
int on_usdt(void *ctx)
{
	__sync_fetch_and_add(&usdt_hits, 1);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	__sync_fetch_and_add(&getppids, 1);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid\x1b[2J")
int on_escape(void *ctx)
{
	return 0;
}
