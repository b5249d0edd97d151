/* sofdsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SOFDSNOOP_H
#define COREBOX_SOFDSNOOP_H

#include "../include/event_head.h"

#define SOFDSNOOP_MAX_FD 10 /* fds per record, as bcc's MAX_FD */

struct sofdsnoop_event {
	struct event_head head;
	__u64 ts_us;
	__u32 pid, tid;
	__s32 recv;    /* 0: sendmsg (SEND), 1: recvmsg (RECV) */
	__s32 sock_fd; /* the socket the call was made on */
	__s32 fd_cnt;  /* fds in fd[] */
	__s32 fd[SOFDSNOOP_MAX_FD];
	char comm[16];
};

#endif
