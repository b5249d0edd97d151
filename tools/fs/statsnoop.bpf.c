/* statsnoop, kernel side: the path of each stat-family call (statfs,
 * stat, lstat, fstatat, statx) remembered at syscall entry by thread, one
 * event at exit with the result.  Calls that take no path (fstat) are not
 * traced, as in libbpf-tools. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "statsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;  /* tgid, 0: all */
const volatile __u8 failed_only = 0;  /* -x */

struct stat_args {
	const char *path;
	__u32 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct stat_args);
} start SEC(".maps");

static __always_inline int enter(struct trace_event_raw_sys_enter *ctx, const char *path)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct stat_args a = { .path = path, .nr = (__u32)ctx->id };

	if (!path)
		return 0;
	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	bpf_map_update_elem(&start, &tid, &a, BPF_ANY);
	return 0;
}

static __always_inline int leave(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct statsnoop_event e = {};
	struct stat_args *a = bpf_map_lookup_elem(&start, &tid);
	int ret = (int)ctx->ret;

	if (!a)
		return 0;
	if (failed_only && ret >= 0)
		goto cleanup;
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.ret = ret;
	e.nr = a->nr;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_probe_read_user_str(e.path, sizeof(e.path), a->path);
	events_output(ctx, &e, sizeof(e));
cleanup:
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_statfs")
int statsnoop_statfs_entry(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, (const char *)ctx->args[0]);
}

SEC("tracepoint/syscalls/sys_exit_statfs")
int statsnoop_statfs_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

SEC("tracepoint/syscalls/sys_enter_newstat")
int statsnoop_newstat_entry(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, (const char *)ctx->args[0]);
}

SEC("tracepoint/syscalls/sys_exit_newstat")
int statsnoop_newstat_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

SEC("tracepoint/syscalls/sys_enter_newlstat")
int statsnoop_newlstat_entry(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, (const char *)ctx->args[0]);
}

SEC("tracepoint/syscalls/sys_exit_newlstat")
int statsnoop_newlstat_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

/* newfstatat(dfd, path, buf, flags) */
SEC("tracepoint/syscalls/sys_enter_newfstatat")
int statsnoop_newfstatat_entry(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, (const char *)ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_exit_newfstatat")
int statsnoop_newfstatat_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}

/* statx(dfd, path, flags, mask, buf) */
SEC("tracepoint/syscalls/sys_enter_statx")
int statsnoop_statx_entry(struct trace_event_raw_sys_enter *ctx)
{
	return enter(ctx, (const char *)ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_exit_statx")
int statsnoop_statx_exit(struct trace_event_raw_sys_exit *ctx)
{
	return leave(ctx);
}
