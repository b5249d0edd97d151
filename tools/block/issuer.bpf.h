/* Who submitted a block request (biosnoop, biotop): the task current when
 * the request is accounted -- the block_io_start tracepoint on 6.5+, else
 * fentry or a kprobe on blk_account_io_start; blk_choose_attribution() in
 * blk.c keeps the one this kernel allows -- or, without any of them
 * (pid_at_issue), the task current at insert/issue, where the tool calls
 * issuer_record() itself.  The completion looks the request up in
 * `issuers` and deletes it.
 * Before including this, the tool defines ISSUER_MAX_ENTRIES and its
 * filter: static __always_inline bool issuer_wanted(__u32 tgid); and
 * ISSUER_CGROUP_ID() if its events carry the issuer's cgroup. */
#ifndef COREBOX_ISSUER_BPF_H
#define COREBOX_ISSUER_BPF_H

#include "corebox.bpf.h"
#include "blk.bpf.h"

#define ISSUER_COMM_LEN 16

#ifndef ISSUER_CGROUP_ID
#define ISSUER_CGROUP_ID() 0
#endif

/* set by the user side when no way in at accounting time is left */
const volatile __u8 pid_at_issue = 0;

struct issuer {
	__u32 pid; /* tgid */
	char comm[ISSUER_COMM_LEN];
	__u64 cgroup_id; /* ISSUER_CGROUP_ID() */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ISSUER_MAX_ENTRIES);
	__type(key, __u64); /* struct request___blk * */
	__type(value, struct issuer);
} issuers SEC(".maps");

static __always_inline int issuer_record(struct request___blk *rq)
{
	__u64 key = (__u64)(unsigned long)rq;
	struct issuer w = {};

	w.pid = bpf_get_current_pid_tgid() >> 32;
	if (!issuer_wanted(w.pid))
		return 0;
	bpf_get_current_comm(w.comm, sizeof(w.comm));
	w.cgroup_id = ISSUER_CGROUP_ID();
	bpf_map_update_elem(&issuers, &key, &w, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_io_start")
int BPF_PROG(block_io_start, struct request___blk *rq)
{
	return issuer_record(rq);
}

SEC("fentry/blk_account_io_start")
int BPF_PROG(io_start_fentry, struct request___blk *rq)
{
	return issuer_record(rq);
}

SEC("kprobe/blk_account_io_start")
int io_start_kprobe(struct pt_regs *ctx)
{
	return issuer_record((struct request___blk *)PT_REGS_PARM1(ctx));
}

#endif
