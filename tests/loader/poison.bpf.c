/* CO-RE relocations that cannot resolve against the kernel.  "guarded"
 * reads a missing field only under bpf_core_field_exists(), so its
 * poisoned instructions are dead and it loads; "reached" reads it in a
 * subprogram it calls, so the verifier rejects it and the loader must name
 * the relocation; "modfield" relocates against struct cbx_modtype, which
 * exists only in a (fake) kernel module's BTF in tests/unit/
 * test_loader_btf.c. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct___cbx {
	int cbx_no_such_field;
	int pid;
} __attribute__((preserve_access_index));

struct cbx_modtype {
	int a;
	int b;
} __attribute__((preserve_access_index));

const volatile __u32 targ_tgid = 0;
__u64 guarded_runs = 0, guarded_val = 0;
__u64 mod_exists = 0, mod_off = 0;

static __noinline int read_missing(struct task_struct___cbx *t)
{
	int v = 0;

	bpf_core_read(&v, sizeof(v), &t->cbx_no_such_field);
	return v;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int guarded(void *ctx)
{
	struct task_struct___cbx *t = (void *)bpf_get_current_task();

	if ((bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	if (bpf_core_field_exists(t->cbx_no_such_field))
		guarded_val = BPF_CORE_READ(t, cbx_no_such_field);
	else
		guarded_val = BPF_CORE_READ(t, pid);
	__sync_fetch_and_add(&guarded_runs, 1);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int reached(void *ctx)
{
	struct task_struct___cbx *t = (void *)bpf_get_current_task();

	guarded_val = read_missing(t);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int modfield(void *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	mod_exists = bpf_core_field_exists(struct cbx_modtype, b);
	if (mod_exists)
		mod_off = bpf_core_field_offset(struct cbx_modtype, b);
	return 0;
}
