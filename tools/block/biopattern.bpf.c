/* biopattern, kernel side: per disk, is each completed request
 * sequential (it starts where the previous one ended) or random?  A
 * disk's first request after the counters were read only sets where it
 * ended, as in libbpf-tools. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "blk.bpf.h"
#include "biopattern.h"

const volatile __u8 filter_dev = 0;
const volatile __u32 targ_dev = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOPATTERN_MAX_DISKS);
	__type(key, __u32);
	__type(value, struct biopattern_counter);
} counters SEC(".maps");

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request___blk *rq, int error, unsigned int nr_bytes)
{
	struct biopattern_counter *c, zero = {};
	__u32 dev = rq_dev(rq), nr_sector = nr_bytes >> 9;
	__u64 sector = BPF_CORE_READ(rq, __sector);

	if (filter_dev && dev != targ_dev)
		return 0;
	c = bpf_map_lookup_elem(&counters, &dev);
	if (!c) {
		bpf_map_update_elem(&counters, &dev, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&counters, &dev);
		if (!c)
			return 0;
	}
	if (c->last_sector) {
		if (c->last_sector == sector)
			__sync_fetch_and_add(&c->sequential, 1);
		else
			__sync_fetch_and_add(&c->random, 1);
		__sync_fetch_and_add(&c->bytes, (__u64)nr_sector * 512);
	}
	c->last_sector = sector + nr_sector;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
