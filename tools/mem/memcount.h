/* The count key of the memory tools that print bpftrace-style maps
 * (faults, ffaults, hfaults, swapin, brkstack): BPF and user sides. */
#ifndef COREBOX_MEMCOUNT_H
#define COREBOX_MEMCOUNT_H

#define MEMCOUNT_MAX_ENTRIES 10240
#define MEMCOUNT_NAME_LEN 32     /* a dentry's inline name (DNAME_INLINE_LEN) */

struct memcount_key {
	unsigned int pid;        /* tgid, 0 when the key has none */
	int stackid;             /* user stack, or -1 */
	char comm[16];
	char name[MEMCOUNT_NAME_LEN];
};

#endif
