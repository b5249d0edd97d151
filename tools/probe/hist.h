/* bcc's log2 histograms: slots from bpf_log2l (slot 0 holds the value
 * 0, slot i holds 2^(i-1) .. 2^i - 1), printed through the output layer
 * with out_hist.bcc (tools/common/out.h). */
#ifndef COREBOX_PROBE_HIST_H
#define COREBOX_PROBE_HIST_H

#define BCC_SLOTS 65

#endif
