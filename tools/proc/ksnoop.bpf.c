/* ksnoop, kernel side: at entry and return of each traced function, the
 * values the user asked for (arguments, return value, arg->member, what a
 * pointer points at), filtered by simple predicates, as libbpf-tools'
 * ksnoop.  One program pair per function (fentry/fexit, whose arguments
 * come from bpf_get_func_arg, 5.17+; else kprobe/kretprobe): the user side
 * clones them.  A function's settings and this CPU's record live in a
 * per-CPU hash keyed by its address.
 *
 * Stack mode (-s a b c): each task keeps the addresses of the traced calls
 * it is in; b is shown only when a called it and it called c, so what each
 * saw is stashed until the outermost one returns. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "ksnoop.h"

char LICENSE[] SEC("license") = "GPL";

static long (*bpf_get_func_arg)(void *ctx, __u32 n, __u64 *value) = (void *)183;
static long (*bpf_get_func_ret)(void *ctx, __u64 *value) = (void *)184;

struct func_stack {
	__u64 task;
	__u64 ips[KS_STACK];
	__u8 depth;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2048);
	__type(key, __u64);
	__type(value, struct func_stack);
} ks_stack SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KS_MAX_FUNCS);
	__type(key, __u64);
	__type(value, struct ks_func);
} ks_funcs SEC(".maps");

static __always_inline void clear(struct ks_func *f)
{
	__builtin_memset(f->ev.data, 0, sizeof(f->ev.data));
	f->ev.data_flags = 0;
	f->ev.buf_len = 0;
}

/* The function's settings and state, after the stack bookkeeping; NULL
 * when this call is not to be traced. */
static __always_inline struct ks_func *get_func(__u64 entry_ip, bool entry)
{
	__u64 task = bpf_get_current_task(), ip = 0, last_ip = 0;
	struct func_stack *st = bpf_map_lookup_elem(&ks_stack, &task);
	struct ks_func *f;
	__u32 d;

	if (!st) {
		struct func_stack fresh = { .task = task };

		bpf_map_update_elem(&ks_stack, &task, &fresh, BPF_NOEXIST);
		if (!(st = bpf_map_lookup_elem(&ks_stack, &task)))
			return NULL;
	}
	d = st->depth;
	if (entry) {
		ip = entry_ip;
		if (d >= KS_STACK - 1)
			return NULL;
		if (d > 0)
			last_ip = st->ips[(d - 1) & (KS_STACK - 1)];
		st->ips[d & (KS_STACK - 1)] = ip;
		d = (d + 1) & (KS_STACK - 1);
		st->depth = d;
		/* the slot above is cleared on push, not on pop: the
		 * return side reads which traced call returned last */
		st->ips[d] = 0;
	} else {
		if (d == 0 || d >= KS_STACK)
			return NULL;
		last_ip = st->ips[d & (KS_STACK - 1)];
		d = (d - 1) & (KS_STACK - 1);
		ip = st->ips[d];
		st->depth = d;
	}
	if (!(f = bpf_map_lookup_elem(&ks_funcs, &ip)))
		return NULL;
	if (!entry && (f->flags & KS_F_STASH)) {
		if (!(f->ev.data_flags & KS_F_STASHED))
			return NULL; /* a predicate failed at entry */
	} else {
		clear(f);
	}
	if (entry) {
		if (f->prev_ip && f->prev_ip != last_ip)
			return NULL;
		if (f->next_ip || (f->flags & KS_F_STASH))
			f->ev.data_flags |= KS_F_STASH;
	} else {
		if (f->next_ip && f->next_ip != last_ip)
			return NULL;
		if (f->prev_ip)
			f->ev.data_flags |= KS_F_STASH;
	}
	f->task = task;
	return f;
}

static __always_inline void output(void *ctx, struct ks_func *f)
{
	__u32 len = f->ev.buf_len;

	if (!len)
		goto done;
	if (f->ev.data_flags & KS_F_STASH) {
		f->ev.data_flags = (f->ev.data_flags & ~KS_F_STASH) | KS_F_STASHED;
		return;
	}
	f->ev.data_flags &= ~KS_F_STASHED;
	if (len > KS_BUF)
		len = KS_BUF;
	events_output_head(ctx, &f->ev, __builtin_offsetof(struct ks_event, buf) + len);
done:
	clear(f);
}

/* Stack mode: what the other functions of the stack stashed, then f. */
static __always_inline void output_stashed(void *ctx, struct ks_func *cur, bool entry)
{
	__u64 task = bpf_get_current_task();
	struct func_stack *st = bpf_map_lookup_elem(&ks_stack, &task);
	struct ks_func *f;

	if (!st)
		return;
	if (entry) {
		/* the callers, outermost first */
		for (int i = 0; i < KS_STACK; i++) {
			if (i >= st->depth - 1)
				break;
			f = bpf_map_lookup_elem(&ks_funcs, &st->ips[i]);
			if (!f || !(f->ev.data_flags & KS_F_STASHED))
				break;
			if (f->task != task)
				return;
			output(ctx, f);
		}
	} else {
		/* the callees that returned, innermost first */
		for (int i = KS_STACK - 1; i > 0; i--) {
			__u64 ip = st->ips[i];

			if (!ip)
				continue;
			f = bpf_map_lookup_elem(&ks_funcs, &ip);
			if (!f || !(f->ev.data_flags & KS_F_STASHED))
				break;
			if (f->task != task)
				return;
			output(ctx, f);
		}
	}
	output(ctx, cur);
}

/* The task's PID namespace (-v), task->thread_pid->numbers[level].ns */
struct ns_common___ks {
	unsigned int inum;
} __attribute__((preserve_access_index));
struct pid_namespace___ks {
	struct ns_common___ks ns;
} __attribute__((preserve_access_index));
struct upid___ks {
	int nr;
	struct pid_namespace___ks *ns;
} __attribute__((preserve_access_index));
struct pid___ks {
	unsigned int level;
	struct upid___ks numbers[1];
} __attribute__((preserve_access_index));
struct task_struct___ks {
	struct pid___ks *thread_pid;
} __attribute__((preserve_access_index));

static __always_inline __u32 pidns_of(struct task_struct___ks *t)
{
	struct pid___ks *pid = BPF_CORE_READ(t, thread_pid);
	unsigned int level = BPF_CORE_READ(pid, level);
	struct upid___ks *up;

	up = (void *)((char *)pid + bpf_core_field_offset(pid->numbers) +
		      (__u64)level * bpf_core_type_size(struct upid___ks));
	return BPF_CORE_READ(up, ns, ns.inum);
}

/* One copy for the four programs (a static subprogram, verified per call
 * with its constant arguments); each program reads its arguments itself,
 * as only it may: args[0..4] the arguments, args[5] the return value. */
static __noinline int ksnoop(void *ctx, bool entry, __u64 ip, __u64 *args)
{
	struct ks_func *f;
	__u32 pid;

	if (!(f = get_func(ip, entry)))
		return 0;
	pid = bpf_get_current_pid_tgid();
	if (f->filter_pid && f->filter_pid != pid)
		return 0;
	f->ev.pid = pid;
	f->ev.pid_ns = pidns_of((void *)bpf_get_current_task());
	f->ev.head.cgroup_id = event_cgroup_id();
	f->ev.idx = f->idx;
	bpf_get_current_comm(f->ev.comm, sizeof(f->ev.comm));
	f->ev.cpu = bpf_get_smp_processor_id();
	f->ev.time = bpf_ktime_get_ns();
	f->ev.data_flags = (f->ev.data_flags & ~(KS_F_ENTRY | KS_F_RETURN)) | (entry ? KS_F_ENTRY : KS_F_RETURN);

	for (int i = 0; i < KS_VALUES; i++) {
		struct ks_value *v = &f->traces[i];
		struct ks_data *d = &f->ev.data[i];
		__u64 val;
		void *src;
		__u64 off;
		__u32 sz;
		long err;

		if (entry == (v->base_arg == KS_RETURN) || !v->shown)
			continue;
		val = args[v->base_arg < KS_VALUES ? v->base_arg : KS_RETURN];
		if (v->flags & KS_F_MEMBER) {
			val += v->offset;
			if (v->flags & KS_F_PTR) {
				if ((err = bpf_probe_read_kernel(&val, sizeof(val), (void *)val))) {
					d->err = err;
					continue;
				}
				d->raw = val;
			} else if (v->size <= sizeof(d->raw)) {
				bpf_probe_read_kernel(&d->raw, v->size & 15, (void *)val);
			}
		} else {
			d->raw = val;
		}
		if (v->flags & KS_F_PRED) {
			bool ok = ((v->flags & KS_F_EQ) && d->raw == v->predicate) ||
				  ((v->flags & KS_F_NE) && d->raw != v->predicate) ||
				  ((v->flags & KS_F_GT) && d->raw > v->predicate) ||
				  ((v->flags & KS_F_LT) && d->raw < v->predicate);

			if (!ok) {
				clear(f);
				return 0;
			}
		}
		src = v->flags & (KS_F_PTR | KS_F_MEMBER) ? (void *)val : &val;
		off = f->ev.buf_len;
		if (off >= KS_BUF - KS_DATA_MAX) /* the next value might not fit */
			break;
		barrier_var(off); /* the bound checked stays on the register used */
		sz = v->size < KS_DATA_MAX ? v->size : KS_DATA_MAX;
		barrier_var(sz);
		d->off = off;
		if ((err = bpf_probe_read_kernel(&f->ev.buf[off], sz, src))) {
			d->err = err;
			continue;
		}
		d->len = sz;
		f->ev.buf_len = off + sz;
	}
	if ((entry && f->prev_ip && !f->next_ip) || (!entry && f->next_ip && !f->prev_ip))
		output_stashed(ctx, f, entry);
	else
		output(ctx, f);
	return 0;
}

SEC("fentry/vfs_read")
int ksnoop_fentry(void *ctx)
{
	__u64 a[KS_VALUES] = {};

	for (int i = 0; i < KS_RETURN; i++)
		bpf_get_func_arg(ctx, i, &a[i]);
	return ksnoop(ctx, true, bpf_get_func_ip(ctx), a);
}

SEC("fexit/vfs_read")
int ksnoop_fexit(void *ctx)
{
	__u64 a[KS_VALUES] = {};

	bpf_get_func_ret(ctx, &a[KS_RETURN]);
	return ksnoop(ctx, false, 0, a);
}

SEC("kprobe/vfs_read")
int ksnoop_kprobe(struct pt_regs *ctx)
{
	__u64 a[KS_VALUES] = { PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx), PT_REGS_PARM4(ctx),
			       PT_REGS_PARM5(ctx) };

	/* the function's address, whichever way this kernel reports it:
	 * bpf_get_func_ip (5.15+), else the int3's address + 1, after an
	 * x86 endbr64 (IBT) or not */
	__u64 ips[4] = { bpf_get_func_ip(ctx), PT_REGS_IP(ctx) - 1, PT_REGS_IP(ctx) - 5, bpf_get_func_ip(ctx) - 4 };

	for (int i = 0; i < 4; i++)
		if (bpf_map_lookup_elem(&ks_funcs, &ips[i]))
			return ksnoop(ctx, true, ips[i], a);
	return 0;
}

SEC("kretprobe/vfs_read")
int ksnoop_kretprobe(struct pt_regs *ctx)
{
	__u64 a[KS_VALUES] = {};

	a[KS_RETURN] = PT_REGS_RC(ctx);
	return ksnoop(ctx, false, 0, a);
}
