/* bcc's log2 histogram text (table.py print_log2_hist): slots from
 * bpf_log2l (slot i holds values 2^(i-1) .. 2^i - 1; slot 0, the value 0,
 * is not shown), header "     UNIT : count     distribution". */
#ifndef COREBOX_TRACE_HIST_H
#define COREBOX_TRACE_HIST_H

#include <stdint.h>

#define BCC_SLOTS 65

void bcc_print_log2_hist(const uint64_t *vals, int n, const char *unit);

#endif
