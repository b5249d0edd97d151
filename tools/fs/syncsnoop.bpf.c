/* syncsnoop, kernel side: one event at the entry of each sync-family
 * call (sync, fsync, fdatasync, msync, sync_file_range, syncfs).
 * sync_file_range2 and arm_sync_file_range exist only on architectures
 * corebox does not build for (powerpc, 32-bit arm). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "syncsnoop.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline int emit(void *ctx, __u32 call)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct syncsnoop_event e = {};

	e.ts_us = bpf_ktime_get_ns() / 1000;
	e.pid = id >> 32;
	e.tid = (__u32)id;
	e.call = call;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_sync")
int syncsnoop_sync(void *ctx)
{
	return emit(ctx, SYNCSNOOP_SYNC);
}

SEC("tracepoint/syscalls/sys_enter_fsync")
int syncsnoop_fsync(void *ctx)
{
	return emit(ctx, SYNCSNOOP_FSYNC);
}

SEC("tracepoint/syscalls/sys_enter_fdatasync")
int syncsnoop_fdatasync(void *ctx)
{
	return emit(ctx, SYNCSNOOP_FDATASYNC);
}

SEC("tracepoint/syscalls/sys_enter_msync")
int syncsnoop_msync(void *ctx)
{
	return emit(ctx, SYNCSNOOP_MSYNC);
}

SEC("tracepoint/syscalls/sys_enter_sync_file_range")
int syncsnoop_sync_file_range(void *ctx)
{
	return emit(ctx, SYNCSNOOP_SYNC_FILE_RANGE);
}

SEC("tracepoint/syscalls/sys_enter_syncfs")
int syncsnoop_syncfs(void *ctx)
{
	return emit(ctx, SYNCSNOOP_SYNCFS);
}
