/* Seed for the ELF/BTF/BTF.ext fuzzers: a small BPF object with the
 * shapes the parsers meet in real tools (BTF-defined map, global data,
 * bitfields, enums, typedefs, function pointers, CO-RE relocations,
 * func_info and line_info).  Self-contained on purpose: it must compile
 * with nothing but clang -target bpf.  Never loaded. */
#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

typedef unsigned int u32;
typedef unsigned long long u64;

enum seed_state { SEED_IDLE, SEED_RUN = 3, SEED_BIG = 1 << 20 };

struct seed_task {
	int pid;
	u32 flags : 3, prio : 5;
	union {
		u64 ns;
		char comm[16];
	} u;
	struct seed_task *parent;
	int (*cb)(struct seed_task *, long);
	enum seed_state state;
	const volatile u64 ro[2];
} __attribute__((preserve_access_index));

struct {
	__uint(type, 1 /* BPF_MAP_TYPE_HASH */);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, u64);
} seed_counts SEC(".maps");

const volatile int seed_filter_pid = 0;
u64 seed_total = 0;
int seed_hist[8] = { 1 };

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;

static __attribute__((noinline)) int seed_helper(struct seed_task *t)
{
	return t->prio + __builtin_preserve_field_info(t->flags, 0);
}

SEC("tracepoint/sched/sched_process_exec")
int seed_prog(struct seed_task *t)
{
	u32 key = t->pid;
	u64 *v;

	if (seed_filter_pid && t->parent->pid != seed_filter_pid)
		return 0;
	v = bpf_map_lookup_elem(&seed_counts, &key);
	if (v)
		__sync_fetch_and_add(v, t->u.ns);
	seed_total += seed_helper(t);
	seed_hist[t->state & 7]++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
