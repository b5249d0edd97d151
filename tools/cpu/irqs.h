/* hardirqs and softirqs: one kernel object (irqs.bpf.c), its map layout
 * and the user side they share. */
#ifndef COREBOX_IRQS_H
#define COREBOX_IRQS_H

#define IRQS_MAX_SLOTS 20
#define IRQS_MAX_ENTRIES 256
#define IRQS_NAME_LEN 32
#define IRQS_SOFT_NONE 0xffffffffu

/* A hard IRQ handler by its action's name (vec = IRQS_SOFT_NONE), or a
 * softirq vector (name empty). */
struct irqs_key {
	char name[IRQS_NAME_LEN];
	__u32 vec;
};

/* Per CPU (a per-CPU hash: each CPU counts in its own copy). */
struct irqs_info {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
	__u32 slots[IRQS_MAX_SLOTS]; /* -d: log2 of the time in usecs (nsecs with -N) */
};

#ifndef __bpf__
#include <stdbool.h>
#include <stddef.h>

struct obj;

/* One key's values: per CPU, and summed. */
struct irqs_row {
	struct irqs_key key;
	int cpu; /* -1: all CPUs summed */
	struct irqs_info info;
};

/* Read and delete every entry; with per_cpu a row per (key, CPU) that
 * counted anything, else one per key summed over the CPUs; rows sorted
 * by vector, name and CPU.  The number of rows (*rows malloc'd), or -1
 * after a message. */
long irqs_read(struct obj *o, const char *tool, bool per_cpu, struct irqs_row **rows);
/* The options both take: the object, the cgroup/CPU filter, load and
 * attach of one pair of programs ("hardirq"/"softirq"). */
struct obj *irqs_open(const char *tool, bool soft, bool ns, bool dist, int cpu, const char *cgroup,
		      int *cgfd);

/* The rest of both tools' run after irqs_open: each interval, read the
 * rows (irqs_read), print the table's header (when not NULL: -d prints
 * histograms) and each row; at the end detach and close cgfd. */
struct out_table;
struct interval;
struct irqs_report {
	const char *tool; /* "hardirqs" / "softirqs" */
	bool soft, per_cpu, counts; /* counts: -C, "Tracing hard irq events" */
	struct out_table *table;
	void (*row)(const struct irqs_row *r);
};
int irqs_run(struct obj *o, int cgfd, const struct interval *iv, const struct irqs_report *rep);
#endif

#endif
