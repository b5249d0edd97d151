/* Internals shared by out.c, out_json.c, out_prom.c and out_hist.c. */
#ifndef COREBOX_TOOLS_OUT_INT_H
#define COREBOX_TOOLS_OUT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "out.h"

struct strbuf;

/* A JSON number (null for NaN/inf). */
void json_num(struct strbuf *b, double v);

/* The current report (out_doc_begin .. out_doc_end). */
bool out_doc_is_open(void);
/* "k":v,... fields for the report object itself. */
void doc_add_fields(const char *fields);

/* An event's JSON line written with its "cgroup" fields (out.c). */
bool out_cgroup_json(const struct strbuf *line);

/* Prometheus series (out_prom.c). */
void prom_row(const struct out_table *t, const union out_val *v);
void prom_num(const char *key, double value, const char *help);
void prom_hist(const struct out_hist *h, const struct out_label *labels, int nlabels,
	       const uint64_t *slots, int nslots, const double *sum);
int prom_write(const char *path);
/* The exposition text of every series so far (what prom_write writes). */
void prom_render(struct strbuf *b);
/* Log2 slot i holds [2^i, 2^(i+1)) (slot 0 also 0); linear slot i holds
 * [base + i*step, base + (i+1)*step).  Upper bound of slot i. */
double hist_high(const struct out_hist *h, int i);
double hist_low(const struct out_hist *h, int i);
/* Seconds (or bytes) per unit of h->unit, and the metric suffix. */
double hist_unit_scale(const char *unit, const char **suffix);

#endif
