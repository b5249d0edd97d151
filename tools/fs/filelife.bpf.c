/* filelife, kernel side: files created and deleted while tracing, with
 * their age at deletion.
 *
 * Two ways in, one of which the user side loads:
 *  - fentry or kprobes on vfs_create, vfs_open (a file it created:
 *    FMODE_CREATED), security_inode_create and vfs_unlink, keyed by the
 *    dentry, as libbpf-tools;
 *  - the system calls, at their exit (raw tracepoint sys_exit): an open
 *    that created its file (FMODE_CREATED on the returned file), a mknod
 *    of a regular file, an unlink (not of a directory) that succeeded.
 *    The calls carry only paths, so a file is known by its name (the
 *    last component, at most 31 bytes): two short-lived files of one
 *    name in two directories at once are told apart by neither. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "fd_file.bpf.h"
#include "filelife.h"

char LICENSE[] SEC("license") = "GPL";

#define FMODE_CREATED 0x100000
#define AT_FDCWD -100
#define AT_REMOVEDIR 0x200

const volatile __u32 targ_tgid = 0;

/* a file: its dentry (function paths) or its name (syscall path) */
struct fl_key {
	__u64 dentry;
	char name[FILELIFE_NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, struct fl_key);
	__type(value, __u64);
} start SEC(".maps");

/* syscall number -> enum filelife_sys, filled by the user side */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FILELIFE_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u8);
} sysops SEC(".maps");

static __always_inline bool traced(void)
{
	return !targ_tgid || targ_tgid == bpf_get_current_pid_tgid() >> 32;
}

static __noinline int created(struct fl_key *k)
{
	__u64 ts = bpf_ktime_get_ns();

	if (!k || !traced())
		return 0;
	bpf_map_update_elem(&start, k, &ts, BPF_ANY);
	return 0;
}

/* name: the file's name for the event (NULL: the key's) */
static __noinline int deleted(void *ctx, struct fl_key *k, const unsigned char *name)
{
	struct filelife_event e = {};
	__u64 *tsp;

	if (!k)
		return 0;
	tsp = bpf_map_lookup_elem(&start, k);
	if (!tsp)
		return 0; /* created before we started */
	e.delta_ns = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, k);
	if (name)
		bpf_probe_read_kernel_str(e.file, sizeof(e.file), name);
	else
		__builtin_memcpy(e.file, k->name, sizeof(e.file));
	bpf_get_current_comm(e.task, sizeof(e.task));
	e.tgid = bpf_get_current_pid_tgid() >> 32;
	events_output(ctx, &e, sizeof(e));
	return 0;
}

/* ---- functions: fentry and kprobe ---- */

static __noinline int dentry_created(__u64 dentry)
{
	struct fl_key k = { .dentry = dentry };

	return created(&k);
}

static __noinline int dentry_deleted(void *ctx, __u64 dentry)
{
	struct fl_key k = { .dentry = dentry };

	return deleted(ctx, &k, BPF_CORE_READ((struct dentry___vfs *)dentry, d_name.name));
}

/* open: a file it created (vfs_open(path, file)) */
static __always_inline int opened(struct path___vfs *path, struct file___vfs *file)
{
	if (!(BPF_CORE_READ(file, f_mode) & FMODE_CREATED))
		return 0;
	return dentry_created((__u64)BPF_CORE_READ(path, dentry));
}

/* vfs_create and vfs_unlink take the dentry second, or third after the
 * idmap/user namespace argument (5.12+): one program for each, the user
 * side loads the one the kernel's BTF calls for (the verifier wants a
 * constant offset into the context). */
#define CREATE_UNLINK(n, parm)                                         \
	SEC("fentry/vfs_create")                                        \
	int BPF_PROG(fentry_vfs_create_##n)                             \
	{                                                               \
		return dentry_created(ctx[n]);                          \
	}                                                               \
	SEC("fentry/vfs_unlink")                                        \
	int BPF_PROG(fentry_vfs_unlink_##n)                             \
	{                                                               \
		return dentry_deleted(ctx, ctx[n]);                     \
	}                                                               \
	SEC("kprobe/vfs_create")                                        \
	int kprobe_vfs_create_##n(struct pt_regs *ctx)                  \
	{                                                               \
		return dentry_created(parm(ctx));                       \
	}                                                               \
	SEC("kprobe/vfs_unlink")                                        \
	int kprobe_vfs_unlink_##n(struct pt_regs *ctx)                  \
	{                                                               \
		return dentry_deleted(ctx, parm(ctx));                  \
	}
CREATE_UNLINK(1, PT_REGS_PARM2)
CREATE_UNLINK(2, PT_REGS_PARM3)

SEC("fentry/vfs_open")
int BPF_PROG(fentry_vfs_open, struct path___vfs *path, struct file___vfs *file)
{
	return opened(path, file);
}

SEC("fentry/security_inode_create")
int BPF_PROG(fentry_security_inode_create, void *dir, void *dentry)
{
	return dentry_created((__u64)dentry);
}

SEC("kprobe/vfs_open")
int kprobe_vfs_open(struct pt_regs *ctx)
{
	return opened((void *)PT_REGS_PARM1(ctx), (void *)PT_REGS_PARM2(ctx));
}

SEC("kprobe/security_inode_create")
int kprobe_security_inode_create(struct pt_regs *ctx)
{
	return dentry_created(PT_REGS_PARM2(ctx));
}

/* ---- system calls ---- */

#define PATH_BUF 256

/* The last component of the user's path into k->name ("" on failure). */
static __noinline int path_key(struct fl_key *k, const char *upath)
{
	char buf[PATH_BUF];
	long n;
	int last = 0;

	if (!k)
		return 0;
	n = bpf_probe_read_user_str(buf, sizeof(buf), upath);
	if (n <= 1)
		return 0;
	/* from the end, stopping at the first '/': one verifier state per
	 * step (a forward scan carrying the last slash seen has many) */
	for (int i = 0; i < PATH_BUF; i++) {
		long j = n - 2 - i;

		if (j < 0)
			break;
		if (buf[j & (PATH_BUF - 1)] == '/') {
			last = (int)j + 1;
			break;
		}
	}
	for (int i = 0; i < FILELIFE_NAME_LEN - 1; i++) {
		int j = last + i;

		if (j >= PATH_BUF - 1)
			break;
		k->name[i] = buf[j & (PATH_BUF - 1)];
		if (!k->name[i])
			break;
	}
	return k->name[0] != 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fl_sys_exit, struct pt_regs *regs, long ret)
{
	__u32 nr = (__u32)CB_SYSCALL_NR(regs);
	__u8 *v = bpf_map_lookup_elem(&sysops, &nr);
	struct fl_key k = {};
	struct file___vfs *f;
	__u32 mode;

	ret = CB_SYSCALL_RET(ret); /* a 32-bit kernel's negative ret arrives zero-extended */
	if (!v || !*v || ret < 0)
		return 0;
	switch (*v) {
	case FL_OPEN:
		f = fd_file(ret);
		if (!f || !(BPF_CORE_READ(f, f_mode) & FMODE_CREATED))
			return 0;
		bpf_probe_read_kernel_str(k.name, sizeof(k.name), BPF_CORE_READ(f, f_path.dentry, d_name.name));
		return created(&k);
	case FL_MKNOD:
	case FL_MKNODAT:
		mode = *v == FL_MKNOD ? PT_REGS_PARM2_CORE_SYSCALL(regs) : PT_REGS_PARM3_CORE_SYSCALL(regs);
		if ((mode & VFS_S_IFMT) && (mode & VFS_S_IFMT) != VFS_S_IFREG)
			return 0;
		if (!path_key(&k, (const char *)(*v == FL_MKNOD ? PT_REGS_PARM1_CORE_SYSCALL(regs)
								: PT_REGS_PARM2_CORE_SYSCALL(regs))))
			return 0;
		return created(&k);
	case FL_UNLINK:
	case FL_UNLINKAT:
		if (*v == FL_UNLINKAT && (PT_REGS_PARM3_CORE_SYSCALL(regs) & AT_REMOVEDIR))
			return 0;
		if (!path_key(&k, (const char *)(*v == FL_UNLINK ? PT_REGS_PARM1_CORE_SYSCALL(regs)
								 : PT_REGS_PARM2_CORE_SYSCALL(regs))))
			return 0;
		return deleted(ctx, &k, NULL);
	}
	return 0;
}
