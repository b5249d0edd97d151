/* 200 CO-RE relocations against real kernel types (local partial
 * definitions, as a tool would have), for timing against the live
 * /sys/kernel/btf/vmlinux: 46 fields x 4 (offset, size, exists, and a
 * direct load) + 12 types x 2 (exists, size). */
#define PAI __attribute__((preserve_access_index))

struct qstr___b { unsigned int len; const unsigned char *name; } PAI;
struct path___b { void *mnt; void *dentry; } PAI;
struct kuid___b { unsigned int val; } PAI;
struct cred___b { struct kuid___b uid; struct kuid___b euid; unsigned int securebits; } PAI;
struct task_struct___b {
	unsigned int __state; int pid; int tgid; char comm[16]; unsigned int flags;
	void *real_parent; void *mm; const struct cred___b *cred; unsigned long long start_time;
	int exit_code; int prio; int normal_prio; int on_cpu; void *nsproxy; void *files; void *signal; unsigned int rt_priority;
} PAI;
struct mm_struct___b { unsigned long arg_start; unsigned long arg_end; unsigned long total_vm; void *pgd; } PAI;
struct file___b { struct path___b f_path; void *f_inode; unsigned int f_flags; unsigned int f_mode; } PAI;
struct inode___b { unsigned long i_ino; long long i_size; unsigned short i_mode; void *i_sb; } PAI;
struct dentry___b { struct qstr___b d_name; void *d_parent; void *d_inode; } PAI;
struct sk_buff___b { unsigned int len; unsigned int data_len; unsigned short protocol; void *dev; } PAI;
struct sock_common___b { unsigned short skc_family; unsigned short skc_num; unsigned short skc_dport; } PAI;
struct request___b { unsigned int __data_len; unsigned long long __sector; unsigned int cmd_flags; void *q; } PAI;

#define SEC(n) __attribute__((section("bench/" #n), used))
#define FI(x, k) __builtin_preserve_field_info(x, k)
#define B(n, t, f)                                                          \
	SEC(n) long n(t *p)                                                 \
	{                                                                   \
		return FI(p->f, 0) + FI(p->f, 1) + FI(p->f, 2) + \
		       (long)p->f;                                          \
	}

B(t1, struct task_struct___b, __state) B(t2, struct task_struct___b, pid)
B(t3, struct task_struct___b, tgid) B(t4, struct task_struct___b, comm[1])
B(t5, struct task_struct___b, flags) B(t6, struct task_struct___b, real_parent)
B(t7, struct task_struct___b, mm) B(t8, struct task_struct___b, cred)
B(t9, struct task_struct___b, start_time) B(t10, struct task_struct___b, exit_code)
B(t11, struct task_struct___b, prio) B(t12, struct task_struct___b, nsproxy)
B(t13, struct task_struct___b, files) B(t14, struct task_struct___b, signal)
B(t15, struct task_struct___b, rt_priority) B(t16, struct task_struct___b, normal_prio)
B(t17, struct task_struct___b, on_cpu)
B(c1, struct cred___b, uid.val) B(c2, struct cred___b, euid.val) B(c3, struct cred___b, securebits)
B(m1, struct mm_struct___b, arg_start) B(m2, struct mm_struct___b, arg_end)
B(m3, struct mm_struct___b, total_vm) B(m4, struct mm_struct___b, pgd)
B(f1, struct file___b, f_path.dentry) B(f2, struct file___b, f_inode)
B(f3, struct file___b, f_flags) B(f4, struct file___b, f_mode)
B(i1, struct inode___b, i_ino) B(i2, struct inode___b, i_size)
B(i3, struct inode___b, i_mode) B(i4, struct inode___b, i_sb)
B(d1, struct dentry___b, d_name.len) B(d2, struct dentry___b, d_parent)
B(s1, struct sk_buff___b, len) B(s2, struct sk_buff___b, protocol)
B(s3, struct sock_common___b, skc_family) B(s4, struct sock_common___b, skc_dport)
B(r1, struct request___b, __data_len) B(r2, struct request___b, __sector)
B(r3, struct request___b, cmd_flags) B(r4, struct request___b, q)
B(s5, struct sock_common___b, skc_num) B(s6, struct sk_buff___b, data_len)

#define TY(n, t)                                                            \
	SEC(n) long n(void)                                                 \
	{                                                                   \
		return __builtin_preserve_type_info(*(t *)0, 0) +           \
		       __builtin_preserve_type_info(*(t *)0, 1);            \
	}
TY(y1, struct qstr___b) TY(y2, struct path___b) TY(y3, struct kuid___b) TY(y4, struct cred___b)
TY(y5, struct task_struct___b) TY(y6, struct mm_struct___b) TY(y7, struct file___b)
TY(y8, struct inode___b) TY(y9, struct dentry___b) TY(y10, struct sk_buff___b)
TY(y11, struct sock_common___b) TY(y12, struct request___b)

char LICENSE[] __attribute__((section("license"), used)) = "GPL";
