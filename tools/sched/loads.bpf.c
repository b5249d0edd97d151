/* loads, kernel side: copy the kernel's avenrun[3] (the 1, 5 and 15
 * minute load averages, fixed point with 11 fractional bits) into .bss.
 * The user side runs it once a second with BPF_PROG_TEST_RUN (a raw_tp
 * program needs no attachment for that); avenrun's address comes from
 * kallsyms (a typeless __ksym), which lists variables only with
 * CONFIG_KALLSYMS_ALL: otherwise the user side reads /proc/loadavg. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* typeless (void): the address from kallsyms, not a BTF variable */
extern const void avenrun __ksym __weak;

__u64 loads[3] = {};

/* 0, or the probe read's error (the run's retval) */
SEC("raw_tp")
int read_loads(void *ctx)
{
	return -bpf_probe_read_kernel(loads, sizeof(loads), &avenrun);
}
