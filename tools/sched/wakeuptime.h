/* wakeuptime: what the BPF side and the user side share. */
#ifndef COREBOX_WAKEUPTIME_H
#define COREBOX_WAKEUPTIME_H

#define WAKEUP_COMM_LEN 16
#define WAKEUP_MAX_ENTRIES 10240
#define WAKEUP_MAX_FILTER 30

/* Blocked time is summed by the waker's kernel stack and both names. */
struct wakeup_key {
	char waker[WAKEUP_COMM_LEN];
	char target[WAKEUP_COMM_LEN];
	__s32 w_k_stack_id;
};

#endif
