/* What the CPU and scheduler tools' kernel sides share (runqlat, runqlen,
 * cpudist, cpuunclaimed, hardirqs, softirqs, smpcalls, loads): minimal
 * kernel types, the run queue of a CPU, log2 histogram slots.
 *
 * The kernel types are local "___c" flavors holding only the fields the
 * tools read: CO-RE matches them to the running kernel's types by name
 * (the flavor suffix is ignored), and the object's BTF stays a few hundred
 * bytes instead of the whole task_struct graph (7 KB of every embedded,
 * gzip'd object).  Every access is a CO-RE probe read, so programs load
 * as tp_btf, raw_tp and perf_event alike. */
#ifndef COREBOX_CPU_BPF_H
#define COREBOX_CPU_BPF_H

#include "corebox.bpf.h"
#include "bits.bpf.h" /* log2 histogram slots, shared with the block and fs tools */

static void *(*bpf_per_cpu_ptr)(const void *percpu_ptr, __u32 cpu) = (void *)BPF_FUNC_per_cpu_ptr;
static void *(*bpf_this_cpu_ptr)(const void *percpu_ptr) = (void *)BPF_FUNC_this_cpu_ptr;

#define CB_COMM_LEN 16
#define CB_TASK_RUNNING 0

struct rq___c;
struct task_group___c;

/* cfs_rq.nr_running became nr_queued in 6.14; rq and tg exist with
 * CONFIG_FAIR_GROUP_SCHED only (always, on distribution kernels). */
struct cfs_rq___c {
	unsigned int nr_running;
	unsigned int nr_queued;
	struct rq___c *rq;
	struct task_group___c *tg;
} __attribute__((preserve_access_index));

/* A task group's CFS queue on each possible CPU: from any task, the way
 * to every CPU's run queue (cfs_rq[cpu]->rq) without kernel symbols. */
struct task_group___c {
	struct cfs_rq___c **cfs_rq;
} __attribute__((preserve_access_index));

struct rq___c {
	unsigned int nr_running;
	struct cfs_rq___c cfs;
} __attribute__((preserve_access_index));

/* sched_entity.cfs_rq: CONFIG_FAIR_GROUP_SCHED only. */
struct sched_entity___c {
	struct cfs_rq___c *cfs_rq;
} __attribute__((preserve_access_index));

struct ns_common___c {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct pid_namespace___c {
	struct ns_common___c ns;
} __attribute__((preserve_access_index));

struct upid___c {
	int nr;
	struct pid_namespace___c *ns;
} __attribute__((preserve_access_index));

struct pid___c {
	unsigned int level;
	struct upid___c numbers[1];
} __attribute__((preserve_access_index));

/* task_struct.state (a long) became __state (unsigned int) in 5.14. */
struct task_struct___c {
	unsigned int __state;
	long state;
	int pid;
	int tgid;
	char comm[CB_COMM_LEN];
	struct sched_entity___c se;
	struct pid___c *thread_pid;
} __attribute__((preserve_access_index));

static __always_inline long task_state_c(struct task_struct___c *t)
{
	if (bpf_core_field_exists(t->__state))
		return (long)BPF_CORE_READ(t, __state);
	return BPF_CORE_READ(t, state);
}

/* The run queue's per-CPU variable (BTF per-CPU variables, 5.7+; read
 * with bpf_this_cpu_ptr/bpf_per_cpu_ptr, 5.10+).  Weak: a kernel without
 * it gets a null address, and the tools choose the path that does not
 * need it before load (cpu.h: cpu_rq_mode). */
extern const struct rq___c runqueues __ksym __weak;

/* Queued entities of a CFS run queue, before and after the 6.14 rename. */
static __always_inline unsigned int cfs_rq_nr(struct cfs_rq___c *cfs)
{
	if (bpf_core_field_exists(cfs->nr_running))
		return BPF_CORE_READ(cfs, nr_running);
	return BPF_CORE_READ(cfs, nr_queued);
}

#endif
