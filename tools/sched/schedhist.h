/* Per-task log2 histograms of runqlat and cpudist: the key modes and the
 * value both sides share. */
#ifndef COREBOX_SCHEDHIST_H
#define COREBOX_SCHEDHIST_H

/* What the shared object measures (.rodata knob `mode`). */
enum schedhist_mode {
	SCHEDHIST_RUNQLAT = 0, /* wakeup or preemption -> running */
	SCHEDHIST_ONCPU = 1,   /* switch-in -> switch-out */
	SCHEDHIST_OFFCPU = 2,  /* switch-out -> switch-in */
};

/* Histogram keys: one histogram, or one per process, thread or PID
 * namespace. */
enum schedhist_key {
	SCHEDHIST_ALL = 0,   /* key ~0 */
	SCHEDHIST_PID = 1,   /* tgid */
	SCHEDHIST_TID = 2,   /* pid */
	SCHEDHIST_PIDNS = 3, /* the PID namespace's inode number */
	SCHEDHIST_CGROUP = 4, /* the cgroup v2 id's low 32 bits (the whole id on
			       * 64-bit kernels, whose kernfs ids are inode numbers) */
};

#define SCHEDHIST_KEY_ALL 0xffffffffu
#define SCHEDHIST_MAX_SLOTS 36 /* cpudist's; runqlat clamps at 26 as libbpf-tools */
#define SCHEDHIST_MAX_ENTRIES 10240
#define SCHEDHIST_MAX_START 65536 /* threads being timed at once */

struct schedhist {
	__u32 slots[SCHEDHIST_MAX_SLOTS];
	char comm[16];
	__u64 sum_ns; /* of the values (Prometheus _sum, cpudist -e) */
};

#endif
