/* sslsniff: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SSLSNIFF_H
#define COREBOX_SSLSNIFF_H

#include "../include/event_head.h"

#define SSLSNIFF_MAX_BUF 16384 /* --max-buffer-size's ceiling (bcc: 8192 by default) */

enum { SSL_READ, SSL_WRITE, SSL_HANDSHAKE };

struct sslsniff_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts_ns;
	__u64 delta_ns;
	__u32 pid, tid, uid;
	__u32 len;       /* the call's result (bytes, or the handshake's) */
	__u32 buf_size;  /* bytes of buf filled (0: none copied) */
	__u32 rw;        /* SSL_READ, SSL_WRITE, SSL_HANDSHAKE */
	char comm[16];
	char buf[SSLSNIFF_MAX_BUF];
};
#define SSLSNIFF_HEAD_SIZE ((unsigned long)&((struct sslsniff_event *)0)->buf)

#endif
