/* systrace: what the BPF side and the user side share. */
#ifndef COREBOX_SYSTRACE_H
#define COREBOX_SYSTRACE_H

#include "../include/event_head.h"

#define ST_MAX_NR 1024       /* syscall numbers at or above are not traced */
#define ST_STR_MAX 256       /* bytes kept of a string argument (incl. NUL) */
#define ST_NSTR 2            /* string arguments kept per call */
#define ST_STACK_MAX 64      /* user frames kept with --stack */
#define ST_FLIGHT_STR 64     /* bytes kept of the first string in --flight */
#define ST_FLIGHT_MAX 10000  /* --flight N upper bound (one ring <= 1.7 MB) */
#define ST_STATS_MAX 65536   /* -s: (thread, syscall) pairs (systrace.c says the number) */

/* sc_info[nr]: bits 0..5: argument i is a string to copy; ST_TRACED: in -e */
#define ST_TRACED 0x80

/* At sys_enter, by thread: when, which call, its arguments. */
struct st_start {
	__u64 ts;        /* 0: consumed (or never started while traced) */
	__u32 nr;
	__u32 pad;
	__u64 args[6];
};

/* One call, at sys_exit (event mode). */
struct st_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts;        /* entry, bpf_ktime_get_ns */
	__u64 dur;
	__u64 args[6];
	__s64 ret;
	__u32 pid, tid;
	__u32 nr;
	__s32 nstack;    /* user frames in stack[], or a negative errno */
	__u16 str_len[ST_NSTR]; /* bytes in str[i] (incl. NUL), 0: none */
	__u8 str_arg[ST_NSTR];  /* which argument str[i] belongs to */
	__u8 pad[2];
	char comm[16];
	char str[ST_NSTR][ST_STR_MAX];
	__u64 stack[ST_STACK_MAX];
};

/* -s: per (process, thread, syscall) */
struct st_key {
	__u32 pid, tid, nr;
};
struct st_stats {
	__u64 calls, errors;
	__u64 total, min, max; /* ns */
	__u64 sq_lo, sq_hi;    /* sum of squared ns, 128 bits */
	__u64 comm_ts;         /* when comm was taken: the newest names the thread */
	char comm[16];
};

/* --flight: a ring per cgroup: __u64 head (calls so far), then
 * flight_n records; a record is valid when seq == its position + 1. */
struct st_rec {
	__u64 ts, dur;
	__u64 args[6];
	__s64 ret;
	__u32 pid, tid, nr, seq;
	char comm[16];
	char str[ST_FLIGHT_STR]; /* the first string argument, if any */
};

#endif
