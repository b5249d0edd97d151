/* A minimal stand-in for libbpf's bpf_helpers.h, so the objects of
 * tests/run/ are plain libbpf-style C that knows nothing of corebox's own
 * headers: SEC and BTF map-definition macros, a few types, and helpers
 * declared by their ids (enum bpf_func_id) the way libbpf does. */
#ifndef RUN_MINI_H
#define RUN_MINI_H

typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;
typedef int pid_t;
typedef _Bool bool;
#define true 1
#define false 0

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __kconfig __attribute__((section(".kconfig")))
#define __weak __attribute__((weak))
#define __noinline __attribute__((noinline))
#define __always_inline inline __attribute__((always_inline))

enum { MAP_HASH = 1, MAP_ARRAY = 2, MAP_PERF_EVENT_ARRAY = 4, MAP_PERCPU_ARRAY = 6, MAP_STACK_TRACE = 7,
       MAP_RINGBUF = 27 };
#define F_CURRENT_CPU 0xffffffffULL

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value, u64 flags) = (void *)2;
static long (*bpf_probe_read_kernel)(void *dst, u32 size, const void *src) = (void *)113;
static u64 (*bpf_ktime_get_ns)(void) = (void *)5;
static u64 (*bpf_get_current_pid_tgid)(void) = (void *)14;
static long (*bpf_get_stackid)(void *ctx, void *map, u64 flags) = (void *)27;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;
static long (*bpf_get_current_comm)(void *buf, u32 size) = (void *)16;
static long (*bpf_perf_event_output)(void *ctx, void *map, u64 flags, void *data, u64 size) = (void *)25;
static u64 (*bpf_get_current_task)(void) = (void *)35;
static void *(*bpf_ringbuf_reserve)(void *ringbuf, u64 size, u64 flags) = (void *)131;
static void (*bpf_ringbuf_submit)(void *data, u64 flags) = (void *)132;
static long (*bpf_ringbuf_output)(void *ringbuf, void *data, u64 size, u64 flags) = (void *)130;

/* libbpf's BPF_CORE_READ for one field: a CO-RE relocated probe read */
#define CORE_READ(dst, src) \
	bpf_probe_read_kernel(&(dst), sizeof(dst), __builtin_preserve_access_index(&(src)))

/* The context of raw_tp programs (tp_btf programs get the same u64 array
 * as their context directly). */
struct bpf_raw_tracepoint_args {
	u64 args[0];
};

/* Is the current task one of the test's helpers ("cbxrun_NNN")? */
static inline __attribute__((always_inline)) int cbxrun_task(char comm[16])
{
	bpf_get_current_comm(comm, 16);
	return comm[0] == 'c' && comm[1] == 'b' && comm[2] == 'x' && comm[3] == 'r' &&
	       comm[4] == 'u' && comm[5] == 'n' && comm[6] == '_';
}

#endif
