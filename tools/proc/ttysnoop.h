/* ttysnoop: what the BPF side and the user side share. */
#ifndef COREBOX_TTYSNOOP_H
#define COREBOX_TTYSNOOP_H

#include "../include/event_head.h"

#define TTY_BUF 4096        /* one record's data, at most (libbpf-tools' -s caps at its BUF_SIZE - 1) */
#define TTY_MAX_CHUNKS 64   /* -c bound for the verifier */

struct ttysnoop_event {
	struct event_head head;
	__u32 count;        /* bytes in buf */
	__u32 pad;
	char buf[TTY_BUF];
};

#endif
