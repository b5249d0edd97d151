/* UAPI definitions newer than the 6.1 headers on the build machines.
 * Own names (CB_ prefix) so a newer system header can never clash. */
#ifndef COREBOX_UAPI_EXT_H
#define COREBOX_UAPI_EXT_H

#include <linux/bpf.h>
#include <stdint.h>

#define CB_BPF_TRACE_UPROBE_MULTI 48
#define CB_BPF_F_UPROBE_MULTI_RETURN 1u
#define CB_BPF_TRACE_KPROBE_SESSION 56
#define CB_BPF_TRACE_UPROBE_SESSION 57

/* The kernel's union bpf_attr is 168 bytes on 6.18 (144 in 6.1 headers).
 * We pass sizes of the fields we use; this buffer is big enough for all. */
union cb_bpf_attr {
	union bpf_attr a;
	uint8_t raw[256];
};

/* Offset of log_true_size in the PROG_LOAD attr (after core_relo_rec_size
 * and log_true_size comes at byte 140 on 6.4+ kernels). */
#define CB_PROG_LOAD_LOG_TRUE_SIZE_OFF 140

/* link_create.uprobe_multi layout, starting at link_create + 16. */
struct cb_link_uprobe_multi {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t um_flags;
	uint32_t pid;
};

#endif
