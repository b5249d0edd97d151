/* corebox BPF-side base header: kernel types, section and map-definition
 * macros, helper prototypes, CO-RE read macros, the tracing-context
 * argument macro (BPF_PROG) and, from arch.bpf.h, everything that depends
 * on the target architecture (syscall numbers, pt_regs access, BPF_KPROBE,
 * BPF_KSYSCALL, syscall wrapper names): see the list at its top.  Written for corebox's own loader (libbpf's headers are
 * not used).  Each tool defines its own LICENSE.
 *
 * Helpers are called through constant function pointers whose value is the
 * helper id (enum bpf_func_id from vmlinux.h); clang turns such a call into
 * "call ID".  CO-RE reads go through __builtin_preserve_access_index so the
 * loader can relocate field offsets against the running kernel's BTF. */
#ifndef COREBOX_BPF_H
#define COREBOX_BPF_H

/* 32-bit ARM: the syscall tracepoints' signed longs (id, ret) are 4 bytes
 * in the kernel, 8 in BPF C, and CO-RE can narrow an unsigned load but
 * not a signed one (the sign would be lost).  So on arm these two records
 * are declared with int for them (sign-extended when used as a long);
 * vmlinux.h's versions are renamed out of the way by the Makefile
 * (-Dtrace_event_raw_sys_enter=..._vmlinux_h: some tools include
 * vmlinux.h first).  args[] are unsigned: the loader narrows those loads. */
#include "vmlinux.h"
#if defined(__TARGET_ARCH_arm) && defined(trace_event_raw_sys_enter)
#undef trace_event_raw_sys_enter
#undef trace_event_raw_sys_exit
struct trace_event_raw_sys_enter {
	struct trace_entry ent;
	int id;
	unsigned long args[6];
} __attribute__((preserve_access_index));
struct trace_event_raw_sys_exit {
	struct trace_entry ent;
	int id;
	int ret;
} __attribute__((preserve_access_index));
#endif

/* ---- basics ----------------------------------------------------------- */

#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef true
#define true 1
#define false 0
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif
#ifndef barrier
#define barrier() __asm__ __volatile__("" ::: "memory")
#endif
/* Hide a value from the optimizer (keeps bounds checks the verifier needs). */
#define barrier_var(v) __asm__ __volatile__("" : "=r"(v) : "0"(v))
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Put a function or variable into ELF section NAME (program type and attach
 * point for programs: "tracepoint/syscalls/sys_enter_openat", "tp_btf/...",
 * "raw_tp/...", "kprobe/...", "perf_event", ...; ".maps" for maps). */
#define SEC(name) __attribute__((section(name), used))

/* BTF-defined maps: the loader reads these members' types from BTF.
 *   __uint(max_entries, 1024)  -> int (*max_entries)[1024]
 *   __type(key, u32)           -> u32 *key
 *   __array(values, T)         -> T *values[]                         */
#define __uint(field, n) int (*field)[n]
#define __type(field, T) __typeof__(T) *field
#define __array(field, T) __typeof__(T) *field[]

/* A one-slot per-CPU array used as scratch space for structures larger
 * than the 512-byte BPF stack:  CB_HEAP(heap, struct event); then
 * `u32 zero = 0; struct event *e = bpf_map_lookup_elem(&heap, &zero);` */
#define CB_HEAP(mapname, valtype)                                              \
	struct {                                                               \
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);                       \
		__uint(max_entries, 1);                                        \
		__type(key, __u32);                                            \
		__type(value, valtype);                                        \
	} mapname SEC(".maps")

/* ---- flag constants (anonymous enums in the kernel's BTF) ------------- */

#define BPF_ANY 0
#define BPF_NOEXIST 1
#define BPF_EXIST 2
#define BPF_F_LOCK 4
#define BPF_F_NO_PREALLOC (1U << 0)
#define BPF_F_NO_COMMON_LRU (1U << 1)
#define BPF_F_RDONLY_PROG (1U << 7)
#define BPF_F_WRONLY_PROG (1U << 8)
#define BPF_F_MMAPABLE (1U << 10)
#define BPF_F_INDEX_MASK 0xffffffffULL
#define BPF_F_CURRENT_CPU BPF_F_INDEX_MASK
#define BPF_F_SKIP_FIELD_MASK 0xffULL
#define BPF_F_USER_STACK (1ULL << 8)
#define BPF_F_FAST_STACK_CMP (1ULL << 9)
#define BPF_F_REUSE_STACKID (1ULL << 10)
#define BPF_F_USER_BUILD_ID (1ULL << 11)
#define BPF_RB_NO_WAKEUP (1ULL << 0)
#define BPF_RB_FORCE_WAKEUP (1ULL << 1)

/* ---- helpers ---------------------------------------------------------- */

struct bpf_pidns_info;
struct bpf_perf_event_value;
struct bpf_spin_lock;
struct pt_regs;
struct task_struct;

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)BPF_FUNC_map_update_elem;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_delete_elem;
static long (*bpf_probe_read)(void *dst, __u32 size, const void *unsafe_ptr) = (void *)BPF_FUNC_probe_read;
static long (*bpf_probe_read_str)(void *dst, __u32 size, const void *unsafe_ptr) =
	(void *)BPF_FUNC_probe_read_str;
static long (*bpf_probe_read_user)(void *dst, __u32 size, const void *unsafe_ptr) =
	(void *)BPF_FUNC_probe_read_user;
static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *unsafe_ptr) =
	(void *)BPF_FUNC_probe_read_kernel;
static long (*bpf_probe_read_user_str)(void *dst, __u32 size, const void *unsafe_ptr) =
	(void *)BPF_FUNC_probe_read_user_str;
static long (*bpf_probe_read_kernel_str)(void *dst, __u32 size, const void *unsafe_ptr) =
	(void *)BPF_FUNC_probe_read_kernel_str;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static __u64 (*bpf_ktime_get_boot_ns)(void) = (void *)BPF_FUNC_ktime_get_boot_ns;
static __u64 (*bpf_jiffies64)(void) = (void *)BPF_FUNC_jiffies64;
static long (*bpf_trace_printk)(const char *fmt, __u32 fmt_size, ...) = (void *)BPF_FUNC_trace_printk;
static __u32 (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;
static __u32 (*bpf_get_smp_processor_id)(void) = (void *)BPF_FUNC_get_smp_processor_id;
static long (*bpf_tail_call)(void *ctx, void *prog_array_map, __u32 index) = (void *)BPF_FUNC_tail_call;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)BPF_FUNC_get_current_pid_tgid;
static __u64 (*bpf_get_current_uid_gid)(void) = (void *)BPF_FUNC_get_current_uid_gid;
static long (*bpf_get_current_comm)(void *buf, __u32 size_of_buf) = (void *)BPF_FUNC_get_current_comm;
static __u64 (*bpf_get_current_task)(void) = (void *)BPF_FUNC_get_current_task;
static struct task_struct *(*bpf_get_current_task_btf)(void) = (void *)BPF_FUNC_get_current_task_btf;
static __u64 (*bpf_get_current_cgroup_id)(void) = (void *)BPF_FUNC_get_current_cgroup_id;
static __u64 (*bpf_get_current_ancestor_cgroup_id)(int ancestor_level) =
	(void *)BPF_FUNC_get_current_ancestor_cgroup_id;
static long (*bpf_current_task_under_cgroup)(void *map, __u32 index) =
	(void *)BPF_FUNC_current_task_under_cgroup;
static long (*bpf_perf_event_output)(void *ctx, void *map, __u64 flags, void *data, __u64 size) =
	(void *)BPF_FUNC_perf_event_output;
static long (*bpf_perf_event_read_value)(void *map, __u64 flags, struct bpf_perf_event_value *buf,
					 __u32 buf_size) = (void *)BPF_FUNC_perf_event_read_value;
static long (*bpf_get_stackid)(void *ctx, void *map, __u64 flags) = (void *)BPF_FUNC_get_stackid;
static long (*bpf_get_stack)(void *ctx, void *buf, __u32 size, __u64 flags) = (void *)BPF_FUNC_get_stack;
static long (*bpf_get_task_stack)(struct task_struct *task, void *buf, __u32 size, __u64 flags) =
	(void *)BPF_FUNC_get_task_stack;
static long (*bpf_ringbuf_output)(void *ringbuf, void *data, __u64 size, __u64 flags) =
	(void *)BPF_FUNC_ringbuf_output;
static void *(*bpf_ringbuf_reserve)(void *ringbuf, __u64 size, __u64 flags) =
	(void *)BPF_FUNC_ringbuf_reserve;
static void (*bpf_ringbuf_submit)(void *data, __u64 flags) = (void *)BPF_FUNC_ringbuf_submit;
static void (*bpf_ringbuf_discard)(void *data, __u64 flags) = (void *)BPF_FUNC_ringbuf_discard;
static __u64 (*bpf_ringbuf_query)(void *ringbuf, __u64 flags) = (void *)BPF_FUNC_ringbuf_query;
static long (*bpf_get_ns_current_pid_tgid)(__u64 dev, __u64 ino, struct bpf_pidns_info *nsdata,
					   __u32 size) = (void *)BPF_FUNC_get_ns_current_pid_tgid;
static __u64 (*bpf_get_attach_cookie)(void *ctx) = (void *)BPF_FUNC_get_attach_cookie;
static __u64 (*bpf_get_func_ip)(void *ctx) = (void *)BPF_FUNC_get_func_ip;
static long (*bpf_send_signal)(__u32 sig) = (void *)BPF_FUNC_send_signal;
static long (*bpf_spin_lock)(struct bpf_spin_lock *lock) = (void *)BPF_FUNC_spin_lock;
static long (*bpf_spin_unlock)(struct bpf_spin_lock *lock) = (void *)BPF_FUNC_spin_unlock;
static void *(*bpf_map_lookup_percpu_elem)(void *map, const void *key, __u32 cpu) =
	(void *)BPF_FUNC_map_lookup_percpu_elem;
static long (*bpf_loop)(__u32 nr_loops, void *callback_fn, void *callback_ctx, __u64 flags) =
	(void *)BPF_FUNC_loop;
static struct pt_regs *(*bpf_task_pt_regs)(struct task_struct *task) = (void *)BPF_FUNC_task_pt_regs;

/* bpf_printk("fmt %d", x): debug output to tracefs trace_pipe. */
#define bpf_printk(fmt, ...)                                                   \
	({                                                                     \
		static const char ____fmt[] = fmt;                             \
		bpf_trace_printk(____fmt, sizeof(____fmt), ##__VA_ARGS__);     \
	})

/* ---- CO-RE ------------------------------------------------------------ */

/* Kinds understood by clang's __builtin_preserve_field_info /
 * __builtin_preserve_type_info / __builtin_preserve_enum_value. */
#define CB_FIELD_BYTE_OFFSET 0
#define CB_FIELD_BYTE_SIZE 1
#define CB_FIELD_EXISTS 2
#define CB_FIELD_SIGNED 3
#define CB_FIELD_LSHIFT_U64 4
#define CB_FIELD_RSHIFT_U64 5
#define CB_TYPE_EXISTS 0
#define CB_TYPE_SIZE 1
#define CB_ENUMVAL_EXISTS 0
#define CB_ENUMVAL_VALUE 1

/* 32-bit ARM kernels keep hash map values only 4-byte aligned, and their
 * 64-bit atomics (ldrexd/strexd, in the interpreter and the JIT) take an
 * alignment fault there: a kernel oops.  So on arm an 8-byte
 * __sync_fetch_and_add is a plain load, add and store (an increment is
 * lost only when two CPUs race on one value); 4-byte ones stay atomic.
 * (Inside its own definition the name is the compiler's builtin.) */
#if defined(__TARGET_ARCH_arm)
#define __sync_fetch_and_add(p, v)                                             \
	__builtin_choose_expr(sizeof(*(p)) == 8,                               \
			      ({                                               \
				      __typeof__(*(p)) *___p = (p);            \
				      __typeof__(*___p) ___o = *___p;          \
				      *___p = ___o + (v);                      \
				      ___o;                                    \
			      }),                                              \
			      __sync_fetch_and_add(p, v))
#endif

/* argument counting (1..9) and token pasting */
#define ___cb_nth(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define ___cb_nargs(...) ___cb_nth(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define ___cb_cat_(a, b) a##b
#define ___cb_cat(a, b) ___cb_cat_(a, b)

/* Relocatable copy: bpf_core_read(&dst, sizeof(dst), &ptr->field). */
#define bpf_core_read(dst, sz, src) \
	bpf_probe_read_kernel(dst, sz, (const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_str(dst, sz, src) \
	bpf_probe_read_kernel_str(dst, sz, (const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_user(dst, sz, src) \
	bpf_probe_read_user(dst, sz, (const void *)__builtin_preserve_access_index(src))

/* One hop: the value of s->f read with a relocated offset. */
#define ___cb_hop(s, f)                                                        \
	({                                                                     \
		__typeof__(s) ___b = (s);                                      \
		__typeof__(___b->f) ___v;                                      \
		bpf_probe_read_kernel((void *)&___v, sizeof(___v),             \
				      (const void *)__builtin_preserve_access_index(&___b->f)); \
		___v;                                                          \
	})
#define ___cb_r1(s, a) ___cb_hop(s, a)
#define ___cb_r2(s, a, b) ___cb_hop(___cb_r1(s, a), b)
#define ___cb_r3(s, a, b, c) ___cb_hop(___cb_r2(s, a, b), c)
#define ___cb_r4(s, a, b, c, d) ___cb_hop(___cb_r3(s, a, b, c), d)
#define ___cb_r5(s, a, b, c, d, e) ___cb_hop(___cb_r4(s, a, b, c, d), e)
#define ___cb_r6(s, a, b, c, d, e, f) ___cb_hop(___cb_r5(s, a, b, c, d, e), f)
#define ___cb_r7(s, a, b, c, d, e, f, g) ___cb_hop(___cb_r6(s, a, b, c, d, e, f), g)
#define ___cb_r8(s, a, b, c, d, e, f, g, h) ___cb_hop(___cb_r7(s, a, b, c, d, e, f, g), h)

/* BPF_CORE_READ(task, real_parent, tgid): follow a pointer chain, each hop
 * a relocated kernel read; evaluates to the last field's value (0 when a
 * read faults).  A hop may name a nested member ("d_name.name"). */
#define BPF_CORE_READ(src, ...) ___cb_cat(___cb_r, ___cb_nargs(__VA_ARGS__))(src, __VA_ARGS__)

/* BPF_CORE_READ_INTO(&dst, src, a, b): like BPF_CORE_READ but stores into
 * *dst and returns the last read's result (0 or -errno). */
#define ___cb_into1(d, s, a)                                                   \
	({                                                                     \
		__typeof__(s) ___b = (s);                                      \
		bpf_probe_read_kernel((void *)(d), sizeof(*(d)),               \
				      (const void *)__builtin_preserve_access_index(&___b->a)); \
	})
#define ___cb_into2(d, s, a, b) ___cb_into1(d, ___cb_r1(s, a), b)
#define ___cb_into3(d, s, a, b, c) ___cb_into1(d, ___cb_r2(s, a, b), c)
#define ___cb_into4(d, s, a, b, c, e) ___cb_into1(d, ___cb_r3(s, a, b, c), e)
#define ___cb_into5(d, s, a, b, c, e, f) ___cb_into1(d, ___cb_r4(s, a, b, c, e), f)
#define ___cb_into6(d, s, a, b, c, e, f, g) ___cb_into1(d, ___cb_r5(s, a, b, c, e, f), g)
#define BPF_CORE_READ_INTO(dst, src, ...) \
	___cb_cat(___cb_into, ___cb_nargs(__VA_ARGS__))(dst, src, __VA_ARGS__)

/* BPF_CORE_READ_STR_INTO(buf, src, a, b): the last field is a char array
 * or char pointer target; copy a NUL-terminated string of sizeof(buf). */
#define ___cb_sinto1(d, s, a)                                                  \
	({                                                                     \
		__typeof__(s) ___b = (s);                                      \
		bpf_probe_read_kernel_str((void *)(d), sizeof(d),              \
					  (const void *)__builtin_preserve_access_index(&___b->a)); \
	})
#define ___cb_sinto2(d, s, a, b) ___cb_sinto1(d, ___cb_r1(s, a), b)
#define ___cb_sinto3(d, s, a, b, c) ___cb_sinto1(d, ___cb_r2(s, a, b), c)
#define ___cb_sinto4(d, s, a, b, c, e) ___cb_sinto1(d, ___cb_r3(s, a, b, c), e)
#define BPF_CORE_READ_STR_INTO(dst, src, ...) \
	___cb_cat(___cb_sinto, ___cb_nargs(__VA_ARGS__))(dst, src, __VA_ARGS__)

/* bpf_core_field_exists(ptr->field) or bpf_core_field_exists(type, field):
 * 1 if the running kernel's type has the field, else 0. */
#define ___cb_fexists1(expr) __builtin_preserve_field_info(expr, CB_FIELD_EXISTS)
#define ___cb_fexists2(T, f) __builtin_preserve_field_info(((__typeof__(T) *)0)->f, CB_FIELD_EXISTS)
#define bpf_core_field_exists(...) ___cb_cat(___cb_fexists, ___cb_nargs(__VA_ARGS__))(__VA_ARGS__)
/* Size in bytes of a field in the running kernel. */
#define ___cb_fsize1(expr) __builtin_preserve_field_info(expr, CB_FIELD_BYTE_SIZE)
#define ___cb_fsize2(T, f) __builtin_preserve_field_info(((__typeof__(T) *)0)->f, CB_FIELD_BYTE_SIZE)
#define bpf_core_field_size(...) ___cb_cat(___cb_fsize, ___cb_nargs(__VA_ARGS__))(__VA_ARGS__)

/* Byte offset of a field in the running kernel (for container_of). */
#define ___cb_foff1(expr) __builtin_preserve_field_info(expr, CB_FIELD_BYTE_OFFSET)
#define ___cb_foff2(T, f) __builtin_preserve_field_info(((__typeof__(T) *)0)->f, CB_FIELD_BYTE_OFFSET)
#define bpf_core_field_offset(...) ___cb_cat(___cb_foff, ___cb_nargs(__VA_ARGS__))(__VA_ARGS__)

/* bpf_core_type_exists(struct trace_event_raw_block_rq_completion) */
#define bpf_core_type_exists(T) __builtin_preserve_type_info(*(__typeof__(T) *)0, CB_TYPE_EXISTS)
#define bpf_core_type_size(T) __builtin_preserve_type_info(*(__typeof__(T) *)0, CB_TYPE_SIZE)

/* bpf_core_enum_value(enum req_op, REQ_OP_WRITE): the enumerator's value in
 * the running kernel; bpf_core_enum_value_exists likewise. */
#define bpf_core_enum_value(E, V) \
	__builtin_preserve_enum_value(*(__typeof__(E) *)V, CB_ENUMVAL_VALUE)
#define bpf_core_enum_value_exists(E, V) \
	__builtin_preserve_enum_value(*(__typeof__(E) *)V, CB_ENUMVAL_EXISTS)

/* Read a bitfield (s->field) of a kernel struct through probe_read with a
 * relocated byte offset, size and shifts (little-endian layout). */
#define BPF_CORE_READ_BITFIELD_PROBED(s, field)                                \
	({                                                                     \
		unsigned long long ___val = 0;                                 \
		unsigned int ___off = __builtin_preserve_field_info((s)->field, CB_FIELD_BYTE_OFFSET); \
		unsigned int ___sz = __builtin_preserve_field_info((s)->field, CB_FIELD_BYTE_SIZE); \
		bpf_probe_read_kernel((void *)&___val, ___sz, (const char *)(s) + ___off); \
		___val <<= __builtin_preserve_field_info((s)->field, CB_FIELD_LSHIFT_U64); \
		if (__builtin_preserve_field_info((s)->field, CB_FIELD_SIGNED)) \
			___val = (unsigned long long)((long long)___val >>     \
				 __builtin_preserve_field_info((s)->field, CB_FIELD_RSHIFT_U64)); \
		else                                                           \
			___val >>= __builtin_preserve_field_info((s)->field, CB_FIELD_RSHIFT_U64); \
		___val;                                                        \
	})

/* ---- tracing programs (tp_btf / raw_tp / fentry): args from u64 ctx[] --
 *
 *   SEC("tp_btf/sched_switch")
 *   int BPF_PROG(on_switch, bool preempt, struct task_struct *prev,
 *                struct task_struct *next) { ... }
 *
 * defines on_switch(u64 *ctx) that calls an inlined body with ctx[i] cast
 * to the i-th declared argument (ctx stays usable inside the body). */
#define ___cb_ctx0() ctx
#define ___cb_ctx1(x) ___cb_ctx0(), (void *)ctx[0]
#define ___cb_ctx2(x, ...) ___cb_ctx1(__VA_ARGS__), (void *)ctx[1]
#define ___cb_ctx3(x, ...) ___cb_ctx2(__VA_ARGS__), (void *)ctx[2]
#define ___cb_ctx4(x, ...) ___cb_ctx3(__VA_ARGS__), (void *)ctx[3]
#define ___cb_ctx5(x, ...) ___cb_ctx4(__VA_ARGS__), (void *)ctx[4]
#define ___cb_ctx6(x, ...) ___cb_ctx5(__VA_ARGS__), (void *)ctx[5]
#define ___cb_ctx7(x, ...) ___cb_ctx6(__VA_ARGS__), (void *)ctx[6]
#define ___cb_ctx8(x, ...) ___cb_ctx7(__VA_ARGS__), (void *)ctx[7]
#define ___cb_ctx9(x, ...) ___cb_ctx8(__VA_ARGS__), (void *)ctx[8]
#define ___cb_ctxn(n, ...) ___cb_cat(___cb_ctx, n)(__VA_ARGS__)

#define ___cb_argc(...) ___cb_nth(_, ##__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)

#define BPF_PROG(name, ...)                                                    \
	name(unsigned long long *ctx);                                         \
	static __always_inline int ____##name(unsigned long long *ctx, ##__VA_ARGS__); \
	int name(unsigned long long *ctx)                                      \
	{                                                                      \
		_Pragma("GCC diagnostic push")                                 \
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")         \
		return ____##name(___cb_ctxn(___cb_argc(__VA_ARGS__), __VA_ARGS__)); \
		_Pragma("GCC diagnostic pop")                                  \
	}                                                                      \
	static __always_inline int ____##name(unsigned long long *ctx, ##__VA_ARGS__)

/* raw_tp/tp_btf/fentry programs return int; tracepoint programs take the
 * tracepoint's trace_event_raw_* record as ctx. */

/* extern int LINUX_KERNEL_VERSION __kconfig;  extern void sym __ksym; */
#ifndef __kconfig
#define __kconfig __attribute__((section(".kconfig")))
#endif
#ifndef __ksym
#define __ksym __attribute__((section(".ksyms")))
#endif

#include "arch.bpf.h"

#endif
