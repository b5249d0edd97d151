/* bitesize, kernel side: a log2 histogram of request sizes in KiB per
 * process name, counted when the request is issued (the task current
 * then is taken as its owner, as in libbpf-tools). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "bits.bpf.h"
#include "blk.bpf.h"
#include "bitesize.h"

const volatile char targ_comm[BITESIZE_COMM_LEN] = {};
const volatile __u8 filter_dev = 0;
const volatile __u32 targ_dev = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BITESIZE_MAX_ENTRIES);
	__type(key, struct bitesize_key);
	__type(value, struct bitesize_hist);
} hists SEC(".maps");

/* -c COMM: a prefix of the process name. */
static __always_inline int comm_allowed(const char *comm)
{
	for (int i = 0; i < BITESIZE_COMM_LEN && targ_comm[i]; i++)
		if (comm[i] != targ_comm[i])
			return 0;
	return 1;
}

SEC("tp_btf/block_rq_issue")
int block_rq_issue(unsigned long long *ctx)
{
	struct request___blk *rq = BLK_RQ_ARG(ctx);
	struct bitesize_key key = {};
	struct bitesize_hist *h;
	__u32 len;

	if (filter_dev && rq_dev(rq) != targ_dev)
		return 0;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	if (!comm_allowed(key.comm))
		return 0;
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		struct bitesize_hist zero = {};

		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h)
			return 0;
	}
	len = BPF_CORE_READ(rq, __data_len);
	__sync_fetch_and_add(&h->slots[log2_slot(len / 1024, BITESIZE_MAX_SLOTS)], 1);
	__sync_fetch_and_add(&h->bytes, len);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
