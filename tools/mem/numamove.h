/* numamove: the totals shared by the BPF and user sides. */
#ifndef COREBOX_NUMAMOVE_H
#define COREBOX_NUMAMOVE_H

/* Running totals, one per CPU (summed by the user side). */
struct numamove_stats {
	unsigned long long num;     /* NUMA-misplaced migrations completed */
	unsigned long long ms;      /* their latencies, each truncated to ms (libbpf-tools) */
	unsigned long long ns;      /* the same in ns (JSON, Prometheus) */
};

#endif
