/* The kernel types and functions the golden code generator tests
 * (tests/unit/test_codegen_golden.c) compile probes against, standing in
 * for /sys/kernel/btf/vmlinux so that the generated programs do not
 * depend on the running kernel.  Layouts are this file's, not a real
 * kernel's.  kernel_types.btf is its .BTF section, made by
 *
 *   clang -target bpf -g -O2 -c kernel_types.c -o kernel_types.o
 *   llvm-objcopy --dump-section .BTF=kernel_types.btf kernel_types.o
 *
 * and committed, so the test needs no compiler and its type ids stay put. */
typedef unsigned long size_t;
typedef long ssize_t;
typedef long long loff_t;

struct fs_struct {
	int users;
	int umask;
};

struct task_struct {
	int pid;
	int tgid;
	char comm[16];
	struct fs_struct *fs;
	struct task_struct *real_parent;
};

struct sock {
	unsigned short sk_dport;
	unsigned short sk_num;
	unsigned int sk_protocol : 8, sk_type : 16;
	struct sock *sk_next;
};

struct file {
	unsigned int f_flags;
	loff_t f_pos;
};

struct __kernel_timespec {
	long long tv_sec;
	long long tv_nsec;
};

ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos) { return (ssize_t)count; }
int tcp_v4_connect(struct sock *sk, void *uaddr, int addr_len) { return addr_len; }
long do_nanosleep(struct __kernel_timespec *ts, int mode) { return mode; }
struct task_struct *find_task(struct task_struct *t) { return t->real_parent; }
int fs_users(struct fs_struct *fs) { return fs->users; }

/* whole definitions, not forward declarations, for types only pointed to */
struct fs_struct fs_fixture;
