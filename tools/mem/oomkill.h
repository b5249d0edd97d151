/* oomkill: the event shared by the BPF and user sides. */
#ifndef COREBOX_OOMKILL_H
#define COREBOX_OOMKILL_H

struct oomkill_event {
	unsigned int fpid, tpid;          /* triggering task's tgid, victim's */
	unsigned long long pages;         /* oc->totalpages (has_pages) */
	unsigned long long rss_kb;        /* victim's anon+file+shmem RSS (has_rss) */
	unsigned char has_pages, has_rss, has_tcomm, pad;
	char fcomm[16], tcomm[16];
};

#endif
