/* ksnoop: what the user side tells the probes about each traced function
 * (a map value per function address) and the record they send back. */
#ifndef COREBOX_KSNOOP_H
#define COREBOX_KSNOOP_H

#include "../include/event_head.h"

#define KS_MAX_FUNCS 64   /* functions traced at once (libbpf-tools' MAX_FUNC_TRACES) */
#define KS_VALUES 6       /* arguments 1-5 and the return value */
#define KS_RETURN 5       /* base_arg of the return value */
#define KS_DATA_MAX 2048  /* bytes kept of one value */
#define KS_BUF (KS_VALUES * KS_DATA_MAX)
#define KS_STACK 16       /* traced calls nested in one task */

/* value flags, and the function's state (data_flags), as libbpf-tools' */
#define KS_F_PTR 0x1      /* the value is a pointer: show what it points at */
#define KS_F_MEMBER 0x2   /* arg->member */
#define KS_F_ENTRY 0x4
#define KS_F_RETURN 0x8
#define KS_F_CUSTOM 0x10
#define KS_F_STASH 0x20   /* keep what entry saw; send it with the return */
#define KS_F_STASHED 0x40
#define KS_F_EQ 0x100
#define KS_F_NE 0x200
#define KS_F_GT 0x400
#define KS_F_LT 0x800
#define KS_F_PRED (KS_F_EQ | KS_F_NE | KS_F_GT | KS_F_LT)

struct ks_value {
	__u32 base_arg;   /* 0-4: an argument, KS_RETURN */
	__u32 offset;     /* of the member */
	__u32 size;       /* bytes to show */
	__u32 flags;
	__u64 predicate;
	__u32 shown;      /* type id is not void (or a pointer): read it */
	__u32 pad;
};

struct ks_data {
	__u64 raw;        /* the argument, or the member's value */
	__s32 err;        /* could not be read */
	__u16 off, len;   /* in buf */
};

struct ks_event {
	struct event_head head;
	__u64 time;
	__u32 idx;        /* the function (order on the command line) */
	__u32 cpu, pid, pid_ns;
	__u32 data_flags; /* KS_F_ENTRY or KS_F_RETURN */
	__u32 buf_len;
	char comm[16];
	struct ks_data data[KS_VALUES];
	char buf[KS_BUF];
};

struct ks_func {
	/* set by the user side */
	__u64 prev_ip, next_ip; /* stack mode: the caller and callee traced with it */
	__u32 flags, filter_pid, nr_traces, idx;
	struct ks_value traces[KS_VALUES];
	/* this CPU's state */
	__u64 task;
	struct ks_event ev;
};

#endif
