/* cpufreq: the map records shared by the BPF and user sides. */
#ifndef COREBOX_CPUFREQ_H
#define COREBOX_CPUFREQ_H

#define CPUFREQ_MAX_CPU 1024
#define CPUFREQ_SLOTS 26   /* libbpf-tools' MAX_SLOTS: 0 .. 5000 MHz */
#define CPUFREQ_STEP 200   /* MHz a slot */

struct cpufreq_key {
	char comm[16];
	__u32 syswide; /* 1: the system-wide histogram (comm empty) */
};

struct cpufreq_hist {
	__u32 slots[CPUFREQ_SLOTS];
};

#endif
