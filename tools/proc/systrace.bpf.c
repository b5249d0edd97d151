/* systrace, kernel side: every system call paired in the kernel (entry
 * time and arguments by thread at sys_enter, the rest at sys_exit), so
 * user space only hears about what it asked for:
 *   events   one record per call, only calls slower than min_ns
 *            (--duration), with string arguments and an optional user stack;
 *   summary  (-s) per thread and syscall: calls, errors, total, min, max
 *            and the sum of squares, aggregated in place;
 *   flight   (--flight N) the last N calls of each cgroup, in a ring per
 *            cgroup that user space reads on SIGUSR1 or at exit.
 * raw_syscalls tracepoints as tp_btf, raw_tp where the kernel cannot. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "systrace.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 self_tgid = 0;   /* systrace itself: never (its own writes would feed back) */
const volatile __u32 filter_tgid = 0;
const volatile __u32 filter_tid = 0;
const volatile __u8 filter_cg = 0;
const volatile __u8 filter_nr = 0;    /* -e */
const volatile __u8 follow = 0;       /* COMMAND: pids map, children too */
const volatile __u8 failed_only = 0;  /* --failure */
const volatile __u8 do_events = 0;
const volatile __u8 do_summary = 0;
const volatile __u8 do_flight = 0;
const volatile __u8 want_args = 0;    /* events or flight: keep arguments */
const volatile __u8 want_stack = 0;
const volatile __u64 min_ns = 0;
const volatile __u32 flight_n = 1;

/* -s: calls left out of the summary, each counted by why its pair's
 * first insert failed (a non-preallocated hash can fail for more than
 * being full: the summary says which) */
__u64 stats_full = 0;     /* -E2BIG: ST_STATS_MAX pairs already */
__u64 stats_nomem = 0;    /* -ENOMEM: an element could not be allocated (only a
			   * non-preallocated map allocates at the insert) */
__u64 stats_busy = 0;     /* the bucket lock was refused (-EBUSY, -EDEADLK,
			   * -ETIMEDOUT: a nested or stuck holder) */
__u64 stats_other = 0;    /* any other error (none known) */
__u64 rings_dropped = 0;  /* --flight: the rings map was full */

/* per syscall: string arguments to copy (bits 0..5), ST_TRACED (-e);
 * filled by user space before load, read-only after */
const volatile __u8 sc_info[ST_MAX_NR] = {};

/* LRU: threads that died inside a call (exit_group, a kill) age out */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct st_start);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* Preallocated: a non-preallocated element is allocated at the insert
 * with GFP_NOWAIT and charged to systrace's memory cgroup, which fails
 * (-ENOMEM, retries or not) whenever that cgroup is at its limit, e.g.
 * full of page cache after a build: calls went missing from the summary
 * on an idle machine.  Preallocation charges all the elements once, at
 * load, where the kernel can reclaim (65536 * ~150 bytes, only with -s:
 * the map has one entry otherwise); the insert then fails only when the
 * map is full. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ST_STATS_MAX);
	__type(key, struct st_key);
	__type(value, struct st_stats);
} stats SEC(".maps");

/* execve()'s path, read at entry: after a successful exec the caller's
 * memory is gone */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, char[ST_STR_MAX]);
} exec_path SEC(".maps");

/* value_size = 8 + flight_n * sizeof(struct st_rec), set by user space */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__uint(value_size, 8 + sizeof(struct st_rec));
} rings SEC(".maps");

/* an all-zero ring, the initial value of a new cgroup's ring */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__uint(value_size, 8 + sizeof(struct st_rec));
} ring_zero SEC(".maps");

CB_HEAP(heap, struct st_event);

#define NR_EXECVE __NR_execve
#define NR_EXECVEAT __NR_execveat

/* The six argument registers with one probe read (valid as tp_btf and as
 * raw_tp; at sys_enter they still hold what the caller passed).  x86_64:
 * di si dx r10 r8 r9, and r10 r9 r8 ax cx dx si di are contiguous in
 * pt_regs; arm64: x0..x5, arm: r0..r5 (4 bytes each), contiguous. */
static __always_inline void read_args(struct pt_regs *regs, __u64 *args)
{
	struct cb_pt_regs *r = (struct cb_pt_regs *)regs;
#if defined(__TARGET_ARCH_arm64)
	bpf_core_read(args, 6 * sizeof(__u64), &r->regs[0]);
#elif defined(__TARGET_ARCH_arm)
	__u32 v[6];

	if (bpf_probe_read_kernel(v, sizeof(v), &r->uregs[0]) < 0)
		return;
	for (int i = 0; i < 6; i++)
		args[i] = v[i];
#else
	__u64 v[8];

	if (bpf_core_read(v, sizeof(v), &r->r10) < 0)
		return;
	args[0] = v[7];
	args[1] = v[6];
	args[2] = v[5];
	args[3] = v[0];
	args[4] = v[2];
	args[5] = v[1];
#endif
}

static __always_inline int wanted(__u64 id)
{
	__u32 tgid = id >> 32;

	if (tgid == self_tgid)
		return 0;
	if (filter_tid && (__u32)id != filter_tid)
		return 0;
	if (filter_tgid && tgid != filter_tgid)
		return 0;
	if (follow && !bpf_map_lookup_elem(&pids, &tgid))
		return 0;
	if (!cgroup_allowed(filter_cg))
		return 0;
	return 1;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(systrace_enter, struct pt_regs *regs, long id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid, nr = (__u32)id;
	struct st_start *st, fresh;

	if (id < 0 || id >= ST_MAX_NR || !wanted(pid_tgid))
		return 0;
	if (filter_nr && !(sc_info[nr] & ST_TRACED))
		return 0;
	st = bpf_map_lookup_elem(&start, &tid);
	if (!st) {
		__builtin_memset(&fresh, 0, sizeof(fresh));
		bpf_map_update_elem(&start, &tid, &fresh, BPF_ANY);
		st = bpf_map_lookup_elem(&start, &tid);
		if (!st)
			return 0;
	}
	st->nr = nr;
	if (want_args) {
		read_args(regs, st->args);
		if (do_events && (nr == NR_EXECVE || nr == NR_EXECVEAT)) {
			__u32 zero = 0;
			struct st_event *e = bpf_map_lookup_elem(&heap, &zero);
			const char *p = (const char *)st->args[nr == NR_EXECVE ? 0 : 1];

			if (e && bpf_probe_read_user_str(e->str[0], ST_STR_MAX, p) > 0)
				bpf_map_update_elem(&exec_path, &tid, e->str[0], BPF_ANY);
		}
	}
	st->ts = bpf_ktime_get_ns(); /* last: the call is now open */
	return 0;
}

/* sum of squares into 128 bits: d = h * 2^32 + l,
 * d^2 = h^2 * 2^64 + 2hl * 2^32 + l^2 */
static __always_inline void sq_add(struct st_stats *s, __u64 d)
{
	__u64 h = d >> 32, l = d & 0xffffffffull, lo, add;

	lo = s->sq_lo;
	add = l * l;
	s->sq_lo = lo + add;
	if (s->sq_lo < lo)
		s->sq_hi++;
	if (h) {
		__u64 m = h * l;

		lo = s->sq_lo;
		s->sq_lo = lo + (m << 33);
		if (s->sq_lo < lo)
			s->sq_hi++;
		s->sq_hi += (m >> 31) + h * h;
	}
}

/* The pair's stats, inserted on its first call.  A failed insert is
 * retried a few times: a refused bucket lock is transient (another CPU
 * held it too long), and -EEXIST cannot happen (the key holds the thread,
 * and a thread makes one call at a time) but would mean found. */
#define ST_INSERT_TRIES 4
/* asm-generic/errno*.h: the same numbers on x86_64 and arm64 */
#define ST_E2BIG 7
#define ST_ENOMEM 12
#define ST_EBUSY 16
#define ST_EEXIST 17
#define ST_EDEADLK 35
#define ST_ETIMEDOUT 110
static __always_inline struct st_stats *stats_of(const struct st_key *key)
{
	struct st_stats *s, fresh;
	long err = 0;

	s = bpf_map_lookup_elem(&stats, key);
	if (s)
		return s;
	__builtin_memset(&fresh, 0, sizeof(fresh));
	fresh.min = ~0ull;
	fresh.comm_ts = bpf_ktime_get_ns();
	bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
	for (int i = 0; i < ST_INSERT_TRIES; i++) {
		err = bpf_map_update_elem(&stats, key, &fresh, BPF_NOEXIST);
		if (!err || err == -ST_EEXIST) {
			s = bpf_map_lookup_elem(&stats, key);
			if (s)
				return s;
		}
		if (err == -ST_E2BIG)
			break;
	}
	if (err == -ST_E2BIG)
		__sync_fetch_and_add(&stats_full, 1);
	else if (err == -ST_ENOMEM)
		__sync_fetch_and_add(&stats_nomem, 1);
	else if (err == -ST_EBUSY || err == -ST_EDEADLK || err == -ST_ETIMEDOUT)
		__sync_fetch_and_add(&stats_busy, 1);
	else
		__sync_fetch_and_add(&stats_other, 1);
	return NULL;
}

static __always_inline void summarize(__u64 pid_tgid, __u32 nr, long ret, __u64 dur)
{
	struct st_key key = { .pid = pid_tgid >> 32, .tid = (__u32)pid_tgid, .nr = nr };
	struct st_stats *s = stats_of(&key);

	if (!s)
		return;
	/* one writer: a thread is in one system call at a time */
	s->calls++;
	if (ret < 0)
		s->errors++;
	s->total += dur;
	if (dur < s->min)
		s->min = dur;
	if (dur > s->max)
		s->max = dur;
	sq_add(s, dur);
	if ((nr == NR_EXECVE || nr == NR_EXECVEAT) && ret == 0) { /* a new name */
		s->comm_ts = bpf_ktime_get_ns();
		bpf_get_current_comm(s->comm, sizeof(s->comm));
	}
}

static __always_inline void record(__u64 pid_tgid, const struct st_start *st, long ret, __u64 ts,
				   __u64 dur, __u8 info)
{
	__u64 cgid = bpf_get_current_cgroup_id(), pos, idx;
	struct st_rec *r;
	__u32 zero = 0;
	void *ring, *z;

	ring = bpf_map_lookup_elem(&rings, &cgid);
	if (!ring) {
		z = bpf_map_lookup_elem(&ring_zero, &zero);
		if (!z)
			return;
		bpf_map_update_elem(&rings, &cgid, z, BPF_NOEXIST);
		ring = bpf_map_lookup_elem(&rings, &cgid);
		if (!ring) {
			__sync_fetch_and_add(&rings_dropped, 1);
			return;
		}
	}
	pos = __sync_fetch_and_add((__u64 *)ring, 1);
	idx = pos % flight_n;
	if (idx >= flight_n || idx >= ST_FLIGHT_MAX)
		return;
	r = ring + 8 + idx * sizeof(struct st_rec);
	r->seq = 0;
	r->ts = ts;
	r->dur = dur;
	__builtin_memcpy(r->args, st->args, sizeof(r->args));
	r->ret = ret;
	r->pid = pid_tgid >> 32;
	r->tid = (__u32)pid_tgid;
	r->nr = st->nr;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	r->str[0] = 0;
	for (int i = 0; i < 6; i++)
		if (info & (1 << i)) {
			bpf_probe_read_user_str(r->str, sizeof(r->str), (const void *)st->args[i]);
			break;
		}
	r->seq = (__u32)pos + 1;
}

static __always_inline void emit(void *ctx, __u64 pid_tgid, const struct st_start *st, long ret, __u64 ts,
				 __u64 dur, __u8 info)
{
	__u32 zero = 0, tid = (__u32)pid_tgid, k = 0;
	struct st_event *e = bpf_map_lookup_elem(&heap, &zero);
	__u64 size;
	long n;

	if (!e)
		return;
	e->ts = ts;
	e->dur = dur;
	__builtin_memcpy(e->args, st->args, sizeof(e->args));
	e->ret = ret;
	e->pid = pid_tgid >> 32;
	e->tid = tid;
	e->nr = st->nr;
	e->nstack = 0;
	e->str_len[0] = e->str_len[1] = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if ((st->nr == NR_EXECVE || st->nr == NR_EXECVEAT) && info) {
		char *p = bpf_map_lookup_elem(&exec_path, &tid);

		if (p) {
			n = bpf_probe_read_kernel_str(e->str[0], ST_STR_MAX, p);
			if (n > 0) {
				e->str_len[0] = n;
				e->str_arg[0] = st->nr == NR_EXECVE ? 0 : 1;
				k = 1;
			}
			bpf_map_delete_elem(&exec_path, &tid);
		}
		info = 0;
	}
	for (int i = 0; i < 6; i++) {
		if (!(info & (1 << i)) || k >= ST_NSTR)
			continue;
		n = bpf_probe_read_user_str(e->str[k & 1], ST_STR_MAX, (const void *)st->args[i]);
		if (n > 0) {
			e->str_len[k & 1] = n;
			e->str_arg[k & 1] = i;
			k++;
		}
	}
	if (want_stack) {
		n = bpf_get_stack(ctx, e->stack, sizeof(e->stack), BPF_F_USER_STACK);
		e->nstack = n < 0 ? n : (__s32)((__u64)n >> 3);
		size = sizeof(*e);
	} else {
		size = __builtin_offsetof(struct st_event, str);
		if (k == 1)
			size += ST_STR_MAX;
		else if (k > 1)
			size += 2 * ST_STR_MAX;
	}
	events_output(ctx, e, size);
}

static __always_inline int on_exit(void *ctx, long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), ts, dur;
	__u32 tid = (__u32)pid_tgid, nr;
	struct st_start *st;
	__u8 info = 0;

	/* the cheap filters again: other threads skip the hash lookup */
	if ((filter_tid && tid != filter_tid) || (filter_tgid && (__u32)(pid_tgid >> 32) != filter_tgid))
		return 0;
	st = bpf_map_lookup_elem(&start, &tid);
	if (!st || !st->ts)
		return 0;
	ts = st->ts;
	st->ts = 0;
	dur = bpf_ktime_get_ns() - ts;
	nr = st->nr;
	if (failed_only && ret >= 0)
		return 0;
	if (do_summary)
		summarize(pid_tgid, nr, ret, dur);
	if (want_args && nr < ST_MAX_NR)
		info = sc_info[nr] & 0x3f;
	if (do_flight)
		record(pid_tgid, st, ret, ts, dur, info);
	if (do_events && dur >= min_ns)
		emit(ctx, pid_tgid, st, ret, ts, dur, info);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(systrace_exit, struct pt_regs *regs, long ret)
{
	return on_exit(ctx, CB_SYSCALL_RET(ret));
}

/* the member read (a CO-RE flavor: not task_struct's whole type graph) */
struct task_struct___st {
	pid_t tgid;
} __attribute__((preserve_access_index));

/* COMMAND mode: the command's children are traced too. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(systrace_fork, struct task_struct___st *parent, struct task_struct___st *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid;
	__u8 one = 1;

	if (!bpf_map_lookup_elem(&pids, &ptgid))
		return 0;
	ctgid = BPF_CORE_READ(child, tgid);
	bpf_map_update_elem(&pids, &ctgid, &one, BPF_ANY);
	return 0;
}
