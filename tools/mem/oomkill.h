/* oomkill: the event shared by the BPF and user sides. */
#ifndef COREBOX_OOMKILL_H
#define COREBOX_OOMKILL_H

#include "../include/event_head.h"

struct oomkill_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	unsigned int fpid, tpid;          /* triggering task's tgid, victim's */
	unsigned long long pages;         /* oc->totalpages (has_pages) */
	unsigned long long rss_kb;        /* victim's anon+file+shmem RSS (has_rss) */
	unsigned char has_pages, has_rss, has_tcomm, pad;
	char fcomm[16], tcomm[16];
};

#endif
