/* execsnoop, kernel side: capture argv at execve() entry (the old image's
 * memory is gone after a successful exec), complete the record with the
 * result and the new comm at exit, and emit it. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "execsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile unsigned int targ_uid = EXECSNOOP_INVALID_UID;
const volatile int max_args = EXECSNOOP_DEFAULT_MAXARGS;
const volatile int ignore_failed = 1;
const volatile int filter_cg = 0;

/* Scratch slot where the record is built before it is stored by tid. */
CB_HEAP(heap, struct execsnoop_event);

/* tid -> record, between sys_enter_execve and sys_exit_execve.  Not
 * preallocated: entries exist only while an exec is in flight, so the map
 * costs next to nothing instead of 10240 x 7.7 KiB up front. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, u32);
	__type(value, struct execsnoop_event);
} execs SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_execve")
int execsnoop_enter(struct trace_event_raw_sys_enter *ctx)
{
	const char *const *argv = (const char *const *)ctx->args[1];
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = (u32)id, zero = 0, uid;
	struct execsnoop_event *e;
	struct task_struct *task;
	const char *argp;
	long ret;
	int i;

	if (filter_cg && !bpf_current_task_under_cgroup(&cgroup_map, 0))
		return 0;
	uid = (u32)bpf_get_current_uid_gid();
	if (targ_uid != EXECSNOOP_INVALID_UID && uid != targ_uid)
		return 0;

	e = bpf_map_lookup_elem(&heap, &zero);
	if (!e)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	e->pid = (int)(id >> 32);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->uid = uid;
	e->retval = 0;
	e->args_count = 0;
	e->args_size = 0;
	e->comm[0] = 0;

	/* argv[0] slot: the filename actually passed to execve() */
	ret = bpf_probe_read_user_str(e->args, EXECSNOOP_ARGSIZE, (const void *)ctx->args[0]);
	if (ret < 0) {
		e->args[0] = 0;
		ret = 1;
	}
	e->args_size = ret;
	e->args_count = 1;

	for (i = 1; i < EXECSNOOP_TOTAL_MAX_ARGS && i < max_args; i++) {
		unsigned int off;

		argp = NULL;
		if (bpf_probe_read_user(&argp, sizeof(argp), &argv[i]) || !argp)
			goto store;
		off = e->args_size;
		if (off > EXECSNOOP_LAST_ARG)
			goto store;
		ret = bpf_probe_read_user_str(&e->args[off], EXECSNOOP_ARGSIZE, argp);
		if (ret < 0)
			goto store;
		e->args_count++;
		e->args_size += ret;
	}
	/* one more pointer: were there arguments beyond max_args? */
	argp = NULL;
	if (!bpf_probe_read_user(&argp, sizeof(argp), &argv[i]) && argp)
		e->args_count++;
store:
	bpf_map_update_elem(&execs, &tid, e, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_execve")
int execsnoop_exit(struct trace_event_raw_sys_exit *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct execsnoop_event *e;
	unsigned int size;
	long ret = ctx->ret;

	if (filter_cg && !bpf_current_task_under_cgroup(&cgroup_map, 0))
		return 0;
	e = bpf_map_lookup_elem(&execs, &tid);
	if (!e)
		return 0;
	if (ignore_failed && ret < 0)
		goto out;
	e->retval = (int)ret;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	size = e->args_size;
	if (size > EXECSNOOP_ARGS_BUF)
		goto out;
	size += __builtin_offsetof(struct execsnoop_event, args);
	events_output(ctx, e, size);
out:
	bpf_map_delete_elem(&execs, &tid);
	return 0;
}
