/* bpftrace's hist() text layout (spec §0.5), for the tools that come
 * from bpftrace and the book (smpcalls).  Slots as bpftrace keeps them:
 * 0 holds 0, 1 holds 1, i >= 2 holds [2^(i-1), 2^i). */
#ifndef COREBOX_TOOLS_BTHIST_H
#define COREBOX_TOOLS_BTHIST_H

#include <stdint.h>

/* "[4, 8)      12 |@@@@   |" rows from the first to the last non-zero
 * slot (nothing when all are zero), then an empty line. */
void bt_hist_print(const uint64_t *slots, int n);
/* The same counts in libbpf-tools' log2 slots (out[j] holds [2^j,
 * 2^(j+1)), out[0] also 0), for out_hist64_data: n - 1 slots. */
void bt_hist_to_log2(const uint64_t *slots, int n, uint64_t *out);

#endif
