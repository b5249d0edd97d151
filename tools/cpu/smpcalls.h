/* smpcalls: what the BPF side and the user side share. */
#ifndef COREBOX_SMPCALLS_H
#define COREBOX_SMPCALLS_H

/* bpftrace hist() slots: 0 holds 0, 1 holds 1, i >= 2 holds
 * [2^(i-1), 2^i) nanoseconds. */
#define SMPCALLS_MAX_SLOTS 48
#define SMPCALLS_MAX_FUNCS 1024
#define SMPCALLS_MAX_START 4096
#define SMPCALLS_RESCHED 1 /* key of the reschedule IPI function (kprobe/fentry) */

struct smpcalls_hist {
	__u32 slots[SMPCALLS_MAX_SLOTS];
	__u64 sum_ns;
};

struct smpcalls_start {
	__u64 ts;
	__u64 func;
};

#endif
